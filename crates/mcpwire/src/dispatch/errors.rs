//! The errors several methods answer with.

use crate::protocol::jsonrpc::code;
use crate::protocol::{Era, ErrorObject};

/// A resource that does not exist: `-32002` on 2025-11-25, `-32602` on 2026-07-28.
pub(crate) fn not_found(era: Era, uri: &str) -> ErrorObject {
    let code = match era {
        Era::Legacy => code::RESOURCE_NOT_FOUND_LEGACY,
        Era::Modern => code::INVALID_PARAMS,
    };
    ErrorObject::new(code, "Resource not found").with_data(serde_json::json!({ "uri": uri }))
}

/// `-32602` for a tool or prompt this server does not have (`what` is `tool` or `prompt`);
/// the name is cut to 128 characters.
pub(crate) fn unknown(what: &'static str, name: &str) -> ErrorObject {
    let name: String = name.chars().take(128).collect();
    ErrorObject::invalid_params(format!("Unknown {what}: {name}"))
}
