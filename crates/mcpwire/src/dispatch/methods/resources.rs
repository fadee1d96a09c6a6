//! `resources/read`, and on a 2025-11-25 session `resources/subscribe` and
//! `resources/unsubscribe`.

use crate::context::Context;
use crate::dispatch::authorize;
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::errors;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::pipeline::{HandlerRequest, run_handler};
use crate::dispatch::rounds::Target;
use crate::dispatch::runner::{Invocation, request_context, run, start, stopped};
use crate::layer::service::HandlerKind;
use crate::layer::{Handed, McpResponse};
use crate::protocol::cache_hint::CacheHint;
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::RESOURCES_READ;
use crate::protocol::resources::{ReadResourceParams, ReadResourceResult};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::resolve::Stop;
use crate::server::handler::{CallKept, Handler};
use crate::server::resource::ResourceDefinition;
use crate::wire::shared_json::SharedJson;
use std::borrow::Cow;
use std::future::Future;
use std::sync::Arc;

/// Reads the resource `params.uri` names.
/// `Err` when it is refused before it reaches its layers; else the future of their
/// answer (a plain function: what it does before the layers adds nothing to that future).
/// `context` is the request's, when the outer tier made it already.
pub(crate) fn read_resource(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    params: ReadResourceParams,
    served: Served,
    context: Option<Context>,
) -> Result<impl Future<Output = McpResponse> + Send + use<>, ErrorObject> {
    let era = served.era;
    let found = exchange
        .core
        .snapshot()
        .resources
        .find(&params.uri)
        .map(|(resource, variables)| (resource.clone(), variables));
    let Some((resource, variables)) = found else {
        return Err(errors::not_found(era, &params.uri));
    };
    authorize::admit(exchange, resource.definition.scopes)?;
    let arguments = (!variables.is_empty())
        .then(|| serde_json::value::to_raw_value(&variables).expect("variables serialize"))
        .map(SharedJson::from);
    let request = HandlerRequest {
        method: RESOURCES_READ,
        target: Cow::Owned(params.uri.clone()),
        // Handed on to the resource once the layers pass the request on.
        arguments,
        retried: params.request_state.is_some() || params.input_responses.is_some(),
        context: context.unwrap_or_else(|| request_context(exchange, id, served)),
        own: (exchange.core.layers).handler(HandlerKind::Resource, resource.definition.uri),
    };
    let owned = Arc::clone(exchange);
    let handler = move |handed: Handed| async move {
        let answer = read(
            &owned,
            &params,
            era,
            (&resource.definition, &resource.handler),
            handed.arguments,
            handed.context,
        );
        (answer.await, false)
    };
    Ok(run_handler(exchange, request, handler))
}

/// Reads an admitted resource.
async fn read(
    exchange: &Arc<Exchange>,
    params: &ReadResourceParams,
    era: Era,
    (definition, handler): (&ResourceDefinition, &Arc<Handler>),
    arguments: Option<SharedJson>,
    context: Context,
) -> MethodResult {
    let target = Target {
        method: RESOURCES_READ,
        name: &params.uri,
        arguments: None,
        principal: exchange.principal.as_deref(),
    };
    let call = start(
        exchange,
        era,
        Invocation {
            target,
            handler,
            kept: CallKept::new(arguments, context.into()),
            responses: params.input_responses.as_deref(),
            state: params.request_state.as_deref(),
            uri: Some(params.uri.clone()),
            once: false,
        },
    )?;
    // The answer to a retried round must not be cached (the client may not reuse it either);
    // anything served to a principal is that principal's alone.
    let retried = params.request_state.is_some() || params.input_responses.is_some();
    let hint = if retried {
        CacheHint::NONE
    } else {
        definition.cache_hint()
    };
    let hint = hint.for_principal(exchange.principal.as_deref());
    let outcome = run(definition.call, call, "the resource").await;
    match outcome {
        Ok(contents) => Ok((
            to_json(&ReadResourceResult { contents }),
            ResultKind::Cacheable(hint),
        )),
        Err(Stop::InvalidArguments(_)) => Err(errors::not_found(era, &params.uri)),
        Err(Stop::Failed(error)) => Err(ErrorObject::new(
            code::INTERNAL_ERROR,
            format!("Error reading resource {}: {error}", params.uri),
        )),
        Err(stop) => stopped(exchange, target, stop),
    }
}
