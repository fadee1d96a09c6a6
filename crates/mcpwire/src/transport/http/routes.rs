//! The MCP endpoint as an axum `Router`: POST, GET and DELETE on one path, sharing one
//! [`Endpoint`]. GET and DELETE are behind the `Host`/`Origin` check as middleware; a POST makes
//! it where its other headers are read ([`post::serve`]), in the same pass.

use super::endpoint::Endpoint;
use super::{delete, get, post, reply};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get as on_get, post as on_post};
use http::StatusCode;
use std::sync::Arc;

/// The router serving `endpoint` at `path`.
pub(super) fn router(endpoint: Arc<Endpoint>, path: &str) -> Router {
    Router::new()
        .route(
            path,
            on_post(post::handle).merge(
                on_get(get::handle)
                    .delete(delete::handle)
                    .route_layer(middleware::from_fn_with_state(endpoint.clone(), check_host)),
            ),
        )
        .with_state(endpoint)
}

async fn check_host(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    next: Next,
) -> Response {
    match host_refusal(&endpoint, request.headers()) {
        None => next.run(request).await,
        Some(refusal) => refusal,
    }
}

/// The `403` for a request whose `Host` or `Origin` the endpoint does not allow; `None` when
/// it allows them.
pub(super) fn host_refusal(endpoint: &Endpoint, headers: &http::HeaderMap) -> Option<Response> {
    host_refusal_of(endpoint.hosts.check(headers))
}

/// The `403` for a request whose `Host` or `Origin` the endpoint refused (`verdict`, which
/// header it refused); `None` when it allowed them.
pub(super) fn host_refusal_of(verdict: Result<(), &'static str>) -> Option<Response> {
    let header = verdict.err()?;
    tracing::warn!(header, "request from a host that is not allowed; refused");
    let error = ErrorObject::new(
        code::INVALID_REQUEST,
        format!("Forbidden: {header} not allowed"),
    );
    Some(reply::error(StatusCode::FORBIDDEN, None, &error))
}
