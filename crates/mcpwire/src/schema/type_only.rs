//! Whether a generated schema says no more than its Rust types: then parsing the arguments into
//! those types already enforces all of it, and the call needs no schema check.
//!
//! Conservative: only the keywords serde enforces through the types of a generated schema
//! (`type`, `properties`, `required`, `items`, the numeric formats and their bounds) and
//! annotations count as "types only"; any other keyword (`minLength`, `pattern`, `enum`, a string
//! `format`, …) means the schema must be checked.

use serde_json::{Map, Value};

/// Keywords that describe and never refuse.
const ANNOTATIONS: &[&str] = &[
    "title",
    "description",
    "default",
    "examples",
    "deprecated",
    "readOnly",
    "writeOnly",
    "$comment",
    "$schema",
];

/// Whether `schema` (generated from Rust types) constrains nothing the types do not.
pub(crate) fn says_only_types(schema: &Value) -> bool {
    match schema {
        Value::Bool(accepts) => *accepts,
        Value::Object(map) => map
            .iter()
            .all(|(keyword, value)| is_type_level(keyword, value, map)),
        _ => false,
    }
}

fn is_type_level(keyword: &str, value: &Value, schema: &Map<String, Value>) -> bool {
    match keyword {
        // serde requires the same fields: those neither `Option` nor defaulted.
        "type" | "required" => true,
        "properties" => value
            .as_object()
            .is_some_and(|properties| properties.values().all(says_only_types)),
        "items" => says_only_types(value),
        "format" => value.as_str().and_then(numeric_bounds).is_some(),
        "minimum" | "maximum" => {
            let format = schema.get("format").and_then(Value::as_str);
            let Some((min, max)) = format.and_then(numeric_bounds) else {
                return false;
            };
            let bound = if keyword == "minimum" { min } else { max };
            bound.is_some_and(|bound| value.as_i64() == Some(bound))
        }
        _ => ANNOTATIONS.contains(&keyword) || keyword.starts_with("x-"),
    }
}

/// The bounds schemars writes for an integer format (`u8`: 0 to 255), which the integer type
/// itself enforces; `None` for a format that is not numeric.
fn numeric_bounds(format: &str) -> Option<(Option<i64>, Option<i64>)> {
    Some(match format {
        "int8" => (Some(i8::MIN.into()), Some(i8::MAX.into())),
        "int16" => (Some(i16::MIN.into()), Some(i16::MAX.into())),
        "uint8" => (Some(0), Some(u8::MAX.into())),
        "uint16" => (Some(0), Some(u16::MAX.into())),
        "uint32" | "uint64" | "uint128" | "uint" => (Some(0), None),
        "int32" | "int64" | "int128" | "int" | "float" | "double" => (None, None),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::says_only_types;
    use crate::schema::schema_for;
    use schemars::JsonSchema;
    use serde_json::json;

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Plain {
        /// A title.
        title: String,
        small: u8,
        count: u32,
        delta: i16,
        ratio: f64,
        note: Option<String>,
        tags: Vec<String>,
    }

    #[derive(JsonSchema)]
    #[allow(dead_code)]
    struct Limited {
        #[schemars(range(max = 10))]
        count: u32,
    }

    #[test]
    fn types_alone_need_no_check() {
        assert!(says_only_types(&schema_for::<Plain>().to_value()));
        assert!(says_only_types(
            &json!({"type": "object", "x-mcp-header": "Region"})
        ));
    }

    #[test]
    fn any_constraint_needs_a_check() {
        assert!(!says_only_types(&schema_for::<Limited>().to_value()));
        for constrained in [
            json!({"type": "string", "minLength": 1}),
            json!({"type": "string", "format": "email"}),
            json!({"type": "string", "enum": ["a"]}),
            json!({"type": "integer", "format": "uint8", "maximum": 10}),
            json!({"type": "integer", "minimum": 0}),
            json!({"type": "object", "properties": {"a": {"pattern": "^a"}}}),
            json!({"type": "object", "additionalProperties": false}),
            json!({"items": {"const": 1}}),
            json!(false),
        ] {
            assert!(!says_only_types(&constrained), "{constrained}");
        }
    }
}
