//! One field of an elicitation form, read from its property schema: what to show the person
//! (title, description, type, default, choices) and how to turn their text into a value.

use serde_json::Value;

/// A form field.
pub struct Field {
    /// The property's name.
    pub name: String,
    /// Its title, else its name.
    pub title: String,
    /// Its description, if any.
    pub description: Option<String>,
    /// `string`, `integer`, `number`, `boolean`, `array`, …
    pub kind: String,
    /// Whether the form requires it.
    pub required: bool,
    /// Its default, if any.
    pub default: Option<Value>,
    /// The values it may take (an `enum`, or `oneOf`/`anyOf` of `const`s), with their labels;
    /// for an array, the choices of its items.
    pub choices: Vec<(Value, String)>,
}

impl Field {
    /// The fields of an object schema, in the schema's order.
    pub fn all(schema: &Value) -> Vec<Field> {
        let required: Vec<&str> = schema
            .get("required")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        let properties = schema.get("properties").and_then(Value::as_object);
        properties
            .into_iter()
            .flatten()
            .map(|(name, property)| Field::new(name, property, required.contains(&name.as_str())))
            .collect()
    }

    fn new(name: &str, property: &Value, required: bool) -> Field {
        let text = |key: &str| property.get(key).and_then(Value::as_str).map(str::to_owned);
        let kind = match property.get("type") {
            Some(Value::String(kind)) => kind.clone(),
            Some(Value::Array(kinds)) => kinds
                .iter()
                .filter_map(Value::as_str)
                .find(|k| *k != "null")
                .unwrap_or("string")
                .to_owned(),
            _ => "string".to_owned(),
        };
        let choices = match kind.as_str() {
            "array" => property.get("items").map(choices_of).unwrap_or_default(),
            _ => choices_of(property),
        };
        Field {
            name: name.to_owned(),
            title: text("title").unwrap_or_else(|| name.to_owned()),
            description: text("description"),
            kind,
            required,
            default: property.get("default").cloned(),
            choices,
        }
    }

    /// The line describing the field: title, type, whether required, description, default,
    /// choices.
    pub fn describe(&self) -> String {
        let mut line = format!("{} ({}", self.title, self.kind);
        if self.required {
            line.push_str(", required");
        }
        line.push(')');
        if let Some(description) = &self.description {
            line.push_str(&format!(": {description}"));
        }
        if let Some(default) = &self.default {
            line.push_str(&format!(" [default: {}]", shown(default)));
        }
        if !self.choices.is_empty() {
            let labels: Vec<&str> = self
                .choices
                .iter()
                .map(|(_, label)| label.as_str())
                .collect();
            line.push_str(&format!(" {{choices: {}}}", labels.join(", ")));
        }
        line
    }

    /// Turns typed text into the field's value.
    pub fn parse(&self, text: &str) -> Result<Value, String> {
        match self.kind.as_str() {
            "string" => Ok(Value::String(text.to_owned())),
            "integer" => text
                .trim()
                .parse::<i64>()
                .map(Value::from)
                .map_err(|_| format!("{text:?} is not an integer")),
            "number" => text
                .trim()
                .parse::<f64>()
                .ok()
                .and_then(|n| serde_json::Number::from_f64(n).map(Value::Number))
                .ok_or_else(|| format!("{text:?} is not a number")),
            _ => serde_json::from_str(text).map_err(|_| format!("{text:?} is not JSON")),
        }
    }
}

/// A value as a person reads it: strings without quotes.
pub fn shown(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn choices_of(schema: &Value) -> Vec<(Value, String)> {
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        // The legacy `enumNames` gives labels in the same order.
        let names = schema.get("enumNames").and_then(Value::as_array);
        return values
            .iter()
            .enumerate()
            .map(|(at, value)| {
                let label = names.and_then(|n| n.get(at)).and_then(Value::as_str);
                (
                    value.clone(),
                    label.map_or_else(|| shown(value), str::to_owned),
                )
            })
            .collect();
    }
    let titled = schema.get("oneOf").or_else(|| schema.get("anyOf"));
    titled
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|option| {
            let value = option.get("const")?.clone();
            let label = option
                .get("title")
                .and_then(Value::as_str)
                .map_or_else(|| shown(&value), str::to_owned);
            Some((value, label))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_field_shows_what_its_schema_says() {
        let schema = json!({"type": "object", "properties": {
            "genre": {"type": "string", "title": "Genre", "description": "What you like",
                      "oneOf": [{"const": "sf", "title": "Science fiction"}, {"const": "fy", "title": "Fantasy"}],
                      "default": "sf"},
            "copies": {"type": "integer"},
            "size": {"enum": ["s", "m"]}
        }, "required": ["copies"]});
        let fields = Field::all(&schema);
        let names: Vec<&str> = fields.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["copies", "genre", "size"]);
        assert_eq!(fields[0].describe(), "copies (integer, required)");
        assert_eq!(
            fields[1].describe(),
            "Genre (string): What you like [default: sf] {choices: Science fiction, Fantasy}"
        );
        assert_eq!(
            fields[2].choices,
            [(json!("s"), "s".into()), (json!("m"), "m".into())]
        );
        assert_eq!(fields[0].parse("12"), Ok(json!(12)));
        assert!(fields[0].parse("twelve").is_err());
        assert_eq!(fields[1].parse("x"), Ok(json!("x")));
    }
}
