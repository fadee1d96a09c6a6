//! The 2026-07-28 HTTP headers mirroring a request's body: `Mcp-Method` on every POST,
//! `Mcp-Name` (the tool or prompt name, the resource URI), and `Mcp-Param-{Name}` for each tool
//! argument its input schema marks with `x-mcp-header`. Values are sent plain or as the Base64
//! sentinel.

use crate::protocol::methods::{PROMPTS_GET, RESOURCES_READ, TOOLS_CALL};
use crate::wire::header_params::{HeaderParam, HeaderValueKind};
use crate::wire::header_value::encode;
use serde_json::{Map, Value};

/// The header mirroring the method, as this module names it (`transport/http.rs` sends it under
/// a constant name).
pub(crate) const MCP_METHOD: &str = "Mcp-Method";
/// The header mirroring the tool or prompt name, or the resource URI.
pub(crate) const MCP_NAME: &str = "Mcp-Name";

/// The headers of one POST carrying `method` with `params`.
pub(crate) fn modern(
    method: &str,
    params: &Map<String, Value>,
    mirrored: &[HeaderParam],
) -> Vec<(String, String)> {
    let mut headers = vec![(MCP_METHOD.to_owned(), encode(method).into_owned())];
    let name = match method {
        TOOLS_CALL | PROMPTS_GET => params.get("name"),
        RESOURCES_READ => params.get("uri"),
        _ => None,
    };
    if let Some(name) = name.and_then(Value::as_str) {
        headers.push((MCP_NAME.to_owned(), encode(name).into_owned()));
    }
    let arguments = params.get("arguments").and_then(Value::as_object);
    for param in mirrored {
        let Some(value) = arguments.and_then(|a| a.get(&param.argument)) else {
            continue;
        };
        if let Some(text) = header_text(value, param.kind) {
            headers.push((
                format!("Mcp-Param-{}", param.header),
                encode(&text).into_owned(),
            ));
        }
    }
    headers
}

/// An argument's header text: strings as is, integers in decimal, `true`/`false`; `null` (and
/// objects or arrays, which a valid annotation never marks) give no header.
fn header_text(value: &Value, kind: HeaderValueKind) -> Option<String> {
    match value {
        Value::String(text) => Some(text.clone()),
        Value::Bool(flag) => Some(flag.to_string()),
        Value::Number(number) => match (kind, number.as_f64()) {
            (HeaderValueKind::Integer, Some(f))
                if f.fract() == 0.0 && number.as_i64().is_none() =>
            {
                Some(format!("{f:.0}"))
            }
            _ => Some(number.to_string()),
        },
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::header_params::header_params;
    use serde_json::json;

    fn headers_of(schema: Value, arguments: Value) -> Vec<(String, String)> {
        let mirrored = header_params("t", &schema).unwrap();
        let params = json!({"name": "t", "arguments": arguments});
        modern("tools/call", params.as_object().unwrap(), &mirrored)
    }

    #[test]
    fn mirrors_annotated_arguments_with_the_encoding_rules() {
        let schema = json!({"type": "object", "properties": {
            "region": {"type": "string", "x-mcp-header": "Region"},
            "note": {"type": "string", "x-mcp-header": "Note"},
            "count": {"type": "integer", "x-mcp-header": "Count"},
            "dry": {"type": "boolean", "x-mcp-header": "Dry"},
            "method": {"type": "string", "x-mcp-header": "Method"},
            "empty": {"type": "string", "x-mcp-header": "Empty"},
            "gone": {"type": ["string", "null"], "x-mcp-header": "Gone"},
            "query": {"type": "string"}}});
        let headers = headers_of(
            schema,
            json!({"region": "us west 1", "note": " café", "count": 42, "dry": true,
                   "method": "x", "empty": "", "gone": null, "query": "q"}),
        );
        let get = |name: &str| {
            headers
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("Mcp-Method"), Some("tools/call"));
        assert_eq!(get("Mcp-Name"), Some("t"));
        assert_eq!(get("Mcp-Param-Region"), Some("us west 1"));
        assert_eq!(get("Mcp-Param-Note"), Some("=?base64?IGNhZsOp?="));
        assert_eq!(get("Mcp-Param-Count"), Some("42"));
        assert_eq!(get("Mcp-Param-Dry"), Some("true"));
        assert_eq!(get("Mcp-Param-Method"), Some("x"));
        assert_eq!(get("Mcp-Param-Empty"), Some(""));
        assert_eq!(get("Mcp-Param-Gone"), None);
        assert_eq!(headers.len(), 8);
    }

    #[test]
    fn names_resources_by_uri_and_lists_by_method_only() {
        let read = json!({"uri": "books://Dune"});
        let headers = modern("resources/read", read.as_object().unwrap(), &[]);
        assert_eq!(
            headers[1],
            ("Mcp-Name".to_owned(), "books://Dune".to_owned())
        );
        assert_eq!(modern("tools/list", &Map::new(), &[]).len(), 1);
    }
}
