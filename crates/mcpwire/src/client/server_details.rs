//! What the server said about itself when the conversation opened.

use crate::protocol::{Implementation, ServerCapabilities};

/// What the server said about itself when the conversation opened.
///
/// # Examples
///
/// ```no_run
/// # async fn demo(client: mcpwire::client::Client) {
/// let server = client.server();
/// println!("{} speaks {}", server.info.as_ref().map_or("?", |i| i.name.as_str()), server.protocol_version);
/// # }
/// ```
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct ServerDetails {
    /// The revision in use.
    pub protocol_version: String,
    /// Every revision the server lists (2026-07-28 `supportedVersions`; on 2025-11-25 the one
    /// negotiated).
    pub supported_versions: Vec<String>,
    /// What the server offers.
    pub capabilities: ServerCapabilities,
    /// Who the server is, when it says.
    pub info: Option<Implementation>,
    /// How to use the server, for the model.
    pub instructions: Option<String>,
}
