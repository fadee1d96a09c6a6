//! What stands in front of the endpoint: its authorization, when the server has one. Made once
//! per server, for the router and the front alike.

use axum::Router;
use std::sync::Arc;

/// What stands in front of the endpoint: its authorization, when there is one.
pub(super) struct Guard {
    /// The gate enforcing the authorization: one for the router and the front.
    #[cfg(all(feature = "auth", feature = "http"))]
    pub(super) gate: Option<super::auth::GateLayer>,
}

impl Guard {
    /// `app` (serving `core`) behind the guard.
    pub(super) fn apply(&self, app: Router, core: Arc<crate::server::core::ServerCore>) -> Router {
        #[cfg(all(feature = "auth", feature = "http"))]
        if let Some(gate) = &self.gate {
            return super::auth::protect(app, gate.clone(), core);
        }
        let _ = core;
        app
    }
}
