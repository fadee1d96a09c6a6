//! The server layer: the `McpServer` builder, the registries of tools, prompts and resources
//! (changeable while serving through a [`Catalog`]), schemas and tool results.
//!
//! # Examples
//!
//! ```
//! use mcpwire::prelude::*;
//!
//! /// Says hello.
//! #[tool]
//! async fn hello(name: String) -> String { format!("Hello, {name}!") }
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
//! let mut client = McpServer::new("greeter").tool(hello)?.serve_memory().await?;
//! let reply = client
//!     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello","arguments":{"name":"Ada"}}}"#)
//!     .await
//!     .unwrap();
//! assert_eq!(reply, r#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}"#);
//! # Ok(()) }
//! ```

mod builder;
mod catalog;
mod completer;
pub(crate) mod completion;
pub(crate) mod core;
mod entries;
mod extension;
pub(crate) mod handler;
mod kind;
mod lasting;
#[cfg(feature = "gateway")]
pub(crate) mod listed;
mod mount;
mod mounted_completers;
mod named_view;
pub(crate) mod namespace;
pub(crate) mod output;
pub(crate) mod pages;
pub(crate) mod prompt;
mod prompt_kind;
pub(crate) mod registries;
mod registry;
pub(crate) mod remount;
pub(crate) mod resource;
mod resource_kind;
pub(crate) mod schema;
pub(crate) mod snapshot;
mod task_settings;
pub(crate) mod tool;
pub(crate) mod tool_kind;
pub(crate) mod tool_output;
pub(crate) mod unregistrable;
mod uri_template;

pub use builder::McpServer;
pub use catalog::Catalog;
#[cfg(feature = "gateway")]
pub(crate) use completer::Completer;
pub use completer::CompletionFuture;
pub use extension::{Extension, Install};
pub use output::IntoCallToolResult;
pub use prompt::{IntoGetPromptResult, IntoPrompt};
pub use resource::{IntoResource, IntoResourceContents};
pub use tool::IntoTool;
pub use tool_output::ToolOutput;
