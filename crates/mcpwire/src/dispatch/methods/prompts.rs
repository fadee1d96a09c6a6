//! `prompts/get`.

use crate::context::Context;
use crate::dispatch::authorize;
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::pipeline::{HandlerRequest, run_handler};
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{Invocation, reaching_context, run, start, stopped};
use crate::layer::service::HandlerKind;
use crate::layer::{Handed, McpResponse};
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::PROMPTS_GET;
use crate::protocol::prompts::GetPromptParams;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::resolve::Stop;
use crate::server::handler::{CallKept, Handler};
use crate::server::prompt::PromptDefinition;
use crate::wire::shared_json::SharedJson;
use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

/// Renders the prompt `params` names.
/// `Err` when it is refused before it reaches its layers; else the future of their
/// answer (a plain function: what it does before the layers adds nothing to that future).
/// `context` is the request's, when the outer tier made it already.
pub(crate) fn get_prompt(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    params: GetPromptParams,
    served: Served,
    context: Option<Context>,
) -> Result<impl Future<Output = McpResponse> + Send + use<>, ErrorObject> {
    let Some(prompt) = exchange.core.snapshot().prompts.get(&params.name).cloned() else {
        return Err(errors::unknown("prompt", &params.name));
    };
    authorize::admit(exchange, prompt.definition.scopes)?;
    let arguments = params.arguments.as_ref().map(|arguments| {
        SharedJson::from(serde_json::value::to_raw_value(arguments).expect("string maps serialize"))
    });
    let name = prompt.definition.name;
    let era = served.era;
    let request = HandlerRequest {
        method: PROMPTS_GET,
        target: Cow::Borrowed(name),
        // Handed on to the prompt once the layers pass the request on.
        arguments,
        retried: params.request_state.is_some() || params.input_responses.is_some(),
        context: context.unwrap_or_else(|| reaching_context(exchange, id, served, name)),
        own: exchange.core.layers.handler(HandlerKind::Prompt, name),
    };
    let owned = Arc::clone(exchange);
    let handler = move |handed: Handed| async move {
        let rendered = render(
            &owned,
            &params,
            era,
            (&prompt.definition, &prompt.handler),
            handed.arguments,
            handed.context,
        );
        (rendered.await, false)
    };
    Ok(run_handler(exchange, request, handler))
}

/// Renders an admitted prompt.
async fn render(
    exchange: &Arc<Exchange>,
    params: &GetPromptParams,
    era: Era,
    (definition, handler): (&PromptDefinition, &Arc<Handler>),
    arguments: Option<SharedJson>,
    context: Context,
) -> MethodResult {
    let kept = CallKept::new(arguments, context.into());
    let target = Target {
        method: PROMPTS_GET,
        name: definition.name,
        arguments: kept.arguments.as_ref().map(SharedJson::get),
        principal: exchange.principal.as_deref(),
    };
    let call = start(
        exchange,
        era,
        Invocation {
            target,
            handler,
            kept: Arc::clone(&kept),
            responses: params.input_responses.as_deref(),
            state: params.request_state.as_deref(),
            uri: None,
            once: false,
        },
    )?;
    let outcome = run(definition.call, call, "the prompt").await;
    match outcome {
        Ok(result) => Ok((to_json(&result), ResultKind::Complete)),
        Err(Stop::InvalidArguments(error)) => Err(ErrorObject::invalid_params(format!(
            "Invalid arguments for prompt {}: {error}",
            definition.name
        ))),
        Err(Stop::Failed(error)) => Err(ErrorObject::new(
            code::INTERNAL_ERROR,
            format!("Error rendering prompt {}: {error}", definition.name),
        )),
        Err(stop) => stopped(exchange, target, stop),
    }
}
