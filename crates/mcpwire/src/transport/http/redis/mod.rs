//! [`RedisFleet`] (feature `redis`): a fleet of replicas sharing 2025-11-25 sessions through one
//! Redis: the session records, the event log of resumable streams (a Redis stream per session),
//! and a pub/sub bus for changes, ended sessions, and the client's answers and cancellations.
//! Keys live under one prefix per server (`mcp:{server name}:` by convention):
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
//!
//! Every key expires (the events an hour after their last entry, with their owners).

mod bus;
mod connection;
mod event_log;
mod events;
mod fleet_setting;
mod followers;
mod reader;
mod session_fields;
mod session_scripts;
mod sessions;

pub use connection::RedisFleet;
