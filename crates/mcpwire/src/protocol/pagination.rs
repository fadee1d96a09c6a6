//! Paginated list requests: where the next page starts. Their results carry the `nextCursor`
//! the next request sends back.

use serde::Deserialize;

/// The params of a paginated list request (`tools/list`, `prompts/list`, `resources/list`,
/// `resources/templates/list`, `tasks/list`).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::PaginatedParams;
///
/// let next: PaginatedParams = serde_json::from_str(r#"{"cursor":"abc"}"#).unwrap();
/// assert_eq!(next.cursor.as_deref(), Some("abc"));
/// let first: PaginatedParams = serde_json::from_str("{}").unwrap();
/// assert_eq!(first.cursor, None);
/// ```
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PaginatedParams {
    /// Where to continue, from the previous page's `nextCursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}
