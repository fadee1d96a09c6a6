//! Tools: their description in `tools/list` and the `tools/call` exchange.

use super::content::Content;
use super::icon::Icon;
use super::tasks::TaskMetadata;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// Hints about a tool's behaviour. Clients treat them as untrusted.
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
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }
}

/// A tool as `tools/list` describes it.
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
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListToolsResult {
    /// One page of tools.
    pub tools: Vec<Tool>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// `tools/list` and other paginated list params.
#[derive(Clone, Debug, Default, Deserialize)]
pub struct PaginatedParams {
    /// Where to continue, from the previous page's `nextCursor`.
    #[serde(default)]
    pub cursor: Option<String>,
}

/// `tools/call` params.
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
    pub fn text(text: impl Into<String>) -> Self {
        Self {
            content: vec![Content::text(text)],
            ..Self::default()
        }
    }

    /// A failed result (`isError: true`) with one text block saying why.
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
