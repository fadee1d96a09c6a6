//! Tools: their description in `tools/list` and the `tools/call` exchange.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{CallToolParams, CallToolResult};
//! use serde_json::json;
//!
//! #[derive(serde::Deserialize)]
//! struct Add { a: i64, b: i64 }
//!
//! let params: CallToolParams =
//!     serde_json::from_str(r#"{"name":"add","arguments":{"a":2,"b":3}}"#).unwrap();
//! let args: Add = serde_json::from_str(params.arguments.unwrap().get()).unwrap();
//! let result = CallToolResult::text((args.a + args.b).to_string());
//! assert_eq!(
//!     serde_json::to_value(&result).unwrap(),
//!     json!({"content": [{"type": "text", "text": "5"}]})
//! );
//! ```

use super::content::Content;
use super::icon::Icon;
use super::tasks::TaskMetadata;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

pub use super::pagination::PaginatedParams;

/// Hints about a tool's behaviour. Clients treat them as untrusted.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ToolAnnotations;
/// use serde_json::json;
///
/// let hints = ToolAnnotations { read_only_hint: Some(true), ..Default::default() };
/// assert_eq!(serde_json::to_value(&hints).unwrap(), json!({"readOnlyHint": true}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolAnnotations {
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The tool does not change its environment.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub read_only_hint: Option<bool>,
    /// The tool may destroy rather than only add.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub destructive_hint: Option<bool>,
    /// Calling it again with the same arguments has no further effect.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub idempotent_hint: Option<bool>,
    /// The tool talks to the outside world.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_world_hint: Option<bool>,
}

impl ToolAnnotations {
    /// True when no hint is set.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ToolAnnotations;
    ///
    /// assert!(ToolAnnotations::default().is_empty());
    /// let hints = ToolAnnotations { destructive_hint: Some(false), ..Default::default() };
    /// assert!(!hints.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A tool as `tools/list` describes it.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Tool;
/// use serde_json::json;
///
/// let tool: Tool = serde_json::from_value(json!({
///     "name": "search",
///     "description": "Search the catalog.",
///     "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}
/// }))
/// .unwrap();
/// assert_eq!(tool.name, "search");
/// assert!(tool.output_schema.is_none() && tool.annotations.is_none());
/// assert_eq!(serde_json::to_value(&tool).unwrap()["inputSchema"]["type"], "object");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Tool {
    /// The name clients call it by.
    pub name: String,
    /// A display title.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// What it does, for the model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema (2020-12) of the arguments; the root is `type: object`.
    pub input_schema: Value,
    /// JSON Schema of `structuredContent`, when the tool returns structured output.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_schema: Option<Value>,
    /// Behaviour hints.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub annotations: Option<ToolAnnotations>,
    /// Icons a client may show for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub icons: Option<Vec<Icon>>,
    /// Extra metadata (`_meta`), keyed by prefixed names.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// `tools/list` result (`resultType`, `ttlMs` and `cacheScope` are added by the 2026-07-28
/// envelope, not carried here).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ListToolsResult;
/// use serde_json::json;
///
/// let last_page = ListToolsResult::default();
/// assert_eq!(serde_json::to_value(&last_page).unwrap(), json!({"tools": []}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    /// One page of tools.
    pub tools: Vec<Tool>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `tools/call` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CallToolParams;
///
/// let params: CallToolParams =
///     serde_json::from_str(r#"{"name":"search","arguments":{"q":"rust"}}"#).unwrap();
/// assert_eq!(params.name, "search");
/// assert_eq!(params.arguments.unwrap().get(), r#"{"q":"rust"}"#);
/// assert!(params.task.is_none());
/// ```
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolParams {
    /// The tool to call.
    pub name: String,
    /// Its arguments, kept raw so the tool parses them exactly once into its own types.
    #[serde(default)]
    pub arguments: Option<Box<RawValue>>,
    /// 2026-07-28: answers to the previous round's questions, by key.
    #[serde(default)]
    pub input_responses: Option<Box<RawValue>>,
    /// 2026-07-28: the state the previous round returned, echoed verbatim.
    #[serde(default)]
    pub request_state: Option<String>,
    /// 2025-11-25 core tasks: the client asks to run the call as a task.
    #[serde(default)]
    pub task: Option<TaskMetadata>,
}

/// What a tool call produced.
///
/// # Examples
///
/// ```
/// use mcpwire::{CallToolResult, Content};
/// use serde_json::json;
///
/// let result = CallToolResult {
///     content: vec![Content::text(r#"{"copies":3}"#)],
///     structured_content: Some(json!({"copies": 3})),
///     is_error: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&result).unwrap(),
///     json!({
///         "content": [{"type": "text", "text": "{\"copies\":3}"}],
///         "structuredContent": {"copies": 3}
///     })
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallToolResult {
    /// Content for the model (and a text copy of any structured output).
    pub content: Vec<Content>,
    /// Machine-readable output matching the tool's `outputSchema`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structured_content: Option<Value>,
    /// `true` when the tool failed; the content says why.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub is_error: Option<bool>,
}

impl CallToolResult {
    /// A successful result with one text block.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::CallToolResult;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     serde_json::to_value(CallToolResult::text("Reserved.")).unwrap(),
    ///     json!({"content": [{"type": "text", "text": "Reserved."}]})
    /// );
    /// ```
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![Content::text(text)],
            ..Self::default()
        }
    }

    /// A failed result (`isError: true`) with one text block saying why.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::CallToolResult;
    /// use serde_json::json;
    ///
    /// assert_eq!(
    ///     serde_json::to_value(CallToolResult::error("Out of stock.")).unwrap(),
    ///     json!({"content": [{"type": "text", "text": "Out of stock."}], "isError": true})
    /// );
    /// ```
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            content: vec![Content::text(text)],
            is_error: Some(true),
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::round_trip;

    #[test]
    fn round_trips_a_listed_tool_with_icons_and_meta() {
        let page: ListToolsResult = round_trip(
            r#"{"tools":[{"name":"lookup","title":"Lookup","description":"Find a book.",
                "inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},
                "annotations":{"readOnlyHint":true},
                "icons":[{"src":"https://srv.example/lookup.png","mimeType":"image/png","sizes":["48x48"]}],
                "_meta":{"com.example/team":"search"}}],
              "nextCursor":"1"}"#,
        );
        let tool = &page.tools[0];
        assert_eq!(
            tool.icons.as_ref().unwrap()[0].src,
            "https://srv.example/lookup.png"
        );
        assert_eq!(tool.meta.as_ref().unwrap()["com.example/team"], "search");
        let minimal: Tool = round_trip(r#"{"name":"ping","inputSchema":{"type":"object"}}"#);
        assert!(minimal.icons.is_none() && minimal.meta.is_none());
    }
}
