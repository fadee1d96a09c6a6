//! Tool arguments mirrored in HTTP headers (2026-07-28, `x-mcp-header`): found in the input
//! schema and checked by the rules of the spec. The server checks its tools at registration (and
//! holds requests to them); the client checks listed tools (dropping invalid ones) and mirrors
//! their arguments.

use serde_json::Value;

/// The JSON type of a mirrored argument, which decides how its header is compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeaderValueKind {
    /// Compared as text.
    String,
    /// Compared as a number (`42` equals `42.0`).
    Integer,
    /// `true` or `false`.
    Boolean,
}

/// One argument mirrored in `Mcp-Param-{header}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderParam {
    /// The argument's name in `arguments`.
    pub argument: String,
    /// `{Name}` of the `Mcp-Param-{Name}` header.
    pub header: String,
    /// How its value is compared.
    pub kind: HeaderValueKind,
}

/// The mirrored arguments of the input schema `schema`, checked as the spec requires: a valid
/// header token, unique (case-insensitively), on a string, integer or boolean property. The
/// error names the tool and the argument.
pub(crate) fn header_params(tool: &str, schema: &Value) -> Result<Vec<HeaderParam>, String> {
    let mut params: Vec<HeaderParam> = Vec::new();
    let Some(properties) = schema.get("properties").and_then(Value::as_object) else {
        return Ok(params);
    };
    for (argument, property) in properties {
        let Some(header) = property.get("x-mcp-header") else {
            continue;
        };
        let fail = |why: &str| format!("tool '{tool}': argument '{argument}' {why}");
        let header = header
            .as_str()
            .filter(|h| is_token(h))
            .ok_or_else(|| fail("has an x-mcp-header that is not a valid HTTP header name"))?;
        if params.iter().any(|p| p.header.eq_ignore_ascii_case(header)) {
            return Err(fail(&format!("repeats the x-mcp-header '{header}'")));
        }
        let kind = match json_type(property) {
            Some("string") => HeaderValueKind::String,
            Some("integer") => HeaderValueKind::Integer,
            Some("boolean") => HeaderValueKind::Boolean,
            _ => {
                return Err(fail(
                    "is mirrored in a header but is not a string, integer or boolean",
                ));
            }
        };
        params.push(HeaderParam {
            argument: argument.clone(),
            header: header.to_owned(),
            kind,
        });
    }
    Ok(params)
}

/// The property's type; an optional argument's `["T", "null"]` is `T`.
fn json_type(property: &Value) -> Option<&str> {
    match property.get("type")? {
        Value::String(kind) => Some(kind),
        Value::Array(kinds) => {
            let mut kinds = kinds
                .iter()
                .filter_map(Value::as_str)
                .filter(|k| *k != "null");
            let kind = kinds.next()?;
            kinds.next().is_none().then_some(kind)
        }
        _ => None,
    }
}

/// RFC 9110 `token`.
fn is_token(name: &str) -> bool {
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn finds_and_checks_mirrored_arguments() {
        let schema = json!({"type": "object", "properties": {
            "tenant": {"type": "string", "x-mcp-header": "Tenant"},
            "limit": {"type": "integer", "x-mcp-header": "Limit"},
            "query": {"type": "string"}}});
        let params = header_params("t", &schema).unwrap();
        assert_eq!(params.len(), 2);
        assert_eq!(params[0].header, "Limit");
        assert_eq!(params[0].kind, HeaderValueKind::Integer);
        let number = json!({"properties": {"ratio": {"type": "number", "x-mcp-header": "Ratio"}}});
        assert!(
            header_params("t", &number)
                .unwrap_err()
                .contains("argument 'ratio'")
        );
        let duplicate = json!({"properties": {
            "a": {"type": "string", "x-mcp-header": "Same"},
            "b": {"type": "string", "x-mcp-header": "same"}}});
        assert!(
            header_params("t", &duplicate)
                .unwrap_err()
                .contains("repeats")
        );
        let invalid = json!({"properties": {"a": {"type": "string", "x-mcp-header": "Bad Name"}}});
        assert!(header_params("t", &invalid).is_err());
    }
}
