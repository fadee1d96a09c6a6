//! Prompts: what `#[prompt]` declares and what a prompt may return.

use super::tool::ToolCall;
use crate::error::ToolError;
use crate::protocol::content::{Content, Role};
use crate::protocol::prompts::{GetPromptResult, PromptMessage};
use crate::resolve::{ParamSpec, Stop};
use std::future::Future;
use std::pin::Pin;

/// The future a prompt renders in.
pub type PromptFuture = Pin<Box<dyn Future<Output = Result<GetPromptResult, Stop>> + Send>>;

/// Everything a server needs to list and render one prompt; `#[prompt]` builds it.
#[derive(Clone)]
pub struct PromptDefinition {
    /// The name clients get it by.
    pub name: &'static str,
    /// A display title.
    pub title: Option<&'static str>,
    /// What it is for (the function's doc comment).
    pub description: Option<&'static str>,
    /// The JSON Schema of its arguments (strings).
    pub arguments: fn() -> schemars::Schema,
    /// Where each parameter of the function gets its value.
    pub params: &'static [ParamSpec],
    /// Renders the prompt.
    pub call: fn(ToolCall) -> PromptFuture,
}

/// Something that can be registered as a prompt with
/// [`McpServer::prompt`](crate::McpServer::prompt).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a prompt",
    note = "annotate the function with `#[mcpwire::prompt]` to register it"
)]
pub trait IntoPrompt {
    /// The prompt's definition.
    fn into_prompt(self) -> PromptDefinition;
}

/// The argument of a `#[prompt]` function: only the server can produce one.
#[derive(Debug)]
pub struct PromptMarker(());

impl<F: FnOnce(PromptMarker) -> PromptDefinition> IntoPrompt for F {
    fn into_prompt(self) -> PromptDefinition {
        self(PromptMarker(()))
    }
}

/// What a prompt function may return.
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a prompt",
    note = "return a String, prompt messages, a GetPromptResult, or a Result of those"
)]
pub trait IntoGetPromptResult {
    /// The rendered prompt, or why it could not be rendered.
    fn into_get_prompt_result(self) -> Result<GetPromptResult, ToolError>;
}

impl IntoGetPromptResult for GetPromptResult {
    fn into_get_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        Ok(self)
    }
}

impl IntoGetPromptResult for Vec<PromptMessage> {
    fn into_get_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        Ok(GetPromptResult {
            description: None,
            messages: self,
        })
    }
}

impl IntoGetPromptResult for PromptMessage {
    fn into_get_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        vec![self].into_get_prompt_result()
    }
}

/// One user message with this text.
impl IntoGetPromptResult for String {
    fn into_get_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        PromptMessage {
            role: Role::User,
            content: Content::text(self),
        }
        .into_get_prompt_result()
    }
}

impl<T: IntoGetPromptResult, E: std::fmt::Display> IntoGetPromptResult for Result<T, E> {
    fn into_get_prompt_result(self) -> Result<GetPromptResult, ToolError> {
        self.map_err(|e| ToolError::new(e.to_string()))?
            .into_get_prompt_result()
    }
}
