//! [`McpRequest`]: one parsed MCP request, as a layer sees it; and [`McpService`], the
//! type-erased service over it (the two refer to each other).

use super::McpResponse;
use super::work::{Kept, Work};
use crate::context::{Context, Grant};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use crate::protocol::{Era, RequestId};
use crate::wire::shared_json::SharedJson;
use futures_util::FutureExt;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::convert::Infallible;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::{Arc, OnceLock};
use std::task::{Context as TaskContext, Poll, Waker};
use tower_service::Service;

/// One parsed MCP request on its way to its handler, as a layer sees it: its method, its target
/// (a tool, a prompt, a resource URI), its arguments (read-only), the revision it is served
/// under, the session (2025-11-25), the caller (principal and grant) and the [`Context`] the
/// handler will run with.
///
/// A layer reads it and passes it on (or refuses it with an [`McpResponse`](super::McpResponse)).
/// It cannot be changed: what the handler runs on is what the client sent, as authorization
/// judged it.
///
/// # Examples
///
/// ```
/// use mcpwire::layer::{self, McpRequest, McpResponse, Next};
/// use mcpwire::protocol::Era;
///
/// // Logs who calls which tool, on which revision.
/// let who_calls = layer::from_fn(|request: McpRequest, next: Next| async move {
///     if request.method() == "tools/call" {
///         let era = match request.era() { Era::Legacy => "2025-11-25", Era::Modern => "2026-07-28" };
///         println!("{:?} calls {:?} ({era})", request.principal(), request.target());
///     }
///     next.run(request).await
/// });
/// # let _ = mcpwire::McpServer::new("demo").layer(who_calls);
/// ```
pub struct McpRequest {
    pub(crate) method: Cow<'static, str>,
    pub(crate) target: Option<Cow<'static, str>>,
    pub(crate) arguments: Option<SharedJson>,
    /// The arguments as serde_json's raw value, written the first time a layer reads them
    /// ([`McpRequest::arguments`]): a request no layer reads them of copies nothing.
    pub(crate) arguments_read: OnceLock<Box<RawValue>>,
    pub(crate) retried: bool,
    pub(crate) context: Context,
    /// The key the caller is known by across requests (the issuer and the subject of a verified
    /// token): what per-principal limits count by.
    pub(crate) binding: Option<Arc<str>>,
    /// The handler's own layers, still to run (inside the server-wide ones).
    pub(crate) handler_layers: Option<McpService>,
    /// What the request asks for (its method's code), run by the bottom of the stack.
    pub(crate) work: Option<Work>,
    /// What the layers keep alive while a task the request starts runs (made by the first
    /// layer that keeps something: nothing is allocated otherwise).
    pub(crate) kept: Option<Kept>,
}

impl McpRequest {
    /// The JSON-RPC method: `tools/call`, `prompts/get`, `resources/read`, `tools/list`, ….
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let only_calls = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     let is_call = request.method() == "tools/call";
    ///     # let _ = is_call;
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(only_calls);
    /// ```
    pub fn method(&self) -> &str {
        &self.method
    }

    /// What the request is for: the tool's name (`tools/call`), the prompt's name
    /// (`prompts/get`), the URI read (`resources/read`) or watched (`resources/subscribe`,
    /// `resources/unsubscribe`); `None` for any other method.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, McpResponse, Next};
    /// // Refuses one tool outright.
    /// let no_drop = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     if request.target() == Some("drop_database") {
    ///         return McpResponse::tool_error("drop_database is switched off");
    ///     }
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(no_drop);
    /// ```
    pub fn target(&self) -> Option<&str> {
        self.target.as_deref()
    }

    /// The arguments as the client sent them (a tool's or a prompt's `arguments` object; a
    /// resource template's variables, as matched in the URI); `None` when there are none, and
    /// for methods other than `tools/call`, `prompts/get` and `resources/read`.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, McpResponse, Next};
    /// // Refuses oversized arguments before any resolver runs.
    /// let small = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     if request.arguments().is_some_and(|raw| raw.get().len() > 64 * 1024) {
    ///         return McpResponse::tool_error("arguments over 64 KiB");
    ///     }
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(small);
    /// ```
    pub fn arguments(&self) -> Option<&RawValue> {
        let sent = self.arguments.as_ref()?;
        Some(self.arguments_read.get_or_init(|| sent.to_raw_value()))
    }

    /// Whether this is a later round of a 2026-07-28 multi-round call: it carries the
    /// `requestState` or the `inputResponses` of an earlier `input_required` answer.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let rounds = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     if request.is_retried_round() { println!("a client answered our questions"); }
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(rounds);
    /// ```
    pub fn is_retried_round(&self) -> bool {
        self.retried
    }

    /// The revision family the request is served under.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// # use mcpwire::protocol::Era;
    /// let sessions_only = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     let stateless = request.era() == Era::Modern;
    ///     # let _ = stateless;
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(sessions_only);
    /// ```
    pub fn era(&self) -> Era {
        self.context.era()
    }

    /// The protocol version the request is served under (`2025-11-25`, `2026-07-28`).
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let version = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     println!("{}", request.protocol_version());
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(version);
    /// ```
    pub fn protocol_version(&self) -> &str {
        self.context.protocol_version()
    }

    /// The `Mcp-Session-Id` of a 2025-11-25 session over Streamable HTTP; `None` on 2026-07-28
    /// (stateless) and on stdio and in memory (the connection is the session, and has no id).
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let sessions = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     if let Some(session) = request.session_id() { println!("session {session}"); }
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(sessions);
    /// ```
    pub fn session_id(&self) -> Option<&str> {
        if self.era() != Era::Legacy {
            return None;
        }
        self.context.headers()?.get("mcp-session-id")?.to_str().ok()
    }

    /// The JSON-RPC id of the request.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let ids = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     println!("request {}", request.request_id());
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(ids);
    /// ```
    pub fn request_id(&self) -> &RequestId {
        self.context.request_id()
    }

    /// Who the transport authenticated (the subject of a verified token and its issuer), as
    /// [`Context::principal`] gives it; `None` without authorization. Key per-caller data on
    /// the whole [`Identity`](crate::context::Identity), not on its subject alone.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, McpResponse, Next};
    /// # use mcpwire::protocol::ErrorObject;
    /// let signed_in = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     if request.principal().is_none() && request.method() == "tools/call" {
    ///         return McpResponse::error(ErrorObject::new(-32001, "sign in first"));
    ///     }
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(signed_in);
    /// ```
    pub fn principal(&self) -> Option<&crate::context::Identity> {
        self.context.principal()
    }

    /// What the caller's token grants (scopes, claims); `None` without authorization.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let audit = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     let admin = request.grant().is_some_and(|grant| grant.has_scope("admin"));
    ///     # let _ = admin;
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(audit);
    /// ```
    pub fn grant(&self) -> Option<&Grant> {
        self.context.grant()
    }

    /// The context the handler runs with (for a method without a handler, the request's
    /// context): shared state, client capabilities and info, headers, progress and log messages
    /// to the client.
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// use mcpwire::context::Identity;
    /// struct Banned(Vec<Identity>);
    /// let bans = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     let banned = request.context().try_state::<Banned>()
    ///         .is_some_and(|banned| banned.0.iter().any(|who| Some(who) == request.principal()));
    ///     # let _ = banned;
    ///     next.run(request).await
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(bans);
    /// ```
    pub fn context(&self) -> &Context {
        &self.context
    }

    /// Attaches `value` to the request for the layers inside this one, the handler, its
    /// resolvers and the task the call becomes: [`Context::insert_extension`] of the
    /// request's context. Returns the value of that type it replaces.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::layer::{self, McpRequest, Next};
    ///
    /// #[derive(Clone)]
    /// struct Arrived(std::time::Instant);
    ///
    /// let stamp = layer::from_fn(|request: McpRequest, next: Next| {
    ///     request.insert_extension(Arrived(std::time::Instant::now()));
    ///     next.run(request)
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(stamp);
    /// ```
    pub fn insert_extension<T: Clone + Send + Sync + 'static>(&self, value: T) -> Option<T> {
        self.context.insert_extension(value)
    }

    /// The value of type `T` an outer layer attached ([`McpRequest::insert_extension`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::layer::{self, McpRequest, McpResponse, Next};
    ///
    /// #[derive(Clone)]
    /// struct Tenant(String);
    ///
    /// let needs_tenant = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     match request.extension::<Tenant>() {
    ///         Some(_) => next.run(request).await,
    ///         None => McpResponse::tool_error("no tenant for this caller"),
    ///     }
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(needs_tenant);
    /// ```
    pub fn extension<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.context.extension()
    }

    /// The key per-principal limits count by: the issuer and subject of a verified token
    /// (two issuers' `alice` are two callers); `None` for an anonymous caller.
    pub(crate) fn principal_key(&self) -> Option<&str> {
        self.binding.as_deref()
    }
}

impl std::fmt::Debug for McpRequest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("McpRequest")
            .field("method", &self.method)
            .field("target", &self.target)
            .field("request_id", self.request_id())
            .field("era", &self.era())
            .field("principal", &self.principal())
            .finish_non_exhaustive()
    }
}

/// The errors a tower service in the stack may fail with.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// The future of an [`McpService`] call.
pub type McpFuture = Pin<Box<dyn Future<Output = Result<McpResponse, Infallible>> + Send>>;

/// The rest of the stack below a layer, type-erased: a cloneable
/// `tower::Service<McpRequest, Response = McpResponse, Error = Infallible>`. A layer for
/// [`McpServer::layer`](crate::McpServer::layer) is a `tower::Layer<McpService>`.
///
/// # Examples
///
/// A pass-through layer written against tower's traits:
///
/// ```
/// use mcpwire::layer::{McpRequest, McpService};
/// use std::task::{Context, Poll};
///
/// #[derive(Clone)]
/// struct PassThrough;
///
/// impl tower_layer::Layer<McpService> for PassThrough {
///     type Service = McpService;
///     fn layer(&self, inner: McpService) -> McpService { inner }
/// }
///
/// let server = mcpwire::McpServer::new("demo").layer(PassThrough);
/// # drop(server);
/// ```
#[derive(Clone)]
pub struct McpService {
    inner: Inner,
}

/// What an [`McpService`] is: the bottom of a stack (not boxed: its call runs the request's
/// work), or a layer's service over the rest.
#[derive(Clone)]
enum Inner {
    Endpoint,
    Layer(Arc<dyn Erased>),
}

impl std::fmt::Debug for McpService {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("McpService")
    }
}

trait Erased: Send + Sync {
    fn call(&self, request: McpRequest) -> McpFuture;
}

/// A tower service, type-erased: cloned for each call, made ready, called. An error (of a
/// tower middleware) becomes `-32603`; its text goes to the log only.
struct Erase<S>(S);

impl<S> Erased for Erase<S>
where
    S: Service<McpRequest, Response = McpResponse> + Clone + Send + Sync + 'static,
    S::Future: Send + 'static,
    S::Error: Into<BoxError>,
{
    fn call(&self, request: McpRequest) -> McpFuture {
        let mut service = self.0.clone();
        // Most services are ready at once (the built-ins, `from_fn`): then the service is called
        // right away and only its future is boxed. A service that is not (tower's
        // `ConcurrencyLimit`, …) is polled again, with the caller's waker, when the future is.
        let mut probe = TaskContext::from_waker(Waker::noop());
        match service.poll_ready(&mut probe) {
            Poll::Ready(Ok(())) => {
                return Box::pin(FutureExt::map(service.call(request), |answered| {
                    Ok(answered.unwrap_or_else(|error| failed(error.into())))
                }));
            }
            Poll::Ready(Err(error)) => {
                return Box::pin(std::future::ready(Ok(failed(error.into()))));
            }
            Poll::Pending => {}
        }
        Box::pin(async move {
            if let Err(error) = poll_fn(|cx| service.poll_ready(cx)).await {
                return Ok(failed(error.into()));
            }
            Ok(service
                .call(request)
                .await
                .unwrap_or_else(|error| failed(error.into())))
        })
    }
}

fn failed(error: BoxError) -> McpResponse {
    tracing::warn!(%error, "a layer failed; answering -32603");
    McpResponse::error(ErrorObject::new(
        code::INTERNAL_ERROR,
        "Internal error: a middleware layer failed",
    ))
}

impl McpService {
    pub(crate) fn new<S>(service: S) -> Self
    where
        S: Service<McpRequest, Response = McpResponse> + Clone + Send + Sync + 'static,
        S::Future: Send + 'static,
        S::Error: Into<BoxError>,
    {
        Self {
            inner: Inner::Layer(Arc::new(Erase(service))),
        }
    }

    /// The bottom of a stack.
    pub(crate) fn endpoint() -> Self {
        Self {
            inner: Inner::Endpoint,
        }
    }

    /// Whether this is the bottom of a stack alone: a stack without layers.
    pub(crate) fn is_endpoint(&self) -> bool {
        matches!(self.inner, Inner::Endpoint)
    }

    /// Calls the service if it is a layer's; gives the request back if it is the bottom of the
    /// stack (which the dispatcher's side, `service.rs`, runs).
    pub(crate) fn call_layer(&self, request: McpRequest) -> Called {
        match &self.inner {
            Inner::Layer(layer) => Called::Layer(layer.call(request)),
            Inner::Endpoint => Called::Endpoint(request),
        }
    }
}

/// What [`McpService::call_layer`] did.
pub(crate) enum Called {
    /// The layer's future.
    Layer(McpFuture),
    /// The request, for the bottom of the stack.
    Endpoint(McpRequest),
}
