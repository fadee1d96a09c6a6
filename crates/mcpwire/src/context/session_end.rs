//! [`SessionEnd`]: the lifecycle event of a 2025-11-25 session that ends, as
//! [`McpServer::on_session_end`](crate::McpServer::on_session_end) hears it (telemetry's
//! session duration metric, `mcpwire::otel::record_session_duration`, is one listener).

use std::sync::Arc;
use std::time::Duration;

/// A 2025-11-25 session that ended (its DELETE, idle expiry, eviction, its longest lifetime,
/// the stdio connection closing, shutdown), as the process that ended it saw it.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SessionEnd {
    /// The revision its `initialize` negotiated.
    pub protocol_version: Arc<str>,
    /// How it was served: `tcp` (Streamable HTTP) or `pipe` (stdio).
    pub transport: &'static str,
    /// How long it lasted: from `initialize` (or from when this replica took it over) to its
    /// end.
    pub duration: Duration,
}

/// What hears a session end.
pub(crate) type SessionEndHook = Arc<dyn Fn(&SessionEnd) + Send + Sync>;

/// Every listener of a server's session ends.
pub(crate) type SessionEndHooks = Arc<[SessionEndHook]>;
