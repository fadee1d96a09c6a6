//! A method the core does not serve (its row names none here): an installed extension's, on
//! the extension seam, or else an unknown method (`-32601`), answered through the layers like
//! any other.

use super::admitted::Admitted;
use crate::extension::ExtensionRequest;
use crate::extension::registry::Bound;
use crate::layer::McpResponse;
use crate::protocol::ErrorObject;
use crate::protocol::cache_hint::CacheHint;
use crate::protocol::result_kind::ResultKind;
use serde_json::value::RawValue;

/// Serves a method no row of the core serves here.
pub(crate) async fn serve(
    admitted: Admitted<'_>,
    params: Option<Box<RawValue>>,
) -> Result<McpResponse, ErrorObject> {
    let core = &admitted.exchange.core;
    match core.extensions.method(admitted.method, admitted.served.era) {
        Some(bound) => {
            let bound = bound.clone();
            extension_method(admitted, bound, params).await
        }
        None => {
            let unknown = ErrorObject::method_not_found(admitted.method);
            Ok(admitted.through(None, async move { Err(unknown) }).await)
        }
    }
}

/// Serves a method an installed extension binds: admitted by the extension's own gates, then
/// run through the server-wide layers.
async fn extension_method(
    admitted: Admitted<'_>,
    bound: Bound,
    params: Option<Box<RawValue>>,
) -> Result<McpResponse, ErrorObject> {
    let exchange = admitted.exchange;
    let context = admitted.context();
    let request = ExtensionRequest {
        method: bound.method,
        extension: bound.extension,
        params,
        context: context.clone(),
        owner: exchange.principal.clone(),
    };
    let kind = match bound.cacheable {
        true => ResultKind::Cacheable(
            CacheHint::public(exchange.core.limits.list_ttl)
                .for_principal(exchange.principal.as_deref()),
        ),
        false => ResultKind::Complete,
    };
    let serve = bound.handler.admit(request).await?;
    let responder = admitted.responder();
    let serving = async move {
        let result = serve.await?;
        Ok(responder.line(&result.to_string(), kind))
    };
    let admitted = Admitted {
        context: Some(context),
        ..admitted
    };
    Ok(admitted.through(None, serving).await)
}
