//! `Implementation`: the name and version a client or server reports about itself.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::Implementation;
//!
//! let client: Implementation =
//!     serde_json::from_str(r#"{"name":"desktop-client","version":"1.2.0","title":"Desktop"}"#).unwrap();
//! assert_eq!(client.title.as_deref(), Some("Desktop"));
//! assert!(client.website_url.is_none());
//! ```

use serde::{Deserialize, Serialize};

/// Who is at the other end (or at this end): `clientInfo` / `serverInfo`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Implementation;
/// use serde_json::json;
///
/// let server =
///     Implementation { name: "bookshop".into(), version: "1.0.0".into(), ..Default::default() };
/// assert_eq!(
///     serde_json::to_value(&server).unwrap(),
///     json!({"name": "bookshop", "version": "1.0.0"})
/// );
/// let client: Implementation = serde_json::from_value(json!({"name": "inspector"})).unwrap();
/// assert_eq!(client.version, "");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Implementation {
    /// Programmatic name.
    pub name: String,
    /// Version string.
    #[serde(default)]
    pub version: String,
    /// Display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A one-line description.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// A home page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub website_url: Option<String>,
}
