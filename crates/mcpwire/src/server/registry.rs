//! The tool registry: tools in registration order, their `tools/list` pages serialized once.

use crate::wire::header_params::header_params;
use super::output::OutputShape;
use super::schema::{given_input_schema, input_schema, output_schema};
use super::tool::{Handler, RegisteredTool, ToolDefinition};
use crate::error::InvalidSignature;
use crate::protocol::tools::Tool;
use crate::resolve::plan::{Overrides, ToolPlan};
use std::collections::HashMap;
use std::sync::Arc;

#[derive(Default)]
pub(crate) struct ToolRegistry {
    tools: Vec<Arc<RegisteredTool>>,
    listed: Vec<Tool>,
    by_name: HashMap<&'static str, usize>,
}

impl ToolRegistry {
    pub(crate) fn add(
        &mut self,
        definition: ToolDefinition,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let name = definition.name;
        check_name(name)?;
        if self.by_name.contains_key(name) {
            return Err(InvalidSignature::new(format!(
                "tool '{name}' is registered twice"
            )));
        }
        let (tool, wrap_output) = describe(&definition)?;
        let header_params =
            header_params(name, &tool.input_schema).map_err(InvalidSignature::new)?;
        let plan = ToolPlan::build(name, definition.params, overrides)?;
        self.by_name.insert(name, self.tools.len());
        let handler = Arc::new(Handler {
            name,
            plan,
            wrap_output,
            mime_type: None,
        });
        self.tools.push(Arc::new(RegisteredTool {
            definition,
            handler,
            header_params,
        }));
        self.listed.push(tool);
        Ok(())
    }

    /// Rebuilds every plan, after the overrides changed.
    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for tool in &mut self.tools {
            let definition = tool.definition.clone();
            let plan = ToolPlan::build(definition.name, definition.params, overrides)?;
            let wrap_output = tool.handler.wrap_output;
            let handler = Arc::new(Handler {
                name: definition.name,
                plan,
                wrap_output,
                mime_type: None,
            });
            let header_params = tool.header_params.clone();
            *tool = Arc::new(RegisteredTool {
                definition,
                handler,
                header_params,
            });
        }
        Ok(())
    }

    /// The arguments of the tool `name` mirrored in `Mcp-Param-*` headers.
    #[cfg(feature = "http")]
    pub(crate) fn header_params(
        &self,
        name: &str,
    ) -> &[crate::wire::header_params::HeaderParam] {
        self.get(name).map_or(&[], |tool| &tool.header_params)
    }

    pub(crate) fn get(&self, name: &str) -> Option<&Arc<RegisteredTool>> {
        self.by_name.get(name).map(|&index| &self.tools[index])
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.tools.is_empty()
    }

    pub(crate) fn listed(&self) -> &[Tool] {
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
