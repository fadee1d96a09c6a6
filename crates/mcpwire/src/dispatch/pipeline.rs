//! Every admitted request's way through the server's middleware (`mcpwire::layer`): the request
//! a layer sees, made from what the method parsed and carrying the method's own code as its
//! [`Work`]; run through the server-wide stack (the empty stack on a server without layers),
//! whose bottom runs the work; and the answer turned back into the method's.

use super::envelope::{self, MethodResult};
use super::exchange::Exchange;
use crate::context::Context;
use crate::layer::{Answer, Handed, McpRequest, McpResponse, McpService, Work};
use crate::protocol::methods::{Method, TOOLS_CALL};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::future::Future;

/// A handler method's request (`tools/call`, `prompts/get`, `resources/read`), as its layers
/// see it.
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

/// Runs a handler method's `handler` (started on what of the request the layers passed on; it
/// gives the outcome and whether it is a tool's `isError` result) through the server-wide
/// layers, then the handler's own.
pub(crate) async fn run_handler<H, F>(
    exchange: &Exchange,
    request: HandlerRequest,
    handler: H,
) -> MethodResult
where
    H: FnOnce(Handed) -> F + Send + 'static,
    F: Future<Output = (MethodResult, bool)> + Send + 'static,
{
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
    let work = Work::new(move |handed| async move { response(handler(handed).await) });
    let request = McpRequest {
        method: Cow::Borrowed(method),
        target: Some(target),
        arguments,
        retried,
        context,
        binding: exchange.principal.clone(),
        handler_layers: own,
        work: Some(work),
        kept: None,
    };
    method_result(method, exchange.core.layers.server().run(request).await)
}

/// A handler method's result, from the layers' answer.
fn method_result(method: &str, answered: McpResponse) -> MethodResult {
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

/// A handler method's outcome (and whether it is a tool's `isError` result), as the layers see
/// it.
fn response((outcome, tool_error): (MethodResult, bool)) -> McpResponse {
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

/// A method other than the handler methods (a list, `ping`, `tasks/get`, …), admitted, on its
/// way through the server-wide layers.
pub(crate) struct MethodRequest<'a> {
    pub(crate) id: &'a RequestId,
    pub(crate) era: Era,
    pub(crate) method: &'a str,
    /// `method`, when the server knows it.
    pub(crate) known: Option<Method>,
    /// What the layers see as the request's target.
    pub(crate) target: Option<&'a str>,
    pub(crate) context: Context,
}

/// Runs `work`, which writes the method's response line, through the server-wide layers.
pub(crate) async fn run_method(
    exchange: &Exchange,
    request: MethodRequest<'_>,
    work: impl Future<Output = Result<String, ErrorObject>> + Send + 'static,
) -> Result<String, ErrorObject> {
    let MethodRequest {
        id,
        era,
        method,
        known,
        target,
        context,
    } = request;
    #[cfg(feature = "otel")]
    super::unlayered::reached_layers();
    let request = McpRequest {
        method: method_name(method, known),
        target: target.map(|target| Cow::Owned(target.to_owned())),
        arguments: None,
        retried: false,
        context,
        binding: exchange.principal.clone(),
        handler_layers: None,
        work: Some(Work::new(|_| async move { line(work.await) })),
        kept: None,
    };
    let answered = exchange.core.layers.server().run(request).await;
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

/// The method's name as the request keeps it: borrowed for the methods the server knows.
fn method_name(method: &str, known: Option<Method>) -> Cow<'static, str> {
    match known {
        Some(known) => Cow::Borrowed(known.name()),
        None => Cow::Owned(method.chars().take(128).collect()),
    }
}
