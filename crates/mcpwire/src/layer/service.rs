//! The service stack: [`McpLayer`] (what `McpServer::layer` takes), [`from_fn`] and [`Next`], and how the
//! dispatcher runs a request through the stack ([`serve`]).
//!
//! A request is `'static` (tower's model: a layer may hold it across awaits, spawn, time it
//! out), yet the handler at the bottom borrows the dispatcher's frame. So the innermost service
//! ([`Endpoint`]) does not run the handler: it hands the request back to the dispatcher through
//! a channel and waits for the response; the dispatcher, polling the layered future and the
//! handler side by side, runs the handler when asked, and drops it when the layers drop their
//! call (a timeout).

use super::request::{BoxError, McpFuture, McpRequest, McpService};
use super::response::McpResponse;
use crate::protocol::ErrorObject;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
use tokio::sync::oneshot;
use tower_layer::Layer;
use tower_service::Service;

/// A layer [`McpServer::layer`](crate::McpServer::layer) and the per-handler registrations
/// (`tool_layer`, `prompt_layer`, `resource_layer`) take: any `tower::Layer<McpService>` whose
/// service is a `tower::Service<McpRequest, Response = McpResponse>` (cloneable, `Send + Sync +
/// 'static`, with a `Send` future and an error that converts into a boxed error). Implemented
/// for every such layer; write one with [`from_fn`], or against tower's traits.
///
/// # Examples
///
/// ```
/// use mcpwire::layer::{self, McpLayer, McpRequest, Next};
///
/// fn audited(server: mcpwire::McpServer, layer: impl McpLayer) -> mcpwire::McpServer {
///     server.layer(layer)
/// }
///
/// let server = audited(
///     mcpwire::McpServer::new("demo"),
///     layer::from_fn(|request: McpRequest, next: Next| next.run(request)),
/// );
/// # drop(server);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a layer over MCP requests",
    label = "not an MCP layer",
    note = "a layer is a `tower_layer::Layer<McpService>` whose service is a \
            `tower_service::Service<McpRequest, Response = McpResponse>` (Clone + Send + Sync + \
            'static, with a Send future)",
    note = "the quickest way to write one: `mcpwire::layer::from_fn(|request: McpRequest, next: \
            Next| async move {{ next.run(request).await }})`; see `mcpwire::guide::middleware`"
)]
pub trait McpLayer: Send + Sync + 'static {
    /// Wraps `inner` (the rest of the stack) in this layer's service.
    ///
    /// ```
    /// use mcpwire::layer::{McpLayer, RequestLog};
    /// // Layers are applied by the server; calling this directly is rarely needed.
    /// fn is_layer(_: &impl McpLayer) {}
    /// is_layer(&RequestLog::new());
    /// ```
    fn wrap(&self, inner: McpService) -> McpService;
}

impl<L> McpLayer for L
where
    L: Layer<McpService> + Send + Sync + 'static,
    L::Service: Service<McpRequest, Response = McpResponse> + Clone + Send + Sync + 'static,
    <L::Service as Service<McpRequest>>::Future: Send + 'static,
    <L::Service as Service<McpRequest>>::Error: Into<BoxError>,
{
    fn wrap(&self, inner: McpService) -> McpService {
        McpService::new(self.layer(inner))
    }
}

/// The rest of the stack, handed to a [`from_fn`] layer: [`Next::run`] passes the request on
/// (to the next layer, at last to the handler) and returns how it ended.
///
/// ```
/// use mcpwire::layer::{self, McpRequest, Next};
/// use std::time::Instant;
///
/// let timed = layer::from_fn(|request: McpRequest, next: Next| async move {
///     let started = Instant::now();
///     let response = next.run(request).await;
///     println!("{:?}", started.elapsed());
///     response
/// });
/// # let _ = mcpwire::McpServer::new("demo").layer(timed);
/// ```
#[derive(Debug)]
pub struct Next {
    inner: McpService,
}

impl Next {
    /// Passes `request` on, and returns how its handling ended. Dropping the returned future
    /// before it completes drops the handler's (cancelling it).
    ///
    /// ```
    /// # use mcpwire::layer::{self, McpRequest, Next};
    /// let pass = layer::from_fn(|request: McpRequest, next: Next| next.run(request));
    /// # let _ = mcpwire::McpServer::new("demo").layer(pass);
    /// ```
    pub async fn run(self, request: McpRequest) -> McpResponse {
        match self.inner.call_erased(request).await {
            Ok(response) => response,
        }
    }
}

/// A layer from an async function of the request and the rest of the stack: it may look at the
/// request, refuse it (returning an [`McpResponse`] without calling [`Next::run`]), run code
/// before and after, and look at the response.
///
/// # Examples
///
/// ```
/// use mcpwire::layer::{self, McpRequest, McpResponse, Next};
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
/// let no_weekend_math = layer::from_fn(|request: McpRequest, next: Next| async move {
///     if request.target() == Some("add") && request.arguments().is_some_and(|a| a.get().contains("13")) {
///         return McpResponse::tool_error("13 is unlucky");
///     }
///     next.run(request).await
/// });
/// let server = McpServer::new("calc").tool(add)?.layer(no_weekend_math);
/// let mut client = server.serve_memory().await?;
/// let reply = client
///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":13,"b":1}}}"#)
///     .await
///     .unwrap();
/// assert!(reply.contains(r#""isError":true"#) && reply.contains("13 is unlucky"));
/// # Ok(()) }
/// ```
pub fn from_fn<F, Fut>(f: F) -> FromFn<F>
where
    F: Fn(McpRequest, Next) -> Fut + Clone + Send + Sync + 'static,
    Fut: Future<Output = McpResponse> + Send + 'static,
{
    FromFn { f }
}

/// The layer [`from_fn`] makes.
#[derive(Clone, Debug)]
pub struct FromFn<F> {
    f: F,
}

impl<F: Clone> Layer<McpService> for FromFn<F> {
    type Service = FromFnService<F>;

    fn layer(&self, inner: McpService) -> FromFnService<F> {
        FromFnService {
            f: self.f.clone(),
            inner,
        }
    }
}

/// The service of a [`from_fn`] layer.
#[derive(Clone, Debug)]
pub struct FromFnService<F> {
    f: F,
    inner: McpService,
}

type Wrap = fn(McpResponse) -> Result<McpResponse, Infallible>;

impl<F, Fut> Service<McpRequest> for FromFnService<F>
where
    F: Fn(McpRequest, Next) -> Fut,
    Fut: Future<Output = McpResponse>,
{
    type Response = McpResponse;
    type Error = Infallible;
    type Future = futures_util::future::Map<Fut, Wrap>;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: McpRequest) -> Self::Future {
        let next = Next {
            inner: self.inner.clone(),
        };
        futures_util::FutureExt::map((self.f)(request, next), Ok as Wrap)
    }
}

/// The bottom of a stack: runs the handler's own layers, if any are still to run, else hands
/// the request back to the dispatcher and waits for its response.
#[derive(Clone, Copy)]
struct Endpoint;

impl Service<McpRequest> for Endpoint {
    type Response = McpResponse;
    type Error = Infallible;
    type Future = Handled;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, mut request: McpRequest) -> Handled {
        if let Some(layers) = request.handler_layers.take() {
            return Handled::Layers(layers.call_erased(request));
        }
        let Some(hand_back) = request.hand_back.take() else {
            return Handled::Done(Some(McpResponse::error(ErrorObject::internal())));
        };
        let (respond, response) = oneshot::channel();
        // If the dispatcher is gone, so is whoever waits for this response.
        let _ = hand_back.send(respond);
        Handled::Waiting(response)
    }
}

/// The future of [`Endpoint`].
enum Handled {
    Layers(McpFuture),
    Waiting(oneshot::Receiver<McpResponse>),
    Done(Option<McpResponse>),
}

impl Future for Handled {
    type Output = Result<McpResponse, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Handled::Layers(future) => future.as_mut().poll(cx),
            Handled::Waiting(response) => Pin::new(response).poll(cx).map(|answered| {
                Ok(answered.unwrap_or_else(|_| McpResponse::error(ErrorObject::internal())))
            }),
            Handled::Done(response) => Poll::Ready(Ok(response
                .take()
                .unwrap_or_else(|| McpResponse::error(ErrorObject::internal())))),
        }
    }
}

/// The layers of a server, built once when it starts: the server-wide stack, and each handler's
/// own stack by what it is registered under.
pub(crate) struct Layers {
    server: McpService,
    /// Per kind (tools, prompts, resources), by name or URI (template).
    handlers: [HashMap<Box<str>, McpService>; 3],
}

/// A handler, as layers are registered on it.
type HandlerKey<'a> = (HandlerKind, &'a str);

/// What a per-handler layer is registered on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum HandlerKind {
    Tool,
    Prompt,
    Resource,
}

impl HandlerKind {
    fn index(self) -> usize {
        match self {
            HandlerKind::Tool => 0,
            HandlerKind::Prompt => 1,
            HandlerKind::Resource => 2,
        }
    }
}

/// The layers as the builder collects them.
#[derive(Default)]
pub(crate) struct LayerSet {
    server: Vec<Arc<dyn McpLayer>>,
    handlers: Vec<(HandlerKind, String, Arc<dyn McpLayer>)>,
}

impl LayerSet {
    pub(crate) fn add(&mut self, layer: Arc<dyn McpLayer>) {
        self.server.push(layer);
    }

    pub(crate) fn add_for(&mut self, kind: HandlerKind, key: String, layer: Arc<dyn McpLayer>) {
        self.handlers.push((kind, key, layer));
    }

    /// The handlers layers are registered on, to check that each exists.
    pub(crate) fn handler_keys(&self) -> impl Iterator<Item = (HandlerKind, &str)> {
        self.handlers
            .iter()
            .map(|(kind, key, _)| (*kind, key.as_str()))
    }

    /// The stacks; `None` when no layer was added (requests then take the unlayered path).
    /// The first layer added is the outermost.
    pub(crate) fn build(self) -> Option<Layers> {
        if self.server.is_empty() && self.handlers.is_empty() {
            return None;
        }
        let stack = |layers: &[&Arc<dyn McpLayer>]| {
            layers
                .iter()
                .rev()
                .fold(McpService::new(Endpoint), |inner, layer| layer.wrap(inner))
        };
        let server: Vec<&Arc<dyn McpLayer>> = self.server.iter().collect();
        let mut grouped: Vec<(HandlerKey, Vec<&Arc<dyn McpLayer>>)> = Vec::new();
        for (kind, key, layer) in &self.handlers {
            match grouped
                .iter_mut()
                .find(|(k, _)| *k == (*kind, key.as_str()))
            {
                Some((_, layers)) => layers.push(layer),
                None => grouped.push(((*kind, key.as_str()), vec![layer])),
            }
        }
        let mut handlers: [HashMap<Box<str>, McpService>; 3] = Default::default();
        for ((kind, key), layers) in grouped {
            handlers[kind.index()].insert(Box::from(key), stack(&layers));
        }
        Some(Layers {
            server: stack(&server),
            handlers,
        })
    }
}

impl Layers {
    /// The server-wide stack.
    pub(crate) fn server(&self) -> &McpService {
        &self.server
    }

    /// The own layers of the handler registered as `key`, if it has any.
    pub(crate) fn handler(&self, kind: HandlerKind, key: &str) -> Option<McpService> {
        let handlers = &self.handlers[kind.index()];
        if handlers.is_empty() {
            return None;
        }
        handlers.get(key).cloned()
    }
}

/// Runs `request` through `stack`; when the stack passes it to the bottom, runs `handler` and
/// hands its response back up. A stack that answers without passing the request on never runs
/// the handler; one that drops its call (a timeout) drops the handler with it.
pub(crate) async fn serve<F>(stack: &McpService, mut request: McpRequest, handler: F) -> McpResponse
where
    F: Future<Output = McpResponse>,
{
    let (hand_back, handed_back) = oneshot::channel();
    request.hand_back = Some(hand_back);
    let mut layered = stack.call_erased(request);
    let respond = tokio::select! {
        biased;
        Ok(response) = &mut layered => return response,
        handed = handed_back => match handed {
            Ok(respond) => respond,
            // The request was dropped on the way down: the stack answers by itself.
            Err(_) => return unwrap(layered.await),
        },
    };
    let mut respond = respond;
    let mut handler = pin!(handler);
    enum Step {
        Handled(McpResponse),
        Dropped,
        Answered(McpResponse),
    }
    let step = tokio::select! {
        biased;
        Ok(response) = &mut layered => Step::Answered(response),
        () = respond.closed() => Step::Dropped,
        response = &mut handler => Step::Handled(response),
    };
    match step {
        Step::Answered(response) => response,
        Step::Dropped => unwrap(layered.await),
        Step::Handled(response) => {
            let _ = respond.send(response);
            unwrap(layered.await)
        }
    }
}

fn unwrap(result: Result<McpResponse, Infallible>) -> McpResponse {
    match result {
        Ok(response) => response,
    }
}
