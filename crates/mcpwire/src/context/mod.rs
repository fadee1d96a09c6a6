//! `Context`: what a tool or resolver knows about the request it serves, and what it can send
//! back while it runs (progress, log messages).

mod changes;
mod client_requests;
mod detached;
mod outbound;
mod principal;
pub(crate) mod state;

pub use changes::{Change, Notifier};
pub use client_requests::ClientRequestError;
pub(crate) use client_requests::ClientRequests;
pub use detached::DetachedContext;
#[cfg(feature = "http")]
pub(crate) use outbound::CLOSE_STREAM;
pub(crate) use outbound::Outbound;
pub use principal::Principal;
pub(crate) use state::SharedState;

use crate::protocol::jsonrpc::notification_line;
use crate::protocol::logging::{LoggingLevel, LoggingMessageParams};
use crate::protocol::progress::{ProgressParams, ProgressToken};
use crate::protocol::{ClientCapabilities, Era, Implementation, RequestId};
use std::sync::Arc;

/// The request being served, handed to any tool or resolver parameter of type `Context`.
///
/// It is cheap to clone (one reference count) and never appears in a tool's input schema.
///
/// ```
/// use mcpwire::prelude::*;
///
/// struct Greeting(&'static str);
///
/// /// Greets the caller, reporting progress on the way.
/// #[tool]
/// async fn greet(name: String, ctx: Context) -> String {
///     ctx.report_progress(0.5, Some(1.0), None).await;
///     format!("{}, {name}! (request {})", ctx.state::<Greeting>().0, ctx.request_id())
/// }
///
/// let server = McpServer::new("greeter").state(Greeting("Hello")).tool(greet).unwrap();
/// # drop(server);
/// ```
#[derive(Clone)]
pub struct Context {
    inner: Arc<RequestScope>,
}

/// Everything a `Context` carries; built once per request by the dispatcher.
pub(crate) struct RequestScope {
    pub(crate) request_id: RequestId,
    pub(crate) era: Era,
    pub(crate) protocol_version: Arc<str>,
    pub(crate) client_capabilities: Arc<ClientCapabilities>,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) progress_token: Option<ProgressToken>,
    /// The lowest level the client wants to hear, or `None` for "send no log messages".
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) state: Arc<SharedState>,
    pub(crate) outbound: Outbound,
    pub(crate) headers: Option<Arc<http::HeaderMap>>,
    /// Who the transport authenticated.
    pub(crate) principal: Option<Arc<str>>,
    /// Where change notifications go.
    pub(crate) notifier: Notifier,
    /// The session's requests to the client; `None` on 2026-07-28 (servers send no requests).
    pub(crate) client_requests: Option<Arc<ClientRequests>>,
    /// How long a request to the client may wait for its answer.
    pub(crate) client_request_timeout: std::time::Duration,
}

impl Context {
    pub(crate) fn new(scope: RequestScope) -> Self {
        Self {
            inner: Arc::new(scope),
        }
    }

    /// A context that serves no request, for calling a tool's or resolver's body from a unit
    /// test (`name::call(..)`); see [`DetachedContext`].
    pub fn detached() -> DetachedContext {
        DetachedContext::new()
    }

    /// The JSON-RPC id of the request being served.
    pub fn request_id(&self) -> &RequestId {
        &self.inner.request_id
    }

    /// The protocol revision this request is served under (e.g. `2026-07-28`).
    pub fn protocol_version(&self) -> &str {
        &self.inner.protocol_version
    }

    /// Whether this is a 2025-11-25 session request or a stateless 2026-07-28 one. Handlers
    /// rarely need this: the SDK adapts results and questions to the revision.
    pub fn era(&self) -> Era {
        self.inner.era
    }

    /// What the client declared it can do (per session on 2025-11-25, per request on 2026-07-28).
    pub fn client_capabilities(&self) -> &ClientCapabilities {
        &self.inner.client_capabilities
    }

    /// Who the client says it is, when it said so. For display and logs only.
    pub fn client_info(&self) -> Option<&Implementation> {
        self.inner.client_info.as_deref()
    }

    /// The HTTP request headers, on the HTTP transport; `None` on stdio. Client-supplied input:
    /// never a proof of identity.
    pub fn headers(&self) -> Option<&http::HeaderMap> {
        self.inner.headers.as_deref()
    }

    /// Who the transport authenticated for this request (see [`Principal`]), if anyone.
    pub fn principal(&self) -> Option<&str> {
        self.inner.principal.as_deref()
    }

    /// The shared value of type `T` registered with [`McpServer::state`](crate::McpServer::state).
    ///
    /// # Panics
    ///
    /// When no value of that type was registered: a programming error, reported to the client
    /// as a failed tool call and logged. Use [`Context::try_state`] to branch instead.
    pub fn state<T: Send + Sync + 'static>(&self) -> &T {
        self.try_state().unwrap_or_else(|| {
            panic!(
                "no shared state of type `{}`: register it with McpServer::state",
                std::any::type_name::<T>()
            )
        })
    }

    /// The shared value of type `T`, if one was registered.
    pub fn try_state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.inner.state.get::<T>()
    }

    /// Reports progress to the client. Does nothing when the client sent no progress token.
    pub async fn report_progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) {
        let Some(token) = &self.inner.progress_token else {
            return;
        };
        let params = ProgressParams {
            progress_token: token.clone(),
            progress,
            total,
            message,
        };
        self.inner
            .outbound
            .send(notification_line("notifications/progress", &params))
            .await;
    }

    /// Sends a log message to the client, when the revision and the client allow it: on
    /// 2025-11-25 at or above the session's level (`logging/setLevel`); on 2026-07-28 only when
    /// the request opted in with `_meta["io.modelcontextprotocol/logLevel"]`.
    pub async fn log(&self, level: LoggingLevel, logger: Option<&str>, data: serde_json::Value) {
        let Some(min) = self.inner.log_level else {
            return;
        };
        if level < min {
            return;
        }
        let params = LoggingMessageParams {
            level,
            logger: logger.map(str::to_owned),
            data,
        };
        self.inner
            .outbound
            .send(notification_line("notifications/message", &params))
            .await;
    }

    /// Announces that a list (tools, prompts or resources) changed: clients that listen for it
    /// will list again.
    pub fn notify_list_changed(&self, list: crate::protocol::list_changed::ChangedList) {
        self.inner.notifier.list_changed(list);
    }

    /// Announces that the resource `uri` changed, to clients that subscribed to it.
    pub fn notify_resource_updated(&self, uri: impl Into<String>) {
        self.inner.notifier.resource_updated(uri);
    }

    /// On a 2025-11-25 HTTP session, ends this request's event stream now, while the handler
    /// goes on: the client reconnects with `Last-Event-ID` and gets the rest (SEP-1699 polling,
    /// for long calls behind proxies that drop idle connections). Returns `false`, and does
    /// nothing, on any other transport or revision.
    pub fn close_sse_stream(&self) -> bool {
        self.inner.outbound.close_stream()
    }

    /// Sends a request to the client and waits for its result: `elicitation/create`,
    /// `sampling/createMessage` or `roots/list` on a 2025-11-25 session. Resolvers ask their
    /// questions through the SDK instead (on both revisions); this is the low-level path.
    ///
    /// # Errors
    ///
    /// [`ClientRequestError::NoBackChannel`] on a 2026-07-28 request; the client's error, a
    /// timeout, or a disconnect otherwise.
    pub async fn send_request<P: serde::Serialize>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<Box<serde_json::value::RawValue>, ClientRequestError> {
        let Some(requests) = &self.inner.client_requests else {
            return Err(ClientRequestError::NoBackChannel);
        };
        let timeout = self.inner.client_request_timeout;
        requests
            .send(&self.inner.outbound, method, params, timeout)
            .await
    }

    /// Logs `message` at `info` level (see [`Context::log`]).
    pub async fn info(&self, message: impl Into<String>) {
        self.log(
            LoggingLevel::Info,
            None,
            serde_json::Value::String(message.into()),
        )
        .await
    }
}
