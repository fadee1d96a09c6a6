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
//! Its floors, drawn as a building (the socket at the bottom). A file imports only from the
//! floors below its own, and from the crate's `protocol` and shared low layer (line framing,
//! Base64 header values, the `x-mcp-header` rules), never from the server's modules. On the
//! ground floor, a file imports only those listed before it.
//!
//! ```text
//!  8  builder.rs        connect_* (start a transport, a peer on it, negotiate, a session),
//!                       oauth, the settings
//!  7  listen.rs         subscriptions/listen, on Client
//!  6  client.rs         Client: the typed calls
//!  5  rounds.rs         the input_required loop
//!  4  session.rs        the open conversation; a lost 2025-11-25 session reopened (404)
//!  3  negotiate.rs      initialize, server/discover, the -32022 retry, the Auto probe
//!  2  peer.rs           ids, calls waiting for answers, timeouts, cancellation, routing
//!  1  handlers.rs       the answers to the server's questions, both eras
//!  0  transport/        mod.rs: the Transport trait (send one message; an inbox back)
//!       streams.rs      newline-delimited messages over byte streams
//!       stdio.rs        a child process on streams.rs (first_output.rs: the probe's clock)
//!       http.rs         Streamable HTTP (sse.rs, refusal.rs): sessions, event streams,
//!                       resumption, bearer tokens from auth/
//!       memory.rs       an McpServer in the same process (feature `server`)
//!  G  auth/ (OAuth 2.1), error.rs, options.rs, question.rs (a call's own answerer), era.rs,
//!     notifications.rs, server_details.rs, requests.rs (typed params), envelope.rs (JSON-RPC messages), headers.rs (2026-07-28
//!     mirrored headers), hook.rs (request hooks: the application's code around each call
//!     and request, e.g. `otel::ClientTracing`)
//! ```
//!
//! # The way of one call
//!
//! [`Client::call_tool`] goes down, file by file, and never comes back up to a file it passed:
//!
//! 1. `client.rs`: `call_tool` → `call_tool_with` serializes the typed params
//!    (`requests.rs`), and hands them to
//! 2. `rounds.rs`: `request_with_input` (inside the hooks, `hook.rs`, when there are any: the
//!    call stage) sends the request and, while the server answers `input_required`, answers
//!    its questions (`handlers.rs`) and sends again with the `requestState` echoed;
//! 3. `session.rs`: `Session::request` sends once more after reopening a session the server
//!    lost (`negotiate.rs`'s `initialize`, below it);
//! 4. `peer.rs`: `Peer::request` (inside the hooks again: the request stage) takes an id,
//!    adds `_meta` and the mirrored headers (`headers.rs`), writes the message
//!    (`envelope.rs`), registers the waiting call, and gives it to
//! 5. `transport/mod.rs`: `Transport::send`, implemented by `transport/http.rs` (a POST:
//!    hyper's connections to a plain `http://` endpoint, `transport/direct.rs` and
//!    `transport/idle.rs`, else `reqwest`),
//!    `transport/stdio.rs` through `transport/streams.rs` (a line on
//!    the child's stdin), or `transport/memory.rs` (a channel to the server).
//!
//! The answer comes back as data, not as a call up: the transport puts it in the inbox, and
//! `peer.rs`'s reader hands it to the waiting call.

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
pub mod hook;
#[cfg(all(test, feature = "http"))]
mod hook_tests;
#[cfg(all(test, feature = "http"))]
mod http_hostile_tests;
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
mod question;
mod request_meta;
mod requests;
mod rounds;
#[cfg(test)]
mod scripted_tests;
mod server_details;
mod session;
mod skills;
#[cfg(all(test, unix))]
mod stdio_tests;
mod transport;

pub use builder::ClientBuilder;
pub use client::Client;
pub use era::EraChoice;
pub use error::ClientError;
pub use handlers::{FormElicitation, UrlElicitation};
pub use hook::RequestHook;
pub use listen::Subscription;
pub use notifications::{Notifications, ServerNotification};
pub use options::CallOptions;
pub use question::ServerQuestion;
pub use rounds::Round;
pub use server_details::ServerDetails;
pub use transport::http::HttpOptions;
pub use transport::stdio::StdioServer;
