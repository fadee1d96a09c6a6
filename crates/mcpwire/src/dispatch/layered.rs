//! Requests through the server's middleware (`mcpwire::layer`), when it has any: the request a
//! layer sees, made from what the method already parsed, and its answer converted both ways.
//! Nothing here runs on a server without layers.

use super::envelope::{self, MethodResult};
use super::exchange::Exchange;
use super::table::row;
use crate::context::Context;
use crate::layer::Handed;
use crate::layer::McpService;
use crate::layer::service::{Layered, Layers, Reached};
use crate::layer::{Answer, McpRequest, McpResponse};
use crate::protocol::methods::{Method, TOOLS_CALL};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;
use std::pin::pin;

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

/// Runs a handler method's handler (made by `handler` from the request's arguments and context
/// once the layers passed it on; it gives the outcome and whether it is a tool's `isError`
/// result) through the server-wide layers, then the handler's own.
pub(crate) async fn around_handler<H, F>(
    exchange: &Exchange,
    layers: &Layers,
    request: HandlerRequest,
    handler: H,
) -> MethodResult
where
    H: FnOnce(Option<Box<RawValue>>, Context) -> F,
    F: Future<Output = (MethodResult, bool)>,
{
    let method = request.method;
    let mut stack = Layered::start(layers.server(), mcp_request(exchange, request));
    let (arguments, context) = match stack.reach().await {
        Reached::Answered(answered) => return method_result(method, answered),
        Reached::Handler(handed) => self::handed(handed),
    };
    let running = pin!(Some(handler(arguments, context)));
    method_result(method, stack.finish(running, response).await)
}

/// The request the layers see, from what a handler method parsed.
pub(crate) fn mcp_request(exchange: &Exchange, request: HandlerRequest) -> McpRequest {
    let HandlerRequest {
        method,
        target,
        arguments,
        retried,
        context,
        own,
    } = request;
    #[cfg(feature = "otel")]
    super::unlayered::reached_layers();
    McpRequest {
        method: Cow::Borrowed(method),
        target: Some(target),
        arguments,
        retried,
        context,
        binding: exchange.principal.clone(),
        handler_layers: own,
        hand_back: None,
        kept: None,
    }
}

/// What the handler runs on, from the request the layers passed on: its arguments and context
/// (the rest was dropped at the bottom of the stack, not kept while the handler runs).
pub(crate) fn handed(request: Handed) -> (Option<Box<RawValue>>, Context) {
    (request.arguments, request.context)
}

/// A handler method's result, from the layers' answer.
pub(crate) fn method_result(method: &str, answered: McpResponse) -> MethodResult {
    match answered.answer {
        Answer::Result { json, kind, .. } => Ok((json, kind)),
        Answer::Error(error) => Err(error),
        Answer::Refused(error) if method == TOOLS_CALL => Ok((
            McpResponse::refusal_result(&error.message),
            ResultKind::Complete,
        )),
        Answer::Refused(error) => Err(error),
        Answer::Line(_) => Err(ErrorObject::internal()),
    }
}

/// The server-wide layers a method other than the handler methods (a list, `ping`,
/// `tasks/get`, …) runs through, once authorization admitted it: nothing at all on a server
/// without layers.
pub(crate) struct Around<'a> {
    exchange: &'a Exchange,
    id: &'a RequestId,
    era: Era,
    method: &'a str,
    /// `method`, when the server knows it.
    known: Option<Method>,
    /// The layers, and the context the request shows them.
    layers: Option<(&'a Layers, Context)>,
}

impl<'a> Around<'a> {
    /// The layers of `exchange`'s server around `method` (`known` when the server knows it;
    /// with `context` made only when the server has layers, and `method` does not run its own,
    /// as the method table says).
    pub(crate) fn new(
        exchange: &'a Exchange,
        (id, era): (&'a RequestId, Era),
        (method, known): (&'a str, Option<Method>),
        context: impl FnOnce() -> Context,
    ) -> Self {
        // The handler methods run their layers themselves, between authorization and the
        // handler (`around_handler`): nothing is made for them here.
        let own_layers = known.is_some_and(|known| row(known).own_layers);
        let layers = (exchange.core.layers.as_deref())
            .filter(|_| !own_layers)
            .map(|layers| (layers, context()));
        Self {
            exchange,
            id,
            era,
            method,
            known,
            layers,
        }
    }

    /// Runs `handler`, which writes the method's response line, through the layers; `target`
    /// is what the layers see as the request's target.
    pub(crate) async fn run(
        self,
        target: Option<&str>,
        handler: impl Future<Output = Result<String, ErrorObject>>,
    ) -> Result<String, ErrorObject> {
        match self.layers {
            None => handler.await,
            // Boxed: the unlayered path keeps its future small.
            Some((layers, context)) => {
                let target = target.map(|target| Cow::Owned(target.to_owned()));
                Box::pin(around_method(
                    self.exchange,
                    layers,
                    (self.id, self.era),
                    (self.method, self.known, target),
                    context,
                    handler,
                ))
                .await
            }
        }
    }
}

/// Runs a method other than the handler methods, whose `handler` writes its own response line,
/// through the server-wide layers.
async fn around_method(
    exchange: &Exchange,
    layers: &Layers,
    (id, era): (&RequestId, Era),
    (method, known, target): (&str, Option<Method>, Option<Cow<'static, str>>),
    context: Context,
    handler: impl Future<Output = Result<String, ErrorObject>>,
) -> Result<String, ErrorObject> {
    #[cfg(feature = "otel")]
    super::unlayered::reached_layers();
    let request = McpRequest {
        method: method_name(method, known),
        target,
        arguments: None,
        retried: false,
        context,
        binding: exchange.principal.clone(),
        handler_layers: None,
        hand_back: None,
        kept: None,
    };
    let mut stack = Layered::start(layers.server(), request);
    let answered = match stack.reach().await {
        Reached::Answered(answered) => answered,
        Reached::Handler(_) => {
            let running = pin!(Some(handler));
            stack.finish(running, line).await
        }
    };
    match answered.answer {
        Answer::Line(line) => Ok(line),
        Answer::Result { json, kind, .. } => {
            Ok(envelope::result(&exchange.core, era, id, &json, kind))
        }
        Answer::Error(error) | Answer::Refused(error) => Err(error),
    }
}

/// A method's response line (or error), as the layers see it.
fn line(written: Result<String, ErrorObject>) -> McpResponse {
    McpResponse {
        answer: match written {
            Ok(line) => Answer::Line(line),
            Err(error) => Answer::Error(error),
        },
    }
}

/// A handler method's outcome (and whether it is a tool's `isError` result), as the layers see
/// it.
pub(crate) fn response((outcome, tool_error): (MethodResult, bool)) -> McpResponse {
    let answer = match outcome {
        Ok((json, kind)) => Answer::Result {
            json,
            kind,
            tool_error,
        },
        Err(error) => Answer::Error(error),
    };
    McpResponse { answer }
}

/// The method's name as the request keeps it: borrowed for the methods the server knows.
fn method_name(method: &str, known: Option<Method>) -> Cow<'static, str> {
    match known {
        Some(known) => Cow::Borrowed(known.name()),
        None => Cow::Owned(method.chars().take(128).collect()),
    }
}
