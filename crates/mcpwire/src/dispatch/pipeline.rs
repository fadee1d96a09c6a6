//! Every admitted request's way through the server's middleware (`mcpwire::layer`): the request
//! a layer sees, made from what the method parsed and carrying the method's own code as its
//! [`Work`]; run through the server-wide stack (the empty stack on a server without layers),
//! whose bottom runs the work; and the answer turned back into the method's.

use super::envelope::{self, MethodResult};
use super::exchange::Exchange;
use crate::context::Context as RequestContext;
use crate::layer::service::Call;
use crate::layer::{Answer, Handed, McpRequest, McpResponse, McpService, Outcome, Work};
use crate::protocol::methods::{Method, TOOLS_CALL};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::server::core::ServerCore;
use crate::wire::shared_json::SharedJson;
use futures_util::FutureExt;
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::OnceLock;
use std::task::{Context, Poll, ready};

/// A handler method's request (`tools/call`, `prompts/get`, `resources/read`), as its layers
/// see it.
pub(crate) struct HandlerRequest {
    pub(crate) method: &'static str,
    pub(crate) target: Cow<'static, str>,
    pub(crate) arguments: Option<SharedJson>,
    /// A later round of a multi-round call.
    pub(crate) retried: bool,
    pub(crate) context: RequestContext,
    /// The handler's own layers.
    pub(crate) own: Option<McpService>,
}

/// Runs a handler method's `handler` (started on what of the request the layers passed on; it
/// gives its outcome, as a [`McpResponse`] tells it) through the server-wide
/// layers, then the handler's own; their answer, marked as having reached its method.
///
/// A plain function returning a named future ([`HandlerRun`]): an `async fn` would keep
/// `request` and `handler` in its future (the handler moved into the work, its space still
/// there) beside the stack's, and a caller holds a named `Unpin` future as it is.
pub(crate) fn run_handler<H, F>(
    exchange: &Exchange,
    request: HandlerRequest,
    handler: H,
) -> HandlerRun
where
    H: FnOnce(Handed) -> F + Send + 'static,
    F: Future + Send + 'static,
    F::Output: Into<McpResponse>,
{
    let HandlerRequest {
        method,
        target,
        arguments,
        retried,
        context,
        own,
    } = request;
    // Recorded here for a context the outer tier made, or one made without its target; one
    // made with it ([`reaching_context`](super::runner::reaching_context)) keeps it as it is.
    context.set_reached(target.clone());
    let layers = exchange.core.layers.server();
    if own.is_none() && layers.is_endpoint() {
        // No layer to go through: the bottom of the stack's work, started here on the request
        // as it is (what the bottom would be handed), without the request the layers would
        // see. Boxed as the work is, so that every request's future stays as small.
        let handed = Handed {
            arguments,
            context,
            kept: None,
        };
        return HandlerRun::Bottom(Box::pin(FutureExt::map(handler(handed), Into::into)));
    }
    // The handler's future, mapped: an `async` block here would keep the handler beside it.
    let work = Work::new(move |handed| FutureExt::map(handler(handed), Into::into));
    let request = McpRequest {
        method: Cow::Borrowed(method),
        target: Some(target),
        arguments,
        arguments_read: OnceLock::new(),
        retried,
        context,
        binding: exchange.principal.clone(),
        handler_layers: own,
        work: Some(work),
        kept: None,
    };
    HandlerRun::Layered(layers.call_next(request))
}

/// A handler method's run ([`run_handler`]), giving the layers' answer, marked as having
/// reached its method. `Unpin`.
pub(crate) enum HandlerRun {
    /// No layer to go through: the handler's own run, boxed.
    Bottom(Pin<Box<dyn Future<Output = McpResponse> + Send>>),
    /// Through the server-wide layers, then the handler's own.
    Layered(Call),
}

impl Future for HandlerRun {
    type Output = McpResponse;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<McpResponse> {
        Poll::Ready(match self.get_mut() {
            HandlerRun::Bottom(run) => reached(ready!(run.as_mut().poll(cx))),
            HandlerRun::Layered(call) => {
                let Ok(response) = ready!(Pin::new(call).poll(cx));
                reached(response)
            }
        })
    }
}

/// `response`, marked as the answer of a request that reached its method.
pub(crate) fn reached(mut response: McpResponse) -> McpResponse {
    response.reached = true;
    response
}

/// A request's answer as the transport sends it: its response line and how the request ended,
/// or the JSON-RPC error to answer with.
pub(crate) type Written = Result<(String, Outcome), ErrorObject>;

/// Writes the answer `response` to the request `id` (`method`, served under `era`).
pub(crate) fn write(
    core: &ServerCore,
    (id, era, method): (&RequestId, Era, &str),
    response: McpResponse,
) -> Written {
    let outcome = response.outcome();
    match response.answer {
        Answer::Line { line, .. } => Ok((line, outcome)),
        Answer::Result { json, kind, .. } => {
            Ok((envelope::result_of(core, era, id, json, kind), outcome))
        }
        Answer::Refused(error) if method == TOOLS_CALL => {
            let json = McpResponse::refusal_result(&error.message);
            Ok((
                envelope::result(core, era, id, &json, ResultKind::Complete),
                outcome,
            ))
        }
        Answer::Error(error) | Answer::Refused(error) => Err(error),
    }
}

/// A handler method's outcome (and whether it is a tool's `isError` result), as the layers see
/// it.
impl From<(MethodResult, bool)> for McpResponse {
    fn from((outcome, tool_error): (MethodResult, bool)) -> Self {
        McpResponse::of(match outcome {
            Ok((json, kind)) => Answer::Result {
                json: json.into(),
                kind,
                tool_error,
            },
            Err(error) => Answer::Error(error),
        })
    }
}

/// A method other than the handler methods (a list, `ping`, `tasks/get`, …), admitted, on its
/// way through the server-wide layers.
pub(crate) struct MethodRequest<'a> {
    pub(crate) method: &'a str,
    /// `method`, when the server knows it.
    pub(crate) known: Option<Method>,
    /// What the layers see as the request's target.
    pub(crate) target: Option<&'a str>,
    pub(crate) context: RequestContext,
}

/// Runs `work`, which writes the method's response line, through the server-wide layers; their
/// answer, marked as having reached its method. A plain function returning the stack's future,
/// as [`run_handler`].
pub(crate) fn run_method<W>(
    exchange: &Exchange,
    request: MethodRequest<'_>,
    work: W,
) -> impl Future<Output = McpResponse> + Send + use<W>
where
    W: Future<Output = Result<String, ErrorObject>> + Send + 'static,
{
    let MethodRequest {
        method,
        known,
        target,
        context,
    } = request;
    let target: Option<Cow<'static, str>> = target.map(|target| Cow::Owned(target.to_owned()));
    if let Some(target) = &target {
        context.set_reached(target.clone());
    }
    let request = McpRequest {
        method: method_name(method, known),
        target,
        arguments: None,
        arguments_read: OnceLock::new(),
        retried: false,
        context,
        binding: exchange.principal.clone(),
        handler_layers: None,
        work: Some(Work::new(|_| async move { line(work.await) })),
        kept: None,
    };
    futures_util::FutureExt::map(exchange.core.layers.server().run(request), reached)
}

/// A method's response line (or error), as the layers see it.
pub(crate) fn line(written: Result<String, ErrorObject>) -> McpResponse {
    McpResponse::of(match written {
        Ok(line) => Answer::Line {
            line,
            outcome: Outcome::Complete,
        },
        Err(error) => Answer::Error(error),
    })
}

/// The method's name as the request keeps it: borrowed for the methods the server knows.
pub(crate) fn method_name(method: &str, known: Option<Method>) -> Cow<'static, str> {
    match known {
        Some(known) => Cow::Borrowed(known.name()),
        None => Cow::Owned(method.chars().take(128).collect()),
    }
}
