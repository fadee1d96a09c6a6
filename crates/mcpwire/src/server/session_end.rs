//! [`SessionEnd`]: the lifecycle event of a 2025-11-25 session that ends, and
//! [`McpServer::on_session_end`], which hears it (telemetry's session duration metric,
//! `mcpwire::otel::record_session_duration`, is one listener).

use super::builder::McpServer;
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

impl McpServer {
    /// Calls `listener` each time a 2025-11-25 session ends (2026-07-28 has no sessions): to
    /// record how long sessions last, free what the application kept per session, or log it.
    /// It runs on the task that ends the session: keep it short.
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::server::SessionEnd;
    ///
    /// let server = McpServer::new("shop").on_session_end(|ended: &SessionEnd| {
    ///     eprintln!("a {} session ended after {:?}", ended.transport, ended.duration);
    /// });
    /// # drop(server);
    /// ```
    pub fn on_session_end(self, listener: impl Fn(&SessionEnd) + Send + Sync + 'static) -> Self {
        let mut server = self;
        server.add_session_end_hook(Arc::new(listener));
        server
    }
}
