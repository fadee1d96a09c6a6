//! The `requestState` boundary of 2026-07-28 rounds: opened and checked before a handler runs,
//! sealed after it asked its questions. Every way a state can be wrong is the same error for the
//! client; the reason goes to the server log only.

use crate::protocol::ErrorObject;
use crate::request_state::{Binding, arguments_digest, new_call_id};
use crate::resolve::rounds::{CallToken, RoundState};
use crate::resolve::{InputRequired, RoundInputs};
use crate::server::core::ServerCore;
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// The request a state belongs to: `tools/call` of a tool, `prompts/get` of a prompt,
/// `resources/read` of a URI, with its arguments (their JSON text).
#[derive(Clone, Copy)]
pub(crate) struct Target<'a> {
    pub(crate) method: &'static str,
    pub(crate) name: &'a str,
    pub(crate) arguments: Option<&'a str>,
    pub(crate) principal: Option<&'a str>,
}

impl Target<'_> {
    fn with_binding<T>(&self, f: impl FnOnce(Binding<'_>) -> T) -> T {
        let digest = arguments_digest(self.arguments);
        f(Binding {
            method: self.method,
            target: self.name,
            arguments: &digest,
            principal: self.principal,
        })
    }
}

/// This round's inputs: the verified state and the client's answers.
pub(crate) fn open(
    core: &ServerCore,
    target: Target<'_>,
    input_responses: Option<&RawValue>,
    request_state: Option<&str>,
) -> Result<RoundInputs, ErrorObject> {
    // A first round without answers (most calls) has nothing to read, build or drop.
    if input_responses.is_none() && request_state.is_none() {
        return Ok(RoundInputs::default());
    }
    let responses = match input_responses {
        None => Map::new(),
        Some(raw) => match serde_json::from_str::<Value>(raw.get()) {
            Ok(Value::Object(map)) => map,
            Ok(Value::Null) => Map::new(),
            _ => {
                return Err(ErrorObject::invalid_params(
                    "Invalid params: inputResponses must be an object",
                ));
            }
        },
    };
    let (state, call) = match request_state {
        None => (RoundState::default(), None),
        Some(token) => match target.with_binding(|binding| core.state_codec.open(token, binding)) {
            Ok(opened) => (
                RoundState::parse(&opened.state),
                Some(CallToken {
                    id: opened.call_id,
                    expires_at_ms: opened.expires_at_ms,
                }),
            ),
            Err(reason) => {
                tracing::warn!(?reason, target = target.name, "rejected a requestState");
                return Err(ErrorObject::invalid_params(
                    "Invalid or expired requestState",
                ));
            }
        },
    };
    Ok(RoundInputs::new(state, responses, call))
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputRequiredResult<'a> {
    input_requests: &'a Map<String, Value>,
    request_state: String,
}

/// The `input_required` result for `input`, with its state sealed to `target`.
///
/// # Errors
///
/// `-32602` naming the size and the limit when the answers recorded so far do not fit in a
/// `requestState` (the server never mints a state it would refuse): the round that carried the
/// too-big answer fails, saying so.
pub(crate) fn seal(
    core: &ServerCore,
    target: Target<'_>,
    input: InputRequired,
) -> Result<String, ErrorObject> {
    let state = input.state.to_json();
    let call_id = input.call_id.unwrap_or_else(new_call_id);
    let sealed = target.with_binding(|binding| core.state_codec.seal(binding, &state, &call_id));
    let request_state = match sealed {
        Ok(token) => token,
        Err(oversized) => {
            tracing::warn!(
                target = target.name,
                bytes = oversized.bytes,
                limit = oversized.limit,
                "the answers of a call do not fit in a requestState"
            );
            return Err(ErrorObject::invalid_params(format!(
                "Invalid params: the answers given so far do not fit in a requestState ({} \
                 bytes; this server's limit is {} bytes); answer with less",
                oversized.bytes, oversized.limit
            )));
        }
    };
    let result = InputRequiredResult {
        input_requests: &input.requests,
        request_state,
    };
    Ok(serde_json::to_string(&result).expect("input requests serialize"))
}
