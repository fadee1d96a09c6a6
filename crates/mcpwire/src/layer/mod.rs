//! Middleware around every MCP request: layers that see one parsed request at a time (its
//! method, target, arguments, revision, session, caller and [`Context`](crate::Context)), on
//! every transport (stdio, in memory, Streamable HTTP) and both revisions, and that may refuse
//! it, run code before and after, time it, and see how it ended (including `input_required`
//! rounds and task creation).
//!
//! The model is tower's: a layer is a `tower_layer::Layer<McpService>` whose service is a
//! `tower_service::Service<McpRequest, Response = McpResponse>` ([`McpLayer`]). Write one with
//! [`from_fn`], or against tower's traits; tower's own middleware (`tower::timeout`,
//! `tower::limit::ConcurrencyLimit`, …) fits as is. Add it for every request with
//! [`McpServer::layer`](crate::McpServer::layer), or for one handler with
//! [`McpServer::tool_layer`](crate::McpServer::tool_layer),
//! [`prompt_layer`](crate::McpServer::prompt_layer) or
//! [`resource_layer`](crate::McpServer::resource_layer).
//!
//! Built in: [`RateLimit`] (a token bucket per principal; with the `redis` feature, across
//! replicas), [`Timeout`] (drops the handler), [`ConcurrencyLimit`] and [`RequestLog`] (one
//! `tracing` line per request).
//!
//! **Ordering.** Authorization comes first: a request the caller's grant may not make never
//! reaches a layer. Then the server-wide layers, the first added outermost; then the handler's
//! own layers, the first added outermost; then the handler. The guide
//! (`mcpwire::guide::middleware`) has the details.
//!
//! # Examples
//!
//! ```
//! use mcpwire::layer::{self, McpRequest, Next, RequestLog, Timeout};
//! use mcpwire::prelude::*;
//! use std::time::Duration;
//!
//! /// Adds two numbers.
//! #[tool]
//! async fn add(a: i64, b: i64) -> i64 { a + b }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
//! let server = McpServer::new("calc")
//!     .tool(add)?
//!     .layer(RequestLog::new())
//!     .layer(layer::from_fn(|request: McpRequest, next: Next| async move {
//!         // before the handler…
//!         let response = next.run(request).await;
//!         // …and after it
//!         response
//!     }))
//!     .tool_layer("add", Timeout::new(Duration::from_secs(5)))?;
//! let mut client = server.serve_memory().await?;
//! let reply = client
//!     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#)
//!     .await
//!     .unwrap();
//! assert!(reply.contains(r#""text":"5""#));
//! # Ok(()) }
//! ```

mod concurrency;
mod log;
mod rate_limit;
mod request;
mod response;
mod result_json;
pub(crate) mod service;
mod timeout;
mod work;

pub use concurrency::{ConcurrencyLimit, ConcurrencyLimitService};
pub use log::{RequestLog, RequestLogService};
#[cfg(all(feature = "redis", feature = "http"))]
pub(crate) use rate_limit::RedisBuckets;
pub use rate_limit::{
    BucketFuture, BucketsUnavailable, MemoryBuckets, RateBuckets, RateLimit, RateLimitService,
    Refill, Taken,
};
pub use request::{BoxError, McpFuture, McpRequest, McpService};
pub use response::{McpResponse, Outcome, RefuseAs};
pub use service::{FromFn, FromFnService, McpLayer, Next, from_fn};
pub use timeout::{REQUEST_TIMED_OUT, Timeout, TimeoutService};

pub(crate) use response::Answer;
pub(crate) use result_json::ResultJson;
pub(crate) use work::{Handed, Kept, Work};
