//! The protocol layer: message types of both revisions, error codes, and revision selection.
//!
//! Types of 2025-11-25 and 2026-07-28 live side by side; where the revisions differ only in
//! envelope fields (`resultType`, `_meta.serverInfo`, cache hints), the dispatcher adds them at one
//! boundary, so handlers never branch on the revision.

pub mod cancelled;
pub mod capabilities;
pub mod content;
pub mod elicitation;
pub mod implementation;
pub mod jsonrpc;
pub mod lifecycle;
pub mod logging;
pub mod meta;
pub mod progress;
pub mod roots;
pub mod sampling;
pub mod tools;
pub mod version;

pub use capabilities::{ClientCapabilities, ServerCapabilities};
pub use content::{Content, ResourceContents, Role};
pub use elicitation::{ElicitAction, ElicitRequestParams, ElicitResult};
pub use implementation::Implementation;
pub use jsonrpc::{ErrorObject, RequestId};
pub use logging::LoggingLevel;
pub use roots::{ListRootsResult, Root};
pub use sampling::{CreateMessageRequestParams, CreateMessageResult, SamplingMessage};
pub use tools::{CallToolResult, Tool, ToolAnnotations};
pub use version::Era;
