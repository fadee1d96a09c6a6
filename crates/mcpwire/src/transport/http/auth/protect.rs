//! The protected endpoint: its routes behind the [`Gate`](super::gate::Gate) that turns a
//! request away before it reaches the dispatcher, and the metadata routes beside them.

use super::ProtectedResource;
use super::gate::GateLayer;
use crate::server::core::ServerCore;
use axum::Router;
use axum::response::IntoResponse;
use axum::routing::get;
use http::header::{CONTENT_TYPE, HeaderValue};
use http::{HeaderName, StatusCode};
use std::sync::Arc;

/// `router` (the MCP endpoint) behind `gate` (its authorization), and the metadata routes
/// beside it (open to everyone, with CORS for browsers).
pub(crate) fn protect(router: Router, gate: GateLayer, core: Arc<ServerCore>) -> Router {
    let authorization = Arc::clone(gate.authorization());
    // `scopes_supported`: what the metadata names, what every request needs, and what the
    // tools need.
    let mut registered = Vec::new();
    {
        let snapshot = core.snapshot();
        snapshot.tools.collect_scopes(&mut registered);
        snapshot.prompts.collect_scopes(&mut registered);
        snapshot.resources.collect_scopes(&mut registered);
    }
    let resource = authorization.resource.clone().including_scopes(
        authorization
            .required_scopes
            .iter()
            .map(String::as_str)
            .chain(registered),
    );
    let metadata = resource.metadata().to_string();
    let serve = move || {
        let metadata = metadata.clone();
        async move {
            let json = [(CONTENT_TYPE, HeaderValue::from_static("application/json"))];
            (cors(), json, metadata).into_response()
        }
    };
    let preflight = || async { (StatusCode::NO_CONTENT, cors()).into_response() };
    let path_based = authorization.resource.metadata_path();
    let root = ProtectedResource::root_metadata_path();
    let mut metadata_routes =
        Router::new().route(&path_based, get(serve.clone()).options(preflight));
    if path_based != root {
        metadata_routes = metadata_routes.route(root, get(serve).options(preflight));
    }
    router.layer(gate).merge(metadata_routes)
}

/// Open CORS for the metadata: any origin may read it.
fn cors() -> [(HeaderName, HeaderValue); 3] {
    let header = |name, value| {
        (
            HeaderName::from_static(name),
            HeaderValue::from_static(value),
        )
    };
    [
        header("access-control-allow-origin", "*"),
        header("access-control-allow-methods", "GET, OPTIONS"),
        header("access-control-allow-headers", "*"),
    ]
}
