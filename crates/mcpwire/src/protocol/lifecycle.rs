//! `initialize` (2025-11-25) and `server/discover` (2026-07-28).

use super::capabilities::{ClientCapabilities, ServerCapabilities};
use super::implementation::Implementation;
use serde::{Deserialize, Serialize};

/// `initialize` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::InitializeParams;
/// use serde_json::json;
///
/// let params: InitializeParams = serde_json::from_value(json!({
///     "protocolVersion": "2025-11-25",
///     "capabilities": {"roots": {}},
///     "clientInfo": {"name": "inspector", "version": "0.1.0"}
/// }))
/// .unwrap();
/// assert_eq!(params.protocol_version, "2025-11-25");
/// assert!(params.capabilities.roots());
/// assert_eq!(params.client_info.name, "inspector");
/// ```
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeParams {
    /// The newest revision the client speaks.
    #[serde(default)]
    pub protocol_version: String,
    /// What the client can do, for the whole session.
    #[serde(default)]
    pub capabilities: ClientCapabilities,
    /// Who the client is.
    #[serde(default)]
    pub client_info: Implementation,
}

/// `initialize` result.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::InitializeResult;
/// use mcpwire::protocol::{Implementation, ServerCapabilities};
/// use serde_json::json;
///
/// let capabilities = ServerCapabilities::default();
/// let server_info =
///     Implementation { name: "bookshop".into(), version: "1.0.0".into(), ..Default::default() };
/// let result = InitializeResult {
///     protocol_version: "2025-11-25",
///     capabilities: &capabilities,
///     server_info: &server_info,
///     instructions: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     json!({
///         "protocolVersion": "2025-11-25",
///         "capabilities": {},
///         "serverInfo": {"name": "bookshop", "version": "1.0.0"}
///     })
/// );
/// ```
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct InitializeResult<'a> {
    /// The negotiated revision.
    pub protocol_version: &'a str,
    /// What the server offers.
    pub capabilities: &'a ServerCapabilities,
    /// Who the server is.
    pub server_info: &'a Implementation,
    /// How to use this server, for the client's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<&'a str>,
}

/// Who may cache a cacheable result (2026-07-28).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CacheScope;
///
/// assert_eq!(serde_json::to_value(CacheScope::Private).unwrap(), "private");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client may reuse it.
    Public,
    /// Only the requesting principal may reuse it.
    Private,
}

/// `server/discover` result (2026-07-28).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ServerCapabilities;
/// use mcpwire::protocol::{CacheScope, DiscoverResult};
/// use serde_json::json;
///
/// let capabilities = ServerCapabilities::default();
/// let result = DiscoverResult {
///     supported_versions: &["2026-07-28", "2025-11-25"],
///     capabilities: &capabilities,
///     instructions: Some("Search before you reserve."),
///     ttl_ms: 60_000,
///     cache_scope: CacheScope::Public,
/// };
/// let json = serde_json::to_value(&result).unwrap();
/// assert_eq!(json["supportedVersions"], json!(["2026-07-28", "2025-11-25"]));
/// assert_eq!(json["ttlMs"], 60_000);
/// assert_eq!(json["cacheScope"], "public");
/// ```
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DiscoverResult<'a> {
    /// Revisions this server speaks, modern first.
    pub supported_versions: &'a [&'static str],
    /// What the server offers.
    pub capabilities: &'a ServerCapabilities,
    /// How to use this server, for the client's model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub instructions: Option<&'a str>,
    /// How long the client may cache this result.
    pub ttl_ms: u64,
    /// Who may cache it.
    pub cache_scope: CacheScope,
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn lifecycle() {
        let params: InitializeParams = serde_json::from_str(
            r#"{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"cli","version":"1"}}"#,
        )
        .unwrap();
        assert_eq!(negotiate_legacy(&params.protocol_version), "2025-06-18");
    }
}
