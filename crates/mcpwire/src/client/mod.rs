//! The client: talks to any MCP server on either protocol revision, over stdio (a child
//! process), Streamable HTTP, or in memory (an `McpServer` in the same process, with the
//! `server` feature).
//!
//! One set of handlers answers the server's questions (elicitation, sampling, roots) on both
//! revisions: on 2025-11-25 they answer the server's requests; on 2026-07-28 the client runs the
//! `input_required` loop itself (a new id each round, `requestState` echoed exactly, a round
//! cap).
//!
//! # Examples
//!
//! ```no_run
//! use mcpwire::client::{Client, StdioServer};
//! use mcpwire::protocol::{ElicitAction, ElicitResult};
//!
//! # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
//! let client = Client::builder()
//!     .on_form_elicitation(|question| async move {
//!         println!("{}", question.message);
//!         let content = serde_json::json!({"confirm": true}).as_object().cloned();
//!         ElicitResult { action: ElicitAction::Accept, content }
//!     })
//!     .connect_stdio(StdioServer::new("cargo").args(["run", "--example", "backorder"]))
//!     .await?;
//! println!("speaking {:?}", client.era());
//! let result = client.call_tool("order_book", serde_json::json!({"title": "Neuromancer"})).await?;
//! println!("{:?}", result.content);
//! # Ok(()) }
//! ```

//! # Authorization
//!
//! With the `auth` feature, `ClientBuilder::oauth` makes the HTTP transport log in when a
//! server answers `401` (or `403 insufficient_scope`): OAuth 2.1 discovery, registration, PKCE,
//! step-up and refresh, on both revisions, the tokens kept in a store. The module
//! `mcpwire::client::auth` documents the flow, with examples.

//! # How it is built
//!
//! - `transport`: what a connection must do (send one message; deliver what comes back to an
//!   inbox). `memory`, `streams` (line-delimited byte streams), `stdio` (a child process on
//!   `streams`) and `http` implement it; `http` alone knows sessions, event streams and
//!   resumption.
//! - `peer`: the connection core, for every transport: ids, the calls waiting for answers,
//!   timeouts that progress extends, cancellation on drop, routing of what the server sends.
//! - `negotiate`: `initialize`, `server/discover`, the `-32022` retry, the `Auto` fallback.
//! - `rounds`: the `input_required` loop; `handlers`: the answers to the server's questions,
//!   for both eras.
//! - `client`, `listen`: the typed calls. `headers`: the 2026-07-28 mirrored headers.
//! - `auth` (feature `auth`): OAuth 2.1; `http` asks it for the bearer token and hands it the
//!   `401`/`403` challenges.
//!
//! The client uses [`protocol`](crate::protocol) and the crate's shared low layer (line
//! framing, the Base64 header values, the `x-mcp-header` rules), never the server's modules.

#[cfg(feature = "auth")]
pub mod auth;
mod builder;
#[allow(clippy::module_inception)]
mod client;
mod envelope;
mod era;
mod error;
mod handlers;
mod headers;
#[cfg(all(test, feature = "http"))]
mod http_refusal_tests;
#[cfg(all(test, feature = "http"))]
mod http_scripted_server_tests;
#[cfg(test)]
mod layering_tests;
mod listen;
#[cfg(all(test, feature = "server"))]
mod memory_tests;
mod negotiate;
mod notifications;
mod options;
mod peer;
mod requests;
mod rounds;
#[cfg(test)]
mod scripted_tests;
mod server_details;
mod session;
#[cfg(all(test, unix))]
mod stdio_tests;
mod transport;

pub use builder::ClientBuilder;
pub use client::Client;
pub use era::EraChoice;
pub use error::ClientError;
pub use handlers::{FormElicitation, UrlElicitation};
pub use listen::Subscription;
pub use notifications::{Notifications, ServerNotification};
pub use options::CallOptions;
pub use server_details::ServerDetails;
pub use transport::http::HttpOptions;
pub use transport::stdio::StdioServer;
