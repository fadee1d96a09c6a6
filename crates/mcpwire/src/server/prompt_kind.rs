//! Prompts as registry entries: a prompt is keyed by its name and listed with its arguments.

use super::handler::Handler;
use super::kind::{Common, Kind, Registered};
use super::named_view::NamedView;
use super::prompt::PromptDefinition;
use super::schema::schema_for_listing;
use crate::error::InvalidSignature;
use crate::protocol::prompts::{Prompt, PromptArgument};
use crate::resolve::plan::Overrides;
use serde_json::{Map, Value};
use std::sync::Arc;

/// The enabled prompts, by name, and their `prompts/list` pages.
pub(crate) type PromptView = NamedView<PromptDefinition>;

impl Kind for PromptDefinition {
    type Listing = Prompt;
    type Extra = ();
    type View = PromptView;
    const NOUN: &'static str = "prompt";

    fn common(&self) -> Common {
        Common::new(self.name, self.params, self.scopes)
    }

    fn register(self, overrides: &Overrides) -> Result<Registered<Self>, InvalidSignature> {
        let handler = Handler::new(self.name, self.plan(overrides)?);
        Ok(Registered {
            listed: describe(&self),
            definition: self,
            handler: Arc::new(handler),
            extra: (),
            aliases: Vec::new(),
        })
    }

    fn view(enabled: Vec<&Arc<Registered<Self>>>, page_size: usize) -> PromptView {
        NamedView::new("prompts", enabled, page_size)
    }

    fn listing_meta(listing: &mut Prompt) -> &mut Option<Map<String, Value>> {
        &mut listing.meta
    }

    fn renamed(&self, key: &'static str) -> Self {
        Self {
            name: key,
            ..self.clone()
        }
    }

    fn rename_listing(listing: &mut Prompt, key: &str) {
        key.clone_into(&mut listing.name);
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
