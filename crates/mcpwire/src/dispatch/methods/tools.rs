//! `tools/call`: a tool runs as a plain call, or, on a request that negotiated the tasks
//! extension, as a task.

use super::tasks;
use crate::context::Context;
use crate::dispatch::authorize;
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::pipeline::{HandlerRequest, run_handler};
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{Invocation, request_context, run, start_in, stopped};
use crate::layer::service::HandlerKind;
use crate::layer::{Handed, Kept, McpResponse};
use crate::protocol::methods::TOOLS_CALL;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tasks::TaskSupport;
use crate::protocol::tools::CallToolParams;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::resolve::Stop;
use crate::server::handler::failure;
use crate::server::tool::RegisteredTool;
use std::borrow::Cow;
use std::sync::Arc;

/// Runs the tool `params` names.
/// `Err` when it is refused before it reaches the tool's layers; else their answer. `context`
/// is the request's, when the outer tier made it already.
pub(crate) async fn call_tool(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    mut params: CallToolParams,
    served: Served,
    context: Option<Context>,
) -> Result<McpResponse, ErrorObject> {
    let Some(tool) = exchange.core.snapshot().tools.get(&params.name).cloned() else {
        return Err(errors::unknown("tool", &params.name));
    };
    authorize::admit(exchange, tool.definition.scopes)?;
    let name = tool.definition.name;
    // A call that may become a task keeps the request's `Served` for it; any other moves it
    // into the context the layers see.
    let era = served.era;
    let (context, served) = match (
        era == Era::Modern && tool.definition.task != TaskSupport::Forbidden,
        context,
    ) {
        (true, given) => (
            given.unwrap_or_else(|| request_context(exchange, id, served.clone())),
            Some(served),
        ),
        (false, Some(given)) => (given, None),
        (false, None) => (request_context(exchange, id, served), None),
    };
    let request = HandlerRequest {
        method: TOOLS_CALL,
        target: Cow::Borrowed(name),
        retried: params.request_state.is_some() || params.input_responses.is_some(),
        // Handed on to the tool once the layers pass the request on.
        arguments: params.arguments.take(),
        context,
        own: exchange.core.layers.handler(HandlerKind::Tool, name),
    };
    let (owned, id) = (Arc::clone(exchange), id.clone());
    let handler = move |handed: Handed| async move {
        params.arguments = handed.arguments;
        match served {
            Some(served) => {
                run_tool(
                    &owned,
                    &id,
                    params,
                    served,
                    tool,
                    handed.context,
                    handed.kept,
                )
                .await
            }
            None => run_plain(&owned, params, tool, era, handed.context).await,
        }
    };
    Ok(run_handler(exchange, request, handler).await)
}

/// Runs an admitted tool that takes tasks, on 2026-07-28: as a task when the request negotiated
/// the extension. The outcome, and whether it is an `isError` result. `kept` is what the layers
/// keep alive while a task the call becomes runs.
async fn run_tool(
    exchange: &Exchange,
    id: &RequestId,
    params: CallToolParams,
    served: Served,
    tool: Arc<RegisteredTool>,
    context: Context,
    kept: Option<Kept>,
) -> (MethodResult, bool) {
    if tasks::negotiated(&served) {
        let created = tasks::call_tool(exchange, id, params, served, tool, (&context, kept)).await;
        return (created, false);
    }
    if tool.definition.task == TaskSupport::Required {
        let refused = tasks::not_negotiated(&format!(
            "Tool '{}' runs only as a task",
            tool.definition.name
        ));
        return (Err(refused), false);
    }
    run_plain(exchange, params, tool, served.era, context).await
}

/// Runs an admitted tool, not as a task; the outcome, and whether it is an `isError` result.
async fn run_plain(
    exchange: &Exchange,
    params: CallToolParams,
    tool: Arc<RegisteredTool>,
    era: Era,
    context: Context,
) -> (MethodResult, bool) {
    let target = Target {
        method: TOOLS_CALL,
        name: tool.definition.name,
        arguments: params.arguments.as_deref(),
        principal: exchange.principal.as_deref(),
    };
    let invocation = Invocation {
        target,
        handler: &tool.handler,
        arguments: params.arguments.clone(),
        responses: params.input_responses.as_deref(),
        state: params.request_state.as_deref(),
        uri: None,
        once: tool.definition.once,
        context: None,
    };
    let call = match start_in(exchange, era, invocation, |_| context) {
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
