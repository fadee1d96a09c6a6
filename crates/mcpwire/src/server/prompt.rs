//! Prompts: what `#[prompt]` declares, what a prompt may return, and the prompt registry.

use super::schema::schema_for_listing;
use super::tool::{Handler, ToolCall};
use crate::error::{InvalidSignature, ToolError};
use crate::protocol::content::{Content, Role};
use crate::protocol::prompts::{GetPromptResult, Prompt, PromptArgument, PromptMessage};
use crate::resolve::plan::{Overrides, ToolPlan};
use crate::resolve::{ParamSpec, Stop};
use serde_json::Value;
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

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

pub(crate) struct RegisteredPrompt {
    pub(crate) definition: PromptDefinition,
    pub(crate) handler: Arc<Handler>,
}

/// Prompts in registration order, with their `prompts/list` result serialized once.
#[derive(Default)]
pub(crate) struct PromptRegistry {
    prompts: Vec<Arc<RegisteredPrompt>>,
    listed: Vec<Prompt>,
    by_name: HashMap<&'static str, usize>,
}

impl PromptRegistry {
    pub(crate) fn add(
        &mut self,
        definition: PromptDefinition,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let name = definition.name;
        if self.by_name.contains_key(name) {
            return Err(InvalidSignature::new(format!(
                "prompt '{name}' is registered twice"
            )));
        }
        let plan = ToolPlan::build(name, definition.params, overrides)?;
        let listed = describe(&definition);
        let handler = Arc::new(Handler {
            name,
            plan,
            wrap_output: false,
            mime_type: None,
            input_check: None,
        });
        self.by_name.insert(name, self.prompts.len());
        self.prompts.push(Arc::new(RegisteredPrompt {
            definition,
            handler,
        }));
        self.listed.push(listed);
        Ok(())
    }

    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for prompt in &mut self.prompts {
            let definition = prompt.definition.clone();
            let plan = ToolPlan::build(definition.name, definition.params, overrides)?;
            let handler = Arc::new(Handler {
                name: definition.name,
                plan,
                wrap_output: false,
                mime_type: None,
                input_check: None,
            });
            *prompt = Arc::new(RegisteredPrompt {
                definition,
                handler,
            });
        }
        Ok(())
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Arc<RegisteredPrompt>> {
        self.by_name.get(name).map(|&index| &self.prompts[index])
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.prompts.is_empty()
    }

    pub(crate) fn listed(&self) -> &[Prompt] {
        &self.listed
    }
}

fn describe(definition: &PromptDefinition) -> Prompt {
    let schema = schema_for_listing((definition.arguments)());
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let arguments: Vec<PromptArgument> = schema["properties"]
        .as_object()
        .map(|properties| {
            properties
                .iter()
                .map(|(name, property)| PromptArgument {
                    name: name.clone(),
                    title: None,
                    description: property["description"].as_str().map(str::to_owned),
                    required: Some(required.contains(&name.as_str())),
                })
                .collect()
        })
        .unwrap_or_default();
    Prompt {
        name: definition.name.to_owned(),
        title: definition.title.map(str::to_owned),
        description: definition.description.map(str::to_owned),
        arguments: (!arguments.is_empty()).then_some(arguments),
        ..Prompt::default()
    }
}
