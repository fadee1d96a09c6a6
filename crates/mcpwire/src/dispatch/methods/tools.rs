//! `tools/call`: a tool runs as a plain call, unless an extension's hook takes the call over
//! (the tasks extension runs it as a task on a request that negotiated it).

use crate::context::{Context, LazyContext};
use crate::dispatch::authorize;
use crate::dispatch::call_inputs::CallInputs;
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::intercepted::{Intercepted, called_tool};
use crate::dispatch::pipeline::{HandlerRequest, HandlerRun, run_handler};
use crate::dispatch::preread::{CalledName, PlainCall};
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{
    Invocation, lazy_reaching_context, reaching_context, run, start, stopped,
};
use crate::dispatch::running::Running;
use crate::layer::service::HandlerKind;
use crate::layer::{Answer, Handed, McpResponse};
use crate::protocol::methods::TOOLS_CALL;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tools::CallToolParams;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::resolve::Stop;
use crate::server::handler::{CallKept, failure};
use crate::server::tool::{RegisteredTool, ToolFuture};
use crate::server::tool_output::ToolOutput;
use crate::wire::shared_json::SharedJson;
use futures_util::FutureExt;
use futures_util::future::Either;
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, ready};

/// Runs the tool `params` names.
/// `Err` when it is refused before it reaches the tool's layers; else the future of their
/// answer (a plain function: what it does before the layers adds nothing to that future).
/// `context` is the request's, when the outer tier made it already.
pub(crate) fn call_tool(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    params: CallToolParams,
    served: Served,
    context: Option<Context>,
) -> Result<HandlerRun, ErrorObject> {
    let tool = registered(exchange, &params.name)?;
    let inputs = CallInputs::from(params);
    start_found(exchange, id, tool, inputs, served, context).map(HandlerRun::from)
}

/// Starts the plain call a transport read (`call`): the tool found as it was read, or the one
/// the name it sent (an alias) names now.
pub(crate) fn start_read(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    call: PlainCall,
    served: Served,
    context: Option<Context>,
) -> Result<ToolRun, ErrorObject> {
    let tool = match call.tool {
        CalledName::Registered(tool) => tool,
        CalledName::Sent(name) => registered(exchange, &name)?,
    };
    let inputs = CallInputs::first(call.arguments);
    start_found(exchange, id, tool, inputs, served, context)
}

/// The tool registered under `name` (or an alias of it), as the registry is now.
fn registered(exchange: &Exchange, name: &str) -> Result<Arc<RegisteredTool>, ErrorObject> {
    let tools = &exchange.core.snapshot().tools;
    tools
        .get(name)
        .cloned()
        .ok_or_else(|| errors::unknown("tool", name))
}

/// A found tool's run: its own, or through the layers.
pub(crate) enum ToolRun {
    /// Nothing stands between the request and the tool: no layer (the server's or the tool's
    /// own), no extension that wants the call, no context made before it. The tool's run, held
    /// as it is; its context is made only if the call asks for it.
    Plain(PlainRun),
    /// Through the layers (or an extension that may take the call over).
    Stacked(HandlerRun),
}

/// A tool's run as the router holds every method's: a plain run boxed, as a run through the
/// layers is.
impl From<ToolRun> for HandlerRun {
    fn from(run: ToolRun) -> Self {
        match run {
            ToolRun::Plain(run) => {
                HandlerRun::Bottom(Box::pin(FutureExt::map(run, McpResponse::from)))
            }
            ToolRun::Stacked(run) => run,
        }
    }
}

/// The tool a request named, found, started: its scope decision, then its plain run when nothing
/// stands between the request and the tool, else its run through the layers.
fn start_found(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    tool: Arc<RegisteredTool>,
    mut inputs: CallInputs,
    served: Served,
    context: Option<Context>,
) -> Result<ToolRun, ErrorObject> {
    authorize::admit(exchange, tool.definition.scopes)?;
    let name = tool.definition.name;
    // A call an extension may take over keeps the request's `Served` for it; any other moves it
    // into the context the layers see.
    let era = served.era;
    let interceptors = (exchange.core.extensions).interceptors_of(&called_tool(&tool), era);
    let layers = &exchange.core.layers;
    let own = layers.handler(HandlerKind::Tool, name);
    if interceptors.is_none() && context.is_none() && own.is_none() && layers.server().is_endpoint()
    {
        let context = lazy_reaching_context(exchange, id, served, name);
        let arguments = inputs.arguments.take();
        let owned = Arc::clone(exchange);
        return Ok(ToolRun::Plain(run_plain(
            owned,
            arguments,
            inputs.round(),
            tool,
            era,
            context,
        )));
    }
    let (context, served) = match (interceptors, context) {
        (Some(interceptors), given) => (
            given.unwrap_or_else(|| reaching_context(exchange, id, served.clone(), name)),
            Some((served, interceptors)),
        ),
        (None, Some(given)) => (given, None),
        (None, None) => (reaching_context(exchange, id, served, name), None),
    };
    let request = HandlerRequest {
        method: TOOLS_CALL,
        target: Cow::Borrowed(name),
        retried: inputs.request_state.is_some() || inputs.input_responses.is_some(),
        // Handed on to the tool once the layers pass the request on.
        arguments: inputs.arguments.take(),
        context,
        own,
    };
    let (owned, id) = (Arc::clone(exchange), id.clone());
    // A plain call's future is the tool's run alone; one an extension may take over is boxed
    // apart, so that the plain call's does not hold its state.
    let handler = move |handed: Handed| {
        inputs.arguments = handed.arguments;
        let Some((served, interceptors)) = served else {
            let arguments = inputs.arguments.take();
            let run = run_plain(
                owned,
                arguments,
                inputs.round(),
                tool,
                era,
                handed.context.into(),
            );
            return Either::Left(FutureExt::map(run, McpResponse::from));
        };
        Either::Right(Box::pin(async move {
            let mut call = Intercepted {
                exchange: &owned,
                id: &id,
                served,
                tool,
                inputs,
                context: handed.context,
                kept: handed.kept,
            };
            for interceptor in &interceptors {
                if let Some(answer) = interceptor.intercept(&mut call) {
                    return McpResponse::from((answer.await, false));
                }
            }
            let exchange = Arc::clone(&owned);
            let mut inputs = call.inputs;
            let arguments = inputs.arguments.take();
            let round = inputs.round();
            run_plain(
                exchange,
                arguments,
                round,
                call.tool,
                era,
                call.context.into(),
            )
            .await
            .into()
        }) as Intercepting)
    };
    Ok(ToolRun::Stacked(run_handler(exchange, request, handler)))
}

/// The future of a call an extension may take over.
type Intercepting = Pin<Box<dyn Future<Output = McpResponse> + Send>>;

/// Runs an admitted tool as a plain call on `arguments` and, in a later round, what the client
/// sent for it (`round`: its `inputResponses` and `requestState`), with `context` (given, or
/// made when the call asks for it): what it does before the tool runs is done here, and the
/// future returned ([`PlainRun`]) is the tool's run and the reading of its outcome.
///
/// Inlined, so that a context not made yet is written where the kept call holds it, not moved
/// there through this function's arguments.
#[inline(always)]
pub(crate) fn run_plain(
    exchange: Arc<Exchange>,
    arguments: Option<SharedJson>,
    (responses, state): (Option<&RawValue>, Option<&str>),
    tool: Arc<RegisteredTool>,
    era: Era,
    context: LazyContext,
) -> PlainRun {
    let kept = CallKept::new(arguments, context);
    let name = tool.definition.name;
    let invocation = Invocation {
        target: bound_to(name, &kept, &exchange),
        handler: &tool.handler,
        kept: Arc::clone(&kept),
        responses,
        state,
        uri: None,
        once: tool.definition.once,
    };
    let call = match start(&exchange, era, invocation) {
        Ok(call) => call,
        Err(error) => return PlainRun::Refused(Some(error)),
    };
    PlainRun::Running {
        running: run(tool.definition.call, call, "the tool"),
        name,
        kept,
        exchange,
    }
}

/// How a plain call ended: the tool's output as it gave it (structured output is written when it
/// is sent, [`envelope::result_of`]), or the method's outcome.
///
/// [`envelope::result_of`]: crate::dispatch::envelope::result_of
pub(crate) enum PlainOutcome {
    /// The tool's output.
    Output(ToolOutput),
    /// Any other end (a failure result, a protocol error, questions for the client), as the
    /// method's outcome, and whether it is an `isError` result.
    Ended((MethodResult, bool)),
}

/// A plain call's end, as the layers see it.
impl From<PlainOutcome> for McpResponse {
    fn from(outcome: PlainOutcome) -> Self {
        match outcome {
            PlainOutcome::Output(output) => {
                let tool_error = output.is_error();
                McpResponse::of(Answer::Result {
                    json: output.into_result_json(),
                    kind: ResultKind::Complete,
                    tool_error,
                })
            }
            PlainOutcome::Ended(outcome) => outcome.into(),
        }
    }
}

/// A plain call of a tool, as one future: how it ended ([`PlainOutcome`]).
///
/// Named (not a mapped future) so that a caller can hold it as it is: it is `Unpin`, as the
/// tool's own future is boxed.
pub(crate) enum PlainRun {
    /// Refused before the tool ran (its round's inputs did not verify); `None` once answered.
    Refused(Option<ErrorObject>),
    /// The tool running, and what reading its outcome needs.
    Running {
        running: Running<ToolFuture>,
        name: &'static str,
        kept: Arc<CallKept>,
        exchange: Arc<Exchange>,
    },
}

impl Future for PlainRun {
    type Output = PlainOutcome;

    fn poll(self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            PlainRun::Refused(error) => {
                let error = error.take().expect("polled after it finished");
                Poll::Ready(PlainOutcome::Ended((Err(error), false)))
            }
            PlainRun::Running {
                running,
                name,
                kept,
                exchange,
            } => {
                let outcome = ready!(Pin::new(running).poll(cx));
                Poll::Ready(read_outcome(outcome, name, kept, exchange))
            }
        }
    }
}

/// What the call of tool `name` (with the arguments in `kept`) ended in.
fn read_outcome(
    outcome: Result<ToolOutput, Stop>,
    name: &'static str,
    kept: &CallKept,
    exchange: &Exchange,
) -> PlainOutcome {
    PlainOutcome::Ended(match outcome {
        Ok(result) => return PlainOutcome::Output(result),
        Err(Stop::Failed(error) | Stop::InvalidArguments(error)) => (
            Ok((to_json(&failure(name, &error)), ResultKind::Complete)),
            true,
        ),
        Err(stop) => (
            stopped(exchange, bound_to(name, kept, exchange), stop),
            false,
        ),
    })
}

/// What a call of tool `name` with the arguments in `kept` binds its round's `requestState` to.
fn bound_to<'a>(name: &'a str, kept: &'a CallKept, exchange: &'a Exchange) -> Target<'a> {
    Target {
        method: TOOLS_CALL,
        name,
        arguments: kept.arguments.as_ref().map(SharedJson::get),
        principal: exchange.principal.as_deref(),
    }
}
