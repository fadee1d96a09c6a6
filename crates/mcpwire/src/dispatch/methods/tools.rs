//! `tools/call`: a tool runs as a plain call, or, on a request that negotiated the tasks
//! extension, as a task.

use super::tasks;
use crate::dispatch::authorize;
use crate::dispatch::envelope::{Kind, Outcome, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{Invocation, run, start, stopped};
use crate::protocol::tasks::TaskSupport;
use crate::protocol::tools::CallToolParams;
use crate::protocol::{Era, RequestId};
use crate::resolve::Stop;
use crate::server::handler::failure;

/// Runs the tool `params` names.
pub(crate) async fn call_tool(
    exchange: &Exchange,
    id: &RequestId,
    params: CallToolParams,
    served: Served,
) -> Outcome {
    let Some(tool) = exchange.core.snapshot().tools.get(&params.name).cloned() else {
        return Err(errors::unknown("tool", &params.name));
    };
    authorize::admit(exchange, tool.definition.scopes)?;
    if served.era == Era::Modern && tool.definition.task != TaskSupport::Forbidden {
        if tasks::negotiated(&served) {
            return tasks::call_tool(exchange, id, params, served, tool).await;
        }
        if tool.definition.task == TaskSupport::Required {
            return Err(tasks::not_negotiated(&format!(
                "Tool '{}' runs only as a task",
                tool.definition.name
            )));
        }
    }
    let target = Target {
        method: "tools/call",
        name: tool.definition.name,
        arguments: params.arguments.as_deref(),
        principal: exchange.principal.as_deref(),
    };
    let call = start(
        exchange,
        id,
        served,
        Invocation {
            target,
            handler: &tool.handler,
            arguments: params.arguments.clone(),
            responses: params.input_responses.as_deref(),
            state: params.request_state.as_deref(),
            uri: None,
            once: tool.definition.once,
        },
    )?;
    let outcome = run(tool.definition.call, call, "the tool").await;
    let name = tool.definition.name;
    match outcome {
        Ok(result) => Ok((to_json(&result), Kind::Complete)),
        Err(Stop::Failed(error) | Stop::InvalidArguments(error)) => {
            Ok((to_json(&failure(name, &error)), Kind::Complete))
        }
        Err(stop) => stopped(exchange, target, stop),
    }
}
