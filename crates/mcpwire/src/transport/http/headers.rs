//! The 2026-07-28 request headers that mirror the body: `MCP-Protocol-Version` (the `_meta`
//! version), `Mcp-Method` (the method) and `Mcp-Name` (`params.name` of `tools/call` and
//! `prompts/get`, `params.uri` of `resources/read`, `params.taskId` of `tasks/get`,
//! `tasks/update` and `tasks/cancel`). A missing, undecodable or different value is
//! `-32020` HeaderMismatch (HTTP `400`). Values may be sent as `=?base64?{base64(utf8)}?=`.
//!
//! `Mcp-Param-{Name}` headers mirror the tool arguments whose schema carries
//! `"x-mcp-header": "{Name}"`: an argument present in the body needs its header, with the same
//! value (integers compared as numbers).

use crate::dispatch::params_read::RawNamed;
use crate::dispatch::table::{Target, row_of};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::TOOLS_CALL;
use crate::wire::header_params::{HeaderParam, HeaderValueKind};
use crate::wire::header_value::{decode, is_sentinel};
use http::header::{HOST, ORIGIN};
use http::{HeaderMap, HeaderName, HeaderValue};
use serde_json::value::RawValue;
use std::borrow::Cow;

// Header names as `HeaderName`s, not strings: a lookup by a string parses it into a name first,
// on every request.
/// The header carrying the request's protocol revision.
#[cfg(test)]
pub(super) const PROTOCOL_VERSION: HeaderName = HeaderName::from_static(VERSION_HEADER);
/// The header naming the legacy session.
pub(super) const SESSION_ID: HeaderName = HeaderName::from_static(SESSION_HEADER);
#[cfg(test)]
const METHOD: HeaderName = HeaderName::from_static(METHOD_HEADER);
#[cfg(test)]
const NAME: HeaderName = HeaderName::from_static(NAME_HEADER);

// The headers' names as text, which [`McpHeaders::of`] matches.
const VERSION_HEADER: &str = "mcp-protocol-version";
const METHOD_HEADER: &str = "mcp-method";
const NAME_HEADER: &str = "mcp-name";
const SESSION_HEADER: &str = "mcp-session-id";

/// The first value of each header a POST is routed and checked by (`Host` and `Origin`, those
/// that mirror the body, and the session's id), as [`HeaderMap::get`] gives it, found in one
/// pass over the request's few headers: a lookup by name hashes the name first, and a session's
/// request would look up seven.
#[derive(Default)]
pub(super) struct McpHeaders<'h> {
    /// `Host`.
    pub(super) host: Option<&'h HeaderValue>,
    /// `Origin`.
    pub(super) origin: Option<&'h HeaderValue>,
    /// `MCP-Protocol-Version`.
    pub(super) version: Option<&'h HeaderValue>,
    /// `Mcp-Method`.
    method: Option<&'h HeaderValue>,
    /// `Mcp-Name`.
    name: Option<&'h HeaderValue>,
    /// `Mcp-Session-Id`.
    pub(super) session_id: Option<&'h HeaderValue>,
}

impl<'h> McpHeaders<'h> {
    /// The MCP headers among `headers`, with `Host` and `Origin`.
    pub(super) fn of(headers: &'h HeaderMap) -> Self {
        let mut found = McpHeaders::default();
        for (key, value) in headers {
            let name = key.as_str();
            // All four MCP headers begin with `m`: most other headers are passed over on their
            // first byte, not compared whole with a name of their length (`content-length`,
            // `user-agent`). `Host` and `Origin` are standard names, compared as such.
            if !name.starts_with('m') {
                let slot = if *key == HOST {
                    &mut found.host
                } else if *key == ORIGIN {
                    &mut found.origin
                } else {
                    continue;
                };
                slot.get_or_insert(value);
                continue;
            }
            let slot = match name {
                VERSION_HEADER => &mut found.version,
                METHOD_HEADER => &mut found.method,
                NAME_HEADER => &mut found.name,
                SESSION_HEADER => &mut found.session_id,
                _ => continue,
            };
            slot.get_or_insert(value);
        }
        found
    }
}

/// Checks the mirrored headers of a 2026-07-28 request against its body, read raw.
#[cfg(test)]
fn check<'t>(
    headers: &HeaderMap,
    version: Option<&str>,
    method: &str,
    params: Option<&RawValue>,
    mirrored: impl Fn(&str) -> &'t [HeaderParam],
) -> Result<(), ErrorObject> {
    let mcp = McpHeaders::of(headers);
    check_read(
        headers,
        &mcp,
        version,
        method,
        &RawNamed::of(params),
        mirrored,
    )
}

/// Checks the mirrored headers of a 2026-07-28 request (`mcp`, read from its `headers`)
/// against the values its body carries (`fields`, as the endpoint read them from `params`).
///
/// Without a version in `_meta` (a malformed request, answered `-32602` next) the version header
/// is only required, not compared.
pub(super) fn check_read<'t>(
    headers: &HeaderMap,
    mcp: &McpHeaders<'_>,
    version: Option<&str>,
    method: &str,
    fields: &RawNamed<'_>,
    mirrored: impl Fn(&str) -> &'t [HeaderParam],
) -> Result<(), ErrorObject> {
    let shown = "MCP-Protocol-Version";
    match version {
        Some(version) => expect(mcp.version, shown, Some(version))?,
        None if mcp.version.is_none() => {
            return Err(mismatch(format!("missing required header {shown}")));
        }
        None => {}
    }
    expect(mcp.method, "Mcp-Method", Some(method))?;
    let Some((named, target)) = named_by(method, fields) else {
        return Ok(());
    };
    let value = named.value(target);
    expect(mcp.name, "Mcp-Name", value)?;
    if method == TOOLS_CALL
        && let Some(tool) = named.name.as_deref()
    {
        let params = mirrored(tool);
        if !params.is_empty() {
            let arguments = named
                .arguments
                .and_then(|raw| serde_json::from_str::<serde_json::Map<_, _>>(raw.get()).ok());
            check_params(headers, params, arguments.as_ref())?;
        }
    }
    Ok(())
}

/// Checks the mirrored headers a 2025-11-25 session request chose to send (`mcp`; they are
/// optional there): each one present must agree with the body (the values of `params` the
/// endpoint read: `fields`), decoded, as on 2026-07-28.
pub(super) fn check_sent(
    mcp: &McpHeaders<'_>,
    method: &str,
    fields: &RawNamed<'_>,
) -> Result<(), ErrorObject> {
    if mcp.method.is_some() {
        expect(mcp.method, "Mcp-Method", Some(method))?;
    }
    if mcp.name.is_some()
        && let Some((named, target)) = named_by(method, fields)
    {
        expect(mcp.name, "Mcp-Name", named.value(target))?;
    }
    Ok(())
}

/// The body's values, and which of them `Mcp-Name` mirrors, for the methods that have one (the
/// method table's `mirrored`): the method's row looked up once.
fn named_by<'p>(method: &str, fields: &RawNamed<'p>) -> Option<(Named<'p>, Target)> {
    let row = row_of(method);
    row.mirrored.then(|| (named(fields), row.target))
}

impl Named<'_> {
    /// The value `Mcp-Name` mirrors for a method whose target is `target`: `uri` for
    /// `resources/read`, `taskId` for the tasks methods, `name` otherwise.
    fn value(&self, target: Target) -> Option<&str> {
        match target {
            Target::Uri => self.uri.as_deref(),
            Target::TaskId => self.task_id.as_deref(),
            Target::Name | Target::None => self.name.as_deref(),
        }
    }
}

/// Every mirrored argument present (and not null) in the body has its header, with an equal
/// value; a header without its argument is a mismatch too.
fn check_params(
    headers: &HeaderMap,
    params: &[HeaderParam],
    arguments: Option<&serde_json::Map<String, serde_json::Value>>,
) -> Result<(), ErrorObject> {
    for param in params {
        let name = format!("mcp-param-{}", param.header.to_ascii_lowercase());
        let shown = format!("Mcp-Param-{}", param.header);
        let body = arguments
            .and_then(|a| a.get(&param.argument))
            .filter(|v| !v.is_null());
        let header = headers.get(&name);
        let (body, header) = match (body, header) {
            (None, None) => continue,
            (Some(_), None) => return Err(mismatch(format!("missing required header {shown}"))),
            (None, Some(_)) => {
                return Err(mismatch(format!(
                    "header {shown} has no argument in the body"
                )));
            }
            (Some(body), Some(header)) => (body, header),
        };
        let decoded = header
            .to_str()
            .ok()
            .and_then(decode)
            .ok_or_else(|| mismatch(format!("header {shown} has an invalid value")))?;
        let equal = match param.kind {
            HeaderValueKind::String => body.as_str() == Some(decoded.as_ref()),
            HeaderValueKind::Boolean => {
                body.as_bool().map(|b| b.to_string()).as_deref() == Some(&decoded)
            }
            HeaderValueKind::Integer => match (body.as_f64(), decoded.trim().parse::<f64>()) {
                (Some(a), Ok(b)) => a == b,
                _ => false,
            },
        };
        if !equal {
            return Err(mismatch(format!(
                "header {shown} does not match the request body"
            )));
        }
    }
    Ok(())
}

/// The header `shown` (its first `value`) must be present and equal `body`, decoded (a missing
/// body value matches nothing).
fn expect(
    value: Option<&HeaderValue>,
    shown: &'static str,
    body: Option<&str>,
) -> Result<(), ErrorObject> {
    let Some(value) = value else {
        return Err(mismatch(format!("missing required header {shown}")));
    };
    // The common case first: the header's bytes are the body's value, which is ASCII and not
    // in the sentinel form, so that reading the header as text and decoding it would give
    // those bytes back.
    if let Some(body) = body
        && value.as_bytes() == body.as_bytes()
        && body.is_ascii()
        && !is_sentinel(body)
    {
        return Ok(());
    }
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

/// `params.name`, `params.uri` and `params.taskId` where they are strings, borrowed from the body
/// unless they contain escapes. Any other field, or one of these of another type, leaves the
/// others readable: the real parameter types ignore unknown fields, so this reading must not
/// fail where theirs succeeds.
#[derive(Default)]
struct Named<'a> {
    name: Option<Cow<'a, str>>,
    uri: Option<Cow<'a, str>>,
    task_id: Option<Cow<'a, str>>,
    /// Kept raw: parsed only for a tool that mirrors arguments in headers.
    arguments: Option<&'a RawValue>,
}

fn named<'p>(fields: &RawNamed<'p>) -> Named<'p> {
    Named {
        name: text(fields.name),
        uri: text(fields.uri),
        task_id: text(fields.task_id),
        arguments: fields.arguments,
    }
}

/// A raw value's text when it is a string: borrowed when it has no escapes (a raw value is
/// valid JSON, so the text between the quotes is then the string), else decoded.
fn text(value: Option<&RawValue>) -> Option<Cow<'_, str>> {
    let raw = value?.get();
    match raw
        .strip_prefix('"')
        .and_then(|rest| rest.strip_suffix('"'))
    {
        Some(plain) if !plain.contains('\\') => Some(Cow::Borrowed(plain)),
        _ => serde_json::from_str::<String>(raw).ok().map(Cow::Owned),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(HeaderName, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), HeaderValue::from_static(v)))
            .collect()
    }

    fn params(json: &str) -> Box<RawValue> {
        RawValue::from_string(json.to_owned()).unwrap()
    }

    proptest::proptest! {
        /// The one pass finds, for `Host`, `Origin` and each MCP header, the value a lookup by
        /// its name gives: the first one sent, whatever the other headers, their order and
        /// their repeats.
        #[test]
        fn one_pass_finds_what_a_lookup_by_name_finds(
            pairs in proptest::collection::vec((0..11usize, "[a-z0-9]{0,3}"), 0..14)
        ) {
            const NAMES: [&str; 11] = [
                VERSION_HEADER, METHOD_HEADER, NAME_HEADER, SESSION_HEADER, "host", "origin",
                "content-length", "mcp-param-a", "max-forwards", "mcp-names", "hosts",
            ];
            let mut headers = HeaderMap::new();
            for (name, value) in &pairs {
                let name = HeaderName::from_static(NAMES[*name]);
                headers.append(name, HeaderValue::from_str(value).unwrap());
            }
            let mcp = McpHeaders::of(&headers);
            let found = [mcp.version, mcp.method, mcp.name, mcp.session_id, mcp.host, mcp.origin];
            for (name, found) in NAMES.iter().zip(found) {
                proptest::prop_assert_eq!(found, headers.get(*name), "{}", name);
            }
        }
    }

    #[test]
    fn matching_headers_pass_plain_or_base64() {
        let call = params(r#"{"name":"café","arguments":{}}"#);
        let plain = headers(&[(PROTOCOL_VERSION, "2026-07-28"), (METHOD, "tools/list")]);
        assert!(check(&plain, Some("2026-07-28"), "tools/list", None, |_| &[]).is_ok());
        let encoded = headers(&[
            (PROTOCOL_VERSION, "2026-07-28"),
            (METHOD, "=?base64?dG9vbHMvY2FsbA==?="),
            (NAME, "=?base64?Y2Fmw6k=?="),
        ]);
        assert!(
            check(
                &encoded,
                Some("2026-07-28"),
                "tools/call",
                Some(&call),
                |_| &[]
            )
            .is_ok()
        );
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
            let error = check(&case, Some("2026-07-28"), "tools/call", Some(&call), |_| {
                &[]
            })
            .unwrap_err();
            assert_eq!(error.code, code::HEADER_MISMATCH, "{case:?}");
        }
    }

    #[test]
    fn the_first_of_repeated_mirrored_headers_is_the_one_compared() {
        let call = params(r#"{"name":"add"}"#);
        let mut first_right = headers(&[
            (http::header::HOST, "localhost"),
            (PROTOCOL_VERSION, "2026-07-28"),
            (METHOD, "tools/call"),
            (NAME, "add"),
        ]);
        first_right.append(METHOD, HeaderValue::from_static("tools/list"));
        first_right.append(NAME, HeaderValue::from_static("sub"));
        let check_call = |headers: &HeaderMap| {
            check(
                headers,
                Some("2026-07-28"),
                "tools/call",
                Some(&call),
                |_| &[],
            )
        };
        assert!(check_call(&first_right).is_ok());
        let mut first_wrong = headers(&[(PROTOCOL_VERSION, "2026-07-28"), (NAME, "add")]);
        first_wrong.append(METHOD, HeaderValue::from_static("tools/list"));
        first_wrong.append(METHOD, HeaderValue::from_static("tools/call"));
        let error = check_call(&first_wrong).unwrap_err();
        assert_eq!(error.code, code::HEADER_MISMATCH);
        assert!(error.message.contains("Mcp-Method"), "{}", error.message);
        // On a session, a mirrored header is optional, but the first one sent is compared.
        let sent = |headers| {
            check_sent(
                &McpHeaders::of(headers),
                "tools/call",
                &RawNamed::of(Some(&call)),
            )
        };
        assert_eq!(sent(&first_wrong).unwrap_err().code, code::HEADER_MISMATCH);
        assert!(sent(&first_right).is_ok());
    }

    #[test]
    fn a_header_equal_to_the_body_still_decodes_as_it_would() {
        // A body value in the sentinel form is matched by its encoding, not by itself.
        let read = params(r#"{"uri":"=?base64?YQ==?="}"#);
        let check_read = |name: &'static str| {
            let headers = headers(&[
                (PROTOCOL_VERSION, "2026-07-28"),
                (METHOD, "resources/read"),
                (NAME, name),
            ]);
            check(
                &headers,
                Some("2026-07-28"),
                "resources/read",
                Some(&read),
                |_| &[],
            )
        };
        let error = check_read("=?base64?YQ==?=").unwrap_err();
        assert_eq!(error.code, code::HEADER_MISMATCH);
        assert!(check_read("=?base64?PT9iYXNlNjQ/WVE9PT89?=").is_ok());
        // A non-ASCII value is sent encoded: its raw bytes are not a header's text.
        let cafe = params(r#"{"uri":"café"}"#);
        let raw = [
            (PROTOCOL_VERSION, HeaderValue::from_static("2026-07-28")),
            (METHOD, HeaderValue::from_static("resources/read")),
            (NAME, HeaderValue::from_bytes("café".as_bytes()).unwrap()),
        ];
        let raw: HeaderMap = raw.into_iter().collect();
        let error = check(
            &raw,
            Some("2026-07-28"),
            "resources/read",
            Some(&cafe),
            |_| &[],
        );
        assert_eq!(error.unwrap_err().code, code::HEADER_MISMATCH);
    }

    #[test]
    fn resources_read_mirrors_the_uri() {
        let read = params(r#"{"uri":"test://a"}"#);
        let ok = headers(&[
            (PROTOCOL_VERSION, "2026-07-28"),
            (METHOD, "resources/read"),
            (NAME, "test://a"),
        ]);
        assert!(
            check(
                &ok,
                Some("2026-07-28"),
                "resources/read",
                Some(&read),
                |_| &[]
            )
            .is_ok()
        );
    }
}
