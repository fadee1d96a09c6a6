//! `initialize` (2025-11-25) and `server/discover` (2026-07-28).

use super::capabilities::{ClientCapabilities, ServerCapabilities};
use super::implementation::Implementation;
use serde::{Deserialize, Serialize};

/// `initialize` params.
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
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CacheScope {
    /// Any client may reuse it.
    Public,
    /// Only the requesting principal may reuse it.
    Private,
}

/// `server/discover` result (2026-07-28).
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
