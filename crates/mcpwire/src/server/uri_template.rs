//! URI templates (RFC 6570, the forms resources use): `{var}` matches one path segment,
//! `{+var}` may span several; everything else is literal.

use serde_json::{Map, Value};

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Literal(String),
    Variable { name: String, reserved: bool },
}

/// A parsed template that matches concrete URIs and extracts their variables.
#[derive(Clone, Debug)]
pub(crate) struct UriTemplate {
    parts: Vec<Part>,
}

impl UriTemplate {
    /// Parses `template`; `None` when it has no variable (a plain URI) or is malformed.
    pub(crate) fn parse(template: &str) -> Result<Option<Self>, String> {
        let mut parts = Vec::new();
        let mut rest = template;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Literal(rest[..open].to_owned()));
            }
            let close = rest[open..].find('}').ok_or("an unclosed '{'")? + open;
            let expression = &rest[open + 1..close];
            let (reserved, name) = match expression.strip_prefix('+') {
                Some(name) => (true, name),
                None => (false, expression),
            };
            if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                return Err(format!("the variable '{{{expression}}}' is not supported"));
            }
            if matches!(parts.last(), Some(Part::Variable { .. })) {
                return Err("two variables must be separated by literal text".into());
            }
            parts.push(Part::Variable {
                name: name.to_owned(),
                reserved,
            });
            rest = &rest[close + 1..];
        }
        if rest.contains('}') {
            return Err("an unopened '}'".into());
        }
        if !rest.is_empty() {
            parts.push(Part::Literal(rest.to_owned()));
        }
        let has_variables = parts.iter().any(|p| matches!(p, Part::Variable { .. }));
        Ok(has_variables.then_some(Self { parts }))
    }

    /// The variable names, in order.
    pub(crate) fn variables(&self) -> impl Iterator<Item = &str> {
        self.parts.iter().filter_map(|p| match p {
            Part::Variable { name, .. } => Some(name.as_str()),
            Part::Literal(_) => None,
        })
    }

    /// How many bytes of literal text come before the first variable: the larger, the more
    /// specific the template (`skill://docs/{+path}` over `skill://{+path}`).
    pub(crate) fn literal_prefix_len(&self) -> usize {
        match self.parts.first() {
            Some(Part::Literal(literal)) => literal.len(),
            _ => 0,
        }
    }

    /// The variables of `uri`, when it matches.
    pub(crate) fn matches(&self, uri: &str) -> Option<Map<String, Value>> {
        let mut values = Map::new();
        let mut rest = uri;
        let mut parts = self.parts.iter().peekable();
        while let Some(part) = parts.next() {
            match part {
                Part::Literal(literal) => rest = rest.strip_prefix(literal.as_str())?,
                Part::Variable { name, reserved } => {
                    let end = match parts.peek() {
                        Some(Part::Literal(next)) => rest.find(next.as_str())?,
                        _ => rest.len(),
                    };
                    let value = &rest[..end];
                    if value.is_empty() || (!reserved && value.contains('/')) {
                        return None;
                    }
                    values.insert(name.clone(), Value::String(value.to_owned()));
                    rest = &rest[end..];
                }
            }
        }
        rest.is_empty().then_some(values)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_literal_prefix_is_the_text_before_the_first_variable() {
        let prefix = |t: &str| UriTemplate::parse(t).unwrap().unwrap().literal_prefix_len();
        assert_eq!(prefix("skill://{+path}"), "skill://".len());
        assert_eq!(prefix("skill://docs/{+path}"), "skill://docs/".len());
        assert_eq!(prefix("{scheme}://x"), 0);
    }

    #[test]
    fn matches_segments_and_reserved_paths() {
        let template = UriTemplate::parse("test://template/{id}/data")
            .unwrap()
            .unwrap();
        assert_eq!(
            template.matches("test://template/42/data"),
            Some(json!({"id": "42"}).as_object().unwrap().clone())
        );
        assert_eq!(template.matches("test://template/4/2/data"), None);
        assert_eq!(template.matches("test://template//data"), None);
        assert_eq!(template.matches("test://template/42/data/x"), None);
        let files = UriTemplate::parse("file:///{+path}").unwrap().unwrap();
        assert_eq!(files.matches("file:///a/b.txt").unwrap()["path"], "a/b.txt");
        assert!(UriTemplate::parse("test://static").unwrap().is_none());
        assert!(UriTemplate::parse("test://{a}{b}").is_err());
        assert!(UriTemplate::parse("test://{a").is_err());
    }
}

#[cfg(test)]
mod proptests {
    use super::UriTemplate;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn arbitrary_templates_and_uris_never_panic(template in ".{0,60}", uri in ".{0,80}") {
            if let Ok(Some(parsed)) = UriTemplate::parse(&template) {
                let _ = parsed.matches(&uri);
            }
        }

        #[test]
        fn a_filled_template_matches_back_to_its_values(
            scheme in "[a-z]{1,6}",
            owner in "[A-Za-z0-9._~-]{1,12}",
            path in "[A-Za-z0-9._~-]{1,8}(/[A-Za-z0-9._~-]{1,8}){0,3}",
        ) {
            let template = UriTemplate::parse(&format!("{scheme}://{{owner}}/files/{{+path}}"))
                .unwrap()
                .unwrap();
            let uri = format!("{scheme}://{owner}/files/{path}");
            let values = template.matches(&uri).expect("a filled template matches");
            prop_assert_eq!(values["owner"].as_str(), Some(owner.as_str()));
            prop_assert_eq!(values["path"].as_str(), Some(path.as_str()));
            // A segment variable never spans a '/'.
            let spanning = format!("{scheme}://{owner}/x/files/{path}");
            prop_assert!(template.matches(&spanning).is_none() || owner.contains("/files"));
        }
    }
}
