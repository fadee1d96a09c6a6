//! `prompts/get`.

use crate::dispatch::authorize;
use crate::dispatch::envelope::{Kind, Outcome, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{Invocation, run, start, stopped};
use crate::protocol::jsonrpc::code;
use crate::protocol::prompts::GetPromptParams;
use crate::protocol::{ErrorObject, RequestId};
use crate::resolve::Stop;

/// Renders the prompt `params` names.
pub(crate) async fn get_prompt(
    exchange: &Exchange,
    id: &RequestId,
    params: GetPromptParams,
    served: Served,
) -> Outcome {
    let Some(prompt) = exchange.core.snapshot().prompts.get(&params.name).cloned() else {
        return Err(errors::unknown("prompt", &params.name));
    };
    authorize::admit(exchange, prompt.definition.scopes)?;
    let arguments = params.arguments.as_ref().map(|arguments| {
        serde_json::value::to_raw_value(arguments).expect("string maps serialize")
    });
    let target = Target {
        method: "prompts/get",
        name: prompt.definition.name,
        arguments: arguments.as_deref(),
        principal: exchange.principal.as_deref(),
    };
    let call = start(
        exchange,
        id,
        served,
        Invocation {
            target,
            handler: &prompt.handler,
            arguments: arguments.clone(),
            responses: params.input_responses.as_deref(),
            state: params.request_state.as_deref(),
            uri: None,
            once: false,
        },
    )?;
    let outcome = run(prompt.definition.call, call, "the prompt").await;
    match outcome {
        Ok(result) => Ok((to_json(&result), Kind::Complete)),
        Err(Stop::InvalidArguments(error)) => Err(ErrorObject::invalid_params(format!(
            "Invalid arguments for prompt {}: {error}",
            prompt.definition.name
        ))),
        Err(Stop::Failed(error)) => Err(ErrorObject::new(
            code::INTERNAL_ERROR,
            format!("Error rendering prompt {}: {error}", prompt.definition.name),
        )),
        Err(stop) => stopped(exchange, target, stop),
    }
}
