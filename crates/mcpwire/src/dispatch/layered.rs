//! Requests through the server's middleware (`mcpwire::layer`), when it has any: the request a
//! layer sees, made from what the method already parsed, and its answer converted both ways.
//! Nothing here runs on a server without layers.

use super::envelope::{self, Kind, Outcome};
use super::exchange::Exchange;
use crate::context::Context;
use crate::layer::McpService;
use crate::layer::service::{Layers, serve};
use crate::layer::{Answer, McpRequest, McpResponse, ResultKind};
use crate::protocol::{Era, ErrorObject, RequestId};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;

/// What a handler method (`tools/call`, `prompts/get`, `resources/read`) hands its layers.
pub(crate) struct HandlerRequest {
    pub(crate) method: &'static str,
    pub(crate) target: Cow<'static, str>,
    pub(crate) arguments: Option<Box<RawValue>>,
    /// A later round of a multi-round call.
    pub(crate) retried: bool,
    pub(crate) context: Context,
    /// The handler's own layers.
    pub(crate) own: Option<McpService>,
}

/// Runs a handler method's `handler` (given the outcome and whether it is a tool's `isError`
/// result) through the server-wide layers, then the handler's own.
pub(crate) async fn around_handler(
    exchange: &Exchange,
    layers: &Layers,
    request: HandlerRequest,
    handler: impl Future<Output = (Outcome, bool)>,
) -> Outcome {
    let HandlerRequest {
        method,
        target,
        arguments,
        retried,
        context,
        own,
    } = request;
    let request = McpRequest {
        method: Cow::Borrowed(method),
        target: Some(target),
        arguments,
        retried,
        context,
        binding: exchange.principal.clone(),
        handler_layers: own,
        hand_back: None,
    };
    let handled = async {
        let (outcome, tool_error) = handler.await;
        response(outcome, tool_error)
    };
    let answered = serve(layers.server(), request, handled).await;
    let is_tool = method == "tools/call";
    match answered.answer {
        Answer::Result { json, kind, .. } => Ok((json, kind_of(kind))),
        Answer::Error(error) => Err(error),
        Answer::Refused(error) if is_tool => {
            Ok((McpResponse::refusal_result(&error.message), Kind::Complete))
        }
        Answer::Refused(error) => Err(error),
        Answer::Line(_) => Err(ErrorObject::internal()),
    }
}

/// Runs a method other than the handler methods (a list, `ping`, `tasks/get`, …), whose
/// `handler` writes its own response line, through the server-wide layers.
pub(crate) async fn around_method(
    exchange: &Exchange,
    layers: &Layers,
    (id, era): (&RequestId, Era),
    method: &str,
    context: Context,
    handler: impl Future<Output = Result<String, ErrorObject>>,
) -> Result<String, ErrorObject> {
    let request = McpRequest {
        method: method_name(method),
        target: None,
        arguments: None,
        retried: false,
        context,
        binding: exchange.principal.clone(),
        handler_layers: None,
        hand_back: None,
    };
    let handled = async {
        McpResponse {
            answer: match handler.await {
                Ok(line) => Answer::Line(line),
                Err(error) => Answer::Error(error),
            },
        }
    };
    match serve(layers.server(), request, handled).await.answer {
        Answer::Line(line) => Ok(line),
        Answer::Result { json, kind, .. } => Ok(envelope::result(
            &exchange.core,
            era,
            id,
            &json,
            kind_of(kind),
        )),
        Answer::Error(error) | Answer::Refused(error) => Err(error),
    }
}

fn response(outcome: Outcome, tool_error: bool) -> McpResponse {
    let answer = match outcome {
        Ok((json, kind)) => Answer::Result {
            json,
            kind: match kind {
                Kind::Complete => ResultKind::Complete,
                Kind::Cacheable(hint) => ResultKind::Cacheable(hint),
                Kind::InputRequired => ResultKind::InputRequired,
                Kind::Task => ResultKind::Task,
            },
            tool_error,
        },
        Err(error) => Answer::Error(error),
    };
    McpResponse { answer }
}

fn kind_of(kind: ResultKind) -> Kind {
    match kind {
        ResultKind::Complete => Kind::Complete,
        ResultKind::Cacheable(hint) => Kind::Cacheable(hint),
        ResultKind::InputRequired => Kind::InputRequired,
        ResultKind::Task => Kind::Task,
    }
}

/// The method's name as the request keeps it: borrowed for the methods the server knows.
fn method_name(method: &str) -> Cow<'static, str> {
    const KNOWN: &[&str] = &[
        "tools/list",
        "prompts/list",
        "resources/list",
        "resources/templates/list",
        "completion/complete",
        "ping",
        "server/discover",
        "tasks/get",
        "tasks/update",
        "tasks/cancel",
        "subscriptions/listen",
        "resources/subscribe",
        "resources/unsubscribe",
        "logging/setLevel",
    ];
    match KNOWN.iter().find(|known| **known == method) {
        Some(known) => Cow::Borrowed(known),
        None => Cow::Owned(method.chars().take(128).collect()),
    }
}
