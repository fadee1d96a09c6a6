//! [`RedisBackend`] (feature `redis`): a fleet of replicas sharing its state through one Redis,
//! on one connection: the session records, the event log of resumable streams (a Redis stream
//! per session), a pub/sub bus for changes, ended sessions, and the client's answers and
//! cancellations (this module's stores), and the stores of the layers below it, handed out on
//! the same connection (`stores.rs`): tasks, the `#[tool(once)]` record, rate-limit buckets.
//! `env.rs` reads the environment (`MCP_REDIS_URL`, `MCP_REPLICA_ID`).
//!
//! Every key lives under one prefix per server, `mcp:{server name}:` by convention; the keys:
//!
//! | what | key | type |
//! |---|---|---|
//! | a session | `{prefix}r:{principal hash}:{id}` | hash (one field per part), expiring when idle |
//! | a principal's sessions | `{prefix}o:{principal hash}` | sorted set (id by last use) |
//! | an anonymous network's sessions | `{prefix}n:{network hash}` | sorted set (id by last use) |
//! | a session's events | `{prefix}e:{id}`, `{prefix}eb:{id}` (bytes kept) | stream, integer |
//! | who runs a session's streams | `{prefix}eo:{id}` | hash (stream: begin, request, replica) |
//! | a replica is alive | `{prefix}alive:{replica}` | string, expiring |
//! | the bus | channel `{prefix}bus` | pub/sub |
//! | tasks | `{prefix}task:{id}`, the task store's other keys (`RedisTaskStore`), channel `{prefix}signals` | as the task store says, every key expiring |
//! | the `#[tool(once)]` record | `{prefix}once:{call id}` | string, expiring with the call |
//! | a rate limit's bucket | `{prefix}rate:{limit}:{caller}` | hash, expiring once full |
//!
//! Every key expires (the events an hour after their last entry, with their owners).

mod bus;
mod connection;
mod env;
mod event_log;
mod events;
mod followers;
mod reader;
mod session_fields;
mod session_scripts;
mod sessions;
mod stores;

pub use connection::{RedisBackend, RedisFleet};
