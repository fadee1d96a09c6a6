//! Tools: what `#[tool]` declares, and the call a tool's generated code runs against.

use super::output::OutputShape;
use crate::context::Context;
use crate::error::ToolError;
use crate::protocol::tools::{CallToolResult, ToolAnnotations};
use crate::resolve::plan::ToolPlan;
use crate::resolve::run::resolve;
use crate::resolve::{ArgumentSource, ParamSpec, Resolution};
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The future a tool call runs as.
pub type ToolFuture = Pin<Box<dyn Future<Output = CallToolResult> + Send>>;

/// Everything a server needs to list and call one tool. `#[tool]` builds it from the function;
/// it is read once, at registration.
#[derive(Clone)]
pub struct ToolDefinition {
    /// The name clients call it by.
    pub name: &'static str,
    /// A display title.
    pub title: Option<&'static str>,
    /// What it does, for the model (the function's doc comment).
    pub description: Option<&'static str>,
    /// Behaviour hints.
    pub annotations: ToolAnnotations,
    /// The JSON Schema of the visible arguments.
    pub input_schema: fn() -> schemars::Schema,
    /// Whether the tool returns structured output, and its schema.
    pub output: fn() -> OutputShape,
    /// Where each parameter of the function gets its value, in declaration order.
    pub params: &'static [ParamSpec],
    /// Runs the tool.
    pub call: fn(ToolCall) -> ToolFuture,
}

/// Something that can be registered as a tool with [`McpServer::tool`](crate::McpServer::tool).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a tool",
    label = "not a tool",
    note = "annotate the function with `#[mcp::tool]` to register it"
)]
pub trait IntoTool {
    /// The tool's definition.
    fn into_tool(self) -> ToolDefinition;
}

impl IntoTool for ToolDefinition {
    fn into_tool(self) -> ToolDefinition {
        self
    }
}

/// A registered tool: its definition and what registration derived from it.
pub(crate) struct RegisteredTool {
    pub(crate) definition: ToolDefinition,
    pub(crate) plan: ToolPlan,
    /// Structured output is wrapped as `{"result": …}` because its schema's root is not an
    /// object.
    pub(crate) wrap_output: bool,
}

/// One call of a tool, as its generated code sees it.
pub struct ToolCall {
    pub(crate) context: Context,
    pub(crate) arguments: Option<Box<RawValue>>,
    pub(crate) tool: Arc<RegisteredTool>,
}

impl ToolCall {
    /// The request's context.
    pub fn context(&self) -> Context {
        self.context.clone()
    }

    /// Parses the arguments once into the tool's argument type. A missing `arguments` object
    /// reads as `{}`; a value sent under a name the type does not have (e.g. a resolved
    /// parameter's) is dropped.
    pub fn parse_arguments<A: DeserializeOwned>(&self) -> Result<A, ToolError> {
        let text = self.arguments.as_deref().map_or("{}", RawValue::get);
        let mut deserializer = serde_json::Deserializer::from_str(text);
        serde_path_to_error::deserialize(&mut deserializer).map_err(|error| {
            let path = error.path().to_string();
            let inner = error.into_inner();
            let message = inner.to_string();
            let why = strip_position(&message);
            if path == "." {
                ToolError::new(format!("invalid arguments: {why}"))
            } else {
                ToolError::new(format!("invalid arguments: {path}: {why}"))
            }
        })
    }

    /// Runs the tool's resolvers for this round.
    pub async fn resolve<'a>(
        &'a self,
        arguments: &'a dyn ArgumentSource,
    ) -> Result<Resolution<'a>, ToolError> {
        resolve(&self.tool.plan, &self.context, arguments).await
    }

    /// The `isError` result for a failure: `Error executing tool <name>: <message>`.
    pub fn failed(&self, error: ToolError) -> CallToolResult {
        failure(self.tool.definition.name, &error)
    }

    /// Whether structured output is wrapped as `{"result": …}`.
    pub(crate) fn wraps_output(&self) -> bool {
        self.tool.wrap_output
    }
}

pub(crate) fn failure(tool: &str, error: &ToolError) -> CallToolResult {
    CallToolResult::error(format!("Error executing tool {tool}: {error}"))
}

/// serde_json appends " at line 1 column 17" to its messages: noise for a model.
fn strip_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(at) => &message[..at],
        None => message,
    }
}
