//! `Context`: what a tool or resolver knows about the request it serves, and what it can send
//! back while it runs (progress, log messages).
//!
//! # Examples
//!
//! ```
//! use mcpwire::prelude::*;
//!
//! /// Says who is calling.
//! #[tool]
//! async fn whoami(ctx: Context) -> String {
//!     ctx.principal().map_or("anonymous".into(), |who| who.to_string())
//! }
//!
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! let ctx = Context::detached().principal("ada").build();
//! assert_eq!(whoami::call(ctx).await, "ada");
//! # });
//! ```

mod changes;
mod client_requests;
mod detached;
mod grant;
mod identity;
mod lazy_context;
#[cfg(feature = "http")]
mod lazy_lines;
mod observer;
mod outbound;
mod principal;
mod reached;
mod scope_decision;
mod session_end;
pub(crate) mod state;
pub(crate) mod task;

pub use changes::{Change, Notifier};
pub use client_requests::ClientRequestError;
pub(crate) use client_requests::ClientRequests;
#[cfg(feature = "http")]
pub(crate) use client_requests::issued_elsewhere;
pub use detached::DetachedContext;
pub use grant::Grant;
pub use identity::Identity;
pub(crate) use lazy_context::{LazyContext, RequestSeed, ScopeSource};
#[cfg(feature = "http")]
pub(crate) use lazy_lines::{HoldsChannel, LazyChannel, LazyLines};
pub(crate) use observer::observe;
pub use observer::{Ending, Observed, ObservedWork, RequestObserver};
#[cfg(feature = "http")]
pub(crate) use outbound::CLOSE_STREAM;
pub(crate) use outbound::Outbound;
#[cfg(all(feature = "auth", feature = "http"))]
pub(crate) use principal::binding;
pub use principal::{Issuer, Principal};
pub(crate) use reached::Reached;
pub(crate) use scope_decision::authorize;
pub use session_end::SessionEnd;
pub(crate) use session_end::{SessionEndHook, SessionEndHooks};
pub(crate) use state::SharedState;

use crate::protocol::jsonrpc::notification_line;
use crate::protocol::logging::{LoggingLevel, LoggingMessageParams};
use crate::protocol::methods::{MESSAGE, PROGRESS};
use crate::protocol::progress::ProgressParams;
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
    /// What it holds of the request itself: its id, what it is served as, what it reached
    /// (the seed a context not made yet keeps: [`LazyContext`]).
    pub(crate) request: RequestSeed,
    pub(crate) state: Arc<SharedState>,
    pub(crate) outbound: Outbound,
    /// What holds the request's HTTP headers (the transport's per-request state), when it
    /// came over HTTP.
    pub(crate) headers: Option<Arc<dyn HeldHeaders>>,
    /// Who the transport authenticated.
    pub(crate) principal: Option<Identity>,
    /// What the caller's token grants.
    pub(crate) grant: Option<Arc<Grant>>,
    /// Where change notifications go.
    pub(crate) notifier: Notifier,
    /// The session's requests to the client; `None` on 2026-07-28 (servers send no requests).
    pub(crate) client_requests: Option<Arc<ClientRequests>>,
    /// How long a request to the client may wait for its answer.
    pub(crate) client_request_timeout: std::time::Duration,
    /// URL-mode elicitations this request started on a 2025-11-25 session and has not
    /// completed yet (`notifications/elicitation/complete` is owed for each).
    pub(crate) open_url_elicitations: std::sync::Mutex<Vec<String>>,
    /// The task this call runs as (tasks extension), if it runs as one.
    pub(crate) task: Option<task::TaskLink>,
    /// What watches the work done below the layers (attached by a layer: telemetry).
    pub(crate) observer: std::sync::OnceLock<Arc<dyn RequestObserver>>,
    /// Typed values a layer attached for what runs after it ([`Context::insert_extension`]).
    pub(crate) extensions: std::sync::Mutex<http::Extensions>,
}

/// What holds a request's HTTP headers for its context: the request's own state on the
/// transport (which the context keeps anyway), so that the headers need no allocation of their
/// own.
pub(crate) trait HeldHeaders: Send + Sync {
    /// The headers, when the request came with them.
    fn headers(&self) -> Option<&http::HeaderMap>;
}

impl Context {
    /// The context holding `scope`; inlined, so that a scope made in the call is written into
    /// the context's allocation rather than moved there.
    #[inline(always)]
    pub(crate) fn new(scope: RequestScope) -> Self {
        Self {
            inner: Arc::new(scope),
        }
    }

    /// The JSON-RPC id of the request being served.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Echoes the request id, e.g. for correlating logs.
    /// #[tool]
    /// async fn trace_id(ctx: Context) -> String {
    ///     format!("request {}", ctx.request_id())
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(trace_id::call(Context::detached().build()).await, "request 0");
    /// # });
    /// ```
    pub fn request_id(&self) -> &RequestId {
        &self.inner.request.request_id
    }

    /// The protocol revision this request is served under (e.g. `2026-07-28`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// let ctx = Context::detached().build();
    /// assert_eq!(ctx.protocol_version(), "2026-07-28");
    /// ```
    pub fn protocol_version(&self) -> &str {
        &self.inner.request.protocol_version
    }

    /// Whether this is a 2025-11-25 session request or a stateless 2026-07-28 one. Handlers
    /// rarely need this: the SDK adapts results and questions to the revision.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::protocol::Era;
    ///
    /// let ctx = Context::detached().build();
    /// assert_eq!(ctx.era(), Era::Modern);
    /// ```
    pub fn era(&self) -> Era {
        self.inner.request.era
    }

    /// What the client declared it can do (per session on 2025-11-25, per request on 2026-07-28).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities = serde_json::from_str(r#"{"sampling":{}}"#).unwrap();
    /// let ctx = Context::detached().client_capabilities(caps).build();
    /// assert!(ctx.client_capabilities().sampling());
    /// assert!(!ctx.client_capabilities().roots());
    /// ```
    pub fn client_capabilities(&self) -> &ClientCapabilities {
        &self.inner.request.client_capabilities
    }

    /// Who the client says it is, when it said so. For display and logs only.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Names the client.
    /// #[tool]
    /// async fn client_name(ctx: Context) -> String {
    ///     ctx.client_info().map_or("unknown".to_owned(), |info| info.name.clone())
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("demo").tool(client_name)?.serve_memory().await?;
    /// client.request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"inspector","version":"1.0"}}}"#).await;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"client_name"}}"#).await.unwrap();
    /// assert!(reply.contains(r#""text":"inspector""#));
    /// # Ok(()) }
    /// ```
    pub fn client_info(&self) -> Option<&Implementation> {
        self.inner.request.client_info.as_deref()
    }

    /// The HTTP request headers, on the HTTP transport; `None` on stdio. Client-supplied input:
    /// never a proof of identity.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Names the tenant the HTTP request was sent for.
    /// #[tool]
    /// async fn tenant(ctx: Context) -> String {
    ///     let headers = ctx.headers();
    ///     let header = headers.and_then(|h| h.get("x-tenant")).and_then(|v| v.to_str().ok());
    ///     header.unwrap_or("none").to_owned()
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(tenant::call(Context::detached().build()).await, "none");
    /// # });
    /// ```
    pub fn headers(&self) -> Option<&http::HeaderMap> {
        self.inner.headers.as_deref().and_then(HeldHeaders::headers)
    }

    /// Who the transport authenticated for this request, if anyone: the subject (the
    /// [`Principal`]) and the issuer that vouched for it (the [`Issuer`]: a verified
    /// token's `iss`, with `mcpwire::auth`). Key your own data on the whole [`Identity`]: two issuers may issue
    /// the same subject.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// let ctx = Context::detached().principal("ada").issuer("https://auth.example.com").build();
    /// let who = ctx.principal().unwrap();
    /// assert_eq!((who.subject(), who.issuer()), ("ada", Some("https://auth.example.com")));
    /// assert_eq!(Context::detached().build().principal(), None);
    /// ```
    pub fn principal(&self) -> Option<&Identity> {
        self.inner.principal.as_ref()
    }

    /// What the caller's verified access token grants (see [`Grant`]), if the request was
    /// authenticated with one.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::context::Grant;
    ///
    /// let ctx = Context::detached().grant(Grant::new(["orders:write"])).build();
    /// assert!(ctx.grant().is_some_and(|g| g.has_scope("orders:write")));
    /// assert!(Context::detached().build().grant().is_none());
    /// ```
    pub fn grant(&self) -> Option<&Grant> {
        self.inner.grant.as_deref()
    }

    /// The shared value of type `T` registered with [`McpServer::state`](crate::McpServer::state).
    ///
    /// # Panics
    ///
    /// When no value of that type was registered: a programming error, reported to the client
    /// as a failed tool call and logged. Use [`Context::try_state`] to branch instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// struct Tax { percent: u32 }
    ///
    /// /// Adds tax to a price.
    /// #[tool]
    /// async fn with_tax(cents: u32, ctx: Context) -> u32 {
    ///     cents + cents * ctx.state::<Tax>().percent / 100
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let ctx = Context::detached().state(Tax { percent: 25 }).build();
    /// assert_eq!(with_tax::call(400, ctx).await, 500);
    /// # });
    /// ```
    pub fn state<T: Send + Sync + 'static>(&self) -> &T {
        self.try_state().unwrap_or_else(|| {
            panic!(
                "no shared state of type `{}`: register it with McpServer::state",
                std::any::type_name::<T>()
            )
        })
    }

    /// The shared value of type `T`, if one was registered.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// struct Cache(Vec<String>);
    ///
    /// let ctx = Context::detached().build();
    /// assert!(ctx.try_state::<Cache>().is_none());
    /// let ctx = Context::detached().state(Cache(vec!["Dune".into()])).build();
    /// assert_eq!(ctx.try_state::<Cache>().map(|c| c.0.len()), Some(1));
    /// ```
    pub fn try_state<T: Send + Sync + 'static>(&self) -> Option<&T> {
        self.inner.state.get::<T>()
    }

    /// Reports progress to the client. Does nothing when the client sent no progress token.
    /// Inside a task (which gets no progress notifications) it sets the task's
    /// `statusMessage`, shown by `tasks/get`: `message`, or else `"{progress} of {total}"`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Imports rows, reporting progress after each.
    /// #[tool]
    /// async fn import(rows: u32, ctx: Context) -> String {
    ///     for done in 1..=rows {
    ///         let message = Some(format!("row {done}"));
    ///         ctx.report_progress(done as f64, Some(rows as f64), message).await;
    ///     }
    ///     format!("imported {rows} rows")
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(import::call(3, Context::detached().build()).await, "imported 3 rows");
    /// # });
    /// ```
    pub async fn report_progress(
        &self,
        progress: f64,
        total: Option<f64>,
        message: Option<String>,
    ) {
        if let Some(task) = &self.inner.task {
            let message = message.unwrap_or_else(|| match total {
                Some(total) => format!("{progress} of {total}"),
                None => format!("{progress}"),
            });
            task.reporter.report(message).await;
            return;
        }
        let Some(token) = &self.inner.request.progress_token else {
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
            .send(notification_line(PROGRESS, &params))
            .await;
    }

    /// The lowest level of log messages the client wants to hear for this request (see
    /// [`Context::log`]), or `None` when it wants none (a 2026-07-28 request that did not opt
    /// in): what a tool that forwards log messages from elsewhere (a gateway's backend) asks
    /// for in turn.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// // A context made outside a request has no client to hear its log messages.
    /// assert_eq!(Context::detached().build().log_level(), None);
    /// ```
    pub fn log_level(&self) -> Option<LoggingLevel> {
        self.inner.request.log_level
    }

    /// Sends a log message to the client, when the revision and the client allow it: on
    /// 2025-11-25 at or above the session's level (`logging/setLevel`); on 2026-07-28 only when
    /// the request opted in with `_meta["io.modelcontextprotocol/logLevel"]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::protocol::LoggingLevel;
    ///
    /// /// Runs a slow query.
    /// #[tool]
    /// async fn query(sql: String, ctx: Context) -> String {
    ///     let data = serde_json::json!({"sql": sql, "slow_ms": 1200});
    ///     ctx.log(LoggingLevel::Warning, Some("db"), data).await;
    ///     "0 rows".to_owned()
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(query::call("SELECT 1".into(), Context::detached().build()).await, "0 rows");
    /// # });
    /// ```
    pub async fn log(&self, level: LoggingLevel, logger: Option<&str>, data: serde_json::Value) {
        let Some(min) = self.inner.request.log_level else {
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
            .send(notification_line(MESSAGE, &params))
            .await;
    }

    /// Announces that a list (tools, prompts or resources) changed: clients that listen for it
    /// will list again. Delivered only by a server that declares `listChanged` (one that holds a
    /// [`Catalog`](crate::server::Catalog); see [`Notifier::list_changed`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::protocol::ChangedList;
    ///
    /// /// Enables a plugin, which changes the prompts on offer.
    /// #[tool]
    /// async fn enable_plugin(name: String, ctx: Context) -> String {
    ///     ctx.notify_list_changed(ChangedList::Prompts);
    ///     format!("{name} enabled")
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let ctx = Context::detached().build();
    /// assert_eq!(enable_plugin::call("git".into(), ctx).await, "git enabled");
    /// # });
    /// ```
    pub fn notify_list_changed(&self, list: crate::protocol::list_changed::ChangedList) {
        self.inner.notifier.list_changed(list);
    }

    /// Announces that the resource `uri` changed, to clients that subscribed to it.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Appends a line to the notes resource.
    /// #[tool]
    /// async fn add_note(text: String, ctx: Context) -> String {
    ///     ctx.notify_resource_updated("notes://today");
    ///     format!("noted: {text}")
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let ctx = Context::detached().build();
    /// assert_eq!(add_note::call("buy milk".into(), ctx).await, "noted: buy milk");
    /// # });
    /// ```
    pub fn notify_resource_updated(&self, uri: impl Into<String>) {
        self.inner.notifier.resource_updated(uri);
    }

    /// On a 2025-11-25 HTTP session, ends this request's event stream now, while the handler
    /// goes on: the client reconnects with `Last-Event-ID` and gets the rest (SEP-1699 polling,
    /// for long calls behind proxies that drop idle connections). Returns `false`, and does
    /// nothing, on any other transport or revision.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// A long job: frees the connection early where the transport allows it.
    /// #[tool]
    /// async fn long_job(ctx: Context) -> &'static str {
    ///     let _polling = ctx.close_sse_stream();
    ///     "done"
    /// }
    ///
    /// let ctx = Context::detached().build();
    /// assert!(!ctx.close_sse_stream()); // not a 2025-11-25 HTTP session
    /// ```
    pub fn close_sse_stream(&self) -> bool {
        self.inner.outbound.close_stream()
    }

    /// Sends a request to the client and waits for its result: `elicitation/create`,
    /// `sampling/createMessage` or `roots/list` on a 2025-11-25 session. Resolvers ask their
    /// questions through the SDK instead (on both revisions); this is the low-level path.
    ///
    /// # Errors
    ///
    /// `ClientRequestError::NoBackChannel` on a 2026-07-28 request; the client's error, a
    /// timeout, or a disconnect otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Counts the client's roots with a raw `roots/list` request.
    /// #[tool]
    /// async fn count_roots(ctx: Context) -> Result<usize, String> {
    ///     let params = serde_json::json!({});
    ///     let raw = ctx.send_request("roots/list", &params).await.map_err(|e| e.to_string())?;
    ///     let roots: ListRootsResult =
    ///         serde_json::from_str(raw.get()).map_err(|e| e.to_string())?;
    ///     Ok(roots.roots.len())
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// // A detached context serves a 2026-07-28 request: there is no back channel.
    /// assert!(count_roots::call(Context::detached().build()).await.is_err());
    /// # });
    /// ```
    pub async fn send_request<P: serde::Serialize>(
        &self,
        method: &str,
        params: &P,
    ) -> Result<Box<serde_json::value::RawValue>, ClientRequestError> {
        let Some(requests) = &self.inner.client_requests else {
            return Err(ClientRequestError::NoBackChannel);
        };
        let timeout = self.inner.client_request_timeout;
        if let Some(observer) = self.inner.observer.get() {
            return requests
                .send_observed(&self.inner.outbound, method, params, timeout, &**observer)
                .await;
        }
        requests
            .send(&self.inner.outbound, method, params, timeout)
            .await
    }

    /// Records what the request reached, once its method admitted it.
    pub(crate) fn set_reached(&self, target: std::borrow::Cow<'static, str>) {
        self.inner.request.reached.set(target);
    }

    /// What the request reached (a tool's or a prompt's name, a resource's URI), as its method
    /// parsed it once authorization admitted it: `None` before that, for a method without a
    /// target, and for a request refused before its method ran. An outer-tier layer
    /// ([`McpServer::outer_layer`](crate::McpServer::outer_layer)) keeps the request's context
    /// and reads it on the way back, instead of trusting the target as the client sent it.
    ///
    /// ```
    /// use mcpwire::layer::{self, McpRequest, Next};
    ///
    /// let audit = layer::from_fn(|request: McpRequest, next: Next| async move {
    ///     let context = request.context().clone();
    ///     let response = next.run(request).await;
    ///     if let Some(target) = context.reached_target() {
    ///         println!("served {target}");
    ///     }
    ///     response
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").outer_layer(audit);
    /// ```
    pub fn reached_target(&self) -> Option<&str> {
        self.inner.request.reached.get()
    }

    /// The W3C trace context the request carried in `params._meta` (`traceparent`,
    /// `tracestate`), as sent; `None` when it carried none. What a tracing layer links or
    /// follows (`mcpwire::otel::Tracing`).
    pub fn trace_context(&self) -> Option<&crate::protocol::TraceContext> {
        self.inner.request.trace_context.as_deref()
    }

    /// Attaches `observer` to the request: it watches the work the core does below the layers
    /// (resolvers, rounds, requests to the client). The first observer attached wins; `false`
    /// when one was attached already.
    ///
    /// ```
    /// use mcpwire::context::RequestObserver;
    /// use mcpwire::layer::{self, McpRequest, Next};
    /// use std::sync::Arc;
    ///
    /// struct Quiet;
    /// impl RequestObserver for Quiet {}
    ///
    /// let watch = layer::from_fn(|request: McpRequest, next: Next| {
    ///     request.context().observe(Arc::new(Quiet));
    ///     next.run(request)
    /// });
    /// # let _ = mcpwire::McpServer::new("demo").layer(watch);
    /// ```
    pub fn observe(&self, observer: Arc<dyn RequestObserver>) -> bool {
        self.inner.observer.set(observer).is_ok()
    }

    /// Attaches `value` to this request, for what runs after the caller: another layer, the
    /// handler, its resolvers, and the task a tool call becomes. One value per type; returns
    /// the value of that type it replaces. Values a layer derives once (a tenant, a database
    /// handle chosen per caller) go here rather than being worked out again by every handler.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::layer::{self, McpRequest, Next};
    ///
    /// #[derive(Clone)]
    /// struct Tenant(String);
    ///
    /// /// Names the caller's tenant.
    /// #[tool]
    /// async fn whoami(ctx: Context) -> String {
    ///     ctx.extension::<Tenant>().map_or("nobody".into(), |tenant| tenant.0)
    /// }
    ///
    /// let tenants = layer::from_fn(|request: McpRequest, next: Next| {
    ///     let principal = request.context().principal();
    ///     let tenant = principal.map_or("guest", |who| who.subject()).to_owned();
    ///     request.context().insert_extension(Tenant(tenant));
    ///     next.run(request)
    /// });
    /// let server = McpServer::new("shop").tool(whoami)?.layer(tenants);
    /// # drop(server);
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn insert_extension<T: Clone + Send + Sync + 'static>(&self, value: T) -> Option<T> {
        self.extensions().insert(value)
    }

    /// The value of type `T` a layer attached to this request ([`Context::insert_extension`]),
    /// if any.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// #[derive(Clone, Debug, PartialEq)]
    /// struct Tenant(&'static str);
    ///
    /// let ctx = Context::detached().build();
    /// assert_eq!(ctx.extension::<Tenant>(), None);
    /// ctx.insert_extension(Tenant("acme"));
    /// assert_eq!(ctx.extension::<Tenant>(), Some(Tenant("acme")));
    /// ```
    pub fn extension<T: Clone + Send + Sync + 'static>(&self) -> Option<T> {
        self.extensions().get::<T>().cloned()
    }

    /// A copy of every value attached to this request (for the context of the task a call
    /// becomes).
    pub(crate) fn extensions_copy(&self) -> http::Extensions {
        self.extensions().clone()
    }

    /// The attached values, locked (a poisoned lock still holds whole values: each insert is
    /// one call).
    fn extensions(&self) -> std::sync::MutexGuard<'_, http::Extensions> {
        (self.inner.extensions.lock()).unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// What watches the work done below the layers, when a layer attached one.
    pub(crate) fn observer(&self) -> Option<&dyn RequestObserver> {
        self.inner.observer.get().map(|observer| &**observer)
    }

    /// Tells the client that the URL-mode elicitation `elicitation_id` finished (the user
    /// completed the flow the URL started): `notifications/elicitation/complete`, sent to this
    /// request's client on a 2025-11-25 session. Returns `false`, sending nothing, on
    /// 2026-07-28 (which has no such notice) and for an id this request did not ask or already
    /// completed. Open ones are completed when the call ends.
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// #[resolver]
    /// async fn link_account() -> ElicitUrl {
    ///     ElicitUrl::ask("Link your account", "https://shop.example/link?e=e-7").with_id("e-7")
    /// }
    ///
    /// /// Shows the linked account.
    /// #[tool]
    /// async fn account(#[resolve(link_account)] consent: UrlConsent, ctx: Context) -> String {
    ///     // … wait for the link to be made, then:
    ///     ctx.complete_elicitation("e-7");
    ///     format!("{consent:?}")
    /// }
    /// # let _ = McpServer::new("shop").tool(account).unwrap();
    /// ```
    pub fn complete_elicitation(&self, elicitation_id: &str) -> bool {
        let mut open = self
            .inner
            .open_url_elicitations
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        let Some(at) = open.iter().position(|id| id == elicitation_id) else {
            return false;
        };
        open.swap_remove(at);
        drop(open);
        self.send_elicitation_complete(elicitation_id);
        true
    }

    /// Records a URL-mode elicitation sent on a 2025-11-25 session.
    pub(crate) fn url_elicitation_started(&self, elicitation_id: &str) {
        self.inner
            .open_url_elicitations
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(elicitation_id.to_owned());
    }

    /// Completes every URL-mode elicitation this request left open: the call ended.
    pub(crate) fn complete_open_elicitations(&self) {
        // They are opened by requests to the client, which only a session's requests send: a
        // 2026-07-28 request has none to complete (and its lock is not taken).
        if self.inner.client_requests.is_none() {
            return;
        }
        let open = std::mem::take(
            &mut *self
                .inner
                .open_url_elicitations
                .lock()
                .unwrap_or_else(|e| e.into_inner()),
        );
        for id in open {
            self.send_elicitation_complete(&id);
        }
    }

    fn send_elicitation_complete(&self, elicitation_id: &str) {
        let params = crate::protocol::elicitation::ElicitationCompleteParams {
            elicitation_id: elicitation_id.to_owned(),
        };
        self.inner.outbound.send_soon(notification_line(
            crate::protocol::elicitation::COMPLETE,
            &params,
        ));
    }

    /// The id of the task this call runs as (`#[tool(task = "…")]` on a request that negotiated
    /// the tasks extension); `None` for a plain call.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// assert_eq!(Context::detached().build().task_id(), None);
    /// ```
    pub fn task_id(&self) -> Option<&str> {
        self.inner.task.as_ref().map(|task| &*task.id)
    }

    /// Whether the client cancelled the task this call runs as (`tasks/cancel`, or its TTL ran
    /// out). Always `false` for a plain call.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// assert!(!Context::detached().build().is_cancelled());
    /// ```
    pub fn is_cancelled(&self) -> bool {
        self.inner
            .task
            .as_ref()
            .is_some_and(|task| task.cancel.is_cancelled())
    }

    /// Completes when the task this call runs as is cancelled; never for a plain call. A body
    /// races it against its work to stop promptly (after a cancel it has a short grace period
    /// to clean up before it is dropped).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use std::time::Duration;
    ///
    /// /// Computes slowly, stopping when the task is cancelled.
    /// #[tool(task = "optional")]
    /// async fn slow(seconds: u64, ctx: Context) -> String {
    ///     tokio::select! {
    ///         _ = tokio::time::sleep(Duration::from_secs(seconds)) => "done".to_owned(),
    ///         _ = ctx.cancelled() => "cancelled".to_owned(),
    ///     }
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(slow::call(0, Context::detached().build()).await, "done");
    /// # });
    /// ```
    pub async fn cancelled(&self) {
        match &self.inner.task {
            Some(task) => task.cancel.cancelled().await,
            None => std::future::pending().await,
        }
    }

    /// Logs `message` at `info` level (see [`Context::log`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Reloads the catalogue.
    /// #[tool]
    /// async fn reload(ctx: Context) -> &'static str {
    ///     ctx.info("reloading the catalogue").await;
    ///     "reloaded"
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(reload::call(Context::detached().build()).await, "reloaded");
    /// # });
    /// ```
    pub async fn info(&self, message: impl Into<String>) {
        self.log(
            LoggingLevel::Info,
            None,
            serde_json::Value::String(message.into()),
        )
        .await
    }
}
