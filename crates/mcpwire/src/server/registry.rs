//! The tool registry: tools in registration order, enabled or not, and the [`ToolView`] of the
//! enabled ones that requests read, with its `tools/list` pages serialized once per change.

use super::entries::Entries;
use super::handler::Handler;
use super::named_view::NamedView;
use super::output::OutputShape;
use super::schema::{given_input_schema, input_schema, output_schema};
use super::scoped::Scoped;
use super::tool::{RegisteredTool, ToolDefinition};
use crate::error::InvalidSignature;
use crate::protocol::tools::Tool;
use crate::resolve::plan::{Overrides, ToolPlan};
use crate::schema::{Validator, says_only_types};
use crate::wire::header_params::header_params;
use std::sync::Arc;

#[derive(Default)]
pub(crate) struct ToolRegistry {
    entries: Entries<Arc<RegisteredTool>>,
}

impl ToolRegistry {
    pub(crate) fn add(
        &mut self,
        definition: ToolDefinition,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let name = definition.name;
        check_name(name)?;
        if self.entries.contains(name) {
            return Err(InvalidSignature::new(format!(
                "tool '{name}' is registered twice"
            )));
        }
        let (listed, wrap_output) = describe(&definition)?;
        let input_check = input_check(&definition, &listed.input_schema)?;
        let header_params =
            header_params(name, &listed.input_schema).map_err(InvalidSignature::new)?;
        let plan = ToolPlan::build(name, definition.params, overrides)?;
        let handler = Arc::new(Handler {
            name,
            plan,
            wrap_output,
            mime_type: None,
            input_check,
        });
        let tool = RegisteredTool {
            definition,
            handler,
            header_params,
            listed,
        };
        self.entries.push(name, Arc::new(tool));
        Ok(())
    }

    /// Rebuilds every plan, after the overrides changed.
    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for tool in self.entries.values_mut() {
            let definition = tool.definition.clone();
            let plan = ToolPlan::build(definition.name, definition.params, overrides)?;
            let handler = Arc::new(Handler {
                name: definition.name,
                plan,
                wrap_output: tool.handler.wrap_output,
                mime_type: None,
                input_check: tool.handler.input_check.clone(),
            });
            *tool = Arc::new(RegisteredTool {
                definition,
                handler,
                header_params: tool.header_params.clone(),
                listed: tool.listed.clone(),
            });
        }
        Ok(())
    }

    /// Forgets the tool `name`; `false` when there is none.
    pub(crate) fn remove(&mut self, name: &str) -> bool {
        self.entries.remove(name)
    }

    /// Enables or disables the tool `name`; `false` when there is none or it already is.
    pub(crate) fn set_enabled(&mut self, name: &str, enabled: bool) -> bool {
        self.entries.set_enabled(name, enabled)
    }

    /// Whether no tool is registered, enabled or not.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What requests see: the enabled tools.
    pub(crate) fn view(&self, page_size: usize) -> ToolView {
        let name = |tool: &RegisteredTool| tool.definition.name;
        NamedView::new(
            "tools",
            self.entries.enabled(),
            name,
            |tool| &tool.listed,
            page_size,
        )
    }
}

/// The enabled tools, by name, and their `tools/list` pages.
pub(crate) type ToolView = NamedView<RegisteredTool>;

impl ToolView {
    /// The arguments of the tool `name` mirrored in `Mcp-Param-*` headers.
    #[cfg(feature = "http")]
    pub(crate) fn header_params(&self, name: &str) -> &[crate::wire::header_params::HeaderParam] {
        self.get(name).map_or(&[], |tool| &tool.header_params)
    }
}

impl Scoped for RegisteredTool {
    type Listing = Tool;
    fn scopes(&self) -> &'static [&'static str] {
        self.definition.scopes
    }
    fn listing(&self) -> &Tool {
        &self.listed
    }
}

fn describe(definition: &ToolDefinition) -> Result<(Tool, bool), InvalidSignature> {
    let schema = (definition.input_schema)();
    let input_schema = if definition.input_schema_given {
        given_input_schema(definition.name, schema)?
    } else {
        input_schema(definition.name, schema)?
    };
    let (output_schema, wrap_output) = match (definition.output)() {
        OutputShape::Content => (None, false),
        OutputShape::Structured(schema) => {
            let (schema, wrapped) = output_schema(schema);
            (Some(schema), wrapped)
        }
    };
    let annotations = Some(definition.annotations.clone()).filter(|a| !a.is_empty());
    let tool = Tool {
        name: definition.name.to_owned(),
        title: definition.title.map(str::to_owned),
        description: definition.description.map(str::to_owned),
        input_schema,
        output_schema,
        annotations,
        icons: None,
        meta: None,
    };
    Ok((tool, wrap_output))
}

/// The check of a tool's arguments against its input schema, compiled once. A generated schema
/// that says no more than the parameters' types needs none: parsing the arguments into them
/// enforces it all. A given schema is always checked.
fn input_check(
    definition: &ToolDefinition,
    schema: &serde_json::Value,
) -> Result<Option<Arc<Validator>>, InvalidSignature> {
    if !definition.input_schema_given && says_only_types(schema) {
        return Ok(None);
    }
    let check = Validator::new(schema).map_err(|why| {
        InvalidSignature::new(format!(
            "tool '{}': its input schema cannot be checked: {why}",
            definition.name
        ))
    })?;
    Ok(Some(Arc::new(check)))
}

/// Tool names: 1–128 characters of `A-Z a-z 0-9 _ - .` (SEP-986).
fn check_name(name: &str) -> Result<(), InvalidSignature> {
    let valid_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    if name.is_empty() || name.len() > 128 || !name.chars().all(valid_char) {
        return Err(InvalidSignature::new(format!(
            "tool name '{name}' is invalid: use 1 to 128 characters from A-Z, a-z, 0-9, '_', '-', '.'"
        )));
    }
    Ok(())
}
