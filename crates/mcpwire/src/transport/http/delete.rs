//! DELETE: the client ends its 2025-11-25 session. Its GET stream closes, its outstanding
//! requests to the client fail, and its id is `404` from then on, on every replica of a fleet:
//! its record is gone from the store (a replica without a copy answers `404`), and the DELETE is
//! answered once every replica the bus delivered the news to has acknowledged ending its copy
//! (bounded: 250 ms when the bus or a replica is slow, or a subscriber never acknowledges).

use super::caller::Caller;
use super::endpoint::Endpoint;
use super::legacy::session_of;
use super::reply;
use axum::extract::{Request, State};
use axum::response::Response;
use http::StatusCode;
use std::sync::Arc;

pub(super) async fn handle(State(endpoint): State<Arc<Endpoint>>, request: Request) -> Response {
    let (parts, _) = request.into_parts();
    let caller = Caller::of(&parts, &endpoint.trusted_proxies);
    match session_of(&endpoint, &parts.headers, &caller).await {
        Ok(session) => {
            endpoint.sessions.remove(&session.id, &caller).await;
            reply::empty(StatusCode::OK)
        }
        Err(refusal) => refusal.into_response(None),
    }
}
