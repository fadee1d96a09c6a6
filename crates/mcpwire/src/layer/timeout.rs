//! [`Timeout`]: a request that runs too long is answered, and its handler dropped.

use super::request::{McpFuture, McpRequest, McpService};
use super::response::{McpResponse, RefuseAs};
use crate::protocol::ErrorObject;
use std::convert::Infallible;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;
use tower_layer::Layer;
use tower_service::Service;

/// The JSON-RPC error code of a request [`Timeout`] stopped.
pub const REQUEST_TIMED_OUT: i32 = -32001;

/// Stops a request that runs longer than a bound: the handler's future is dropped (its
/// resolvers and body stop at their next `.await`; a `Drop` guard in them runs), and the
/// client gets the JSON-RPC error `-32001` ([`REQUEST_TIMED_OUT`]), or on `tools/call` an
/// `isError` result if so chosen ([`Timeout::refuse_as`]).
///
/// Per tool with [`McpServer::tool_layer`](crate::McpServer::tool_layer), or for every request
/// with [`McpServer::layer`](crate::McpServer::layer). A call that becomes a task (tasks
/// extension) is bounded only until the task is created: the task's own TTL bounds the rest.
///
/// # Examples
///
/// ```
/// use mcpwire::layer::Timeout;
/// use mcpwire::prelude::*;
/// use std::time::Duration;
///
/// /// Searches the catalogue (slow on a cold cache).
/// #[tool]
/// async fn search(query: String) -> String { query }
///
/// let server = McpServer::new("shop")
///     .tool(search)?
///     .tool_layer("search", Timeout::new(Duration::from_secs(10)))?;
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Timeout {
    after: Duration,
    refuse_as: RefuseAs,
}

impl Timeout {
    /// Stops requests running longer than `after`.
    ///
    /// ```
    /// # use mcpwire::layer::Timeout;
    /// let timeout = Timeout::new(std::time::Duration::from_secs(30));
    /// # let _ = mcpwire::McpServer::new("demo").layer(timeout);
    /// ```
    pub fn new(after: Duration) -> Self {
        Self {
            after,
            refuse_as: RefuseAs::Error,
        }
    }

    /// How a stopped request is answered (default: the JSON-RPC error `-32001`).
    ///
    /// ```
    /// # use mcpwire::layer::{RefuseAs, Timeout};
    /// let timeout = Timeout::new(std::time::Duration::from_secs(30)).refuse_as(RefuseAs::ToolError);
    /// # let _ = mcpwire::McpServer::new("demo").layer(timeout);
    /// ```
    pub fn refuse_as(mut self, refuse_as: RefuseAs) -> Self {
        self.refuse_as = refuse_as;
        self
    }
}

impl Layer<McpService> for Timeout {
    type Service = TimeoutService;

    fn layer(&self, inner: McpService) -> TimeoutService {
        TimeoutService {
            timeout: *self,
            inner,
        }
    }
}

/// The service of a [`Timeout`] layer.
#[derive(Clone, Debug)]
pub struct TimeoutService {
    timeout: Timeout,
    inner: McpService,
}

impl Service<McpRequest> for TimeoutService {
    type Response = McpResponse;
    type Error = Infallible;
    type Future = McpFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: McpRequest) -> McpFuture {
        let Timeout { after, refuse_as } = self.timeout;
        let running = self.inner.call_next(request);
        Box::pin(async move {
            match tokio::time::timeout(after, running).await {
                Ok(answered) => answered,
                Err(_) => {
                    let error = ErrorObject::new(
                        REQUEST_TIMED_OUT,
                        format!(
                            "Request timed out after {}",
                            humantime::format_duration(after)
                        ),
                    );
                    Ok(McpResponse::refused(refuse_as, error))
                }
            }
        })
    }
}
