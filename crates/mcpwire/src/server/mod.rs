//! The server layer: the `McpServer` builder, the registries of tools, prompts and resources
//! (changeable while serving through a [`Catalog`]), schemas and tool results.

mod builder;
pub(crate) mod cache;
mod catalog;
pub(crate) mod completion;
pub(crate) mod core;
mod entries;
pub(crate) mod header_params;
pub(crate) mod output;
pub(crate) mod pages;
pub(crate) mod prompt;
pub(crate) mod prompt_registry;
pub(crate) mod registries;
pub(crate) mod registry;
pub(crate) mod resource;
pub(crate) mod resource_registry;
pub(crate) mod schema;
pub(crate) mod snapshot;
pub(crate) mod tool;
mod uri_template;

pub use builder::McpServer;
pub use catalog::Catalog;
pub use completion::CompletionFuture;
pub use output::IntoCallToolResult;
pub use prompt::{IntoGetPromptResult, IntoPrompt};
pub use resource::{IntoResource, IntoResourceContents};
pub use tool::IntoTool;
