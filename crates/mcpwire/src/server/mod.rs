//! The server layer: the `McpServer` builder, tool registration, schemas and tool results.

mod builder;
pub(crate) mod completion;
pub(crate) mod core;
pub mod header_params;
pub mod output;
pub(crate) mod pages;
pub mod prompt;
pub(crate) mod registry;
pub mod resource;
pub mod schema;
pub(crate) mod tool;
mod uri_template;

pub use builder::McpServer;
pub use completion::CompletionFuture;
pub use output::{IntoCallToolResult, OutputShape};
pub use prompt::{IntoGetPromptResult, IntoPrompt, PromptDefinition, PromptFuture, PromptMarker};
pub use resource::{
    IntoResource, IntoResourceContents, ResourceDefinition, ResourceFuture, ResourceMarker,
};
pub use tool::{IntoTool, ToolCall, ToolDefinition, ToolFuture, ToolMarker};
