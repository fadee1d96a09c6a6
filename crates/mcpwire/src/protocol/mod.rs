//! The protocol layer: message types of both revisions, error codes, and revision selection.
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

pub mod cancelled;
pub mod capabilities;
pub mod completion;
pub mod content;
pub mod elicitation;
pub mod icon;
pub mod implementation;
pub mod jsonrpc;
#[cfg(test)]
mod jsonrpc_proptests;
pub mod lifecycle;
pub mod list_changed;
pub mod logging;
pub mod meta;
mod pagination;
pub mod progress;
pub mod prompts;
pub mod resources;
pub mod roots;
pub mod sampling;
pub mod subscriptions;
pub mod tasks;
pub mod tools;
pub mod version;

pub use capabilities::{ClientCapabilities, ServerCapabilities};
pub use completion::{CompleteParams, CompleteResult, Completion, CompletionReference};
pub use content::{Content, ResourceContents, Role};
pub use elicitation::{ElicitAction, ElicitRequestParams, ElicitResult};
pub use icon::Icon;
pub use implementation::Implementation;
pub use jsonrpc::{ErrorObject, RequestId};
pub use list_changed::{ChangedList, ListChangedParams};
pub use logging::LoggingLevel;
pub use prompts::{
    GetPromptParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument, PromptMessage,
};
pub use resources::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceParams, ReadResourceResult,
    Resource, ResourceTemplate, ResourceUpdatedParams, SubscribeParams, UnsubscribeParams,
};
pub use roots::{ListRootsResult, Root};
pub use sampling::{CreateMessageRequestParams, CreateMessageResult, SamplingMessage};
pub use subscriptions::{
    AcknowledgedParams, ListenParams, ListenResult, Subscribed, SubscriptionFilter,
};
pub use tasks::{
    CreateTaskResult, DetailedTask, LegacyTask, ListTasksResult, Task, TaskStatus,
    TasksCancelParams, TasksGetParams, TasksResultParams, TasksUpdateParams,
};
pub use tools::{CallToolResult, ListToolsResult, Tool, ToolAnnotations};
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
