//! How a value breaks its schema, in plain words: where (the path of the offending value, e.g.
//! `address.city` or `tags[2]`), what it must be, and the keyword it breaks. Nothing of the
//! checker's internals (schema paths, regex engine errors) and nothing of the value itself is
//! repeated.

use boon::{ErrorKind, InstanceToken, Type, Types, ValidationError};
use serde_json::Value;
use std::fmt;

/// At most this many `enum` values are named in a message.
const NAMED_OPTIONS: usize = 8;

/// One way a value does not fit its schema.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Violation {
    /// Where: `title`, `address.city`, `tags[2]`; empty for the value as a whole.
    path: String,
    /// What it must be, e.g. `must be at most 10`.
    rule: String,
    /// The schema keyword, e.g. `maximum`; `None` for a `false` schema that no keyword holds.
    keyword: Option<&'static str>,
}

impl Violation {
    /// The first violation `error` reports: the checker reports them all, as a tree.
    pub(crate) fn of(error: &ValidationError<'_, '_>) -> Self {
        let error = first(error);
        let mut path = String::new();
        for token in &error.instance_location.tokens {
            match token {
                InstanceToken::Prop(name) => push_property(&mut path, name),
                InstanceToken::Item(index) => path.push_str(&format!("[{index}]")),
            }
        }
        // A property that should not be there, or is missing, is named in the path.
        let named = match &error.kind {
            ErrorKind::AdditionalProperties { got } => got.first().map(|name| name.as_ref()),
            ErrorKind::Required { want } => want.first().copied(),
            ErrorKind::Dependency { missing, .. }
            | ErrorKind::DependentRequired { missing, .. } => missing.first().copied(),
            _ => None,
        };
        if let Some(name) = named {
            push_property(&mut path, name);
        }
        Self {
            path,
            rule: rule(&error.kind),
            keyword: keyword(error),
        }
    }
}

/// The first violation in the tree, in the schema's order: groups (several violations of one
/// schema, a `$ref`, an `allOf`) are opened; an `anyOf`, `oneOf` or `not` is a violation itself.
fn first<'e, 's, 'v>(mut error: &'e ValidationError<'s, 'v>) -> &'e ValidationError<'s, 'v> {
    while let ErrorKind::Group
    | ErrorKind::Schema { .. }
    | ErrorKind::Reference { .. }
    | ErrorKind::AllOf
    | ErrorKind::ContentSchema = error.kind
    {
        match error.causes.first() {
            Some(cause) => error = cause,
            None => break,
        }
    }
    error
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.path.is_empty() {
            write!(f, "{}: ", self.path)?;
        }
        f.write_str(&self.rule)?;
        match self.keyword {
            Some(keyword) => write!(f, " ({keyword})"),
            None => Ok(()),
        }
    }
}

fn push_property(path: &mut String, name: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(name);
}

fn keyword(error: &ValidationError<'_, '_>) -> Option<&'static str> {
    use ErrorKind as K;
    Some(match &error.kind {
        K::FalseSchema => return false_schema_keyword(error.schema_url),
        K::Group | K::Schema { .. } | K::ContentSchema | K::AllOf => return None,
        K::Reference { .. } | K::RefCycle { .. } => "$ref",
        K::PropertyName { .. } => "propertyNames",
        K::Type { .. } => "type",
        K::Enum { .. } => "enum",
        K::Const { .. } => "const",
        K::Format { .. } => "format",
        K::MinProperties { .. } => "minProperties",
        K::MaxProperties { .. } => "maxProperties",
        K::AdditionalProperties { .. } => "additionalProperties",
        K::Required { .. } => "required",
        K::Dependency { .. } => "dependencies",
        K::DependentRequired { .. } => "dependentRequired",
        K::MinItems { .. } => "minItems",
        K::MaxItems { .. } => "maxItems",
        K::Contains => "contains",
        K::MinContains { .. } => "minContains",
        K::MaxContains { .. } => "maxContains",
        K::UniqueItems { .. } => "uniqueItems",
        K::AdditionalItems { .. } => "additionalItems",
        K::MinLength { .. } => "minLength",
        K::MaxLength { .. } => "maxLength",
        K::Pattern { .. } => "pattern",
        K::ContentEncoding { .. } => "contentEncoding",
        K::ContentMediaType { .. } => "contentMediaType",
        K::Minimum { .. } => "minimum",
        K::Maximum { .. } => "maximum",
        K::ExclusiveMinimum { .. } => "exclusiveMinimum",
        K::ExclusiveMaximum { .. } => "exclusiveMaximum",
        K::MultipleOf { .. } => "multipleOf",
        K::Not => "not",
        K::AnyOf => "anyOf",
        K::OneOf(_) => "oneOf",
    })
}

/// The keyword whose `false` schema refused the value (`additionalProperties: false` under
/// 2020-12 is reported so, as is `unevaluatedProperties: false` or `items: false`), read from
/// the end of the false schema's location; `None` for a `false` that no such keyword holds
/// (the whole schema, or a property's own schema).
fn false_schema_keyword(location: &str) -> Option<&'static str> {
    const HOLDERS: [&str; 7] = [
        "additionalProperties",
        "unevaluatedProperties",
        "items",
        "additionalItems",
        "unevaluatedItems",
        "propertyNames",
        "contains",
    ];
    let (_, pointer) = location.split_once('#')?;
    let mut tokens = pointer.rsplit('/');
    let last = tokens.next()?;
    // `properties/items` is a property named `items`, not the keyword.
    let parent = tokens.next().unwrap_or_default();
    if matches!(
        parent,
        "properties" | "patternProperties" | "$defs" | "definitions" | "dependentSchemas"
    ) {
        return None;
    }
    HOLDERS.into_iter().find(|holder| *holder == last)
}

fn rule(kind: &ErrorKind<'_, '_>) -> String {
    use ErrorKind as K;
    match kind {
        K::MinLength { want, .. } => format!("must be at least {} long", count(*want, "character")),
        K::MaxLength { want, .. } => format!("must be at most {} long", count(*want, "character")),
        K::MinItems { want, .. } => format!("must have at least {}", count(*want, "item")),
        K::MaxItems { want, .. } => format!("must have at most {}", count(*want, "item")),
        K::MinProperties { want, .. } => format!("must have at least {}", count(*want, "property")),
        K::MaxProperties { want, .. } => format!("must have at most {}", count(*want, "property")),
        K::Minimum { want, .. } => format!("must be at least {want}"),
        K::Maximum { want, .. } => format!("must be at most {want}"),
        K::ExclusiveMinimum { want, .. } => format!("must be greater than {want}"),
        K::ExclusiveMaximum { want, .. } => format!("must be less than {want}"),
        K::MultipleOf { want, .. } => format!("must be a multiple of {want}"),
        K::Pattern { want, .. } => format!("must match the pattern {want}"),
        K::Format { want, .. } => format!("must be a valid {want}"),
        K::Enum { want } => format!("must be one of {}", options_of(want)),
        K::Const { want } => format!("must be {want}"),
        K::Type { want, .. } => format!("must be {}", type_words(*want)),
        K::Required { .. } | K::Dependency { .. } | K::DependentRequired { .. } => {
            "is required".to_owned()
        }
        K::AdditionalProperties { .. } | K::FalseSchema => "is not allowed".to_owned(),
        K::AdditionalItems { .. } => "has more items than allowed".to_owned(),
        K::UniqueItems { .. } => "must not repeat an item".to_owned(),
        K::Contains => "must contain an item of the required kind".to_owned(),
        K::MinContains { want, .. } => format!(
            "must contain at least {} of the required kind",
            count(*want, "item")
        ),
        K::MaxContains { want, .. } => format!(
            "must contain at most {} of the required kind",
            count(*want, "item")
        ),
        K::PropertyName { .. } => "has a property name that is not allowed".to_owned(),
        K::AnyOf => "must match at least one of the allowed shapes".to_owned(),
        K::OneOf(None) => "must match one of the allowed shapes".to_owned(),
        K::OneOf(Some(_)) => "must match only one of the allowed shapes, not several".to_owned(),
        K::Not => "must not match the excluded shape".to_owned(),
        K::ContentEncoding { want, .. } => format!("must be {want}-encoded"),
        K::ContentMediaType { want, .. } => format!("must be valid {want}"),
        K::Group
        | K::Schema { .. }
        | K::Reference { .. }
        | K::RefCycle { .. }
        | K::AllOf
        | K::ContentSchema => "does not fit the schema".to_owned(),
    }
}

/// `1 character`, `3 characters`.
fn count(n: usize, noun: &str) -> String {
    match (n, noun) {
        (1, _) => format!("1 {noun}"),
        (_, "property") => format!("{n} properties"),
        _ => format!("{n} {noun}s"),
    }
}

/// `"a", "b", "c"`, or the first few and how many more.
fn options_of(options: &[Value]) -> String {
    let mut named: Vec<String> = options
        .iter()
        .take(NAMED_OPTIONS)
        .map(Value::to_string)
        .collect();
    if options.len() > NAMED_OPTIONS {
        named.push(format!("… ({} more)", options.len() - NAMED_OPTIONS));
    }
    named.join(", ")
}

fn type_words(types: Types) -> String {
    let mut words: Vec<&str> = types.iter().map(a_type).collect();
    // `a string or null` reads better than `null or a string`.
    words.sort_by_key(|word| *word == "null");
    words.join(" or ")
}

fn a_type(kind: Type) -> &'static str {
    match kind {
        Type::Array => "an array",
        Type::Boolean => "a boolean",
        Type::Integer => "an integer",
        Type::Null => "null",
        Type::Number => "a number",
        Type::Object => "an object",
        Type::String => "a string",
    }
}

#[cfg(test)]
mod tests {
    use super::super::validate::Validator;
    use serde_json::{Value, json};

    fn first(schema: Value, value: Value) -> String {
        Validator::new(&schema)
            .unwrap()
            .violation(&value)
            .expect("a violation")
            .to_string()
    }

    #[test]
    fn names_the_path_the_rule_and_the_keyword() {
        let schema = json!({"type": "object", "properties": {
            "address": {"type": "object", "properties": {"city": {"minLength": 2}}},
            "tags": {"items": {"enum": ["a", "b"]}}}});
        assert_eq!(
            first(schema.clone(), json!({"address": {"city": "X"}})),
            "address.city: must be at least 2 characters long (minLength)"
        );
        assert_eq!(
            first(schema, json!({"tags": ["a", "c"]})),
            r#"tags[1]: must be one of "a", "b" (enum)"#
        );
        assert_eq!(
            first(json!({"required": ["title"]}), json!({})),
            "title: is required (required)"
        );
        assert_eq!(
            first(json!({"type": ["string", "null"]}), json!(1)),
            "must be a string or null (type)"
        );
        assert_eq!(first(json!(false), json!(1)), "is not allowed");
    }

    #[test]
    fn repeats_nothing_of_the_value() {
        let secret = "hunter2-hunter2-hunter2";
        let message = first(json!({"maxLength": 3, "pattern": "^x"}), json!(secret));
        assert!(!message.contains(secret), "{message}");
        let many: Vec<String> = (0..20).map(|i| format!("v{i}")).collect();
        let message = first(json!({"enum": many}), json!("nope"));
        assert!(
            message.ends_with(r#""v7", … (12 more) (enum)"#),
            "{message}"
        );
    }

    #[test]
    fn names_the_keyword_of_a_false_schema_and_opens_groups() {
        let closed = json!({"properties": {"title": {"type": "string"}},
            "additionalProperties": false});
        assert_eq!(
            first(closed, json!({"title": "Dune", "colour": "red"})),
            "colour: is not allowed (additionalProperties)"
        );
        let sealed = json!({"properties": {"title": {}}, "unevaluatedProperties": false});
        assert_eq!(
            first(sealed, json!({"title": "Dune", "colour": "red"})),
            "colour: is not allowed (unevaluatedProperties)"
        );
        let tuple = json!({"prefixItems": [{"type": "string"}], "items": false});
        // boon 0.6.1 counts the index from the end of `prefixItems` here (`[0]`, not `[1]`).
        let extra = first(tuple, json!(["a", 1]));
        assert!(extra.ends_with("]: is not allowed (items)"), "{extra}");
        let list = json!({"items": {"type": "string"}});
        assert_eq!(first(list, json!(["a", 1])), "[1]: must be a string (type)");
        let named_items = json!({"properties": {"items": false}});
        assert_eq!(
            first(named_items, json!({"items": 1})),
            "items: is not allowed"
        );
        assert_eq!(
            first(json!({"required": ["title", "copies"]}), json!({})),
            "title: is required (required)"
        );
        assert_eq!(
            first(
                json!({"dependentRequired": {"gift": ["address"]}}),
                json!({"gift": true})
            ),
            "address: is required (dependentRequired)"
        );
        let shapes = json!({"anyOf": [{"type": "string"}, {"type": "integer"}]});
        assert_eq!(
            first(shapes, json!(true)),
            "must match at least one of the allowed shapes (anyOf)"
        );
        let both = json!({"oneOf": [{"minimum": 1}, {"maximum": 5}]});
        assert_eq!(
            first(both, json!(3)),
            "must match only one of the allowed shapes, not several (oneOf)"
        );
        let all = json!({"allOf": [{"minimum": 1}, {"multipleOf": 2}]});
        assert_eq!(first(all, json!(3)), "must be a multiple of 2 (multipleOf)");
        let reference = json!({"$defs": {"day": {"format": "date"}},
            "properties": {"day": {"$ref": "#/$defs/day"}}});
        assert_eq!(
            first(reference, json!({"day": "tomorrow"})),
            "day: must be a valid date (format)"
        );
        assert_eq!(
            first(json!({"const": "yes"}), json!("no")),
            r#"must be "yes" (const)"#
        );
        assert_eq!(
            first(json!({"not": {"type": "null"}}), json!(null)),
            "must not match the excluded shape (not)"
        );
    }
}
