//! Streamable HTTP: one endpoint (`/mcp`) serving both protocol revisions. *Available with the
//! `http` feature (on by default).*
//!
//! - **2026-07-28** (a POST whose `params._meta` carries
//!   `io.modelcontextprotocol/protocolVersion`): stateless. The `MCP-Protocol-Version`,
//!   `Mcp-Method` and `Mcp-Name` headers must mirror the body (else `400` with `-32020`). The
//!   answer is `application/json`, or `text/event-stream` when the handler sends progress or log
//!   notifications before its result. Closing the response cancels the request. Statuses: `400`
//!   for missing `_meta`, header mismatches, missing capabilities and unsupported versions, `404`
//!   for unknown methods; GET and DELETE are `405`.
//! - **2025-11-25** (`initialize`, then `Mcp-Session-Id` on every message): sessions, with
//!   server→client requests on the request's SSE stream, the client's responses and
//!   notifications accepted with `202`, a GET stream per session, DELETE, idle expiry and a
//!   longest lifetime. A session serves only the [`Principal`](crate::context::Principal) that
//!   opened it (anyone else gets `404`), and the table of live sessions is capped and shared out
//!   per principal (anonymous callers per network), so one caller cannot evict the others.
//! - **Protection**: `Host`/`Origin` allow-list (`403`), body size limit (`413`, read to its end
//!   first so a blocking client sees it), malformed bodies answered with JSON-RPC errors
//!   (`400`), bounded queues towards slow readers, requests in flight capped per session.
//!
//! `subscriptions/listen` answers an SSE stream of the requested change notifications. A session request's
//! event stream is resumable: events carry ids, and `GET` with `Last-Event-ID` replays what the
//! client missed, then the rest live (from a pluggable, bounded [`EventStore`]).
//!
//! ```no_run
//! use mcpwire::prelude::*;
//!
//! /// Adds two numbers.
//! #[tool]
//! async fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! #[tokio::main]
//! async fn main() -> mcpwire::Result<()> {
//!     McpServer::new("calculator").tool(add)?.serve_http("127.0.0.1:8080").await
//! }
//! ```

mod activity;
mod answer_body;
mod answer_relay;
#[cfg(feature = "auth")]
#[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
pub mod auth;
mod builder;
mod call_envelope;
mod call_read;
mod caller;
pub(crate) mod challenge;
mod connection_settings;
mod connections;
mod delete;
mod endpoint;
mod events;
mod eviction;
mod fleet;
#[cfg(feature = "redis")]
mod fleet_backend_setting;
mod fleet_inbox;
mod fleet_settings;
mod front;
mod get;
mod guard;
mod headers;
mod http_session;
mod legacy;
mod modern;
mod origin;
mod post;
mod proxies;
mod proxies_env;
mod relays;
mod reply;
mod request_queue;
mod response_work;
mod resume;
mod resumed;
mod routes;
mod serve;
mod session_change;
mod session_settings;
mod sessions;
mod shared;
mod sse;
mod stream_settings;

pub use builder::HttpServer;
pub use events::{EventFuture, EventStore, MemoryEventStore, Replay};
#[cfg(feature = "redis")]
#[cfg_attr(docsrs, doc(cfg(feature = "redis")))]
pub use fleet::{RedisBackend, RedisFleet};
pub use proxies::ForwardingHeader;
pub use session_change::{SessionCaps, SessionChange};
pub use shared::{BusEvent, FleetBus, SessionRecord, SessionStore, SharedFuture, Unavailable};
