//! `completion/complete`.

use crate::dispatch::authorize;
use crate::dispatch::envelope::{Kind, Outcome, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::runner::{caught, request_context};
use crate::protocol::completion::CompleteParams;
use crate::protocol::jsonrpc::code;
use crate::protocol::{ErrorObject, RequestId};
use crate::server::completion;

/// Answers `completion/complete` with the server's completer, given the request's context; a
/// panic in the completer is an internal error, and the server keeps serving.
pub(crate) async fn complete(
    exchange: &Exchange,
    id: &RequestId,
    params: CompleteParams,
    served: Served,
) -> Outcome {
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
