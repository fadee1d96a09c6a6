//! Whether a client declared an extension, and the error for one that did not.

use crate::protocol::jsonrpc::code;
use crate::protocol::{ClientCapabilities, ErrorObject};
use serde_json::json;

/// Whether `capabilities` (a 2025-11-25 session's, or a 2026-07-28 request's own) declare the
/// extension `id` under `extensions`.
pub(crate) fn declared_by(capabilities: &ClientCapabilities, id: &str) -> bool {
    declared_settings(capabilities, id).is_some()
}

/// The settings `capabilities` declare the extension `id` with, when they declare it.
pub(crate) fn declared_settings<'a>(
    capabilities: &'a ClientCapabilities,
    id: &str,
) -> Option<&'a serde_json::Value> {
    capabilities
        .other
        .get("extensions")
        .and_then(|extensions| extensions.get(id))
}

/// `-32021`: `what` needs the extension `id`, which the request (or its session) did not
/// declare; `data.requiredCapabilities` names it.
///
/// ```
/// let error = mcpwire::extension::not_negotiated("tasks/get", "io.modelcontextprotocol/tasks");
/// assert_eq!(error.code, -32021);
/// assert!(error.message.contains("io.modelcontextprotocol/tasks"));
/// ```
pub fn not_negotiated(what: &str, id: &str) -> ErrorObject {
    ErrorObject::new(
        code::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!("{what}: the request must declare the {id} extension"),
    )
    .with_data(json!({ "requiredCapabilities": { "extensions": { id: {} } } }))
}
