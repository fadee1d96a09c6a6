//! JSON Schema generation (2020-12) for tool inputs and outputs, done once at registration.

use crate::error::InvalidSignature;
use schemars::generate::SchemaSettings;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde_json::{Map, Value, json};

/// The generator every schema of this crate comes from: JSON Schema 2020-12 with sub-schemas
/// inlined, because several MCP clients do not follow `$ref`.
pub fn generator() -> SchemaGenerator {
    let mut settings = SchemaSettings::draft2020_12();
    settings.inline_subschemas = true;
    settings.into_generator()
}

/// The schema of `T`, generated the way tool schemas are.
pub fn schema_for<T: JsonSchema>() -> Schema {
    generator().into_root_schema_for::<T>()
}

/// A tool's input schema: root `type: object`, no `$schema` or `title` noise.
pub(crate) fn input_schema(tool: &str, schema: Schema) -> Result<Value, InvalidSignature> {
    let mut value = tidy(schema);
    let is_object = value.get("type").and_then(Value::as_str) == Some("object");
    if !is_object {
        return Err(InvalidSignature::new(format!(
            "tool '{tool}': the input schema's root must be `type: object`"
        )));
    }
    if let Some(map) = value.as_object_mut()
        && map
            .get("properties")
            .is_some_and(|p| p.as_object().is_some_and(Map::is_empty))
    {
        map.remove("properties");
    }
    Ok(value)
}

/// A tool's input schema as its author wrote it (`#[tool(input_schema = "…")]`), untouched: any
/// JSON Schema 2020-12 keyword is allowed (SEP-1613, SEP-2106); only the root must still be
/// `type: object`.
pub(crate) fn given_input_schema(tool: &str, schema: Schema) -> Result<Value, InvalidSignature> {
    let value = schema.to_value();
    if value.get("type").and_then(Value::as_str) != Some("object") {
        return Err(InvalidSignature::new(format!(
            "tool '{tool}': the input schema's root must be `type: object`"
        )));
    }
    Ok(value)
}

/// A tool's output schema and whether values must be wrapped as `{"result": …}` (when the
/// root is not an object, which 2025-11-25 requires).
pub(crate) fn output_schema(schema: Schema) -> (Value, bool) {
    let value = tidy(schema);
    if value.get("type").and_then(Value::as_str) == Some("object") {
        return (value, false);
    }
    let wrapped = json!({
        "type": "object",
        "properties": { "result": value },
        "required": ["result"],
    });
    (wrapped, true)
}

/// A schema as listings show it: no `$schema` or `title` noise.
pub(crate) fn schema_for_listing(schema: Schema) -> Value {
    tidy(schema)
}

fn tidy(schema: Schema) -> Value {
    let mut value = schema.to_value();
    if let Some(map) = value.as_object_mut() {
        map.remove("$schema");
        map.remove("title");
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_non_object_outputs() {
        let (schema, wrapped) = output_schema(schema_for::<u32>());
        assert!(wrapped);
        assert_eq!(schema["properties"]["result"]["type"], "integer");
        assert_eq!(schema["required"], json!(["result"]));
    }

    #[test]
    fn rejects_non_object_inputs() {
        let error = input_schema("t", schema_for::<String>()).unwrap_err();
        assert!(error.message().contains("tool 't'"));
    }
}
