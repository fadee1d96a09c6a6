//! A 2026-07-28 request: stateless. The mirrored headers are checked first (a mismatch wins over
//! any other error), then `_meta`; the request runs inside its response (closing the response
//! cancels it), and no session id is minted or echoed. `initialize` is not a 2026-07-28 method.

use super::answer_body::{self, Answer};
use super::caller::Caller;
use super::endpoint::Endpoint;
use super::headers::{self, McpHeaders};
use super::reply;
use super::response_work::{Work, boxed};
use crate::dispatch::era::Served;
use crate::dispatch::exchange::{Exchange, Sink};
use crate::dispatch::params_read::RawNamed;
use crate::dispatch::preread::Preread;
use crate::dispatch::router::respond_served;
use crate::dispatch::tool_call::{self, Prepared};
use crate::protocol::jsonrpc::Request;
use crate::protocol::meta::RequestMeta;
use crate::protocol::methods::INITIALIZE;
use crate::protocol::{Era, ErrorObject};
use crate::server::tool_kind::ToolView;
use futures_util::future::Either;
use http::{HeaderMap, StatusCode};
use std::future::{Future, Ready, ready};
use std::sync::Arc;

/// Checks the headers that mirror the body of a `method` request (`mcp`, read from its
/// `headers`): its `_meta` (`meta`) and the values of `params` the endpoint read (`fields`);
/// the arguments a tool mirrors are its entry's in `tools` (the registry as the request found
/// it).
pub(super) fn check_headers(
    tools: &ToolView,
    headers: &HeaderMap,
    mcp: &McpHeaders<'_>,
    meta: &RequestMeta,
    method: &str,
    fields: &RawNamed<'_>,
) -> Result<(), ErrorObject> {
    headers::check_read(
        headers,
        mcp,
        meta.protocol_version.as_deref(),
        method,
        fields,
        |tool| tools.header_params(tool),
    )
}

/// Serves `request`, which the caller has already classified from the `_meta` it read
/// (`served`, refused when `Err`) as it did its parameters (`preread`, handed to the method),
/// and whose mirrored headers it checked (`checked`: a mismatch is answered first).
///
/// A plain function returning the one future to wait for: a refusal is answered at once, and a
/// request's future holds only the answer's (not this function's arguments beside it), as every
/// POST's future is boxed whole. Inlined into its one caller, so that the answer's future is
/// made where it is kept, not returned and moved there.
#[inline(always)]
pub(super) fn handle(
    endpoint: &Arc<Endpoint>,
    request: Request,
    headers: HeaderMap,
    caller: &Caller,
    (served, preread): (Result<Served, ErrorObject>, Preread),
    checked: Result<(), ErrorObject>,
) -> Either<Ready<Answer>, impl Future<Output = Answer> + Send + 'static> {
    let refused = |status, error| {
        let refusal = reply::error(status, Some(&request.id), &error);
        Either::Left(ready(answer_body::of(refusal)))
    };
    if let Err(error) = checked {
        return refused(StatusCode::BAD_REQUEST, error);
    }
    let served = match served {
        Ok(served) => served,
        Err(error) => return refused(StatusCode::BAD_REQUEST, error),
    };
    if request.method == INITIALIZE {
        return refused(
            StatusCode::NOT_FOUND,
            ErrorObject::method_not_found(&request.method),
        );
    }
    let exchange = Arc::new(Exchange {
        core: endpoint.core.clone(),
        session: endpoint.stateless.clone(),
        sink: Sink::own(endpoint.core.limits.max_queued_messages, false),
        headers: Some(headers),
        principal: caller.principal.clone(),
        subject: caller.subject.clone(),
        grant: caller.grant.clone(),
        mismatch: None,
    });
    let lines = exchange.lines();
    let keep_alive = endpoint.keep_alive;
    // A tool call is one `Unpin` future, held unboxed; any other request's work is boxed
    // where it is made: the futures around this one (the HTTP handler's, moved whole by each
    // service wrapper on the way in) then hold a pointer, not the request's whole work.
    match tool_call::prepare(&exchange, request, served, preread) {
        Prepared::Call(call) => {
            let work = Work::cancelled_on_drop(call);
            Either::Right(Either::Left(reply::answer(
                work,
                lines,
                Era::Modern,
                keep_alive,
            )))
        }
        Prepared::ForRouter(request, served, preread) => {
            let work = Work::cancelled_on_drop(boxed(async move {
                Some(respond_served(&exchange, request, Ok(served), preread).await)
            }));
            let answer = reply::answer(work, lines, Era::Modern, keep_alive);
            Either::Right(Either::Right(answer))
        }
    }
}
