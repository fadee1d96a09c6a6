//! `tools/call`: a tool runs as a plain call, or, on a request that negotiated the tasks
//! extension, as a task.

use super::tasks;
use crate::context::Context;
use crate::dispatch::authorize;
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::layered::{self, HandlerRequest};
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{Invocation, request_context, run, start, start_in, stopped};
use crate::layer::Kept;
use crate::layer::service::{HandlerKind, Layered, Reached};
use crate::protocol::methods::TOOLS_CALL;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tasks::TaskSupport;
use crate::protocol::tools::CallToolParams;
use crate::protocol::{Era, RequestId};
use crate::resolve::Stop;
use crate::server::handler::failure;
use crate::server::tool::RegisteredTool;
use std::borrow::Cow;
use std::pin::pin;
use std::sync::Arc;

/// Runs the tool `params` names.
pub(crate) async fn call_tool(
    exchange: &Exchange,
    id: &RequestId,
    mut params: CallToolParams,
    served: Served,
) -> MethodResult {
    let Some(tool) = exchange.core.snapshot().tools.get(&params.name).cloned() else {
        return Err(errors::unknown("tool", &params.name));
    };
    authorize::admit(exchange, tool.definition.scopes)?;
    let Some(layers) = exchange.core.layers.as_deref() else {
        return run_tool(exchange, id, params, served, tool, None, None)
            .await
            .0;
    };
    // Not through `around_handler`, and not boxed: the tool's future is pinned here, where the
    // unlayered path keeps it, so a layered call moves and allocates no more of it.
    let name = tool.definition.name;
    // A call that may become a task keeps the request's `Served` for it; any other moves it
    // into the context the layers see.
    let era = served.era;
    let (context, served) =
        match era == Era::Modern && tool.definition.task != TaskSupport::Forbidden {
            true => (request_context(exchange, id, served.clone()), Some(served)),
            false => (request_context(exchange, id, served), None),
        };
    let request = HandlerRequest {
        method: TOOLS_CALL,
        target: Cow::Borrowed(name),
        retried: params.request_state.is_some() || params.input_responses.is_some(),
        // Handed back with the request once the layers pass it on.
        arguments: params.arguments.take(),
        context,
        own: layers.handler(HandlerKind::Tool, name),
    };
    let mut stack = Layered::start(layers.server(), layered::mcp_request(exchange, request));
    let (arguments, context, kept) = match stack.reach().await {
        Reached::Answered(answered) => return layered::method_result(TOOLS_CALL, answered),
        Reached::Handler(handed) => (handed.arguments, handed.context, handed.kept),
    };
    params.arguments = arguments;
    let running = pin!(Some(async move {
        match served {
            Some(served) => run_tool(exchange, id, params, served, tool, Some(context), kept).await,
            None => run_plain(exchange, id, params, tool, Scope::Made(era, context)).await,
        }
    }));
    let answered = stack.finish(running, layered::response).await;
    layered::method_result(TOOLS_CALL, answered)
}

/// Runs an admitted tool; the outcome, and whether it is an `isError` result. `kept` is what
/// the layers keep alive while a task the call becomes runs.
async fn run_tool(
    exchange: &Exchange,
    id: &RequestId,
    params: CallToolParams,
    served: Served,
    tool: Arc<RegisteredTool>,
    context: Option<Context>,
    kept: Option<Kept>,
) -> (MethodResult, bool) {
    if served.era == Era::Modern && tool.definition.task != TaskSupport::Forbidden {
        if tasks::negotiated(&served) {
            let created = tasks::call_tool(exchange, id, params, served, tool, kept).await;
            return (created, false);
        }
        if tool.definition.task == TaskSupport::Required {
            let refused = tasks::not_negotiated(&format!(
                "Tool '{}' runs only as a task",
                tool.definition.name
            ));
            return (Err(refused), false);
        }
    }
    run_plain(exchange, id, params, tool, Scope::Served(served, context)).await
}

/// What a tool's context is made from.
enum Scope {
    /// The request's revision data (and the context, if the layers made it already).
    Served(Served, Option<Context>),
    /// The context the layers made, and the revision family.
    Made(Era, Context),
}

/// Runs an admitted tool, not as a task; the outcome, and whether it is an `isError` result.
async fn run_plain(
    exchange: &Exchange,
    id: &RequestId,
    params: CallToolParams,
    tool: Arc<RegisteredTool>,
    scope: Scope,
) -> (MethodResult, bool) {
    let target = Target {
        method: TOOLS_CALL,
        name: tool.definition.name,
        arguments: params.arguments.as_deref(),
        principal: exchange.principal.as_deref(),
    };
    let invocation = |context| Invocation {
        target,
        handler: &tool.handler,
        arguments: params.arguments.clone(),
        responses: params.input_responses.as_deref(),
        state: params.request_state.as_deref(),
        uri: None,
        once: tool.definition.once,
        context,
    };
    let started = match scope {
        Scope::Served(served, context) => start(exchange, id, served, invocation(context)),
        Scope::Made(era, context) => start_in(exchange, era, invocation(None), |_| context),
    };
    let call = match started {
        Ok(call) => call,
        Err(error) => return (Err(error), false),
    };
    let outcome = run(tool.definition.call, call, "the tool").await;
    let name = tool.definition.name;
    match outcome {
        Ok(result) => {
            let failed = result.is_error == Some(true);
            (Ok((to_json(&result), ResultKind::Complete)), failed)
        }
        Err(Stop::Failed(error) | Stop::InvalidArguments(error)) => (
            Ok((to_json(&failure(name, &error)), ResultKind::Complete)),
            true,
        ),
        Err(stop) => (stopped(exchange, target, stop), false),
    }
}
