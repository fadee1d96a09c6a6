//! The scope decision: whether a caller's [`Grant`] holds every scope a handler declares. Every
//! gate that admits a request to scoped work calls it (`dispatch/authorize.rs` for the core's
//! methods, [`ExtensionRequest::authorize`](crate::extension::ExtensionRequest::authorize) for an
//! extension's), so the decision is made once, the same way, where the work happens.

use super::Grant;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use serde_json::json;

/// The scope decision alone: `grant` (when there is one) must hold every scope of `needed`.
pub(crate) fn authorize(grant: Option<&Grant>, needed: &[&str]) -> Result<(), ErrorObject> {
    match grant {
        Some(grant) if !grant.allows(needed) => Err(insufficient_scope(grant, needed)),
        _ => Ok(()),
    }
}

/// `-32003`, naming the scopes `grant` lacks (`missingScopes`) and every scope the request
/// needs (`requiredScopes`: the endpoint's, then the handler's).
fn insufficient_scope(grant: &Grant, needed: &[&str]) -> ErrorObject {
    let missing: Vec<&str> = needed
        .iter()
        .copied()
        .filter(|scope| !grant.has_scope(scope))
        .collect();
    let mut required: Vec<&str> = grant.endpoint_scopes.iter().map(String::as_str).collect();
    for scope in needed {
        if !required.contains(scope) {
            required.push(scope);
        }
    }
    ErrorObject::new(
        code::INSUFFICIENT_SCOPE,
        format!(
            "Forbidden: insufficient scope; this request needs {}",
            missing.join(" ")
        ),
    )
    .with_data(json!({
        "error": "insufficient_scope",
        "missingScopes": missing,
        "requiredScopes": required,
    }))
}
