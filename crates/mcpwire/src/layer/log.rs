//! [`RequestLog`]: one `tracing` event per request.

use super::request::{McpFuture, McpRequest, McpService};
use super::response::{McpResponse, Outcome};
use std::convert::Infallible;
use std::task::{Context as TaskContext, Poll};
use std::time::Instant;
use tower_layer::Layer;
use tower_service::Service;

/// Logs one line per request through `tracing`, once it is answered: target
/// `mcpwire::request`, level `INFO` (`WARN` for a JSON-RPC error), with the fields `method`,
/// `target` (tool, prompt, resource URI; empty for other methods), `principal` (`subject
/// (issuer)`, or the subject alone without an issuer; empty when anonymous), `duration_ms`, `outcome` (`complete`, `tool_error`, `input_required`,
/// `task_created`, `error`) and `code` (the JSON-RPC error code; 0 otherwise). Arguments and
/// results are never logged (they may carry personal data).
///
/// Added first ([`McpServer::layer`](crate::McpServer::layer)), it is the outermost layer and
/// times everything the other layers do too; it sees requests refused by authorization only as
/// far as they reach it (see `mcpwire::guide::middleware`, "Ordering").
///
/// # Examples
///
/// ```
/// use mcpwire::layer::RequestLog;
///
/// // INFO mcpwire::request: answered method="tools/call" target="add" principal="" duration_ms=0.21 outcome="complete" code=0
/// let server = mcpwire::McpServer::new("calc").layer(RequestLog::new());
/// # drop(server);
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct RequestLog {
    _private: (),
}

impl RequestLog {
    /// The request log.
    ///
    /// ```
    /// # use mcpwire::layer::RequestLog;
    /// let log = RequestLog::new();
    /// # let _ = mcpwire::McpServer::new("demo").layer(log);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }
}

impl Layer<McpService> for RequestLog {
    type Service = RequestLogService;

    fn layer(&self, inner: McpService) -> RequestLogService {
        RequestLogService { inner }
    }
}

/// The service of a [`RequestLog`] layer.
#[derive(Clone, Debug)]
pub struct RequestLogService {
    inner: McpService,
}

impl Service<McpRequest> for RequestLogService {
    type Response = McpResponse;
    type Error = Infallible;
    type Future = McpFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: McpRequest) -> McpFuture {
        let method = request.method().to_owned();
        let target = request.target().unwrap_or_default().to_owned();
        let principal = request
            .principal()
            .map(ToString::to_string)
            .unwrap_or_default();
        let started = Instant::now();
        let answering = self.inner.call_next(request);
        Box::pin(async move {
            let Ok(response) = answering.await;
            let duration_ms = started.elapsed().as_secs_f64() * 1000.0;
            let outcome = response.outcome();
            match outcome {
                Outcome::Error { code } => tracing::warn!(
                    target: "mcpwire::request",
                    method, target, principal, duration_ms, outcome = outcome.as_str(), code,
                    "answered"
                ),
                _ => tracing::info!(
                    target: "mcpwire::request",
                    method, target, principal, duration_ms, outcome = outcome.as_str(), code = 0,
                    "answered"
                ),
            }
            Ok(response)
        })
    }
}
