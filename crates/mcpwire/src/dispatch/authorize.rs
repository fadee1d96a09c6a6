//! The one authorization decision. Every handler that may need scopes (a tool, a prompt, a
//! resource, the completer for one of them, a subscription to a resource, a task of a scoped
//! tool) is checked here, by the code about to run it, with the values it runs on: the name or
//! URI already parsed from the request and looked up in the registry. The HTTP layer reads
//! nothing of the body; it only turns this decision into a `403` challenge.
//!
//! Without a [`Grant`] (no authorization in front of the transport) nothing is checked. With
//! one, the grant must hold every scope the handler declares; a refusal carries every scope the
//! request needs (the endpoint's and the handler's) so that one challenge names them all.
//!
//! On a 2025-11-25 session the mirrored `Mcp-Method`/`Mcp-Name` headers, when sent, must agree
//! with the body; the transport compares them and this gate reports a disagreement after the
//! scope decision, so a request for something the caller may not use is refused for that,
//! whatever its headers say.

use super::exchange::Exchange;
use crate::context::Grant;
pub(crate) use crate::context::authorize;
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use std::sync::Arc;

/// Admits the request `exchange` carries to a handler that needs `needed`: `Ok` when the
/// caller's grant (if any) holds every scope of `needed` and the request's headers agree with
/// its body.
pub(crate) fn admit(exchange: &Exchange, needed: &[&str]) -> Result<(), ErrorObject> {
    authorize(exchange.grant.as_deref(), needed)?;
    match &exchange.mismatch {
        Some(mismatch) => Err(mismatch.clone()),
        None => Ok(()),
    }
}

/// A request the scope decision refused, as HTTP tells it in a `403` challenge.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) struct Refusal {
    /// Every scope the request needs (the endpoint's, then the handler's).
    pub(crate) scopes: Vec<String>,
    /// Where the server's protected-resource metadata is, when an authorization publishes it.
    pub(crate) metadata_url: Option<Arc<str>>,
}

/// The refusal `error` is, when the scope decision made it for the caller holding `grant`.
pub(crate) fn refusal(error: &ErrorObject, grant: Option<&Grant>) -> Option<Refusal> {
    if error.code != code::INSUFFICIENT_SCOPE {
        return None;
    }
    let scopes = error.data.as_ref()?.get("requiredScopes")?.as_array()?;
    Some(Refusal {
        scopes: scopes
            .iter()
            .filter_map(|scope| scope.as_str().map(str::to_owned))
            .collect(),
        metadata_url: grant.and_then(|grant| grant.metadata_url.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_grant_nothing_is_checked() {
        assert!(authorize(None, &["admin"]).is_ok());
    }

    #[test]
    fn a_grant_must_hold_every_scope_and_the_refusal_names_them() {
        let mut grant = Grant::new(["books:read"]);
        grant.endpoint_scopes = vec!["mcp".to_owned()].into();
        assert!(authorize(Some(&grant), &[]).is_ok());
        assert!(authorize(Some(&grant), &["books:read"]).is_ok());
        let refused = authorize(Some(&grant), &["books:read", "orders:write"]).unwrap_err();
        assert_eq!(refused.code, code::INSUFFICIENT_SCOPE);
        assert!(
            refused.message.ends_with("needs orders:write"),
            "{}",
            refused.message
        );
        assert_eq!(
            refusal(&refused, Some(&grant)).unwrap().scopes,
            ["mcp", "books:read", "orders:write"]
        );
        assert!(refusal(&ErrorObject::internal(), Some(&grant)).is_none());
    }
}
