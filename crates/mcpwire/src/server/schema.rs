//! JSON Schema generation (2020-12) for tool inputs and outputs, done once at registration.

use crate::error::InvalidSignature;
use crate::schema::strip_injected;
use schemars::Schema;
use serde_json::{Map, Value, json};

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
    strip_injected(&mut value);
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schema::schema_for;

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
