//! POST: one JSON-RPC message per request. The body is read within the size limit and parsed;
//! the message then goes to its revision: requests whose `_meta` carries the protocol version or
//! client capabilities to the 2026-07-28 side (even `initialize`, which is not a 2026-07-28
//! method), other requests (`initialize`, requests naming a session) to the 2025-11-25 side.
//!
//! The `Host`/`Origin` check is made here, in the pass that reads the MCP headers: its `403`
//! wins over any answer the body would get (a refusal of the body included).
//!
//! A request with neither is refused with `400`: `-32602` (missing `_meta`) when it announces a
//! 2026-07-28 `MCP-Protocol-Version` or none, `-32600` (missing session) when it announces a
//! 2025 one.

use super::answer_body::{self, Answer};
use super::call_read::CallRead;
use super::caller::Caller;
use super::endpoint::Endpoint;
use super::headers::{McpHeaders, check_sent};
use super::legacy::SessionNamed;
use super::{legacy, modern, origin, reply};
use crate::dispatch::era::{Served, SessionMeta, classify_meta, names_revision};
use crate::dispatch::params_read::ParamsRead;
use crate::dispatch::preread::Preread;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::{Incoming, Request, code};
use crate::protocol::methods::INITIALIZE;
use crate::server::tool_kind::ToolView;
use axum::body::HttpBody;
use axum::extract::{ConnectInfo, State};
use axum::response::Response;
use bytestring::ByteString;
use futures_util::future::Either;
use http::{HeaderMap, StatusCode};
use http_body_util::BodyExt;
use std::convert::Infallible;
use std::future::{Future, ready};
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

pub(super) async fn handle(
    State(endpoint): State<Arc<Endpoint>>,
    request: axum::extract::Request,
) -> Response {
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(peer)| *peer);
    match serve(endpoint, request.into_parts(), peer).await {
        Ok(answer) => answer_body::into_response(answer),
    }
}

/// Serves one POST from `peer` (when the server knows it): what the router's handler and
/// [`super::front`] both run.
///
/// Its future is kept small, as every POST's future is boxed whole: what the request line and
/// headers give is taken here, before the future is made (it holds neither the request nor the
/// rest of its head), and what follows the body is chosen by plain functions that return the one
/// future to wait for, so that no step's locals stay in the future beside the next step's.
///
/// Its body is any HTTP body: hyper's own from [`super::front`] (not boxed into axum's), axum's
/// from the router. Its output is the service's (`Result`, never `Err`), so that the front boxes
/// this future as it is, not a copy of it wrapped to give one.
pub(super) fn serve<B>(
    endpoint: Arc<Endpoint>,
    (parts, body): (http::request::Parts, B),
    peer: Option<SocketAddr>,
) -> impl Future<Output = Result<Answer, Infallible>> + Send + 'static
where
    B: HttpBody<Data = bytes::Bytes> + Unpin + Send + 'static,
    B::Error: std::fmt::Display + Send,
{
    let caller = Caller::of_peer(&parts, peer, &endpoint.trusted_proxies);
    let headers = { parts }.headers;
    async move {
        let limit = endpoint.max_body_bytes;
        let drained = endpoint.max_drained_body_bytes;
        let body = match read_body(body, limit, drained).await {
            Ok(body) => body,
            Err(response) => return Ok(unless_host_refused(&endpoint, &headers, response)),
        };
        let Ok(body) = ByteString::try_from(body) else {
            let error = ErrorObject::new(code::PARSE_ERROR, "Parse error: the body is not UTF-8");
            let refusal = reply::error(StatusCode::BAD_REQUEST, None, &error);
            return Ok(unless_host_refused(&endpoint, &headers, refusal));
        };
        let answer = answer(&endpoint, &body, headers, &caller);
        drop(body);
        Ok(answer.await)
    }
}

/// `refusal` (of the body), unless the request's `Host` or `Origin` is refused: that `403` wins.
/// Read in the same pass as a request whose body is read ([`host_refusal`]).
fn unless_host_refused(endpoint: &Endpoint, headers: &HeaderMap, refusal: Response) -> Answer {
    answer_body::of(host_refusal(endpoint, &McpHeaders::of(headers)).unwrap_or(refusal))
}

/// The `403` for a POST whose `Host` or `Origin` (as the one pass over its headers found them:
/// `mcp`) the endpoint does not allow; `None` when it allows them. Every POST is decided here,
/// whether its body was read or refused.
fn host_refusal(endpoint: &Endpoint, mcp: &McpHeaders<'_>) -> Option<Response> {
    origin::refusal(endpoint.hosts.check_found(mcp.host, mcp.origin))
}

/// A future of a response, boxed: the rarer ways (a session's first request, a client's
/// notification or response), so that the common ones' futures do not hold theirs.
type Boxed<'a> = Pin<Box<dyn Future<Output = Answer> + Send + 'a>>;

/// The answer to the message `body`, as the future to wait for. What it keeps of the body (a
/// call's arguments) is shared with it, not copied.
fn answer<'a>(
    endpoint: &'a Arc<Endpoint>,
    body: &ByteString,
    headers: HeaderMap,
    caller: &'a Caller,
) -> impl Future<Output = Answer> + Send + 'a {
    // `Host`, `Origin` and the MCP headers, read in one pass; the first two checked first.
    let mcp = McpHeaders::of(&headers);
    if let Some(refusal) = host_refusal(endpoint, &mcp) {
        return Either::Right(Either::Left(ready(answer_body::of(refusal))));
    }
    // A plain tool call is read in one pass, unless an outer tier wants its raw `params`; the
    // tool it names is looked up as the registry is now, and so are the arguments its headers
    // mirror (the registry loaded once for both).
    let snapshot = endpoint.core.snapshot();
    let tools = &snapshot.tools;
    let read_once = match endpoint.core.layers.outer() {
        None => CallRead::of(body, tools),
        Some(_) => None,
    };
    if let Some(CallRead {
        request,
        read,
        preread,
    }) = read_once
    {
        let route = Route::of(endpoint, tools, &request.method, read, (&headers, &mcp));
        let routed = route_decided(endpoint, request, route, preread, headers, caller);
        return Either::Left(routed);
    }
    let message = match Incoming::parse(body) {
        Ok(message) => message,
        Err(rejected) => {
            let refusal = reply::error(
                StatusCode::BAD_REQUEST,
                rejected.id.as_ref(),
                &rejected.error,
            );
            return Either::Right(Either::Left(ready(answer_body::of(refusal))));
        }
    };
    let request = match message {
        Incoming::Request(request) => request,
        Incoming::Notification(notification) => {
            return Either::Right(Either::Right(Box::pin(async move {
                let answer = legacy::notification(endpoint, &headers, caller, notification).await;
                answer_body::of(answer)
            }) as Boxed<'a>));
        }
        Incoming::Response(response) => {
            return Either::Right(Either::Right(Box::pin(async move {
                answer_body::of(legacy::response(endpoint, &headers, caller, response).await)
            }) as Boxed<'a>));
        }
    };
    // `params` is read here once, for its `_meta` and the values the headers mirror; a
    // malformed `_meta` (`None`) is refused where the request is classified, as the revision
    // it came on answers it.
    // A `tools/call`'s parameters are taken from that reading when it holds them all, so that
    // the method does not parse them again.
    let read = ParamsRead::of(request.params.as_deref());
    let preread = read.preread(&request.method, &endpoint.core, Some(body));
    let route = Route::of(endpoint, tools, &request.method, read, (&headers, &mcp));
    Either::Left(route_decided(
        endpoint, request, route, preread, headers, caller,
    ))
}

/// Where a request goes, as its `_meta` and the headers that mirror its body decide; what is
/// read of the body is left behind, so that the request can be moved on.
enum Route {
    /// A 2026-07-28 request: how it is served, and whether its mirrored headers agree.
    Modern {
        served: Result<Served, ErrorObject>,
        checked: Result<(), ErrorObject>,
    },
    /// Any other: what its session does not decide (`None` when `_meta` is malformed), the
    /// disagreement of a mirrored header it chose to send, and the session its headers name.
    Legacy {
        meta: Option<SessionMeta>,
        mismatch: Option<ErrorObject>,
        named: SessionNamed,
    },
}

impl Route {
    /// The route of a `method` request, as `read` of its `params` and its MCP headers (`mcp`,
    /// read from its `headers`) decide; a tool's mirrored arguments are its entry's in `tools`.
    ///
    /// Inlined into its callers, so that the reading is used where it is, not copied for the
    /// call.
    #[inline(always)]
    fn of(
        endpoint: &Endpoint,
        tools: &ToolView,
        method: &str,
        read: ParamsRead<'_>,
        (headers, mcp): (&HeaderMap, &McpHeaders<'_>),
    ) -> Self {
        // Classified here, so that what is served next holds what the request is served as,
        // not its whole `_meta`: a 2026-07-28 request's once its headers are checked against
        // it; for a session's, what its session does not decide.
        match read.meta {
            Some(meta) if names_revision(&meta) => {
                let fields = &read.named;
                let checked = modern::check_headers(tools, headers, mcp, &meta, method, fields);
                let served = classify_meta(meta, &endpoint.stateless);
                Route::Modern { served, checked }
            }
            meta => Route::Legacy {
                meta: meta.map(SessionMeta::of),
                mismatch: check_sent(mcp, method, &read.named).err(),
                named: SessionNamed::of(mcp),
            },
        }
    }
}

/// The answer to `request`, routed as `route` says, as the future to wait for: a 2026-07-28
/// request's, a session's, or the refusal of a request that is neither.
///
/// Inlined, so that the future is made where [`answer`] returns it, not made here and moved.
#[inline(always)]
fn route_decided<'a>(
    endpoint: &'a Arc<Endpoint>,
    request: Request,
    route: Route,
    preread: Preread,
    headers: HeaderMap,
    caller: &'a Caller,
) -> impl Future<Output = Answer> + Send + 'a {
    let (meta, mismatch, named) = match route {
        Route::Modern { served, checked } => {
            let modern = modern::handle(
                endpoint,
                request,
                headers,
                caller,
                (served, preread),
                checked,
            );
            return Either::Left(modern);
        }
        Route::Legacy {
            meta,
            mismatch,
            named,
        } => (meta, mismatch, named),
    };
    if request.method == INITIALIZE {
        // Boxed: a session's first request is served once, and its future is the largest
        // here (more than twice any other).
        let initialize = legacy::initialize(endpoint, request, headers, caller);
        let initialize = async move { answer_body::of(initialize.await) };
        return Either::Right(Either::Left(Box::pin(initialize) as Boxed<'a>));
    }
    if named.names_session() {
        // Boxed too: its future (the session's lookup, then the answer's stream) is larger than
        // a 2026-07-28 request's, and every POST's future has room for the largest way.
        let read = (meta, preread, mismatch);
        let session = legacy::request(endpoint, request, headers, caller, read, named);
        return Either::Right(Either::Right(Either::Left(Box::pin(session) as Boxed<'a>)));
    }
    let error = if named.announces_sessions() {
        ErrorObject::new(
            code::INVALID_REQUEST,
            "Bad Request: missing Mcp-Session-Id header",
        )
    } else {
        ErrorObject::invalid_params(
            "Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion and \
             io.modelcontextprotocol/clientCapabilities",
        )
    };
    let refusal = reply::error(StatusCode::BAD_REQUEST, Some(&request.id), &error);
    Either::Right(Either::Right(Either::Right(ready(answer_body::of(
        refusal,
    )))))
}

/// The body, at most `limit` bytes (else `413` with a JSON-RPC error).
///
/// A refused body is still read, up to `drain` bytes, and dropped: a client that writes its
/// whole body before it reads the answer (as blocking clients do: Python's `http.client`, curl
/// without `Expect`) then reads the `413`, where a connection closed under it would break its
/// pipe. A body declared larger than `drain` is not read at all.
///
/// Reading stops once the body says it has ended (all of a declared length received), without
/// polling it once more for its end.
///
/// The declared length is the body's own exact size hint, which hyper gives from its
/// `Content-Length` (the header as it read it, not looked up again).
async fn read_body<B>(mut body: B, limit: usize, drain: usize) -> Result<bytes::Bytes, Response>
where
    B: HttpBody<Data = bytes::Bytes> + Unpin,
    B::Error: std::fmt::Display,
{
    let too_large = || {
        let error = ErrorObject::new(
            code::INVALID_REQUEST,
            format!("Invalid Request: body longer than {limit} bytes"),
        );
        reply::error(StatusCode::PAYLOAD_TOO_LARGE, None, &error)
    };
    let declared = body.size_hint().exact();
    if let Some(length) = declared.filter(|&length| length > limit as u64) {
        if length <= drain as u64 {
            discard(&mut body, drain).await;
        }
        return Err(too_large());
    }
    // A body comes in one chunk more often than not: that chunk is the body, with nothing
    // allocated; a second one starts a buffer.
    let mut first: Option<bytes::Bytes> = None;
    let mut more: Vec<u8> = Vec::new();
    let mut length = 0;
    while !body.is_end_stream()
        && let Some(chunk) = next_chunk(&mut body).await
    {
        let chunk = chunk.map_err(|error| {
            tracing::debug!(%error, "reading a request body failed");
            too_large()
        })?;
        length += chunk.len();
        if length > limit {
            discard(&mut body, drain.saturating_sub(length)).await;
            return Err(too_large());
        }
        match &first {
            None => first = Some(chunk),
            Some(first) => {
                if more.is_empty() {
                    more.extend_from_slice(first);
                }
                more.extend_from_slice(&chunk);
            }
        }
    }
    Ok(if more.is_empty() {
        first.unwrap_or_default()
    } else {
        more.into()
    })
}

/// The body's next chunk of data (trailers skipped); `None` at its end.
async fn next_chunk<B>(body: &mut B) -> Option<Result<bytes::Bytes, B::Error>>
where
    B: HttpBody<Data = bytes::Bytes> + Unpin,
{
    loop {
        let frame = body.frame().await?;
        match frame.map(|frame| frame.into_data()) {
            Ok(Ok(data)) => return Some(Ok(data)),
            Ok(Err(_trailers)) => continue,
            Err(error) => return Some(Err(error)),
        }
    }
}

/// Reads and drops the rest of a body, at most `budget` bytes of it.
async fn discard<B>(body: &mut B, mut budget: usize)
where
    B: HttpBody<Data = bytes::Bytes> + Unpin,
{
    while !body.is_end_stream()
        && let Some(Ok(chunk)) = next_chunk(body).await
    {
        let Some(left) = budget.checked_sub(chunk.len()) else {
            return;
        };
        budget = left;
    }
}
