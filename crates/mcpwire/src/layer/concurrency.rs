//! [`ConcurrencyLimit`]: at most so many requests inside at once.

use super::request::{McpFuture, McpRequest, McpService};
use super::response::{McpResponse, Outcome, RefuseAs};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::TOOLS_CALL;
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use std::time::Duration;
use tokio::sync::Semaphore;
use tower_layer::Layer;
use tower_service::Service;

/// Lets at most `n` requests through at once. One more waits for a place up to a bound
/// (default: not at all), then is refused with the JSON-RPC error `-32000` ("Server busy"), or
/// on `tools/call` an `isError` result if so chosen ([`ConcurrencyLimit::refuse_as`]).
///
/// Clones share their places: the same limit given to [`McpServer::tool_layer`] for two tools
/// bounds both together; [`McpServer::layer`] bounds every request of the server.
///
/// A `tools/call` that becomes a task (tasks extension) keeps its place until the task's body
/// ends (completed, failed, cancelled, or stopped at its TTL), not only until the task is
/// created: the limit bounds the bodies running in the background. (tower's
/// `ConcurrencyLimitLayer`, whose place lives in its future, frees it when the task is created.)
///
/// [`McpServer::tool_layer`]: crate::McpServer::tool_layer
/// [`McpServer::layer`]: crate::McpServer::layer
///
/// # Examples
///
/// ```
/// use mcpwire::layer::ConcurrencyLimit;
/// use mcpwire::prelude::*;
/// use std::time::Duration;
///
/// /// Renders a report (CPU-heavy).
/// #[tool]
/// async fn render(id: u32) -> String { id.to_string() }
///
/// // Four renders at once; a fifth waits up to 2 s for a place.
/// let server = McpServer::new("reports")
///     .tool(render)?
///     .tool_layer("render", ConcurrencyLimit::new(4).wait_up_to(Duration::from_secs(2)))?;
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[derive(Clone, Debug)]
pub struct ConcurrencyLimit {
    places: Arc<Semaphore>,
    limit: usize,
    wait: Duration,
    refuse_as: RefuseAs,
}

impl ConcurrencyLimit {
    /// At most `limit` requests at once (at least one).
    ///
    /// ```
    /// # use mcpwire::layer::ConcurrencyLimit;
    /// let limit = ConcurrencyLimit::new(64);
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn new(limit: usize) -> Self {
        let limit = limit.clamp(1, Semaphore::MAX_PERMITS);
        Self {
            places: Arc::new(Semaphore::new(limit)),
            limit,
            wait: Duration::ZERO,
            refuse_as: RefuseAs::Error,
        }
    }

    /// How long a request may wait for a place before it is refused (default: zero).
    ///
    /// ```
    /// # use mcpwire::layer::ConcurrencyLimit;
    /// let limit = ConcurrencyLimit::new(8).wait_up_to(std::time::Duration::from_millis(500));
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn wait_up_to(mut self, wait: Duration) -> Self {
        self.wait = wait;
        self
    }

    /// How a refused request is answered (default: the JSON-RPC error `-32000`).
    ///
    /// ```
    /// # use mcpwire::layer::{ConcurrencyLimit, RefuseAs};
    /// let limit = ConcurrencyLimit::new(8).refuse_as(RefuseAs::ToolError);
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn refuse_as(mut self, refuse_as: RefuseAs) -> Self {
        self.refuse_as = refuse_as;
        self
    }
}

impl Layer<McpService> for ConcurrencyLimit {
    type Service = ConcurrencyLimitService;

    fn layer(&self, inner: McpService) -> ConcurrencyLimitService {
        ConcurrencyLimitService {
            limit: self.clone(),
            inner,
        }
    }
}

/// The service of a [`ConcurrencyLimit`] layer.
#[derive(Clone, Debug)]
pub struct ConcurrencyLimitService {
    limit: ConcurrencyLimit,
    inner: McpService,
}

impl Service<McpRequest> for ConcurrencyLimitService {
    type Response = McpResponse;
    type Error = Infallible;
    type Future = McpFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: McpRequest) -> McpFuture {
        let limit = self.limit.clone();
        let inner = self.inner.clone();
        Box::pin(async move {
            let place = match limit.places.clone().try_acquire_owned() {
                Ok(place) => Some(place),
                Err(_) if limit.wait.is_zero() => None,
                Err(_) => {
                    let waiting = limit.places.clone().acquire_owned();
                    tokio::time::timeout(limit.wait, waiting)
                        .await
                        .ok()
                        .and_then(Result::ok)
                }
            };
            let Some(place) = place else {
                let error = ErrorObject::new(
                    code::SERVER_BUSY,
                    format!(
                        "Server busy: {} requests of this kind are running; retry later",
                        limit.limit
                    ),
                )
                .with_data(json!({ "limit": limit.limit }));
                return Ok(McpResponse::refused(limit.refuse_as, error));
            };
            // A call that becomes a task holds its place until the task's body ends.
            let kept = (request.method() == TOOLS_CALL)
                .then(|| request.kept.get_or_insert_with(Default::default).clone());
            let response = inner.call_next(request).await?;
            if let Some(kept) = kept
                && response.outcome() == Outcome::TaskCreated
            {
                kept.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push(Box::new(place));
            }
            Ok(response)
        })
    }
}
