//! Running the handlers that may ask questions: `tools/call`, `prompts/get`, `resources/read`.
//! Each gets a `Context`, its round's inputs (2026-07-28), a panic guard, and the mapping of how
//! it stopped onto the wire.

use super::authorize;
use super::envelope::Kind;
use super::era::Served;
use super::rounds::{self, Target};
use super::router::Exchange;
use crate::context::{Context, RequestScope};
use crate::error::ToolError;
use crate::protocol::completion::CompleteParams;
use crate::protocol::jsonrpc::code;
use crate::protocol::prompts::GetPromptParams;
use crate::protocol::resources::{ReadResourceParams, ReadResourceResult};
use crate::protocol::tasks::TaskSupport;
use crate::protocol::tools::CallToolParams;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::resolve::run::panic_message;
use crate::resolve::{RoundInputs, Stop};
use crate::server::cache::CacheHint;
use crate::server::completion;
use crate::server::handler::{Handler, HandlerCall, failure};
use futures_util::FutureExt;
use serde::Serialize;
use serde_json::value::RawValue;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// A response body and the kind of result it is.
pub(crate) type Reply = Result<(String, Kind), ErrorObject>;

pub(crate) async fn call_tool(
    exchange: &Exchange,
    id: &RequestId,
    params: CallToolParams,
    served: Served,
) -> Reply {
    let Some(tool) = exchange.core.snapshot().tools.get(&params.name).cloned() else {
        return Err(unknown("tool", &params.name));
    };
    authorize::admit(exchange, tool.definition.scopes)?;
    if served.era == Era::Modern && tool.definition.task != TaskSupport::Forbidden {
        if super::tasks::negotiated(&served) {
            return super::tasks::call_tool(exchange, id, params, served, tool).await;
        }
        if tool.definition.task == TaskSupport::Required {
            return Err(super::tasks::not_negotiated(&format!(
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

pub(crate) async fn get_prompt(
    exchange: &Exchange,
    id: &RequestId,
    params: GetPromptParams,
    served: Served,
) -> Reply {
    let Some(prompt) = exchange.core.snapshot().prompts.get(&params.name).cloned() else {
        return Err(unknown("prompt", &params.name));
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

pub(crate) async fn read_resource(
    exchange: &Exchange,
    id: &RequestId,
    params: ReadResourceParams,
    served: Served,
) -> Reply {
    let era = served.era;
    let found = exchange
        .core
        .snapshot()
        .resources
        .find(&params.uri)
        .map(|(resource, variables)| (resource.clone(), variables));
    let Some((resource, variables)) = found else {
        return Err(not_found(era, &params.uri));
    };
    authorize::admit(exchange, resource.definition.scopes)?;
    let arguments = (!variables.is_empty())
        .then(|| serde_json::value::to_raw_value(&variables).expect("variables serialize"));
    let target = Target {
        method: "resources/read",
        name: &params.uri,
        arguments: None,
        principal: exchange.principal.as_deref(),
    };
    let call = start(
        exchange,
        id,
        served,
        Invocation {
            target,
            handler: &resource.handler,
            arguments,
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
        resource.definition.cache_hint()
    };
    let hint = hint.for_principal(exchange.principal.as_deref());
    let outcome = run(resource.definition.call, call, "the resource").await;
    match outcome {
        Ok(contents) => Ok((
            to_json(&ReadResourceResult { contents }),
            Kind::Cacheable(hint),
        )),
        Err(Stop::InvalidArguments(_)) => Err(not_found(era, &params.uri)),
        Err(Stop::Failed(error)) => Err(ErrorObject::new(
            code::INTERNAL_ERROR,
            format!("Error reading resource {}: {error}", params.uri),
        )),
        Err(stop) => stopped(exchange, target, stop),
    }
}

/// A resource that does not exist: `-32002` on 2025-11-25, `-32602` on 2026-07-28.
pub(crate) fn not_found(era: Era, uri: &str) -> ErrorObject {
    let code = match era {
        Era::Legacy => code::RESOURCE_NOT_FOUND_LEGACY,
        Era::Modern => code::INVALID_PARAMS,
    };
    ErrorObject::new(code, "Resource not found").with_data(serde_json::json!({ "uri": uri }))
}

/// `-32602` for a tool or prompt this server does not have (`what` is `tool` or `prompt`);
/// the name is cut to 128 characters.
fn unknown(what: &'static str, name: &str) -> ErrorObject {
    let name: String = name.chars().take(128).collect();
    ErrorObject::invalid_params(format!("Unknown {what}: {name}"))
}

/// A handler about to run: what its `requestState` is bound to, and what it is called with.
pub(crate) struct Invocation<'a> {
    pub(crate) target: Target<'a>,
    pub(crate) handler: &'a Arc<Handler>,
    pub(crate) arguments: Option<Box<RawValue>>,
    pub(crate) responses: Option<&'a RawValue>,
    pub(crate) state: Option<&'a str>,
    pub(crate) uri: Option<String>,
    /// Whether a replayed final round is refused (`#[tool(once)]`).
    pub(crate) once: bool,
}

/// The call a handler runs with: its context and, on 2026-07-28, its round's verified inputs.
pub(crate) fn start(
    exchange: &Exchange,
    id: &RequestId,
    served: Served,
    invocation: Invocation<'_>,
) -> Result<HandlerCall, ErrorObject> {
    let Invocation {
        target,
        handler,
        arguments,
        responses,
        state,
        uri,
        once,
    } = invocation;
    let round = match served.era {
        Era::Modern => rounds::open(&exchange.core, target, responses, state)?,
        Era::Legacy => RoundInputs::default(),
    };
    Ok(HandlerCall {
        context: request_context(exchange, id, served),
        arguments,
        handler: handler.clone(),
        round,
        uri,
        replay_guard: once.then(|| exchange.core.replay_guard.clone()),
        raised: Default::default(),
        resolved: Default::default(),
    })
}

/// The `Context` of the request `id`, served as `served`.
fn request_context(exchange: &Exchange, id: &RequestId, served: Served) -> Context {
    let core = &exchange.core;
    let era = served.era;
    Context::new(RequestScope {
        request_id: id.clone(),
        era,
        protocol_version: served.protocol_version,
        client_capabilities: served.capabilities,
        client_info: served.client_info,
        progress_token: served.progress_token,
        log_level: served.log_level,
        state: core.state.clone(),
        outbound: exchange.outbound.clone(),
        headers: exchange.headers.clone(),
        principal: exchange.subject.clone(),
        grant: exchange.grant.clone(),
        notifier: core.notifier.clone(),
        client_requests: (era == Era::Legacy).then(|| exchange.session.client_requests().clone()),
        client_request_timeout: core.limits.client_request_timeout,
        open_url_elicitations: Default::default(),
        task: None,
    })
}

/// Answers `completion/complete` with the server's completer, given the request's context; a
/// panic in the completer is an internal error, and the server keeps serving.
pub(crate) async fn complete(
    exchange: &Exchange,
    id: &RequestId,
    params: CompleteParams,
    served: Served,
) -> Reply {
    let core = &exchange.core;
    let Some(completer) = core.completer.as_ref() else {
        return Err(ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found"));
    };
    let context = request_context(exchange, id, served);
    let admit = |scopes: &[&str]| authorize::admit(exchange, scopes);
    let completing = completion::complete(core, completer, params, context, admit);
    let answer = caught(completing, "the completer")
        .await
        .unwrap_or_else(|| {
            Err(ErrorObject::new(
                code::INTERNAL_ERROR,
                "Internal error: the completer failed",
            ))
        })?;
    Ok((to_json(&answer), Kind::Complete))
}

/// Runs a handler on `call`, turning a panic into a failure (the panic message goes to the
/// log) and a body's [`ToolError::protocol`] into its JSON-RPC error; then owes the client
/// nothing: URL-mode elicitations the call left open are completed.
pub(crate) async fn run<T, F>(
    handler: fn(HandlerCall) -> F,
    call: HandlerCall,
    what: &'static str,
) -> Result<T, Stop>
where
    F: Future<Output = Result<T, Stop>>,
{
    let context = call.context();
    let raised = call.raised.clone();
    let outcome = caught(handler(call), what)
        .await
        .unwrap_or_else(|| Err(Stop::Failed(ToolError::new(format!("{what} panicked")))));
    context.complete_open_elicitations();
    match raised.get() {
        Some(error) if outcome.is_ok() => Err(Stop::Protocol(error.clone())),
        _ => outcome,
    }
}

/// `future`'s output, or `None` when it panicked (the panic message goes to the log only).
async fn caught<T>(future: impl Future<Output = T>, what: &'static str) -> Option<T> {
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(output) => Some(output),
        Err(panic) => {
            tracing::error!(what, panic = panic_message(&panic), "handler panicked");
            None
        }
    }
}

/// A protocol error, or the `input_required` result of a 2026-07-28 round.
pub(crate) fn stopped(exchange: &Exchange, target: Target<'_>, stop: Stop) -> Reply {
    match stop {
        Stop::Protocol(error) => Err(error),
        Stop::InputRequired(input) => {
            rounds::seal(&exchange.core, target, input).map(|line| (line, Kind::InputRequired))
        }
        Stop::Failed(_) | Stop::InvalidArguments(_) => unreachable!("handled by the caller"),
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("results serialize")
}
