//! OpenTelemetry traces and metrics (feature `otel`), as the OpenTelemetry semantic conventions
//! for MCP describe them.
//!
//! - **Server:** the [`Tracing`] layer gives each request a SERVER span
//!   (`tools/call order_book`) in a trace of the server's own, linking the caller's span
//!   named in `params._meta` (`traceparent`; a child of it only for callers the operator trusts,
//!   [`Tracing::remote_parent`]), with a child span per resolver (`resolve check_stock`), per
//!   request the server sends the client on 2025-11-25 (`elicitation/create`,
//!   `sampling/createMessage`, `roots/list`) and per 2026-07-28 round that ends in
//!   `input_required`; and records `mcp.server.operation.duration`.
//! - **Client:** with the `ClientTracing` hook (`ClientBuilder::hook`, feature `client`),
//!   [`Client`](crate::client::Client) calls are CLIENT spans (children of the caller's current
//!   OpenTelemetry context) whose context goes to the server in `params._meta` (unless
//!   `ClientTracing::propagate_trace_context(false)`); a 2026-07-28 call's rounds share one
//!   span; and it records `mcp.client.operation.duration`.
//! - **Export:** [`init`] (or [`init_from_env`]) sends both over OTLP/HTTP configured by the
//!   standard `OTEL_*` variables. Any other exporter works too: spans and instruments come
//!   from the global providers.
//!
//! Argument values, answers, results and error messages are never span attributes unless the
//! author opts in ([`Tracing::record_arguments`], arguments only); request ids and URIs are
//! bounded, session ids hashed. The guide (`docs/observability.md`) has the details.
//!
//! # Examples
//!
//! ```no_run
//! use mcpwire::prelude::*;
//!
//! /// Adds two numbers.
//! #[tool]
//! async fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! #[tokio::main]
//! async fn main() -> Result<(), Box<dyn std::error::Error>> {
//!     // OTEL_EXPORTER_OTLP_ENDPOINT=http://collector:4318 OTEL_SERVICE_NAME=calc …
//!     let telemetry = mcpwire::otel::init("calc")?;
//!     McpServer::new("calc")
//!         .tool(add)?
//!         .outer_layer(mcpwire::otel::Tracing::new())
//!         .serve_http("127.0.0.1:8080")
//!         .await?;
//!     telemetry.shutdown().await;
//!     Ok(())
//! }
//! ```

#[cfg(feature = "client")]
mod client;
pub(crate) mod conventions;
mod export;
#[cfg(feature = "server")]
mod observer;
#[cfg(feature = "server")]
mod server_env;
#[cfg(feature = "server")]
mod session;
#[cfg(feature = "server")]
pub(crate) mod tracing;

#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
pub use client::ClientTracing;
pub use export::{OtelError, Telemetry, init, init_from_env};
#[cfg(feature = "server")]
pub use server_env::instrument_from_env;
#[cfg(feature = "server")]
pub use session::record_session_duration;
#[cfg(feature = "server")]
pub use tracing::{Tracing, TracingService};
