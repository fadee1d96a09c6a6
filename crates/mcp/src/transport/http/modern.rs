//! A 2026-07-28 request: stateless. The mirrored headers are checked, the request runs inside
//! its response (closing the response cancels it), and no session id is minted or echoed.

use super::endpoint::Endpoint;
use super::{headers, reply};
use crate::context::Outbound;
use crate::dispatch::era::Served;
use crate::dispatch::router::{Exchange, respond};
use crate::protocol::Era;
use crate::protocol::jsonrpc::Request;
use axum::response::Response;
use http::{HeaderMap, StatusCode};
use std::sync::Arc;

pub(super) async fn handle(
    endpoint: &Arc<Endpoint>,
    request: Request,
    headers: HeaderMap,
    served: Served,
) -> Response {
    let checked = headers::check(
        &headers,
        &served.protocol_version,
        &request.method,
        request.params.as_deref(),
    );
    if let Err(error) = checked {
        return reply::error(StatusCode::BAD_REQUEST, Some(&request.id), &error);
    }
    let (outbound, lines) = Outbound::channel();
    let exchange = Exchange {
        core: endpoint.core.clone(),
        session: endpoint.stateless.clone(),
        outbound,
        headers: Some(Arc::new(headers)),
    };
    let work = async move { Some(respond(&exchange, request).await) };
    reply::answer(work, lines, Era::Modern, endpoint.keep_alive).await
}
