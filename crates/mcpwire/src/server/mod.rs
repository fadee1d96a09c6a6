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
pub(crate) mod cache;
mod catalog;
pub(crate) mod completion;
pub(crate) mod core;
mod entries;
mod named_view;
pub(crate) mod output;
pub(crate) mod pages;
pub(crate) mod prompt;
pub(crate) mod prompt_registry;
pub(crate) mod registries;
pub(crate) mod registry;
pub(crate) mod resource;
pub(crate) mod resource_registry;
pub(crate) mod schema;
pub(crate) mod scoped;
pub(crate) mod snapshot;
pub(crate) mod tool;
pub(crate) mod unregistrable;
mod uri_template;

pub use builder::McpServer;
pub use catalog::Catalog;
pub use completion::CompletionFuture;
pub use output::IntoCallToolResult;
pub use prompt::{IntoGetPromptResult, IntoPrompt};
pub use resource::{IntoResource, IntoResourceContents};
pub use tool::IntoTool;
