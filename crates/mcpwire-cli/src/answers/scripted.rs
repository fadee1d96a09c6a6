//! Filling a form from `--answer FIELD=VALUE` flags: each property takes its answer (converted
//! by its schema, and checked against its string format), else its default; a required
//! property with neither cannot be answered.

use super::formats;
use crate::values::{convert, split_pair};
use serde_json::{Map, Value};

/// The form's content, or the name of the first required field the answers do not fill.
pub fn fill(schema: &Value, answers: &[String]) -> Result<Map<String, Value>, Unfilled> {
    let mut given = Map::new();
    for answer in answers {
        let (name, raw) = split_pair(answer).map_err(Unfilled::Bad)?;
        let value = convert(schema, name, raw).map_err(Unfilled::Bad)?;
        if let Some(property) = schema.get("properties").and_then(|p| p.get(name)) {
            formats::check(name, property, &value).map_err(Unfilled::Bad)?;
        }
        given.insert(name.to_owned(), value);
    }
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .collect();
    let mut content = Map::new();
    let properties = schema.get("properties").and_then(Value::as_object);
    for (name, property) in properties.into_iter().flatten() {
        if let Some(value) = given.get(name).or_else(|| property.get("default")) {
            content.insert(name.clone(), value.clone());
        } else if required.contains(&name.as_str()) {
            return Err(Unfilled::Required(name.clone()));
        }
    }
    Ok(content)
}

/// Why the flags cannot answer a form.
#[derive(Debug, PartialEq)]
pub enum Unfilled {
    /// A required field has no `--answer` and no default.
    Required(String),
    /// An `--answer` is malformed or does not fit its field.
    Bad(String),
}

impl std::fmt::Display for Unfilled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Unfilled::Required(field) => write!(
                f,
                "the server asks for the required field '{field}': give it with --answer {field}=VALUE"
            ),
            Unfilled::Bad(why) => write!(f, "--answer {why}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({"type": "object", "properties": {
            "confirm": {"type": "boolean"},
            "copies": {"type": "integer", "default": 1},
            "note": {"type": "string"}
        }, "required": ["confirm"]})
    }

    #[test]
    fn answers_then_defaults_fill_the_form() {
        let content = fill(&schema(), &["confirm=true".into(), "unrelated=x".into()]).unwrap();
        assert_eq!(
            Value::Object(content),
            json!({"confirm": true, "copies": 1})
        );
        let content = fill(&schema(), &["confirm=false".into(), "copies=3".into()]).unwrap();
        assert_eq!(
            Value::Object(content),
            json!({"confirm": false, "copies": 3})
        );
    }

    #[test]
    fn a_missing_required_field_is_named() {
        let unfilled = fill(&schema(), &["note=hi".into()]).unwrap_err();
        assert_eq!(unfilled, Unfilled::Required("confirm".into()));
        assert!(unfilled.to_string().contains("'confirm'"), "{unfilled}");
        let bad = fill(&schema(), &["confirm=maybe".into()]).unwrap_err();
        assert!(matches!(bad, Unfilled::Bad(_)), "{bad:?}");
    }

    #[test]
    fn an_answer_that_does_not_fit_its_format_is_refused() {
        let schema = json!({"type": "object", "properties": {
            "email": {"type": "string", "format": "email"}}});
        let bad = fill(&schema, &["email=nope".into()]).unwrap_err();
        assert_eq!(
            bad,
            Unfilled::Bad(r#"email: "nope" is not a valid email"#.into())
        );
        let content = fill(&schema, &["email=ada@example.com".into()]).unwrap();
        assert_eq!(Value::Object(content), json!({"email": "ada@example.com"}));
    }
}
