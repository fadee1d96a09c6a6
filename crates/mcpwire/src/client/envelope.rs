//! The JSON-RPC messages the client writes: a request (written by hand, its `_meta` from
//! [`OutgoingMeta`], the `requestState` of an `input_required` retry exactly as the server sent
//! it), and a notification (serialized by serde).

use super::request_meta::OutgoingMeta;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The JSON-RPC version every message names.
const JSONRPC: &str = "2.0";

/// A request, `{"jsonrpc":"2.0","id":…,"method":…,"params":{…}}`, written by hand: its
/// params' fields, then their `_meta` (`meta`, whose 2026-07-28 entries are written once per
/// connection), then the echoed `requestState` of an `input_required` retry, its bytes
/// untouched.
pub(crate) fn request(
    id: i64,
    method: &str,
    params: &Map<String, Value>,
    meta: &OutgoingMeta,
    request_state: Option<&RawValue>,
) -> String {
    let mut out = Vec::with_capacity(256);
    out.extend_from_slice(br#"{"jsonrpc":"2.0","id":"#);
    write(&mut out, &id);
    out.extend_from_slice(br#","method":"#);
    write(&mut out, method);
    out.extend_from_slice(br#","params":{"#);
    let mut first = true;
    let mut comma = |out: &mut Vec<u8>| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
    };
    for (key, value) in params {
        comma(&mut out);
        write(&mut out, key);
        out.push(b':');
        write(&mut out, value);
    }
    if !meta.is_empty() {
        comma(&mut out);
        out.extend_from_slice(br#""_meta":"#);
        meta.write(&mut out);
    }
    if let Some(state) = request_state {
        comma(&mut out);
        out.extend_from_slice(br#""requestState":"#);
        out.extend_from_slice(state.get().as_bytes());
    }
    out.extend_from_slice(b"}}");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

/// Writes `value` as JSON (a string or a `Value`: neither fails).
fn write<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    serde_json::to_writer(&mut *out, value).expect("JSON values serialize");
}

/// A notification: `{"jsonrpc":"2.0","method":…,"params":…}`.
#[derive(Serialize)]
pub(crate) struct NotificationMessage<'a, P: Serialize> {
    jsonrpc: &'static str,
    method: &'a str,
    params: &'a P,
}

impl<'a, P: Serialize> NotificationMessage<'a, P> {
    /// Notification `method` with `params`.
    pub(crate) fn new(method: &'a str, params: &'a P) -> Self {
        Self {
            jsonrpc: JSONRPC,
            method,
            params,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_request_state_is_echoed_byte_for_byte_after_the_fields() {
        let params = json!({"name": "order", "arguments": {"n": 1}});
        let params = params.as_object().unwrap();
        let state = RawValue::from_string(r#""a\u00e9\/b""#.to_owned()).unwrap();
        let none = OutgoingMeta::default();
        let line = request(7, "tools/call", params, &none, Some(&state));
        assert_eq!(
            line,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"n":1},"name":"order","requestState":"a\u00e9\/b"}}"#
        );
        let empty = Map::new();
        let line = request(0, "server/discover", &empty, &none, Some(&state));
        assert_eq!(
            line,
            r#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"requestState":"a\u00e9\/b"}}"#
        );
        let line = request(1, "tools/list", &empty, &none, None);
        assert_eq!(
            line,
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}"#
        );
    }

    #[test]
    fn a_notification_carries_its_params() {
        let params = json!({});
        let line = serde_json::to_string(&NotificationMessage::new(
            "notifications/initialized",
            &params,
        ))
        .unwrap();
        assert_eq!(
            line,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}"#
        );
    }
}
