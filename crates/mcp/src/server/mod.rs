//! The server layer: the `McpServer` builder, tool registration, schemas and tool results.

mod builder;
pub(crate) mod core;
pub mod output;
pub(crate) mod registry;
pub mod schema;
pub(crate) mod tool;

pub use builder::McpServer;
pub use output::{IntoCallToolResult, OutputShape};
pub use tool::{IntoTool, ToolCall, ToolDefinition, ToolFuture, ToolMarker};
