//! What a non-2xx answer to a POSTed request means. The answer is always the request's own:
//! a JSON-RPC error carrying the request's id is delivered as its answer (a `400` with `-32022`
//! is retried by the negotiation); any other body (an id of `null`, of a string, or of a
//! different request, or no JSON-RPC at all) fails the request at once with the status and the
//! server's message. Only a reply that names another request by its numeric id is also handed
//! on, to that request if it is still waiting.
//!
//! Servers on the TypeScript SDK 1.x answer a request outside a session with `400` and
//! `"id": null`; the Python SDK 1.x with `400` and `"id": "server-error"`. Neither may leave the
//! request waiting for an answer that never comes.

use crate::client::ClientError;
use serde::Deserialize;
use serde_json::Value;

/// How much of an unexpected body an error shows.
pub(super) const BODY_SHOWN: usize = 512;

/// What becomes of a refused request.
#[derive(Debug)]
pub(super) enum Refusal {
    /// The request's own JSON-RPC answer: deliver it.
    Answer(String),
    /// The request fails with `error`; `routed` (a reply naming another request) is delivered.
    Failed {
        /// A reply whose id is another request's.
        routed: Option<String>,
        /// The request's error.
        error: ClientError,
    },
}

#[derive(Deserialize)]
struct Reply {
    jsonrpc: Option<Value>,
    #[serde(default)]
    id: Value,
    error: Option<Value>,
    result: Option<Value>,
}

#[derive(Deserialize)]
struct RequestId {
    #[serde(default)]
    id: Value,
}

/// Reads the `status` answer `body` to the request `request` (its JSON text).
pub(super) fn read(status: u16, body: String, request: &[u8]) -> Refusal {
    let reply = serde_json::from_str::<Reply>(&body)
        .ok()
        .filter(|r| r.jsonrpc.is_some() && (r.error.is_some() || r.result.is_some()));
    let Some(reply) = reply else {
        return Refusal::Failed {
            routed: None,
            error: ClientError::Http {
                status,
                body: shown(body),
            },
        };
    };
    let own = serde_json::from_slice::<RequestId>(request)
        .map(|r| r.id)
        .unwrap_or(Value::Null);
    if !own.is_null() && reply.id == own {
        return Refusal::Answer(body);
    }
    let message = reply.error.as_ref().map_or_else(
        || "a result where an error was expected".to_owned(),
        |error| {
            let text = error.get("message").and_then(Value::as_str).unwrap_or("");
            match error.get("code").and_then(Value::as_i64) {
                Some(code) => format!("{text} ({code})"),
                None => text.to_owned(),
            }
        },
    );
    Refusal::Failed {
        routed: reply.id.is_number().then_some(body),
        error: ClientError::Http {
            status,
            body: shown(message),
        },
    }
}

/// The start of `text`, cut on a character boundary.
pub(super) fn shown(mut text: String) -> String {
    if text.len() > BODY_SHOWN {
        let cut = (0..=BODY_SHOWN)
            .rev()
            .find(|i| text.is_char_boundary(*i))
            .unwrap_or(0);
        text.truncate(cut);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const DISCOVER: &[u8] = br#"{"jsonrpc":"2.0","id":0,"method":"server/discover","params":{}}"#;

    /// The refusal as (what is delivered, the request's error).
    fn outcome(status: u16, body: &str) -> (Option<String>, Option<String>) {
        match read(status, body.into(), DISCOVER) {
            Refusal::Answer(body) => (Some(body), None),
            Refusal::Failed { routed, error } => (routed, Some(error.to_string())),
        }
    }

    #[test]
    fn the_typescript_sdk_1x_null_id_fails_the_request_with_its_message() {
        let body = r#"{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}"#;
        assert_eq!(
            outcome(400, body),
            (
                None,
                Some("HTTP 400: Bad Request: Server not initialized (-32000)".into())
            )
        );
    }

    #[test]
    fn the_python_sdk_1x_string_id_fails_the_request_with_its_message() {
        let body = r#"{"jsonrpc":"2.0","id":"server-error","error":{"code":-32600,"message":"Bad Request: Missing session ID"}}"#;
        assert_eq!(
            outcome(400, body),
            (
                None,
                Some("HTTP 400: Bad Request: Missing session ID (-32600)".into())
            )
        );
    }

    #[test]
    fn the_requests_own_id_is_its_answer() {
        let body = r#"{"jsonrpc":"2.0","id":0,"error":{"code":-32022,"message":"Unsupported","data":{"supported":["2026-07-28"]}}}"#;
        assert_eq!(outcome(400, body), (Some(body.into()), None));
    }

    #[test]
    fn another_requests_id_is_handed_on_and_this_one_fails() {
        let body = r#"{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"boom"}}"#;
        assert_eq!(
            outcome(500, body),
            (Some(body.into()), Some("HTTP 500: boom (-32603)".into()))
        );
    }

    #[test]
    fn a_plain_body_is_shown_cut_short() {
        let body = "\u{e9}".repeat(400);
        let Refusal::Failed {
            routed: None,
            error: ClientError::Http { status: 404, body },
        } = read(404, body, DISCOVER)
        else {
            panic!("a plain body fails the request");
        };
        assert!(body.len() <= BODY_SHOWN && body.starts_with('\u{e9}'));
    }
}
