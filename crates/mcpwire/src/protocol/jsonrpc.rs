//! JSON-RPC 2.0 framing shared by both protocol revisions: ids, incoming messages, error objects,
//! and the compact response lines the server writes.

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use std::borrow::Cow;
use std::fmt;

/// A JSON-RPC request id: a string or an integer, echoed back exactly as received.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::RequestId;
///
/// let id: RequestId = serde_json::from_str("7").unwrap();
/// assert_eq!(id, RequestId::Number(7));
/// let id: RequestId = serde_json::from_str(r#""req-1""#).unwrap();
/// assert_eq!(serde_json::to_string(&id).unwrap(), r#""req-1""#);
/// assert_eq!(id.to_string(), r#""req-1""#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(untagged)]
pub enum RequestId {
    /// A numeric id.
    Number(i64),
    /// A string id.
    String(String),
}

// Read by hand: an untagged enum's derived reading buffers the value first, on every message.
// This one takes what that reading takes (an integer that fits an `i64`, or a string).
impl<'de> Deserialize<'de> for RequestId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(IdVisitor)
    }
}

/// Reads a [`RequestId`].
struct IdVisitor;

impl serde::de::Visitor<'_> for IdVisitor {
    type Value = RequestId;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or an integer")
    }

    fn visit_i64<E: serde::de::Error>(self, n: i64) -> Result<RequestId, E> {
        Ok(RequestId::Number(n))
    }

    fn visit_u64<E: serde::de::Error>(self, n: u64) -> Result<RequestId, E> {
        i64::try_from(n)
            .map(RequestId::Number)
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Unsigned(n), &self))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<RequestId, E> {
        Ok(RequestId::String(text.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<RequestId, E> {
        Ok(RequestId::String(text))
    }

    fn visit_char<E: serde::de::Error>(self, c: char) -> Result<RequestId, E> {
        Ok(RequestId::String(c.to_string()))
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<RequestId, E> {
        std::str::from_utf8(bytes)
            .map(|text| RequestId::String(text.to_owned()))
            .map_err(|_| E::invalid_value(serde::de::Unexpected::Bytes(bytes), &self))
    }
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestId::Number(n) => write!(f, "{n}"),
            RequestId::String(s) => write!(f, "{s:?}"),
        }
    }
}

/// The error codes of both revisions.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ErrorObject;
/// use mcpwire::protocol::code;
///
/// let error = ErrorObject::new(code::UNSUPPORTED_PROTOCOL_VERSION, "Unsupported version");
/// assert_eq!(error.code, -32022);
/// assert_eq!(code::PARSE_ERROR, -32700);
/// assert_eq!(code::RESOURCE_NOT_FOUND_LEGACY, -32002);
/// ```
pub mod code {
    /// The message is not valid JSON.
    pub const PARSE_ERROR: i32 = -32700;
    /// The JSON is not a valid JSON-RPC message.
    pub const INVALID_REQUEST: i32 = -32600;
    /// The method does not exist or is not offered by this server.
    pub const METHOD_NOT_FOUND: i32 = -32601;
    /// The parameters are missing, malformed or refer to something unknown.
    pub const INVALID_PARAMS: i32 = -32602;
    /// The server failed while handling the request.
    pub const INTERNAL_ERROR: i32 = -32603;
    /// 2026-07-28: an HTTP header disagrees with the body.
    pub const HEADER_MISMATCH: i32 = -32020;
    /// 2026-07-28: the request needs a client capability the client did not declare.
    pub const MISSING_REQUIRED_CLIENT_CAPABILITY: i32 = -32021;
    /// 2026-07-28: the protocol version in `_meta` is not served.
    pub const UNSUPPORTED_PROTOCOL_VERSION: i32 = -32022;
    /// Implementation-defined (this SDK): the server refused the request because the client
    /// reached one of its limits (e.g. requests in flight); retry later.
    pub const SERVER_BUSY: i32 = -32000;
    /// Implementation-defined (this SDK): the caller's grant lacks a scope the request needs;
    /// `data.missingScopes` names them (HTTP answers `403 insufficient_scope` instead).
    pub const INSUFFICIENT_SCOPE: i32 = -32003;
    /// 2025-11-25: a resource was not found (2026-07-28 uses [`INVALID_PARAMS`]).
    pub const RESOURCE_NOT_FOUND_LEGACY: i32 = -32002;
    /// 2025-11-25: the request needs URL-mode elicitations first (`data.elicitations`); never sent
    /// on 2026-07-28.
    pub const URL_ELICITATION_REQUIRED_LEGACY: i32 = -32042;
}

/// A JSON-RPC error object: what a client sees when a request fails at the protocol level.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ErrorObject;
/// use serde_json::json;
///
/// let error = ErrorObject::new(-32602, "Unknown tool: frobnicate");
/// assert_eq!(
///     serde_json::to_value(&error).unwrap(),
///     json!({"code": -32602, "message": "Unknown tool: frobnicate"})
/// );
/// assert_eq!(error.to_string(), "Unknown tool: frobnicate (-32602)");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorObject {
    /// One of the codes in [`code`].
    pub code: i32,
    /// A short, human-readable message. It never carries internal details.
    pub message: Cow<'static, str>,
    /// Structured detail, e.g. `supported`/`requested` for an unsupported version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<serde_json::Value>,
}

impl ErrorObject {
    /// An error with a code and a message and no data.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ErrorObject;
    /// use mcpwire::protocol::code;
    ///
    /// let error = ErrorObject::new(code::INVALID_REQUEST, "Invalid Request");
    /// assert_eq!((error.code, error.message.as_ref()), (-32600, "Invalid Request"));
    /// assert_eq!(error.data, None);
    /// ```
    pub fn new(code: i32, message: impl Into<Cow<'static, str>>) -> Self {
        Self {
            code,
            message: message.into(),
            data: None,
        }
    }

    /// Attaches structured data.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ErrorObject;
    /// use serde_json::json;
    ///
    /// let error = ErrorObject::invalid_params("Unsupported protocol version")
    ///     .with_data(json!({"supported": ["2026-07-28"], "requested": "2024-01-01"}));
    /// assert_eq!(error.data.unwrap()["supported"][0], "2026-07-28");
    /// ```
    pub fn with_data(mut self, data: serde_json::Value) -> Self {
        self.data = Some(data);
        self
    }

    /// `-32602` with the given message.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let error = ErrorObject::invalid_params("Unknown prompt: greet");
    /// assert_eq!(error.code, -32602);
    /// assert_eq!(error.message, "Unknown prompt: greet");
    /// ```
    pub fn invalid_params(message: impl Into<Cow<'static, str>>) -> Self {
        Self::new(code::INVALID_PARAMS, message)
    }

    /// `-32601` for the given method.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let error = ErrorObject::method_not_found("tools/run");
    /// assert_eq!(error.code, -32601);
    /// assert_eq!(error.message, "Method not found: tools/run");
    /// ```
    pub fn method_not_found(method: &str) -> Self {
        Self::new(
            code::METHOD_NOT_FOUND,
            format!("Method not found: {}", truncate(method, 64)),
        )
    }

    /// `-32603` with a fixed message; the cause belongs in the server log only.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let error = ErrorObject::internal();
    /// assert_eq!((error.code, error.message.as_ref()), (-32603, "Internal error"));
    /// ```
    pub fn internal() -> Self {
        Self::new(code::INTERNAL_ERROR, "Internal error")
    }
}

impl fmt::Display for ErrorObject {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}

impl std::error::Error for ErrorObject {}

fn truncate(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((at, _)) => &s[..at],
        None => s,
    }
}

/// One message received from the client, classified.
#[derive(Debug)]
pub enum Incoming {
    /// A request: it gets exactly one response (unless cancelled).
    Request(Request),
    /// A notification: it gets no response.
    Notification(Notification),
    /// The client's answer to a request the server sent (2025-11-25 only).
    Response(ResponseIn),
}

/// A request from the client.
#[derive(Debug)]
pub struct Request {
    /// The id to answer under.
    pub id: RequestId,
    /// The method name: borrowed where the transport knew it as one of the protocol's names
    /// (a `tools/call` read in one pass), else as sent.
    pub method: Cow<'static, str>,
    /// The raw parameters, parsed later by the handler that knows their shape.
    pub params: Option<Box<RawValue>>,
}

/// A notification from the client.
#[derive(Debug)]
pub struct Notification {
    /// The method name.
    pub method: String,
    /// The raw parameters.
    pub params: Option<Box<RawValue>>,
}

/// A response from the client to a server-initiated request.
#[derive(Debug)]
pub struct ResponseIn {
    /// The id of the server's request.
    pub id: RequestId,
    /// The result, or the client's error.
    pub outcome: Result<Box<RawValue>, ErrorObject>,
}

#[derive(Deserialize)]
struct Envelope<'a> {
    /// Borrowed from the text unless it has escapes: only compared.
    #[serde(default, borrow, deserialize_with = "text_or_null")]
    jsonrpc: Option<Cow<'a, str>>,
    #[serde(default, deserialize_with = "present")]
    id: Option<serde_json::Value>,
    method: Option<String>,
    params: Option<Box<RawValue>>,
    result: Option<Box<RawValue>>,
    error: Option<ErrorObject>,
}

/// A string (borrowed when it has no escapes) or `null`; anything else is an error, as for an
/// `Option<String>`.
fn text_or_null<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Cow<'de, str>>, D::Error> {
    struct Text;
    impl<'de> serde::de::Visitor<'de> for Text {
        type Value = Option<Cow<'de, str>>;
        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a string or null")
        }
        fn visit_borrowed_str<E>(self, text: &'de str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Borrowed(text)))
        }
        fn visit_str<E>(self, text: &str) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(text.to_owned())))
        }
        fn visit_string<E>(self, text: String) -> Result<Self::Value, E> {
            Ok(Some(Cow::Owned(text)))
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }
    d.deserialize_any(Text)
}

fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<serde_json::Value>, D::Error> {
    serde_json::Value::deserialize(d).map(Some)
}

/// Why a line could not be read as a JSON-RPC message, with the id to answer under when one was
/// readable.
#[derive(Debug)]
pub struct Rejected {
    /// The id of the offending request, or `None` (answered with `"id": null`).
    pub id: Option<RequestId>,
    /// The error to send.
    pub error: ErrorObject,
}

impl Incoming {
    /// Parses one message. Malformed JSON is `-32700`; JSON that is not a JSON-RPC 2.0 message is
    /// `-32600`.
    pub fn parse(text: &str) -> Result<Incoming, Rejected> {
        // One pass in the common case. Only a text that is not an envelope is read a second
        // time, to tell malformed JSON (-32700) from JSON that is no message (-32600).
        let envelope: Envelope =
            serde_json::from_str(text).map_err(|_| {
                match serde_json::from_str::<serde::de::IgnoredAny>(text) {
                    Ok(_) => invalid(None),
                    Err(_) => Rejected {
                        id: None,
                        error: ErrorObject::new(
                            code::PARSE_ERROR,
                            "Parse error: the message is not valid JSON",
                        ),
                    },
                }
            })?;
        let id = match envelope.id {
            None => None,
            Some(v) => match RequestId::deserialize(&v) {
                Ok(id) => Some(id),
                Err(_) => return Err(invalid(None)),
            },
        };
        if envelope.jsonrpc.as_deref() != Some("2.0") {
            return Err(invalid(id));
        }
        if let Some(params) = &envelope.params {
            let first = params.get().trim_start().as_bytes().first().copied();
            if !matches!(first, Some(b'{') | Some(b'[')) {
                return Err(invalid(id));
            }
        }
        match (envelope.method, id, envelope.result, envelope.error) {
            (Some(method), Some(id), None, None) => Ok(Incoming::Request(Request {
                id,
                method: Cow::Owned(method),
                params: envelope.params,
            })),
            (Some(method), None, None, None) => Ok(Incoming::Notification(Notification {
                method,
                params: envelope.params,
            })),
            (None, Some(id), Some(result), None) => Ok(Incoming::Response(ResponseIn {
                id,
                outcome: Ok(result),
            })),
            (None, Some(id), None, Some(error)) => Ok(Incoming::Response(ResponseIn {
                id,
                outcome: Err(error),
            })),
            (_, id, _, _) => Err(invalid(id)),
        }
    }
}

fn invalid(id: Option<RequestId>) -> Rejected {
    Rejected {
        id,
        error: ErrorObject::new(
            code::INVALID_REQUEST,
            "Invalid Request: not a JSON-RPC 2.0 message",
        ),
    }
}

/// Writes `{"jsonrpc":"2.0","id":<id>,"result":<result>}` where `result` is already JSON.
pub fn result_line(id: &RequestId, result_json: &str) -> String {
    let mut out = String::with_capacity(result_head_len(id) + result_json.len() + 1);
    push_result_head(&mut out, id);
    out.push_str(result_json);
    out.push('}');
    out
}

/// What a result line starts with, before its id.
const RESULT_HEAD_START: &str = r#"{"jsonrpc":"2.0","id":"#;
/// What follows the id, before the result.
const RESULT_HEAD_END: &str = r#","result":"#;

/// Appends `{"jsonrpc":"2.0","id":<id>,"result":` to `out`: a result line's start, for a writer
/// that appends the result and the closing `}` itself.
pub(crate) fn push_result_head(out: &mut String, id: &RequestId) {
    out.push_str(RESULT_HEAD_START);
    push_id(out, Some(id));
    out.push_str(RESULT_HEAD_END);
}

/// The length of what [`push_result_head`] writes: a line written into a buffer of exactly
/// its length becomes a response body without a copy or a second allocation.
pub(crate) fn result_head_len(id: &RequestId) -> usize {
    let id = match id {
        RequestId::Number(n) => itoa::Buffer::new().format(*n).len(),
        RequestId::String(s) if !needs_escape(s) => s.len() + 2,
        RequestId::String(s) => serde_json::to_string(s).map_or(0, |json| json.len()),
    };
    RESULT_HEAD_START.len() + id + RESULT_HEAD_END.len()
}

/// Whether JSON writes `s` with escapes (serde_json escapes control characters, `"` and `\`,
/// nothing else).
fn needs_escape(s: &str) -> bool {
    s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\')
}

/// Writes `{"jsonrpc":"2.0","id":<id or null>,"error":<error>}`.
pub fn error_line(id: Option<&RequestId>, error: &ErrorObject) -> String {
    let mut out = String::with_capacity(96);
    out.push_str(r#"{"jsonrpc":"2.0","id":"#);
    push_id(&mut out, id);
    out.push_str(r#","error":"#);
    out.push_str(&serde_json::to_string(error).expect("error objects serialize"));
    out.push('}');
    out
}

/// Writes a notification line.
pub fn notification_line<P: Serialize>(method: &str, params: &P) -> String {
    #[derive(Serialize)]
    struct Out<'a, P> {
        jsonrpc: &'static str,
        method: &'a str,
        params: &'a P,
    }
    serde_json::to_string(&Out {
        jsonrpc: "2.0",
        method,
        params,
    })
    .expect("notifications serialize")
}

/// Writes a request line (server → client, 2025-11-25 only).
pub fn request_line<P: Serialize>(id: &RequestId, method: &str, params: &P) -> String {
    #[derive(Serialize)]
    struct Out<'a, P> {
        jsonrpc: &'static str,
        id: &'a RequestId,
        method: &'a str,
        params: &'a P,
    }
    serde_json::to_string(&Out {
        jsonrpc: "2.0",
        id,
        method,
        params,
    })
    .expect("requests serialize")
}

fn push_id(out: &mut String, id: Option<&RequestId>) {
    match id {
        None => out.push_str("null"),
        Some(RequestId::Number(n)) => out.push_str(itoa::Buffer::new().format(*n)),
        Some(RequestId::String(s)) if !needs_escape(s) => {
            out.push('"');
            out.push_str(s);
            out.push('"');
        }
        Some(RequestId::String(s)) => {
            out.push_str(&serde_json::to_string(s).expect("strings serialize"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_requests_notifications_and_responses() {
        let req = Incoming::parse(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
        assert!(matches!(
            req,
            Incoming::Request(Request {
                id: RequestId::Number(1),
                ..
            })
        ));
        let note = Incoming::parse(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        assert!(matches!(note, Ok(Incoming::Notification(_))));
        let resp = Incoming::parse(r#"{"jsonrpc":"2.0","id":"s-1","result":{}}"#).unwrap();
        assert!(matches!(
            resp,
            Incoming::Response(ResponseIn { outcome: Ok(_), .. })
        ));
    }

    #[test]
    fn the_version_is_read_as_a_string_escaped_or_not() {
        let escaped = Incoming::parse(r#"{"jsonrpc":"2\u002e0","id":1,"method":"ping"}"#);
        assert!(matches!(escaped, Ok(Incoming::Request(_))));
        for wrong in [
            r#"{"jsonrpc":2,"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":null,"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":["2.0"],"id":1,"method":"ping"}"#,
            r#"{"jsonrpc":"2.1","id":1,"method":"ping"}"#,
        ] {
            let rejected = Incoming::parse(wrong).unwrap_err();
            assert_eq!(rejected.error.code, code::INVALID_REQUEST, "{wrong}");
        }
    }

    #[test]
    fn rejects_malformed_and_non_jsonrpc_input() {
        assert_eq!(
            Incoming::parse("{nope").unwrap_err().error.code,
            code::PARSE_ERROR
        );
        let no_version = Incoming::parse(r#"{"id":4,"method":"ping"}"#).unwrap_err();
        assert_eq!(no_version.error.code, code::INVALID_REQUEST);
        assert_eq!(no_version.id, Some(RequestId::Number(4)));
        assert_eq!(
            Incoming::parse("[]").unwrap_err().error.code,
            code::INVALID_REQUEST
        );
        let bad_params = Incoming::parse(r#"{"jsonrpc":"2.0","id":1,"method":"x","params":3}"#);
        assert_eq!(bad_params.unwrap_err().error.code, code::INVALID_REQUEST);
        let null_id = Incoming::parse(r#"{"jsonrpc":"2.0","id":null,"method":"x"}"#);
        assert_eq!(null_id.unwrap_err().error.code, code::INVALID_REQUEST);
        // Malformed anywhere, even after a complete envelope or inside an ignored field, is a
        // parse error; well-formed JSON of the wrong shape is an invalid request.
        for malformed in [
            r#"{"jsonrpc":"2.0","id":1,"method":"ping"} x"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","x":tru}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","x":"\q"}"#,
            r#"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":}}"#,
        ] {
            let rejected = Incoming::parse(malformed).unwrap_err();
            assert_eq!(rejected.error.code, code::PARSE_ERROR, "{malformed}");
            assert_eq!(rejected.id, None);
        }
        for wrong_shape in [
            r#"{"jsonrpc":"2.0","id":1,"method":5}"#,
            r#"{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}"#,
            r#""just a string""#,
        ] {
            let rejected = Incoming::parse(wrong_shape).unwrap_err();
            assert_eq!(rejected.error.code, code::INVALID_REQUEST, "{wrong_shape}");
        }
    }

    #[test]
    fn writes_compact_lines() {
        let id = RequestId::String("a\"b".into());
        assert_eq!(
            result_line(&id, "{}"),
            r#"{"jsonrpc":"2.0","id":"a\"b","result":{}}"#
        );
        let err = ErrorObject::new(code::METHOD_NOT_FOUND, "Method not found: x");
        assert_eq!(
            error_line(None, &err),
            r#"{"jsonrpc":"2.0","id":null,"error":{"code":-32601,"message":"Method not found: x"}}"#
        );
    }
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn jsonrpc() {
        let Ok(Incoming::Request(request)) =
            Incoming::parse(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#)
        else {
            panic!("a request")
        };
        assert_eq!(request.method, "ping");
        assert_eq!(
            result_line(&request.id, "{}"),
            r#"{"jsonrpc":"2.0","id":1,"result":{}}"#
        );
    }

    #[test]
    fn jsonrpc_incoming() {
        let message = Incoming::parse(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
        let Ok(Incoming::Notification(notification)) = message else {
            panic!("a notification")
        };
        assert_eq!(notification.method, "notifications/initialized");
        let message = Incoming::parse(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#);
        assert!(matches!(message, Ok(Incoming::Request(r)) if r.method == "tools/list"));
    }

    #[test]
    fn jsonrpc_request() {
        let line =
            r#"{"jsonrpc":"2.0","id":"r1","method":"tools/call","params":{"name":"search"}}"#;
        let Ok(Incoming::Request(request)) = Incoming::parse(line) else {
            panic!("a request")
        };
        assert_eq!(request.id, RequestId::String("r1".into()));
        assert_eq!(request.params.unwrap().get(), r#"{"name":"search"}"#);
    }

    #[test]
    fn jsonrpc_notification() {
        let line =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#;
        let Ok(Incoming::Notification(notification)) = Incoming::parse(line) else {
            panic!()
        };
        assert_eq!(notification.method, "notifications/cancelled");
        assert_eq!(notification.params.unwrap().get(), r#"{"requestId":1}"#);
    }

    #[test]
    fn jsonrpc_responsein() {
        let line = r#"{"jsonrpc":"2.0","id":3,"result":{"roots":[]}}"#;
        let Ok(Incoming::Response(response)) = Incoming::parse(line) else {
            panic!()
        };
        assert_eq!(response.id, RequestId::Number(3));
        assert_eq!(response.outcome.unwrap().get(), r#"{"roots":[]}"#);
    }

    #[test]
    fn jsonrpc_rejected() {
        let rejected = Incoming::parse("{not json").unwrap_err();
        assert_eq!(
            (rejected.id, rejected.error.code),
            (None, code::PARSE_ERROR)
        );
        let rejected = Incoming::parse(r#"{"id":4,"method":"ping"}"#).unwrap_err();
        assert_eq!(
            error_line(rejected.id.as_ref(), &rejected.error),
            r#"{"jsonrpc":"2.0","id":4,"error":{"code":-32600,"message":"Invalid Request: not a JSON-RPC 2.0 message"}}"#
        );
    }

    #[test]
    fn jsonrpc_incoming_parse() {
        assert!(matches!(
            Incoming::parse(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#),
            Ok(Incoming::Request(_))
        ));
        assert_eq!(
            Incoming::parse("[1,").unwrap_err().error.code,
            code::PARSE_ERROR
        );
        assert_eq!(
            Incoming::parse(r#"{"jsonrpc":"1.0"}"#)
                .unwrap_err()
                .error
                .code,
            code::INVALID_REQUEST
        );
    }

    #[test]
    fn a_result_head_is_as_long_as_said_and_its_id_as_json_writes_it() {
        let ids = [
            RequestId::Number(0),
            RequestId::Number(7),
            RequestId::Number(-12),
            RequestId::Number(i64::MIN),
            RequestId::Number(i64::MAX),
            RequestId::String(String::new()),
            RequestId::String("abc-1".into()),
            RequestId::String("a \"quoted\" \\ id\n\u{1}é\u{7f}".into()),
        ];
        for id in ids {
            let mut head = String::new();
            push_result_head(&mut head, &id);
            assert_eq!(head.len(), result_head_len(&id), "{id:?}");
            let line = result_line(&id, "{}");
            assert_eq!(line.len(), line.capacity(), "{id:?}");
            let read: serde_json::Value = serde_json::from_str(&line).unwrap();
            assert_eq!(read["id"], serde_json::to_value(&id).unwrap(), "{id:?}");
        }
    }

    #[test]
    fn jsonrpc_result_line() {
        assert_eq!(
            result_line(&RequestId::Number(1), r#"{"tools":[]}"#),
            r#"{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}"#
        );
    }

    #[test]
    fn jsonrpc_error_line() {
        assert_eq!(
            error_line(
                Some(&RequestId::String("a".into())),
                &ErrorObject::internal()
            ),
            r#"{"jsonrpc":"2.0","id":"a","error":{"code":-32603,"message":"Internal error"}}"#
        );
    }

    #[test]
    fn jsonrpc_notification_line() {
        use serde_json::json;

        assert_eq!(
            notification_line("notifications/tools/list_changed", &json!({})),
            r#"{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}"#
        );
    }

    #[test]
    fn jsonrpc_request_line() {
        use serde_json::json;

        assert_eq!(
            request_line(&RequestId::Number(3), "roots/list", &json!({})),
            r#"{"jsonrpc":"2.0","id":3,"method":"roots/list","params":{}}"#
        );
    }
}
