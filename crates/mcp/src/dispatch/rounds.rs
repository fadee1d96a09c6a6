//! The `requestState` boundary of 2026-07-28 rounds: opened and checked before a handler runs,
//! sealed after it asked its questions. Every way a state can be wrong is the same error for the
//! client; the reason goes to the server log only.

use crate::protocol::ErrorObject;
use crate::protocol::tools::CallToolParams;
use crate::resolve::rounds::RoundState;
use crate::resolve::{InputRequired, RoundInputs};
use crate::server::core::ServerCore;
use crate::state::{Binding, arguments_digest};
use serde::Serialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

const METHOD: &str = "tools/call";

/// This round's inputs: the verified state and the client's answers.
pub(crate) fn open(
    core: &ServerCore,
    tool: &str,
    params: &CallToolParams,
) -> Result<RoundInputs, ErrorObject> {
    let responses = match params.input_responses.as_deref() {
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
    let state = match params.request_state.as_deref() {
        None => RoundState::default(),
        Some(token) => {
            let digest = arguments_digest(params.arguments.as_deref());
            let binding = Binding {
                method: METHOD,
                target: tool,
                arguments: &digest,
                principal: None,
            };
            match core.state_codec.open(token, binding) {
                Ok(plaintext) => RoundState::parse(&plaintext),
                Err(reason) => {
                    tracing::warn!(?reason, tool, "rejected a requestState");
                    return Err(ErrorObject::invalid_params(
                        "Invalid or expired requestState",
                    ));
                }
            }
        }
    };
    Ok(RoundInputs { state, responses })
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct InputRequiredResult<'a> {
    input_requests: &'a Map<String, Value>,
    request_state: String,
}

/// The `input_required` result for `input`, with its state sealed to this call.
pub(crate) fn seal(
    core: &ServerCore,
    tool: &str,
    arguments: Option<&RawValue>,
    input: InputRequired,
) -> String {
    let digest = arguments_digest(arguments);
    let binding = Binding {
        method: METHOD,
        target: tool,
        arguments: &digest,
        principal: None,
    };
    let request_state = core.state_codec.seal(binding, &input.state.to_json());
    let result = InputRequiredResult {
        input_requests: &input.requests,
        request_state,
    };
    serde_json::to_string(&result).expect("input requests serialize")
}
