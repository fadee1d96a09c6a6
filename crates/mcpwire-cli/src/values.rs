//! `NAME=VALUE` pairs, converted by a JSON Schema: a string-typed property takes the raw text,
//! any other type parses VALUE as JSON. Used for tool arguments and form answers alike.

use serde_json::{Map, Value};

/// Splits `NAME=VALUE` at the first `=`.
pub fn split_pair(pair: &str) -> Result<(&str, &str), String> {
    match pair.split_once('=') {
        Some((name, value)) if !name.is_empty() => Ok((name, value)),
        _ => Err(format!("expected NAME=VALUE, got {pair:?}")),
    }
}

/// Whether a property's schema accepts a string (and so takes the raw text).
fn takes_text(property: &Value) -> bool {
    match property.get("type") {
        Some(Value::String(kind)) => kind == "string",
        Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "string"),
        // No type: an enum of strings, or a `const` string, takes the text.
        _ => property
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|choices| choices.iter().all(Value::is_string) && !choices.is_empty()),
    }
}

/// Converts VALUE for the property `name` of `schema` (an object schema).
pub fn convert(schema: &Value, name: &str, raw: &str) -> Result<Value, String> {
    match schema.get("properties").and_then(|p| p.get(name)) {
        Some(property) if takes_text(property) => Ok(Value::String(raw.to_owned())),
        Some(property) => serde_json::from_str(raw).map_err(|_| {
            let kind = property
                .get("type")
                .map_or("non-string".into(), Value::to_string);
            format!("{name}: {raw:?} is not JSON (the schema's type is {kind})")
        }),
        // Not in the schema: JSON when it parses, else the text.
        None => Ok(serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_owned()))),
    }
}

/// The object built from `pairs` by `schema`, on top of `base` (pairs win).
pub fn object(
    schema: &Value,
    base: Map<String, Value>,
    pairs: &[String],
) -> Result<Map<String, Value>, String> {
    let mut object = base;
    for pair in pairs {
        let (name, raw) = split_pair(pair)?;
        object.insert(name.to_owned(), convert(schema, name, raw)?);
    }
    Ok(object)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "title": {"type": "string"},
            "copies": {"type": "integer"},
            "confirm": {"type": "boolean"},
            "tags": {"type": "array", "items": {"type": "string"}},
            "genre": {"enum": ["sf", "fantasy"]},
            "note": {"type": ["string", "null"]}
        }})
    }

    #[test]
    fn strings_take_the_raw_text_and_the_rest_parse_as_json() {
        let pairs = [
            "title=42",
            "copies=3",
            "confirm=true",
            r#"tags=["a","b"]"#,
            "genre=sf",
            "note=null",
            "extra={\"k\":1}",
            "other=plain words",
        ]
        .map(String::from);
        let built = object(&schema(), Map::new(), &pairs).unwrap();
        assert_eq!(
            Value::Object(built),
            json!({"title": "42", "copies": 3, "confirm": true, "tags": ["a", "b"],
                   "genre": "sf", "note": "null", "extra": {"k": 1}, "other": "plain words"})
        );
    }

    #[test]
    fn pairs_win_over_the_base_object() {
        let base = json!({"title": "Dune", "copies": 1})
            .as_object()
            .cloned()
            .unwrap();
        let built = object(&schema(), base, &["copies=2".into()]).unwrap();
        assert_eq!(Value::Object(built), json!({"title": "Dune", "copies": 2}));
    }

    #[test]
    fn bad_values_name_the_argument() {
        let error = object(&schema(), Map::new(), &["copies=three".into()]).unwrap_err();
        assert_eq!(
            error,
            r#"copies: "three" is not JSON (the schema's type is "integer")"#
        );
        let error = object(&schema(), Map::new(), &["=3".into()]).unwrap_err();
        assert_eq!(error, r#"expected NAME=VALUE, got "=3""#);
        assert_eq!(split_pair("a=b=c").unwrap(), ("a", "b=c"));
    }
}
