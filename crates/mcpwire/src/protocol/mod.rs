//! The protocol layer: message types of both revisions, error codes, and revision selection.
//!
//! Every type has one public path, `mcpwire::protocol::Name` (the files below are an internal
//! layout); JSON-RPC error codes are in [`code`].
//!
//! Types of 2025-11-25 and 2026-07-28 live side by side; where the revisions differ only in
//! envelope fields (`resultType`, `_meta.serverInfo`, cache hints), the dispatcher adds them at one
//! boundary, so handlers never branch on the revision.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::{CallToolResult, Content};
//! use serde_json::json;
//!
//! let result = CallToolResult { content: vec![Content::text("3 books")], ..Default::default() };
//! assert_eq!(
//!     serde_json::to_value(&result).unwrap(),
//!     json!({"content": [{"type": "text", "text": "3 books"}]})
//! );
//! ```

// Each side (server, client) uses its own share of the wire items: built with one side only,
// the other's share is unused, which is not a defect; with both, every item must be used.
#![cfg_attr(not(all(feature = "server", feature = "client")), allow(dead_code))]

pub mod apps;
pub(crate) mod cache_hint;
pub(crate) mod cancelled;
pub(crate) mod capabilities;
pub(crate) mod completion;
pub(crate) mod content;
pub(crate) mod elicitation;
#[cfg(test)]
mod example_scope;
pub(crate) mod icon;
pub(crate) mod implementation;
pub(crate) mod interned;
pub(crate) mod jsonrpc;
#[cfg(test)]
mod jsonrpc_proptests;
pub(crate) mod lifecycle;
pub(crate) mod list_changed;
pub(crate) mod logging;
pub(crate) mod meta;
pub(crate) mod methods;
mod pagination;
pub(crate) mod params;
pub(crate) mod progress;
pub(crate) mod prompts;
pub(crate) mod resources;
pub(crate) mod result_kind;
pub(crate) mod roots;
pub(crate) mod sampling;
pub mod skills;
pub(crate) mod subscriptions;
pub(crate) mod tasks;
pub(crate) mod tools;
pub(crate) mod version;

pub use cancelled::CancelledParams;
pub use capabilities::{ClientCapabilities, ListChanged, ResourcesCapability, ServerCapabilities};
pub use completion::{
    CompleteParams, CompleteResult, Completion, CompletionArgument, CompletionContext,
    CompletionReference,
};
pub use content::{Annotations, Content, ResourceContents, Role};
pub use elicitation::{
    ElicitAction, ElicitRequestParams, ElicitResult, ElicitationCompleteParams,
    UrlElicitationRequiredData,
};
pub use icon::{Icon, IconTheme};
pub use implementation::Implementation;
pub use jsonrpc::{ErrorObject, RequestId, code};
pub use lifecycle::{CacheScope, DiscoverResult, InitializeParams, InitializeResult};
pub use list_changed::{ChangedList, ListChangedParams};
pub use logging::{LoggingLevel, LoggingMessageParams, SetLevelParams};
pub use meta::TraceContext;
pub use progress::{ProgressParams, ProgressToken};
pub use prompts::{
    GetPromptParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage,
};
pub use resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceParams, ReadResourceResult,
    Resource, ResourceTemplate, ResourceUpdatedParams, SubscribeParams, UnsubscribeParams,
};
pub use roots::{ListRootsResult, Root};
pub use sampling::{
    CreateMessageRequestParams, CreateMessageResult, SamplingBlock, SamplingContent,
    SamplingMessage,
};
pub use subscriptions::{
    AcknowledgedParams, ListenParams, ListenResult, Subscribed, SubscriptionFilter,
    SubscriptionMeta,
};
pub use tasks::{
    CreateTaskResult, DetailedTask, LegacyTask, ListTasksResult, RelatedTask, RelatedTaskMeta,
    Task, TaskMetadata, TaskPayload, TaskStatus, TaskSupport, TasksCancelParams, TasksGetParams,
    TasksListParams, TasksResultParams, TasksUpdateParams, ToolExecution,
};
pub use tools::{
    CallToolParams, CallToolResult, ListToolsResult, PaginatedParams, Tool, ToolAnnotations,
};
pub use version::Era;

/// Parses `json`, checks that serializing the value gives back the same JSON (compared as
/// [`serde_json::Value`], so key order and whitespace do not matter), and returns the value.
#[cfg(test)]
pub(crate) fn round_trip<T>(json: &str) -> T
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    let expected: serde_json::Value = serde_json::from_str(json).expect("test JSON is valid");
    let parsed: T = serde_json::from_str(json).expect("the spec example parses");
    let written = serde_json::to_value(&parsed).expect("the value serializes");
    assert_eq!(written, expected, "round trip changed the JSON");
    parsed
}
