//! The MCP endpoint as an axum `Router`: POST, GET and DELETE on one path, sharing one
//! [`Endpoint`]. GET and DELETE are behind the `Host`/`Origin` check as middleware; a POST makes
//! it where its other headers are read ([`post::serve`]), in the same pass.

use super::endpoint::Endpoint;
use super::{delete, get, origin, post};
use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::{get as on_get, post as on_post};
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

/// The `Host`/`Origin` check, as the middleware in front of GET and DELETE.
async fn check_host(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    next: Next,
) -> Response {
    match origin::refusal(endpoint.hosts.check(request.headers())) {
        None => next.run(request).await,
        Some(refusal) => refusal,
    }
}
