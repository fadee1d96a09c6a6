//! Prompts: what `#[prompt]` declares and what a prompt may return.

use super::handler::{HandlerCall, HandlerFuture};
use crate::error::ToolError;
use crate::protocol::content::{Content, Role};
use crate::protocol::prompts::{GetPromptResult, PromptMessage};
use crate::resolve::ParamSpec;

/// The future a prompt renders in.
pub type PromptFuture = HandlerFuture<GetPromptResult>;

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
    /// `#[prompt(scopes = […])]`: the OAuth scopes a caller's token must grant to see and get
    /// the prompt, on a server with authorization (`mcpwire::auth`); empty for everyone.
    pub scopes: &'static [&'static str],
    /// Renders the prompt.
    pub call: fn(HandlerCall) -> PromptFuture,
}

/// Something that can be registered as a prompt with
/// [`McpServer::prompt`](crate::McpServer::prompt).
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::server::IntoPrompt;
///
/// /// Says hello to `who`.
/// #[prompt]
/// async fn greet(who: String) -> String { format!("Say hello to {who}.") }
///
/// /// Adds the prompt every server of the team offers, with its instructions.
/// fn with_house_prompt(
///     server: McpServer,
///     prompt: impl IntoPrompt,
/// ) -> Result<McpServer, InvalidSignature> {
///     server.instructions("Use the greet prompt to start.").prompt(prompt)
/// }
///
/// let server = with_house_prompt(McpServer::new("greeter"), greet)?;
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a prompt",
    note = "annotate the function with `#[mcpwire::prompt]` to register it"
)]
pub trait IntoPrompt {
    /// The prompt's definition.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::server::IntoPrompt;
    ///
    /// /// Says hello to `who`.
    /// #[prompt(name = "hello")]
    /// async fn greet(who: String) -> String { format!("Say hello to {who}.") }
    ///
    /// let definition = greet.into_prompt();
    /// assert_eq!(definition.name, "hello");
    /// assert_eq!(definition.description, Some("Says hello to `who`."));
    /// ```
    #[doc(hidden)]
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
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::protocol::PromptMessage;
///
/// /// A short conversation to start from: a `Vec<PromptMessage>` is a valid return type.
/// #[prompt]
/// async fn interview(role: String) -> Vec<PromptMessage> {
///     vec![
///         PromptMessage::user(format!("Interview me for a {role} position.")),
///         PromptMessage::assistant("Sure. Tell me about your last project."),
///     ]
/// }
///
/// let server = McpServer::new("interviews").prompt(interview)?;
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a prompt",
    note = "return a String, prompt messages, a GetPromptResult, or a Result of those"
)]
pub trait IntoGetPromptResult {
    /// The rendered prompt, or why it could not be rendered.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{GetPromptResult, PromptMessage};
    /// use mcpwire::server::IntoGetPromptResult;
    ///
    /// let rendered = "Review this code.".to_owned().into_get_prompt_result().unwrap();
    /// let messages = vec![PromptMessage::user("Review this code.")];
    /// assert_eq!(rendered, GetPromptResult { description: None, messages });
    /// let failed: Result<String, String> = Err("unknown language".into());
    /// assert_eq!(failed.into_get_prompt_result().unwrap_err().message(), "unknown language");
    /// ```
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
