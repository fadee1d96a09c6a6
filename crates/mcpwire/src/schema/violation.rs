//! How a value breaks its schema, in plain words: where (the path of the offending value, e.g.
//! `address.city` or `tags[2]`), what it must be, and the keyword it breaks. Nothing of the
//! checker's internals (schema paths, regex engine errors) and nothing of the value itself is
//! repeated.

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::paths::LocationSegment;
use jsonschema::{JsonType, ValidationError};
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
    /// The schema keyword, e.g. `maximum`; `None` for a `false` schema.
    keyword: Option<&'static str>,
}

impl Violation {
    /// The violation `error` reports.
    pub(crate) fn of(error: &ValidationError<'_>) -> Self {
        let mut path = String::new();
        for segment in error.instance_path().iter() {
            match segment {
                LocationSegment::Property(name) => {
                    if !path.is_empty() {
                        path.push('.');
                    }
                    path.push_str(&name);
                }
                LocationSegment::Index(index) => path.push_str(&format!("[{index}]")),
            }
        }
        let kind = error.kind();
        // A property that should not be there, or is missing, is named in the path.
        let named = match kind {
            ValidationErrorKind::AdditionalProperties { unexpected }
            | ValidationErrorKind::UnevaluatedProperties { unexpected } => unexpected.first(),
            _ => None,
        };
        if let Some(name) = named {
            push_property(&mut path, name);
        }
        if let ValidationErrorKind::Required { property } = kind {
            push_property(&mut path, property.as_str().unwrap_or_default());
        }
        Self {
            path,
            rule: rule(kind),
            keyword: keyword(kind),
        }
    }
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

fn keyword(kind: &ValidationErrorKind) -> Option<&'static str> {
    Some(match kind {
        ValidationErrorKind::FalseSchema => return None,
        ValidationErrorKind::AdditionalItems { .. } => "additionalItems",
        ValidationErrorKind::AdditionalProperties { .. } => "additionalProperties",
        ValidationErrorKind::AnyOf { .. } => "anyOf",
        ValidationErrorKind::BacktrackLimitExceeded { .. }
        | ValidationErrorKind::RegexEngineFailure { .. }
        | ValidationErrorKind::Pattern { .. } => "pattern",
        ValidationErrorKind::Constant { .. } => "const",
        ValidationErrorKind::Contains => "contains",
        ValidationErrorKind::ContentEncoding { .. } | ValidationErrorKind::FromUtf8 { .. } => {
            "contentEncoding"
        }
        ValidationErrorKind::ContentMediaType { .. } => "contentMediaType",
        ValidationErrorKind::Enum { .. } => "enum",
        ValidationErrorKind::ExclusiveMaximum { .. } => "exclusiveMaximum",
        ValidationErrorKind::ExclusiveMinimum { .. } => "exclusiveMinimum",
        ValidationErrorKind::Format { .. } => "format",
        ValidationErrorKind::MaxItems { .. } => "maxItems",
        ValidationErrorKind::Maximum { .. } => "maximum",
        ValidationErrorKind::MaxLength { .. } => "maxLength",
        ValidationErrorKind::MaxProperties { .. } => "maxProperties",
        ValidationErrorKind::MinItems { .. } => "minItems",
        ValidationErrorKind::Minimum { .. } => "minimum",
        ValidationErrorKind::MinLength { .. } => "minLength",
        ValidationErrorKind::MinProperties { .. } => "minProperties",
        ValidationErrorKind::MultipleOf { .. } => "multipleOf",
        ValidationErrorKind::Not { .. } => "not",
        ValidationErrorKind::OneOfMultipleValid { .. }
        | ValidationErrorKind::OneOfNotValid { .. } => "oneOf",
        ValidationErrorKind::PropertyNames { .. } => "propertyNames",
        ValidationErrorKind::Required { .. } => "required",
        ValidationErrorKind::Type { .. } => "type",
        ValidationErrorKind::UnevaluatedItems { .. } => "unevaluatedItems",
        ValidationErrorKind::UnevaluatedProperties { .. } => "unevaluatedProperties",
        ValidationErrorKind::UniqueItems => "uniqueItems",
        ValidationErrorKind::Referencing(_) => "$ref",
        // A keyword this crate does not register; its name would be the checker's.
        ValidationErrorKind::Custom { .. } => return None,
    })
}

fn rule(kind: &ValidationErrorKind) -> String {
    use ValidationErrorKind as K;
    match kind {
        K::MinLength { limit } => format!("must be at least {} long", count(*limit, "character")),
        K::MaxLength { limit } => format!("must be at most {} long", count(*limit, "character")),
        K::MinItems { limit } => format!("must have at least {}", count(*limit, "item")),
        K::MaxItems { limit } => format!("must have at most {}", count(*limit, "item")),
        K::MinProperties { limit } => format!("must have at least {}", count(*limit, "property")),
        K::MaxProperties { limit } => format!("must have at most {}", count(*limit, "property")),
        K::Minimum { limit } => format!("must be at least {limit}"),
        K::Maximum { limit } => format!("must be at most {limit}"),
        K::ExclusiveMinimum { limit } => format!("must be greater than {limit}"),
        K::ExclusiveMaximum { limit } => format!("must be less than {limit}"),
        K::MultipleOf { multiple_of } => format!("must be a multiple of {multiple_of}"),
        K::Pattern { pattern } => format!("must match the pattern {pattern}"),
        K::BacktrackLimitExceeded { .. } | K::RegexEngineFailure { .. } => {
            "could not be checked against its pattern".to_owned()
        }
        K::Format { format } => format!("must be a valid {format}"),
        K::Enum { options } => format!("must be one of {}", options_of(options)),
        K::Constant { expected_value } => format!("must be {expected_value}"),
        K::Type { kind } => format!("must be {}", type_words(kind)),
        K::Required { .. } => "is required".to_owned(),
        K::AdditionalProperties { .. } | K::UnevaluatedProperties { .. } => {
            "is not allowed".to_owned()
        }
        K::AdditionalItems { .. } | K::UnevaluatedItems { .. } => {
            "has more items than allowed".to_owned()
        }
        K::UniqueItems => "must not repeat an item".to_owned(),
        K::Contains => "must contain an item of the required kind".to_owned(),
        K::PropertyNames { .. } => "has a property name that is not allowed".to_owned(),
        K::AnyOf { .. } => "must match at least one of the allowed shapes".to_owned(),
        K::OneOfNotValid { .. } => "must match one of the allowed shapes".to_owned(),
        K::OneOfMultipleValid { .. } => {
            "must match only one of the allowed shapes, not several".to_owned()
        }
        K::Not { .. } => "must not match the excluded shape".to_owned(),
        K::FalseSchema => "is not allowed".to_owned(),
        K::ContentEncoding { content_encoding } => format!("must be {content_encoding}-encoded"),
        K::FromUtf8 { .. } => "must decode to UTF-8 text".to_owned(),
        K::ContentMediaType { content_media_type } => {
            format!("must be valid {content_media_type}")
        }
        K::Referencing(_) | K::Custom { .. } => "does not fit the schema".to_owned(),
    }
}

/// `1 character`, `3 characters`.
fn count(n: u64, noun: &str) -> String {
    match (n, noun) {
        (1, _) => format!("1 {noun}"),
        (_, "property") => format!("{n} properties"),
        _ => format!("{n} {noun}s"),
    }
}

/// `"a", "b", "c"`, or the first few and how many more.
fn options_of(options: &Value) -> String {
    let Some(options) = options.as_array() else {
        return options.to_string();
    };
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

fn type_words(kind: &TypeKind) -> String {
    let mut words: Vec<&str> = match kind {
        TypeKind::Single(single) => vec![a_type(*single)],
        TypeKind::Multiple(set) => set.iter().map(a_type).collect(),
    };
    // `a string or null` reads better than `null or a string`.
    words.sort_by_key(|word| *word == "null");
    words.join(" or ")
}

fn a_type(kind: JsonType) -> &'static str {
    match kind {
        JsonType::Array => "an array",
        JsonType::Boolean => "a boolean",
        JsonType::Integer => "an integer",
        JsonType::Null => "null",
        JsonType::Number => "a number",
        JsonType::Object => "an object",
        JsonType::String => "a string",
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
}
