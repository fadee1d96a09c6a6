//! The server layer: the `McpServer` builder, tool registration, schemas and tool results.

mod builder;
pub(crate) mod cache;
pub(crate) mod completion;
pub(crate) mod core;
pub(crate) mod header_params;
pub(crate) mod output;
pub(crate) mod pages;
pub(crate) mod prompt;
pub(crate) mod registry;
pub(crate) mod resource;
pub(crate) mod schema;
pub(crate) mod tool;
mod uri_template;

pub use builder::McpServer;
pub use completion::CompletionFuture;
pub use output::IntoCallToolResult;
pub use prompt::{IntoGetPromptResult, IntoPrompt};
pub use resource::{IntoResource, IntoResourceContents};
pub use tool::IntoTool;
