//! How this crate generates JSON Schemas (2020-12): one generator for tool inputs and outputs,
//! prompt arguments and elicitation forms; and how values are checked against them (tool
//! arguments, elicitation answers). The lowest layer beside `protocol`.
//!
//! # Examples
//!
//! ```
//! use mcpwire::schema::schema_for;
//!
//! #[derive(schemars::JsonSchema)]
//! struct Order { title: String, copies: Option<u32> }
//!
//! let schema = schema_for::<Order>();
//! assert_eq!(schema.get("type").unwrap(), "object");
//! assert_eq!(schema.get("required").unwrap(), &serde_json::json!(["title"]));
//! ```

#[cfg(feature = "server")]
mod type_only;
#[cfg(feature = "server")]
mod validate;
#[cfg(feature = "server")]
mod violation;

#[cfg(feature = "server")]
pub(crate) use type_only::says_only_types;
#[cfg(feature = "server")]
pub(crate) use validate::Validator;

use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};

/// The keyword that marks a property filled by the server itself (a `Context` parameter):
/// such properties are removed from every schema a client sees.
#[cfg(feature = "server")]
pub(crate) const INJECTED_KEYWORD: &str = "x-mcpwire-injected";

/// The generator every schema of this crate comes from: JSON Schema 2020-12 with sub-schemas
/// inlined, because several MCP clients do not follow `$ref`.
///
/// ```
/// let schema = mcpwire::schema::generator().into_root_schema_for::<Vec<String>>();
/// assert_eq!(schema.get("type").unwrap(), "array");
/// ```
pub fn generator() -> SchemaGenerator {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.into_generator()
}

/// The schema of `T`, generated the way tool schemas are.
///
/// ```
/// let schema = mcpwire::schema::schema_for::<u32>();
/// assert_eq!(schema.get("type").unwrap(), "integer");
/// ```
pub fn schema_for<T: JsonSchema>() -> Schema {
    generator().into_root_schema_for::<T>()
}

/// Removes the properties the server fills itself (see [`INJECTED_KEYWORD`]) from an object
/// schema's `properties` and `required`.
#[cfg(feature = "server")]
pub(crate) fn strip_injected(schema: &mut serde_json::Value) {
    use serde_json::Value;
    let Some(map) = schema.as_object_mut() else {
        return;
    };
    let Some(properties) = map.get_mut("properties").and_then(Value::as_object_mut) else {
        return;
    };
    let injected: Vec<String> = properties
        .iter()
        .filter(|(_, property)| property.get(INJECTED_KEYWORD).is_some())
        .map(|(name, _)| name.clone())
        .collect();
    if injected.is_empty() {
        return;
    }
    for name in &injected {
        properties.remove(name);
    }
    if let Some(required) = map.get_mut("required").and_then(Value::as_array_mut) {
        required.retain(|name| !injected.iter().any(|i| Some(i.as_str()) == name.as_str()));
        if required.is_empty() {
            map.remove("required");
        }
    }
}
