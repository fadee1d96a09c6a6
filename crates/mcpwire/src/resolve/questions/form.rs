//! Elicitation forms: a model type rendered once as the flat schema the spec allows (strings,
//! numbers, integers, booleans, enums, multi-select enums), or refused at registration; the
//! rendered schema is compiled then too, to check the answers against, unless it says no more
//! than the model's Rust types, which reading the answer into the model enforces anyway.

use crate::schema::{Validator, says_only_types, schema_for};
use schemars::JsonSchema;
use serde_json::{Map, Value, json};
use std::any::TypeId;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, RwLock};

/// A rendered form: the schema the client is asked to fill, and its compiled check.
pub(crate) struct Form {
    /// The `requestedSchema`.
    pub(crate) schema: Value,
    /// Answers must fit `schema`: types and constraints (`minLength`, `maximum`, `format`, …).
    /// `None` when `schema` says only types: then reading an answer into the model is the check.
    check: Option<Validator>,
}

impl Form {
    /// Whether `content` fits the form's constraints (its types are checked when it is read into
    /// the model).
    pub(crate) fn admits(&self, content: &Value) -> bool {
        self.check
            .as_ref()
            .is_none_or(|check| check.is_valid(content))
    }
}

type Forms = RwLock<HashMap<TypeId, Result<Arc<Form>, String>>>;

static FORMS: LazyLock<Forms> = LazyLock::new(Default::default);

/// The rendered form of `M`, computed once per type (the first time is at registration).
pub(crate) fn form_of<M: JsonSchema + 'static>() -> Result<Arc<Form>, String> {
    let id = TypeId::of::<M>();
    if let Some(form) = FORMS.read().unwrap_or_else(|e| e.into_inner()).get(&id) {
        return form.clone();
    }
    let model = schema_for::<M>().to_value();
    // Rendering only narrows what the model's schema says, so when that says only types, reading
    // an answer into `M` enforces all of the form too.
    let only_types = says_only_types(&model);
    let rendered = render(model)
        .and_then(|schema| compile(schema, only_types))
        .map(Arc::new);
    FORMS
        .write()
        .unwrap_or_else(|e| e.into_inner())
        .insert(id, rendered.clone());
    rendered
}

fn compile(schema: Value, only_types: bool) -> Result<Form, String> {
    if only_types {
        return Ok(Form {
            schema,
            check: None,
        });
    }
    let check =
        Validator::new(&schema).map_err(|why| format!("its form cannot be checked: {why}"))?;
    Ok(Form {
        schema,
        check: Some(check),
    })
}

fn render(schema: Value) -> Result<Value, String> {
    if schema.get("type").and_then(Value::as_str) != Some("object") {
        return Err("its form model must be a struct with named fields".into());
    }
    let properties = schema
        .get("properties")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    let mut required: Vec<Value> = schema
        .get("required")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    let mut flat = Map::new();
    for (name, property) in properties {
        let (field, nullable) = strip_null(property);
        if nullable {
            required.retain(|r| r != &Value::String(name.clone()));
        }
        let field = primitive(&field).ok_or_else(|| {
            format!(
                "its form field '{name}' is not a string, number, integer, boolean, enum or \
                 list of enum values, which is all an elicitation form may ask"
            )
        })?;
        flat.insert(name, field);
    }
    let mut form = json!({"type": "object", "properties": flat});
    if !required.is_empty() {
        form["required"] = Value::Array(required);
    }
    Ok(form)
}

/// `Option<T>` renders as `T` or null: the field is then optional.
fn strip_null(property: Value) -> (Value, bool) {
    let mut property = property;
    if let Some(Value::Array(types)) = property.get("type").cloned() {
        let kept: Vec<Value> = types.into_iter().filter(|t| t != "null").collect();
        if kept.len() == 1 {
            property["type"] = kept[0].clone();
            return (property, true);
        }
    }
    if let Some(Value::Array(options)) = property.get("anyOf").cloned() {
        let kept: Vec<Value> = options
            .into_iter()
            .filter(|o| o.get("type") != Some(&json!("null")))
            .collect();
        if kept.len() == 1 {
            let mut inner = kept[0].clone();
            if let (Some(map), Some(description)) =
                (inner.as_object_mut(), property.get("description"))
            {
                map.entry("description").or_insert(description.clone());
            }
            return (inner, true);
        }
    }
    (property, false)
}

const STRING_FORMATS: &[&str] = &["email", "uri", "date", "date-time"];

fn primitive(field: &Value) -> Option<Value> {
    let keep = |keys: &[&str]| -> Map<String, Value> {
        keys.iter()
            .filter_map(|k| field.get(*k).map(|v| ((*k).to_owned(), v.clone())))
            .collect()
    };
    let common = ["title", "description", "default"];
    if let Some(options) = field.get("oneOf").and_then(Value::as_array) {
        // A documented enum: variants as `{const, description}` become titled options.
        let titled: Option<Vec<Value>> = options.iter().map(titled_option).collect();
        let mut out = keep(&common);
        out.insert("type".into(), json!("string"));
        out.insert("oneOf".into(), Value::Array(titled?));
        return Some(Value::Object(out));
    }
    match field.get("type").and_then(Value::as_str)? {
        "string" => {
            let mut out = keep(&[
                "title",
                "description",
                "default",
                "minLength",
                "maxLength",
                "enum",
                // Titles of `enum` values, the deprecated way (still in the 2025-11-25 and
                // 2026-07-28 schemas as `LegacyTitledEnumSchema`).
                "enumNames",
            ]);
            if let Some(format) = field.get("format").and_then(Value::as_str)
                && STRING_FORMATS.contains(&format)
            {
                out.insert("format".into(), json!(format));
            }
            out.insert("type".into(), json!("string"));
            Some(Value::Object(out))
        }
        kind @ ("number" | "integer") => {
            let mut out = keep(&["title", "description", "default", "minimum", "maximum"]);
            out.insert("type".into(), json!(kind));
            Some(Value::Object(out))
        }
        "boolean" => {
            let mut out = keep(&common);
            out.insert("type".into(), json!("boolean"));
            Some(Value::Object(out))
        }
        "array" => {
            let items = field.get("items")?;
            let items = if let Some(options) = items.get("oneOf").and_then(Value::as_array) {
                let titled: Option<Vec<Value>> = options.iter().map(titled_option).collect();
                json!({"anyOf": titled?})
            } else if items.get("type") == Some(&json!("string")) && items.get("enum").is_some() {
                json!({"type": "string", "enum": items["enum"]})
            } else {
                return None;
            };
            let mut out = keep(&["title", "description", "default", "minItems", "maxItems"]);
            out.insert("type".into(), json!("array"));
            out.insert("items".into(), items);
            Some(Value::Object(out))
        }
        _ => None,
    }
}

fn titled_option(option: &Value) -> Option<Value> {
    let constant = option.get("const").or_else(|| option.get("enum")?.get(0))?;
    constant.as_str()?;
    let title = option
        .get("title")
        .or_else(|| option.get("description"))
        .unwrap_or(constant);
    Some(json!({"const": constant, "title": title}))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    enum Size {
        Small,
        Large,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Order {
        /// Order anyway and wait?
        confirm: bool,
        /// How many copies.
        copies: Option<u32>,
        size: Size,
        gift_note: Option<String>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Nested {
        order: Order,
    }

    #[test]
    fn renders_a_flat_form() {
        let form = render(schema_for::<Order>().to_value()).unwrap();
        assert_eq!(
            form["properties"]["confirm"],
            json!({"type":"boolean","description":"Order anyway and wait?"})
        );
        assert_eq!(form["properties"]["copies"]["type"], "integer");
        assert_eq!(
            form["properties"]["size"],
            json!({"type":"string","enum":["Small","Large"]})
        );
        assert_eq!(form["properties"]["gift_note"], json!({"type":"string"}));
        assert_eq!(form["required"], json!(["confirm", "size"]));
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Legacy {
        #[schemars(extend("enumNames" = ["Small one", "Large one"]))]
        size: Size,
    }

    #[test]
    fn keeps_legacy_enum_names() {
        let form = render(schema_for::<Legacy>().to_value()).unwrap();
        assert_eq!(
            form["properties"]["size"],
            json!({"type":"string","enum":["Small","Large"],"enumNames":["Small one","Large one"]})
        );
    }

    #[test]
    fn refuses_nested_models_naming_the_field() {
        let error = render(schema_for::<Nested>().to_value()).unwrap_err();
        assert!(error.contains("form field 'order'"), "{error}");
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Confirmation {
        confirm: bool,
        copies: Option<u32>,
    }

    #[derive(Deserialize, JsonSchema)]
    #[allow(dead_code)]
    struct Contact {
        #[schemars(email)]
        email: String,
        #[schemars(range(min = 1, max = 5))]
        copies: u8,
    }

    #[test]
    fn a_form_of_types_only_is_checked_by_its_model_and_constraints_by_the_schema() {
        let types_only = form_of::<Confirmation>().unwrap();
        assert!(types_only.check.is_none(), "{}", types_only.schema);
        assert!(types_only.admits(&json!({"confirm": true})));
        let constrained = form_of::<Contact>().unwrap();
        assert!(constrained.check.is_some(), "{}", constrained.schema);
        assert!(constrained.admits(&json!({"email": "ada@example.com", "copies": 2})));
        assert!(!constrained.admits(&json!({"email": "ada", "copies": 2})));
        assert!(!constrained.admits(&json!({"email": "ada@example.com", "copies": 9})));
    }
}
