//! Roots: the client's workspace folders (deprecated in 2026-07-28, still served).
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::ListRootsResult;
//!
//! let answer: ListRootsResult = serde_json::from_str(
//!     r#"{"roots":[{"uri":"file:///home/ada/src","name":"src"},{"uri":"file:///tmp"}]}"#,
//! )
//! .unwrap();
//! let uris: Vec<&str> = answer.roots.iter().map(|root| root.uri.as_str()).collect();
//! assert_eq!(uris, ["file:///home/ada/src", "file:///tmp"]);
//! ```

use serde::{Deserialize, Serialize};

/// One root: a `file://` URI and an optional name.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Root;
/// use serde_json::json;
///
/// let root: Root =
///     serde_json::from_value(json!({"uri": "file:///home/ada/src", "name": "src"})).unwrap();
/// assert_eq!(root.name.as_deref(), Some("src"));
/// let bare = Root { uri: "file:///tmp".into(), name: None };
/// assert_eq!(serde_json::to_value(&bare).unwrap(), json!({"uri": "file:///tmp"}));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Root {
    /// A `file://` URI.
    pub uri: String,
    /// A display name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

/// The client's answer to `roots/list`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ListRootsResult;
///
/// let answer: ListRootsResult =
///     serde_json::from_str(r#"{"roots":[{"uri":"file:///work"}]}"#).unwrap();
/// assert_eq!(answer.roots[0].uri, "file:///work");
/// assert_eq!(serde_json::to_string(&ListRootsResult::default()).unwrap(), r#"{"roots":[]}"#);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ListRootsResult {
    /// The roots.
    pub roots: Vec<Root>,
}
