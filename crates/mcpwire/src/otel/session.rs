//! `mcp.server.session.duration`, recorded from the core's session lifecycle event
//! ([`McpServer::on_session_end`](crate::McpServer::on_session_end)).

use super::conventions::{key, server_session_duration};
use crate::context::SessionEnd;
use opentelemetry::KeyValue;

/// Records how long a 2025-11-25 session lasted in `mcp.server.session.duration` (seconds, the
/// conventions' buckets; attributes `mcp.protocol.version` and `network.transport`), from the
/// global meter provider. Install it with
/// [`McpServer::on_session_end`](crate::McpServer::on_session_end).
///
/// ```
/// let server = mcpwire::McpServer::new("shop")
///     .outer_layer(mcpwire::otel::Tracing::new())
///     .on_session_end(mcpwire::otel::record_session_duration);
/// # drop(server);
/// ```
pub fn record_session_duration(ended: &SessionEnd) {
    server_session_duration().record(
        ended.duration.as_secs_f64(),
        &[
            KeyValue::new(key::PROTOCOL_VERSION, ended.protocol_version.to_string()),
            KeyValue::new(key::NETWORK_TRANSPORT, ended.transport),
        ],
    );
}
