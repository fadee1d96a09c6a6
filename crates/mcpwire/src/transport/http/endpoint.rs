//! The MCP endpoint as an axum `Router`: POST, GET and DELETE on one path, behind the
//! `Host`/`Origin` check, sharing one [`Endpoint`].

use super::events::EventStore;
use super::origin::HostPolicy;
use super::sessions::{SessionLimits, Sessions};
use super::{delete, get, post, reply};
use crate::dispatch::session::Session;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use crate::server::core::ServerCore;
use axum::Router;
use axum::extract::{Request, State};
use axum::middleware::{self, Next};
use axum::response::Response;
use axum::routing::post as on_post;
use http::StatusCode;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What every HTTP request is served with.
pub(super) struct Endpoint {
    pub(super) core: Arc<ServerCore>,
    pub(super) sessions: Sessions,
    /// The session of stateless (2026-07-28) requests: never named, never used for state.
    pub(super) stateless: Arc<Session>,
    pub(super) hosts: HostPolicy,
    pub(super) max_body_bytes: usize,
    /// How much of a refused body is still read (and dropped), so its client reads the `413`.
    pub(super) max_drained_body_bytes: usize,
    pub(super) keep_alive: Duration,
    /// The recent events of resumable session streams.
    pub(super) events: Arc<dyn EventStore>,
}

/// The settings an endpoint is built from.
pub(super) struct Settings {
    pub(super) hosts: HostPolicy,
    pub(super) max_body_bytes: Option<usize>,
    pub(super) max_drained_body_bytes: usize,
    pub(super) sessions: SessionLimits,
    pub(super) keep_alive: Duration,
    pub(super) events: Arc<dyn EventStore>,
}

impl Endpoint {
    /// An endpoint whose sessions and streams end when `shutdown` is cancelled.
    pub(super) fn new(
        core: Arc<ServerCore>,
        settings: Settings,
        shutdown: CancellationToken,
    ) -> Self {
        let max_body_bytes = settings
            .max_body_bytes
            .unwrap_or(core.limits.max_message_bytes);
        Self {
            core,
            sessions: Sessions::new(settings.sessions, shutdown, settings.events.clone()),
            stateless: Arc::new(Session::default()),
            hosts: settings.hosts,
            max_body_bytes,
            max_drained_body_bytes: settings.max_drained_body_bytes,
            keep_alive: settings.keep_alive,
            events: settings.events,
        }
    }
}

/// The router serving `endpoint` at `path`.
pub(super) fn router(endpoint: Arc<Endpoint>, path: &str) -> Router {
    Router::new()
        .route(
            path,
            on_post(post::handle)
                .get(get::handle)
                .delete(delete::handle),
        )
        .route_layer(middleware::from_fn_with_state(endpoint.clone(), check_host))
        .with_state(endpoint)
}

async fn check_host(
    State(endpoint): State<Arc<Endpoint>>,
    request: Request,
    next: Next,
) -> Response {
    match endpoint.hosts.check(request.headers()) {
        Ok(()) => next.run(request).await,
        Err(header) => {
            tracing::warn!(header, "request from a host that is not allowed; refused");
            let error = ErrorObject::new(
                code::INVALID_REQUEST,
                format!("Forbidden: {header} not allowed"),
            );
            reply::error(StatusCode::FORBIDDEN, None, &error)
        }
    }
}
