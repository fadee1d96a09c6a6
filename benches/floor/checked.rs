//! The checked floor (`MCP_FLOOR_CHECKED=1`): the floor, plus what the protocol itself asks of a
//! server before it answers a request, written as leanly as a hand-made server could. What is
//! left between it and our server is what the SDK adds (its context, layers, registry,
//! resolvers, extensions), not what MCP asks for (docs/benchmarks.md, "The floor, with the
//! protocol's checks").
//!
//! Before answering, for every request:
//! - `Host` names the loopback address it was reached on, `127.0.0.1` or `localhost` with or
//!   without a port, and `Origin`, when sent, is such a host's (the DNS-rebinding check the
//!   transport asks for), else `403`;
//!
//! and for a request that says `MCP-Protocol-Version: 2026-07-28`:
//! - the message is JSON-RPC 2.0 (`jsonrpc` is `"2.0"`) with a string or number `id`;
//! - `params._meta` names the revision (`io.modelcontextprotocol/protocolVersion`, equal to the
//!   header) and carries the client's capabilities (`io.modelcontextprotocol/clientCapabilities`),
//!   else `-32602`;
//! - the mirrored headers agree with the body: `Mcp-Method` is `method`, and `Mcp-Name` is
//!   `params.name`, else `-32020` (header mismatch);
//!
//! each refusal with status `400`; and for any other (a 2025-11-25 session's):
//! - `Mcp-Session-Id` names a session this floor opened (looked up in a set under a lock), else
//!   `404`; without it, only `initialize` is answered (its session id then kept, up to
//!   [`MAX_OPENED`], past which it is refused with `503`), else `400`.

use super::{Arguments, added, error};
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper::header::{HOST, HeaderName, ORIGIN};
use hyper::http::HeaderMap;
use hyper::{Request, Response, StatusCode};
use serde::Deserialize;
use serde_json::value::RawValue;
use std::collections::HashSet;
use std::convert::Infallible;
use std::sync::{LazyLock, Mutex};

const PROTOCOL_VERSION: HeaderName = HeaderName::from_static("mcp-protocol-version");
const METHOD: HeaderName = HeaderName::from_static("mcp-method");
const NAME: HeaderName = HeaderName::from_static("mcp-name");
const SESSION_ID: HeaderName = HeaderName::from_static("mcp-session-id");
const MODERN: &str = "2026-07-28";

/// A 2026-07-28 message, as the checks read it, borrowed from the body.
#[derive(Deserialize)]
struct Message<'a> {
    #[serde(borrow)]
    jsonrpc: &'a str,
    #[serde(borrow)]
    id: Option<&'a RawValue>,
    #[serde(borrow)]
    method: &'a str,
    #[serde(borrow)]
    params: Option<Params<'a>>,
}

#[derive(Deserialize)]
struct Params<'a> {
    #[serde(borrow)]
    name: Option<&'a str>,
    arguments: Option<Arguments>,
    #[serde(borrow, rename = "_meta")]
    meta: Option<Meta<'a>>,
}

/// What the revision requires in `_meta`.
#[derive(Deserialize)]
struct Meta<'a> {
    #[serde(borrow, rename = "io.modelcontextprotocol/protocolVersion")]
    protocol_version: Option<&'a str>,
    #[serde(borrow, rename = "io.modelcontextprotocol/clientCapabilities")]
    client_capabilities: Option<&'a RawValue>,
}

/// Serves one request, checked.
pub async fn serve(request: Request<Incoming>) -> Result<Response<Full<Bytes>>, Infallible> {
    let (parts, body) = request.into_parts();
    if !reached_on_loopback(&parts.headers) {
        return Ok(refused(
            StatusCode::FORBIDDEN,
            "null",
            -32600,
            "forbidden host",
        ));
    }
    let version = parts.headers.get(PROTOCOL_VERSION);
    let modern = version.is_some_and(|v| v.as_bytes() == MODERN.as_bytes());
    let body = match body.collect().await {
        Ok(body) => body.to_bytes(),
        Err(_) => return Ok(error("null", -32700, "unreadable body")),
    };
    if !modern {
        return Ok(in_session(&body, &parts.headers));
    }
    Ok(answer(&body, &parts.headers))
}

/// The sessions this floor opened, by id: at most [`MAX_OPENED`].
static OPENED: LazyLock<Mutex<HashSet<u128>>> = LazyLock::new(Mutex::default);
/// The most sessions it keeps: past them, `initialize` is refused (`503`).
const MAX_OPENED: usize = 100_000;

/// The answer to a 2025-11-25 message: in a session this floor opened, or one that opens it.
fn in_session(body: &[u8], headers: &HeaderMap) -> Response<Full<Bytes>> {
    let id_of = |value: &hyper::header::HeaderValue| {
        std::str::from_utf8(value.as_bytes())
            .ok()
            .and_then(|text| u128::from_str_radix(text, 16).ok())
    };
    let Some(session) = headers.get(SESSION_ID) else {
        let response = super::answer(body, false);
        return match response.headers().get(SESSION_ID).and_then(id_of) {
            Some(opened) => {
                let mut kept = OPENED.lock().unwrap();
                if kept.len() >= MAX_OPENED {
                    return refused(StatusCode::SERVICE_UNAVAILABLE, "null", -32000, "busy");
                }
                kept.insert(opened);
                response
            }
            None => refused(StatusCode::BAD_REQUEST, "null", -32600, "no session"),
        };
    };
    let known = id_of(session).is_some_and(|id| OPENED.lock().unwrap().contains(&id));
    if !known {
        return refused(StatusCode::NOT_FOUND, "null", -32001, "unknown session");
    }
    super::answer(body, false)
}

/// The answer to a 2026-07-28 message whose headers are `headers`.
fn answer(body: &[u8], headers: &HeaderMap) -> Response<Full<Bytes>> {
    let Ok(message) = serde_json::from_slice::<Message>(body) else {
        return refused(StatusCode::BAD_REQUEST, "null", -32700, "parse error");
    };
    let id = message.id.map(RawValue::get).unwrap_or("null");
    if message.jsonrpc != "2.0"
        || !id.starts_with(|c: char| c == '"' || c == '-' || c.is_ascii_digit())
    {
        return refused(StatusCode::BAD_REQUEST, id, -32600, "invalid request");
    }
    let Some(params) = message.params else {
        return refused(StatusCode::BAD_REQUEST, id, -32602, "no params");
    };
    let meta = params.meta.as_ref();
    if meta.and_then(|m| m.protocol_version) != Some(MODERN)
        || meta.and_then(|m| m.client_capabilities).is_none()
    {
        return refused(
            StatusCode::BAD_REQUEST,
            id,
            -32602,
            "no revision or capabilities",
        );
    }
    let header = |name: &HeaderName| headers.get(name).map(|v| v.as_bytes());
    if header(&METHOD) != Some(message.method.as_bytes())
        || header(&NAME) != params.name.map(str::as_bytes)
    {
        return refused(StatusCode::BAD_REQUEST, id, -32020, "header mismatch");
    }
    match (message.method, params.name, params.arguments) {
        ("tools/call", Some("add"), Some(Arguments { a, b })) => added(id, a, b, true),
        _ => error(id, -32601, "the floor answers add only"),
    }
}

/// Whether `Host` (when sent) and `Origin` (when sent) name a loopback host.
fn reached_on_loopback(headers: &HeaderMap) -> bool {
    let host_ok = headers
        .get(HOST)
        .is_none_or(|host| loopback_authority(host.as_bytes()));
    let origin_ok = headers.get(ORIGIN).is_none_or(|origin| {
        origin
            .as_bytes()
            .strip_prefix(b"http://")
            .is_some_and(loopback_authority)
    });
    host_ok && origin_ok
}

/// Whether `authority` is `127.0.0.1` or `localhost`, alone or with a port.
fn loopback_authority(authority: &[u8]) -> bool {
    [b"127.0.0.1".as_slice(), b"localhost"].iter().any(|name| {
        authority
            .strip_prefix(*name)
            .is_some_and(|rest| match rest {
                [] => true,
                [b':', port @ ..] => !port.is_empty() && port.iter().all(u8::is_ascii_digit),
                _ => false,
            })
    })
}

/// A refusal: `status`, and a JSON-RPC error under `id`.
fn refused(status: StatusCode, id: &str, code: i32, message: &str) -> Response<Full<Bytes>> {
    let mut response = error(id, code, message);
    *response.status_mut() = status;
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        pairs
            .iter()
            .map(|(k, v)| (HeaderName::from_static(k), v.parse().unwrap()))
            .collect()
    }

    const CALL: &[u8] = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#;

    const MIRRORED: [(&str, &str); 3] = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/call"),
        ("mcp-name", "add"),
    ];

    #[test]
    fn a_checked_call_is_answered_and_each_broken_check_refused() {
        let ok = answer(CALL, &headers(&MIRRORED));
        assert_eq!(ok.status(), StatusCode::OK);
        let wrong_name = [MIRRORED[0], MIRRORED[1], ("mcp-name", "sub")];
        assert_eq!(
            answer(CALL, &headers(&wrong_name)).status(),
            StatusCode::BAD_REQUEST
        );
        let no_method = [MIRRORED[0], MIRRORED[2]];
        assert_eq!(
            answer(CALL, &headers(&no_method)).status(),
            StatusCode::BAD_REQUEST
        );
        let no_capabilities = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}"#;
        assert_eq!(
            answer(no_capabilities, &headers(&MIRRORED)).status(),
            StatusCode::BAD_REQUEST
        );
        let old_jsonrpc = br#"{"jsonrpc":"1.0","id":7,"method":"tools/call","params":{}}"#;
        assert_eq!(
            answer(old_jsonrpc, &headers(&MIRRORED)).status(),
            StatusCode::BAD_REQUEST
        );
    }

    #[test]
    fn a_session_opened_by_initialize_is_known_and_any_other_refused() {
        let opened = in_session(
            br#"{"jsonrpc":"2.0","id":0,"method":"initialize","params":{}}"#,
            &HeaderMap::new(),
        );
        let session = opened.headers()[SESSION_ID].clone();
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#;
        let mut headers = HeaderMap::new();
        headers.insert(SESSION_ID, session);
        assert_eq!(in_session(call, &headers).status(), StatusCode::OK);
        headers.insert(
            SESSION_ID,
            "ffffffffffffffffffffffffffffffff".parse().unwrap(),
        );
        assert_eq!(in_session(call, &headers).status(), StatusCode::NOT_FOUND);
        assert_eq!(
            in_session(call, &HeaderMap::new()).status(),
            StatusCode::BAD_REQUEST
        );
    }

    #[test]
    fn only_loopback_hosts_and_origins_pass() {
        let pass = |pairs| reached_on_loopback(&headers(pairs));
        assert!(pass(&[("host", "127.0.0.1:8080")]));
        assert!(pass(&[
            ("host", "localhost"),
            ("origin", "http://localhost:3000")
        ]));
        assert!(!pass(&[("host", "evil.example:8080")]));
        assert!(!pass(&[("host", "127.0.0.1.evil.example")]));
        assert!(!pass(&[
            ("host", "127.0.0.1:"),
            ("origin", "http://localhost")
        ]));
        assert!(!pass(&[
            ("host", "localhost"),
            ("origin", "https://evil.example")
        ]));
    }
}
