//! The JSON-RPC messages the client writes, serialized by serde: a request, whose params carry
//! the `requestState` of an `input_required` retry exactly as the server sent it, and a
//! notification.

use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The JSON-RPC version every message names.
const JSONRPC: &str = "2.0";

/// A request: `{"jsonrpc":"2.0","id":…,"method":…,"params":{…}}`.
#[derive(Serialize)]
pub(crate) struct RequestMessage<'a> {
    jsonrpc: &'static str,
    id: i64,
    method: &'a str,
    params: RequestParams<'a>,
}

/// A request's params: its fields, then the echoed `requestState` (2026-07-28) when there is
/// one, its bytes untouched.
#[derive(Serialize)]
struct RequestParams<'a> {
    #[serde(flatten)]
    fields: &'a Map<String, Value>,
    #[serde(rename = "requestState", skip_serializing_if = "Option::is_none")]
    request_state: Option<&'a RawValue>,
}

impl<'a> RequestMessage<'a> {
    /// Request `id` of `method` with `params`, and `request_state` when retrying.
    pub(crate) fn new(
        id: i64,
        method: &'a str,
        params: &'a Map<String, Value>,
        request_state: Option<&'a RawValue>,
    ) -> Self {
        Self {
            jsonrpc: JSONRPC,
            id,
            method,
            params: RequestParams {
                fields: params,
                request_state,
            },
        }
    }
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
        let line =
            serde_json::to_string(&RequestMessage::new(7, "tools/call", params, Some(&state)))
                .unwrap();
        assert_eq!(
            line,
            r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"arguments":{"n":1},"name":"order","requestState":"a\u00e9\/b"}}"#
        );
        let empty = Map::new();
        let line = serde_json::to_string(&RequestMessage::new(
            0,
            "server/discover",
            &empty,
            Some(&state),
        ))
        .unwrap();
        assert_eq!(
            line,
            r#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{"requestState":"a\u00e9\/b"}}"#
        );
        let line =
            serde_json::to_string(&RequestMessage::new(1, "tools/list", &empty, None)).unwrap();
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
