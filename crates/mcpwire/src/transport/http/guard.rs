//! What stands in front of the endpoint: its authorization, when the server has one. Made once
//! per server, for the router and the front alike.

use axum::Router;
use axum::extract::Request;
use axum::response::Response;
use std::sync::Arc;

/// What stands in front of the endpoint: its authorization, when there is one.
pub(super) struct Guard {
    /// The gate enforcing the authorization: one for the router and the front.
    #[cfg(feature = "auth")]
    pub(super) gate: Option<super::auth::GateLayer>,
}

impl Guard {
    /// `app` (serving `core`) behind the guard.
    pub(super) fn apply(&self, app: Router, core: Arc<crate::server::core::ServerCore>) -> Router {
        #[cfg(feature = "auth")]
        if let Some(gate) = &self.gate {
            return super::auth::protect(app, gate.clone(), core);
        }
        let _ = core;
        app
    }

    /// Whether every request is admitted as it is (the server has no authorization).
    pub(super) fn is_open(&self) -> bool {
        #[cfg(feature = "auth")]
        if self.gate.is_some() {
            return false;
        }
        true
    }

    /// `request` admitted (with what the gate decided in its extensions), or the answer that
    /// turns it away: what the router's gate layer does, for a request served without it.
    pub(super) async fn admit(&self, request: Request) -> Result<Request, Response> {
        #[cfg(feature = "auth")]
        if let Some(gate) = &self.gate {
            return gate.admit(request).await;
        }
        Ok(request)
    }
}
