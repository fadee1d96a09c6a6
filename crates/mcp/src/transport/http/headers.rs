//! The 2026-07-28 request headers that mirror the body: `MCP-Protocol-Version` (the `_meta`
//! version), `Mcp-Method` (the method) and `Mcp-Name` (`params.name` of `tools/call` and
//! `prompts/get`, `params.uri` of `resources/read`). A missing, undecodable or different value is
//! `-32020` HeaderMismatch (HTTP `400`). Values may be sent as `=?base64?{base64(utf8)}?=`.
//!
//! Not checked yet: `Mcp-Param-{Name}` headers of `x-mcp-header` tool arguments.

use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use base64::Engine;
use http::HeaderMap;
use serde::Deserialize;
use serde_json::value::RawValue;
use std::borrow::Cow;

/// The header carrying the request's protocol revision.
pub(super) const PROTOCOL_VERSION: &str = "mcp-protocol-version";
/// The header naming the legacy session.
pub(super) const SESSION_ID: &str = "mcp-session-id";
const METHOD: &str = "mcp-method";
const NAME: &str = "mcp-name";

/// Checks the mirrored headers of a 2026-07-28 request against its body.
///
/// Without a version in `_meta` (a malformed request, answered `-32602` next) the version header
/// is only required, not compared.
pub(super) fn check(
    headers: &HeaderMap,
    version: Option<&str>,
    method: &str,
    params: Option<&RawValue>,
) -> Result<(), ErrorObject> {
    let shown = "MCP-Protocol-Version";
    match version {
        Some(version) => expect(headers, shown, PROTOCOL_VERSION, Some(version))?,
        None if !headers.contains_key(PROTOCOL_VERSION) => {
            return Err(mismatch(format!("missing required header {shown}")));
        }
        None => {}
    }
    expect(headers, "Mcp-Method", METHOD, Some(method))?;
    let named = match method {
        "tools/call" | "prompts/get" | "resources/read" => named(params),
        _ => return Ok(()),
    };
    let value = match method {
        "resources/read" => named.uri,
        _ => named.name,
    };
    expect(headers, "Mcp-Name", NAME, value.as_deref())
}

/// The header `name` must be present and equal `body` (a missing body value matches nothing).
fn expect(
    headers: &HeaderMap,
    shown: &'static str,
    name: &str,
    body: Option<&str>,
) -> Result<(), ErrorObject> {
    let Some(value) = headers.get(name) else {
        return Err(mismatch(format!("missing required header {shown}")));
    };
    let decoded = value
        .to_str()
        .ok()
        .and_then(decode)
        .ok_or_else(|| mismatch(format!("header {shown} has an invalid value")))?;
    if Some(decoded.as_ref()) != body {
        return Err(mismatch(format!(
            "header {shown} does not match the request body"
        )));
    }
    Ok(())
}

fn mismatch(why: String) -> ErrorObject {
    ErrorObject::new(code::HEADER_MISMATCH, format!("Header mismatch: {why}"))
}

/// A header value as sent: plain visible ASCII, or the Base64 sentinel form.
fn decode(value: &str) -> Option<Cow<'_, str>> {
    let Some(encoded) = value
        .strip_prefix("=?base64?")
        .and_then(|rest| rest.strip_suffix("?="))
    else {
        return Some(value.into());
    };
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .ok()?;
    String::from_utf8(bytes).ok().map(Into::into)
}

/// `params.name` and `params.uri`, borrowed from the body unless they contain escapes.
#[derive(Default, Deserialize)]
struct Named<'a> {
    #[serde(borrow)]
    name: Option<Cow<'a, str>>,
    #[serde(borrow)]
    uri: Option<Cow<'a, str>>,
}

fn named(params: Option<&RawValue>) -> Named<'_> {
    params
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| {
                (
                    http::HeaderName::from_static(k),
                    HeaderValue::from_static(v),
                )
            })
            .collect()
    }

    fn params(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.to_owned()).unwrap()
    }

    #[test]
    fn matching_headers_pass_plain_or_base64() {
        let call = params(r#"{"name":"café","arguments":{}}"#);
        let plain = headers(&[(PROTOCOL_VERSION, "2026-07-28"), (METHOD, "tools/list")]);
        assert!(check(&plain, Some("2026-07-28"), "tools/list", None).is_ok());
        let encoded = headers(&[
            (PROTOCOL_VERSION, "2026-07-28"),
            (METHOD, "=?base64?dG9vbHMvY2FsbA==?="),
            (NAME, "=?base64?Y2Fmw6k=?="),
        ]);
        assert!(check(&encoded, Some("2026-07-28"), "tools/call", Some(&call)).is_ok());
    }

    #[test]
    fn missing_different_or_undecodable_headers_are_mismatches() {
        let call = params(r#"{"name":"add"}"#);
        let cases = [
            headers(&[(METHOD, "tools/call"), (NAME, "add")]),
            headers(&[(PROTOCOL_VERSION, "2026-07-28"), (NAME, "add")]),
            headers(&[(PROTOCOL_VERSION, "2026-07-28"), (METHOD, "tools/call")]),
            headers(&[
                (PROTOCOL_VERSION, "2026-07-28"),
                (METHOD, "tools/list"),
                (NAME, "add"),
            ]),
            headers(&[
                (PROTOCOL_VERSION, "2026-07-28"),
                (METHOD, "tools/call"),
                (NAME, "sub"),
            ]),
            headers(&[
                (PROTOCOL_VERSION, "2026-07-28"),
                (METHOD, "tools/call"),
                (NAME, "=?base64?!!?="),
            ]),
        ];
        for case in cases {
            let error = check(&case, Some("2026-07-28"), "tools/call", Some(&call)).unwrap_err();
            assert_eq!(error.code, code::HEADER_MISMATCH, "{case:?}");
        }
    }

    #[test]
    fn resources_read_mirrors_the_uri() {
        let read = params(r#"{"uri":"test://a"}"#);
        let ok = headers(&[
            (PROTOCOL_VERSION, "2026-07-28"),
            (METHOD, "resources/read"),
            (NAME, "test://a"),
        ]);
        assert!(check(&ok, Some("2026-07-28"), "resources/read", Some(&read)).is_ok());
    }
}
