//! The service stack: [`McpLayer`] (what `McpServer::layer` takes), [`from_fn`] and [`Next`],
//! and the stacks a server runs requests through ([`Layers`]).
//!
//! A request is `'static` (tower's model: a layer may hold it across awaits, spawn it, time it
//! out), and so is the work it carries (its method's code, the handler's call included, owning
//! what it needs). The bottom of the stack ([`endpoint`]) runs the handler's own layers, then
//! that work: the layers' call *is* the handler's, so dropping it (a timeout) drops the handler.
//! A server without layers has the empty stack: the bottom alone.

use super::request::{BoxError, Called, McpFuture, McpRequest, McpService};
use super::response::McpResponse;
use super::work::{Handed, WorkFuture};
use crate::protocol::ErrorObject;
use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context as TaskContext, Poll};
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
    pub fn run(self, request: McpRequest) -> impl Future<Output = McpResponse> + Send + 'static {
        // Not an `async fn`: one state machine less on every poll of the stack. The rest of the
        // stack is called here (tower's `call` is eager too); it runs when this is polled.
        Passed(self.inner.call_next(request))
    }
}

/// The future of [`Next::run`]: the rest of the stack's, its (infallible) result unwrapped.
struct Passed(Call);

impl Future for Passed {
    type Output = McpResponse;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<McpResponse> {
        Pin::new(&mut self.get_mut().0).poll(cx).map(unwrap)
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

/// The bottom of a stack: runs the handler's own layers, if any are still to run, else the
/// request's work (its method's code, the handler's call included) on what the layers passed on.
pub(crate) fn endpoint(mut request: McpRequest) -> Handled {
    if let Some(layers) = request.handler_layers.take() {
        return Handled::Layers(layers.call_erased(request));
    }
    let Some(work) = request.work.take() else {
        // Not reached: every request the dispatcher makes carries its work.
        return Handled::Failed;
    };
    Handled::Running(work.start(Handed {
        arguments: request.arguments,
        context: request.context,
        kept: request.kept,
    }))
}

/// The future of the bottom of a stack.
pub(crate) enum Handled {
    /// The handler's own layers.
    Layers(McpFuture),
    /// The request's work.
    Running(WorkFuture),
    /// Not reached: a request the dispatcher made carries its work.
    Failed,
}

impl Future for Handled {
    type Output = Result<McpResponse, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Handled::Layers(future) => future.as_mut().poll(cx),
            Handled::Running(work) => work.as_mut().poll(cx).map(Ok),
            Handled::Failed => Poll::Ready(Ok(McpResponse::error(ErrorObject::internal()))),
        }
    }
}

impl McpService {
    /// Calls the service, its future boxed (tower's `Service::call`).
    pub(crate) fn call_erased(&self, request: McpRequest) -> McpFuture {
        match self.call_layer(request) {
            Called::Layer(future) => future,
            Called::Endpoint(request) => Box::pin(endpoint(request)),
        }
    }

    /// Calls the service without boxing the bottom of the stack's future (what [`Next::run`],
    /// the built-ins and the dispatcher use).
    pub(crate) fn call_next(&self, request: McpRequest) -> Call {
        match self.call_layer(request) {
            Called::Layer(future) => Call::Layer(future),
            Called::Endpoint(request) => Call::Endpoint(endpoint(request)),
        }
    }
}

impl Service<McpRequest> for McpService {
    type Response = McpResponse;
    type Error = Infallible;
    type Future = McpFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: McpRequest) -> McpFuture {
        self.call_erased(request)
    }
}

/// The future of [`McpService::call_next`]: a layer's boxed future, or the bottom of the stack's,
/// not boxed.
pub(crate) enum Call {
    Layer(McpFuture),
    Endpoint(Handled),
}

impl Future for Call {
    type Output = Result<McpResponse, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut TaskContext<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            Call::Layer(future) => future.as_mut().poll(cx),
            Call::Endpoint(handled) => Pin::new(handled).poll(cx),
        }
    }
}

impl McpService {
    /// Runs `request` through this stack: the layers, then (at the bottom) its work.
    ///
    /// Not an `async fn`: its future would keep the request beside the stack's, and every
    /// future above it holds that whole. The stack is called here; it runs when this is polled.
    pub(crate) fn run(
        &self,
        request: McpRequest,
    ) -> impl Future<Output = McpResponse> + Send + use<> {
        futures_util::FutureExt::map(self.call_next(request), unwrap)
    }
}

fn unwrap(result: Result<McpResponse, Infallible>) -> McpResponse {
    match result {
        Ok(response) => response,
    }
}

/// The layers of a server, built once when it starts: the server-wide stack, and each handler's
/// own stack by what it is registered under.
pub(crate) struct Layers {
    /// The outer tier, around every message (`None`: empty).
    outer: Option<McpService>,
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
    outer: Vec<Arc<dyn McpLayer>>,
    server: Vec<Arc<dyn McpLayer>>,
    handlers: Vec<(HandlerKind, String, Arc<dyn McpLayer>)>,
}

impl LayerSet {
    pub(crate) fn add_outer(&mut self, layer: Arc<dyn McpLayer>) {
        self.outer.push(layer);
    }

    pub(crate) fn add(&mut self, layer: Arc<dyn McpLayer>) {
        self.server.push(layer);
    }

    pub(crate) fn add_for(&mut self, kind: HandlerKind, key: String, layer: Arc<dyn McpLayer>) {
        self.handlers.push((kind, key, layer));
    }

    /// Takes a mounted server's layers over: around each of its handlers (`adopted`: of which
    /// kind, what it was registered as there, and is here), its server-wide layers, then its
    /// layers of that handler. Refused when it has an outer tier (that wraps every message of a
    /// server, which a mounted server no longer receives).
    pub(crate) fn adopt(
        &mut self,
        mounted: LayerSet,
        adopted: &[(HandlerKind, &'static str, &'static str)],
    ) -> Result<(), &'static str> {
        if !mounted.outer.is_empty() {
            return Err(
                "the mounted server has an outer layer, which would see no message: \
                        add it to the server it is mounted in",
            );
        }
        for &(kind, was, key) in adopted {
            for layer in &mounted.server {
                self.add_for(kind, key.to_owned(), Arc::clone(layer));
            }
            let own = (mounted.handlers.iter()).filter(|(k, name, _)| *k == kind && name == was);
            for (_, _, layer) in own {
                self.add_for(kind, key.to_owned(), Arc::clone(layer));
            }
        }
        Ok(())
    }

    /// The stacks (the empty stack, the bottom alone, when no layer was added). The first
    /// layer added is the outermost.
    pub(crate) fn build(self) -> Layers {
        let stack = |layers: &[&Arc<dyn McpLayer>]| {
            layers
                .iter()
                .rev()
                .fold(McpService::endpoint(), |inner, layer| layer.wrap(inner))
        };
        let server: Vec<&Arc<dyn McpLayer>> = self.server.iter().collect();
        let outer: Vec<&Arc<dyn McpLayer>> = self.outer.iter().collect();
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
        Layers {
            outer: (!outer.is_empty()).then(|| stack(&outer)),
            server: stack(&server),
            handlers,
        }
    }
}

impl Layers {
    /// The outer tier's stack, unless it is empty.
    pub(crate) fn outer(&self) -> Option<&McpService> {
        self.outer.as_ref()
    }

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

#[cfg(test)]
mod tests {
    //! The bottom of the stack when it does not run on the dispatcher's task, or not right away,
    //! or is dropped while the layer that dropped it goes on.

    use crate::layer::{self, McpRequest, McpResponse, Next, Timeout};
    use crate::prelude::*;
    use crate::protocol::ErrorObject;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    /// Adds two numbers after `ms` milliseconds.
    #[tool]
    async fn slow_add(a: i64, b: i64, ms: u64) -> i64 {
        tokio::time::sleep(Duration::from_millis(ms)).await;
        a + b
    }

    static STUCK_DROPPED: AtomicBool = AtomicBool::new(false);

    /// Sets its flag when dropped.
    struct Flag(&'static AtomicBool);

    impl Drop for Flag {
        fn drop(&mut self) {
            self.0.store(true, Ordering::SeqCst);
        }
    }

    /// Never finishes in time; says when it is dropped.
    #[tool]
    async fn stuck() -> String {
        let _flag = Flag(&STUCK_DROPPED);
        tokio::time::sleep(Duration::from_secs(30)).await;
        "late".to_owned()
    }

    static STUCK_TOO_DROPPED: AtomicBool = AtomicBool::new(false);

    /// Never finishes in time; says when it is dropped.
    #[tool]
    async fn stuck_too() -> String {
        let _flag = Flag(&STUCK_TOO_DROPPED);
        tokio::time::sleep(Duration::from_secs(30)).await;
        "late".to_owned()
    }

    fn call(id: u64, tool: &str, arguments: serde_json::Value) -> String {
        serde_json::json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": tool, "arguments": arguments},
        })
        .to_string()
    }

    async fn ask(client: &mut crate::transport::MemoryClient, request: String) -> String {
        tokio::time::timeout(Duration::from_secs(10), client.request(request))
            .await
            .expect("answered in time")
            .expect("answered")
    }

    /// Waits (at most 5 s) until `flag` is set.
    async fn set(flag: &AtomicBool) -> bool {
        for _ in 0..500 {
            if flag.load(Ordering::SeqCst) {
                return true;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        false
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_rest_of_the_stack_may_run_on_another_task_or_wait_before_it_goes_on() {
        let spawning = layer::from_fn(|request: McpRequest, next: Next| async move {
            match tokio::spawn(next.run(request)).await {
                Ok(response) => response,
                Err(_) => McpResponse::error(ErrorObject::internal()),
            }
        });
        let waiting = layer::from_fn(|request: McpRequest, next: Next| async move {
            tokio::time::sleep(Duration::from_millis(5)).await;
            tokio::task::yield_now().await;
            next.run(request).await
        });
        let server = McpServer::new("hand-back")
            .tool(slow_add)
            .unwrap()
            .layer(waiting)
            .layer(spawning)
            .tool_layer("slow_add", Timeout::new(Duration::from_secs(10)))
            .unwrap();
        let mut client = server.serve_memory().await.unwrap();
        for (id, ms) in [(1, 0), (2, 20), (3, 0)] {
            let reply = ask(
                &mut client,
                call(
                    id,
                    "slow_add",
                    serde_json::json!({"a": 2, "b": id, "ms": ms}),
                ),
            )
            .await;
            assert!(
                reply.contains(&format!(r#""text":"{}""#, 2 + id)),
                "{reply}"
            );
        }
    }

    #[tokio::test]
    async fn a_layer_that_drops_its_call_and_answers_later_has_the_handler_dropped_first() {
        let giving_up = layer::from_fn(|request: McpRequest, next: Next| async move {
            let call = next.run(request);
            // The handler starts, then the call is dropped: the handler is dropped with it,
            // while this layer is still running.
            let _ = tokio::time::timeout(Duration::from_millis(50), call).await;
            match set(&STUCK_DROPPED).await {
                true => McpResponse::tool_error("gave up; the tool was dropped"),
                false => McpResponse::tool_error("gave up; the tool still runs"),
            }
        });
        let server = McpServer::new("giving-up")
            .tool(stuck)
            .unwrap()
            .layer(giving_up);
        let mut client = server.serve_memory().await.unwrap();
        let reply = ask(&mut client, call(1, "stuck", serde_json::json!({}))).await;
        assert!(reply.contains("the tool was dropped"), "{reply}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_spawned_rest_of_the_stack_is_the_handler_itself_aborting_it_drops_the_tool() {
        // The rest of the stack runs on a task of its own, which this layer aborts when its call
        // is dropped (the timeout outside it answers first): the tool goes with it, since the
        // bottom of the stack runs the tool itself.
        let holding = layer::from_fn(|request: McpRequest, next: Next| async move {
            let spawned = tokio::spawn(next.run(request));
            let abort = spawned.abort_handle();
            let _abort_on_drop = scopeguard(move || abort.abort());
            match spawned.await {
                Ok(response) => response,
                Err(_) => McpResponse::error(ErrorObject::internal()),
            }
        });
        let server = McpServer::new("gone")
            .tool(stuck_too)
            .unwrap()
            .layer(Timeout::new(Duration::from_millis(50)))
            .layer(holding);
        let mut client = server.serve_memory().await.unwrap();
        let reply = ask(&mut client, call(1, "stuck_too", serde_json::json!({}))).await;
        assert!(reply.contains("timed out"), "{reply}");
        assert!(
            set(&STUCK_TOO_DROPPED).await,
            "the spawned tool was dropped"
        );
    }

    /// Runs `f` when dropped.
    fn scopeguard(f: impl FnOnce()) -> impl Drop {
        struct Guard<F: FnOnce()>(Option<F>);
        impl<F: FnOnce()> Drop for Guard<F> {
            fn drop(&mut self) {
                if let Some(f) = self.0.take() {
                    f();
                }
            }
        }
        Guard(Some(f))
    }
}
