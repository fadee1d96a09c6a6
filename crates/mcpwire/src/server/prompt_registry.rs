//! The prompt registry: prompts in registration order, enabled or not, and the [`PromptView`]
//! of the enabled ones that requests read, with its `prompts/list` pages serialized once per
//! change.

use super::entries::Entries;
use super::handler::Handler;
use super::named_view::NamedView;
use super::prompt::PromptDefinition;
use super::schema::schema_for_listing;
use crate::error::InvalidSignature;
use crate::protocol::prompts::{Prompt, PromptArgument};
use crate::resolve::plan::{Overrides, ToolPlan};
use serde_json::Value;
use std::sync::Arc;

pub(crate) struct RegisteredPrompt {
    pub(crate) definition: PromptDefinition,
    pub(crate) handler: Arc<Handler>,
    /// How `prompts/list` shows it.
    pub(crate) listed: Prompt,
}

impl super::scoped::Scoped for RegisteredPrompt {
    type Listing = Prompt;
    fn scopes(&self) -> &'static [&'static str] {
        self.definition.scopes
    }
    fn listing(&self) -> &Prompt {
        &self.listed
    }
}

#[derive(Default)]
pub(crate) struct PromptRegistry {
    entries: Entries<Arc<RegisteredPrompt>>,
}

impl PromptRegistry {
    pub(crate) fn add(
        &mut self,
        definition: PromptDefinition,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let name = definition.name;
        if self.entries.contains(name) {
            return Err(InvalidSignature::new(format!(
                "prompt '{name}' is registered twice"
            )));
        }
        let handler = handler(&definition, overrides)?;
        let listed = describe(&definition);
        let prompt = RegisteredPrompt {
            definition,
            handler,
            listed,
        };
        self.entries.push(name, Arc::new(prompt));
        Ok(())
    }

    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for prompt in self.entries.values_mut() {
            *prompt = Arc::new(RegisteredPrompt {
                definition: prompt.definition.clone(),
                handler: handler(&prompt.definition, overrides)?,
                listed: prompt.listed.clone(),
            });
        }
        Ok(())
    }

    /// Forgets the prompt `name`; `false` when there is none.
    pub(crate) fn remove(&mut self, name: &str) -> bool {
        self.entries.remove(name)
    }

    /// Enables or disables the prompt `name`; `false` when there is none or it already is.
    pub(crate) fn set_enabled(&mut self, name: &str, enabled: bool) -> bool {
        self.entries.set_enabled(name, enabled)
    }

    /// Whether no prompt is registered, enabled or not.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What requests see: the enabled prompts.
    pub(crate) fn view(&self, page_size: usize) -> PromptView {
        let name = |prompt: &RegisteredPrompt| prompt.definition.name;
        NamedView::new(
            "prompts",
            self.entries.enabled(),
            name,
            |prompt| &prompt.listed,
            page_size,
        )
    }
}

/// The enabled prompts, by name, and their `prompts/list` pages.
pub(crate) type PromptView = NamedView<RegisteredPrompt>;

fn handler(
    definition: &PromptDefinition,
    overrides: &Overrides,
) -> Result<Arc<Handler>, InvalidSignature> {
    let plan = ToolPlan::build(definition.name, definition.params, overrides)?;
    Ok(Arc::new(Handler {
        name: definition.name,
        plan,
        wrap_output: false,
        mime_type: None,
        input_check: None,
    }))
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
