//! Routes one request to what its method's row in the method table ([`table`](super::table))
//! names, and writes the response line. The top of the dispatch layer: nothing below imports it.

use super::admitted::Admitted;
use super::era::{Served, classify_meta, malformed_meta};
use super::exchange::Exchange;
use super::extension_method;
use super::methods::{handlers, lifecycle, lists};
use super::outer::{self, Arrived};
use super::params_read::ParamsRead;
use super::pipeline::{Written, write};
use super::preread::Preread;
use super::reply::{Reply, reply};
use super::table::{Serve, row};
use crate::context::Context;
use crate::layer::{McpService, Outcome};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::{Request, RequestId, result_line};
use crate::protocol::methods::{INITIALIZE, Method};
use futures_util::future::Either;
use serde_json::value::RawValue;
use std::future::{Future, ready};
use std::sync::Arc;

/// Handles `request` and returns the response line.
pub(crate) async fn handle(exchange: &Arc<Exchange>, request: Request) -> String {
    respond(exchange, request).await.line
}

/// Handles `request` and returns the response line with its error code.
///
/// `params` is read once for its `_meta` and, for a `tools/call`, for the call's parameters
/// ([`ParamsRead`]), as the HTTP transport reads a request it did not take in one pass.
pub(crate) async fn respond(exchange: &Arc<Exchange>, request: Request) -> Reply {
    if request.method == INITIALIZE {
        return answer(exchange, request, None, Preread::Nothing).await;
    }
    let read = ParamsRead::of(request.params.as_deref());
    let preread = read.preread(&request.method, &exchange.core, None);
    let served = match read.meta {
        Some(meta) => classify_meta(meta, &exchange.session),
        None => Err(malformed_meta()),
    };
    answer(exchange, request, Some(served), preread).await
}

/// Handles `request` (not `initialize`) as the caller already classified it (`served`, as
/// [`classify_meta`](super::era::classify_meta) answered for its `_meta`), with the parameters
/// it already read (`preread`), and returns the response line with its error code: [`respond`]
/// without reading `_meta` or the parameters again.
///
/// A plain function returning [`answer`]'s future: the request's future holds no step of its own
/// around it (every 2026-07-28 request's work is boxed whole).
#[cfg(feature = "http")]
pub(crate) fn respond_served(
    exchange: &Arc<Exchange>,
    request: Request,
    served: Result<Served, ErrorObject>,
    preread: Preread,
) -> impl std::future::Future<Output = Reply> + Send + '_ {
    debug_assert_ne!(request.method, INITIALIZE);
    answer(exchange, request, Some(served), preread)
}

/// Answers `request`: `initialize` (`served` is `None`), or a request classified as `served`
/// (with what the transport already read of its parameters, `preread`); through the outer tier
/// first when the server has one.
async fn answer(
    exchange: &Arc<Exchange>,
    request: Request,
    served: Option<Result<Served, ErrorObject>>,
    preread: Preread,
) -> Reply {
    let written = match exchange.core.layers.outer() {
        None => {
            let Request { id, method, params } = request;
            let params = (params, preread);
            let written = serve(exchange, (&id, &method, params), served, None).await;
            return reply(&id, lines(written), exchange.grant.as_deref());
        }
        Some(outer) => {
            let id = request.id.clone();
            let written =
                Box::pin(through_outer(exchange, outer, (request, preread), served)).await;
            (id, written)
        }
    };
    let (id, written) = written;
    reply(
        &id,
        written.map(|(line, _)| line),
        exchange.grant.as_deref(),
    )
}

/// The response line of a request served without an outer tier (refused before its method, or
/// written by it).
fn lines(served: Result<Written, ErrorObject>) -> Result<String, ErrorObject> {
    served.and_then(|written| written.map(|(line, _)| line))
}

/// Runs `request` through the outer tier `outer`, then serves it at its bottom.
async fn through_outer(
    exchange: &Arc<Exchange>,
    outer: &McpService,
    (request, preread): (Request, Preread),
    served: Option<Result<Served, ErrorObject>>,
) -> Written {
    let arrived = Arrived::new(exchange, &request, served.as_ref());
    let owned = Arc::clone(exchange);
    let serving = move |context| async move {
        let Request { id, method, params } = request;
        let params = (params, preread);
        serve(&owned, (&id, &method, params), served, Some(context)).await
    };
    outer::through(exchange, outer, arrived, serving).await
}

/// The parameters of a request: as sent, and what the transport already read of them.
type Params = (Option<Box<RawValue>>, Preread);

/// Serves `request`: `initialize` (`served` is `None`), or a request classified as `served`, in
/// `context` when the outer tier made it. `Err` when it was refused before its method ran.
///
/// A plain function returning the one future to wait for: an `async fn` would keep its
/// arguments beside the method's future in every request's. Inlined where it is awaited, so
/// that the method's future is made where it is kept, not returned and moved there.
#[inline(always)]
fn serve<'a>(
    exchange: &'a Arc<Exchange>,
    (id, method, (params, preread)): (&'a RequestId, &'a str, Params),
    served: Option<Result<Served, ErrorObject>>,
    context: Option<Context>,
) -> impl Future<Output = Result<Written, ErrorObject>> + Send + 'a {
    match served {
        None => Either::Left(ready(Ok(lifecycle::initialize(
            exchange,
            params.as_deref(),
        )
        .map(|json| (result_line(id, &json), Outcome::Complete))))),
        Some(Ok(served)) => Either::Right(route(
            exchange,
            id,
            method,
            (params, preread),
            served,
            context,
        )),
        Some(Err(error)) => Either::Left(ready(Err(error))),
    }
}

/// Serves a classified request with what its method's row names: refused (`Err`) before the
/// method runs, or answered by it. A method the core does not serve here (an extension's, one
/// of another revision, one of a kind the server does not offer, or none at all) goes to the
/// extensions, and else is unknown. What the transport already read of the parameters goes to a
/// handler method only.
async fn route(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    method: &str,
    (params, preread): Params,
    served: Served,
    context: Option<Context>,
) -> Result<Written, ErrorObject> {
    let known = Method::of(method);
    let row = known.map(row);
    // A method whose handler may need scopes reports a mismatch after its scope decision.
    if let Some(mismatch) = &exchange.mismatch
        && !row.is_some_and(|row| row.needs_scopes)
    {
        return Err(mismatch.clone());
    }
    let core = &exchange.core;
    let era = served.era;
    let serve = row.and_then(|row| row.served(era, core));
    let admitted = Admitted {
        exchange,
        id,
        method,
        known,
        served,
        context,
    };
    // The handler methods run their layers themselves, between their scope decision and the
    // handler; every other method goes through the layers once admitted. The calls and lists
    // are not boxed: they are what a server mostly serves; the rarer methods' futures are.
    let response = match serve {
        Some(Serve::Handler(method)) => handlers::serve(method, admitted, (params, preread))?.await,
        Some(Serve::List(listed)) => lists::serve(admitted, listed, params).await,
        Some(Serve::Method(serve)) => serve(admitted, params).await?,
        Some(Serve::Handshake | Serve::Extension) | None => {
            Box::pin(extension_method::serve(admitted, params)).await?
        }
    };
    Ok(write(core, (id, era, method), response))
}
