//! Tools as registry entries: a tool's name is checked, its schemas are worked out once (the
//! input schema compiled into a check when it says more than the types), and its arguments
//! mirrored in `Mcp-Param-*` headers are found.

use super::handler::Handler;
use super::kind::{Common, Kind, Registered};
use super::named_view::NamedView;
use super::output::OutputShape;
use super::schema::{given_input_schema, input_schema, output_schema};
use super::tool::ToolDefinition;
use crate::error::InvalidSignature;
use crate::protocol::tools::Tool;
use crate::resolve::plan::Overrides;
use crate::schema::{Validator, says_only_types};
use crate::wire::header_params::{HeaderParam, header_params};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The enabled tools, by name, and their `tools/list` pages.
pub(crate) type ToolView = NamedView<ToolDefinition>;

impl Kind for ToolDefinition {
    type Listing = Tool;
    /// The arguments mirrored in `Mcp-Param-*` headers.
    type Extra = Vec<HeaderParam>;
    type View = ToolView;
    const NOUN: &'static str = "tool";

    fn extra_asks(header_params: &Vec<HeaderParam>) -> bool {
        !header_params.is_empty()
    }

    fn common(&self) -> Common {
        Common::new(self.name, self.params, self.scopes)
    }

    fn register(self, overrides: &Overrides) -> Result<Registered<Self>, InvalidSignature> {
        check_name(self.name)?;
        let (listed, wrap_output) = describe(&self)?;
        let input_check = input_check(&self, &listed.input_schema)?;
        let header_params = mirrored(&listed)?;
        let handler = Handler {
            wrap_output,
            input_check,
            ..Handler::new(self.name, self.plan(overrides)?)
        };
        Ok(Registered {
            definition: self,
            handler: Arc::new(handler),
            listed,
            extra: header_params,
            aliases: Vec::new(),
        })
    }

    fn view(enabled: Vec<&Arc<Registered<Self>>>, page_size: usize) -> ToolView {
        NamedView::new("tools", enabled, page_size)
    }

    fn listing_meta(listing: &mut Tool) -> &mut Option<Map<String, Value>> {
        &mut listing.meta
    }

    fn renamed(&self, key: &'static str) -> Self {
        Self {
            name: key,
            ..self.clone()
        }
    }

    fn rename_listing(listing: &mut Tool, key: &str) {
        key.clone_into(&mut listing.name);
    }

    /// The arguments a listed tool's input schema mirrors in headers, checked in front as a
    /// defined tool's are.
    #[cfg(feature = "gateway")]
    fn listed_extra(listed: &Tool) -> Result<Option<Vec<HeaderParam>>, InvalidSignature> {
        mirrored(listed).map(Some)
    }
}

/// The arguments `listed`'s input schema mirrors in `Mcp-Param-*` headers (`x-mcp-header`).
fn mirrored(listed: &Tool) -> Result<Vec<HeaderParam>, InvalidSignature> {
    header_params(&listed.name, &listed.input_schema).map_err(InvalidSignature::new)
}

impl ToolView {
    /// The arguments of the tool `name` mirrored in `Mcp-Param-*` headers.
    #[cfg(feature = "http")]
    pub(crate) fn header_params(&self, name: &str) -> &[HeaderParam] {
        if !self.any_extra_asks() {
            return &[];
        }
        self.get(name).map_or(&[], |tool| &tool.extra)
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
