//! `completion/complete`: admitted on the prompt or resource template its `ref` names, then
//! answered by the server's completer.

use crate::dispatch::admitted::{Admitted, Serving};
use crate::dispatch::authorize;
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::exchange::{Exchange, parse};
use crate::dispatch::runner::{caught, request_context};
use crate::protocol::completion::CompleteParams;
use crate::protocol::jsonrpc::code;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{ErrorObject, RequestId};
use crate::server::completion;
use serde_json::value::RawValue;
use std::sync::Arc;

/// Serves `completion/complete`: admitted by its reference's scopes, then completed through the
/// server-wide layers.
pub(crate) fn serve(admitted: Admitted<'_>, params: Option<Box<RawValue>>) -> Serving<'_> {
    Box::pin(async move {
        let params = parse(params.as_deref())?;
        admit(admitted.exchange, &params)?;
        let owned = Arc::clone(admitted.exchange);
        let responder = admitted.responder();
        let (id, served) = (admitted.id.clone(), admitted.served.clone());
        let completing = async move {
            let completed = complete(&owned, &id, params, served).await;
            completed.map(responder.complete())
        };
        Ok(admitted.through(None, completing).await)
    })
}

/// Admits `params`: the server has a completer, the `ref` names a registered prompt (and one of
/// its arguments) or resource template (and one of its variables), and the caller's grant holds
/// that prompt's or template's scopes.
fn admit(exchange: &Exchange, params: &CompleteParams) -> Result<(), ErrorObject> {
    let core = &exchange.core;
    if core.completer.is_none() {
        return Err(ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found"));
    }
    authorize::admit(exchange, completion::check_reference(core, params)?)
}

/// Answers an admitted `completion/complete` with the server's completer, given the request's
/// context; a panic in the completer is an internal error, and the server keeps serving.
async fn complete(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    params: CompleteParams,
    served: Served,
) -> MethodResult {
    let Some(completer) = exchange.core.completer.as_ref() else {
        return Err(ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found"));
    };
    let context = request_context(exchange, id, served);
    let completing = completion::complete(completer, params, context);
    let answer = caught(completing, "the completer").await.ok_or_else(|| {
        ErrorObject::new(code::INTERNAL_ERROR, "Internal error: the completer failed")
    })?;
    Ok((to_json(&answer), ResultKind::Complete))
}
