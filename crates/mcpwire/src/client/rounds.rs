//! The 2026-07-28 multi round-trip loop: while the server answers `input_required`, answer its
//! `inputRequests` with the client's handlers and retry the same request (a new JSON-RPC id,
//! `inputResponses`, and the `requestState` echoed exactly), up to a round cap. A result without
//! `resultType` is complete. The state of one call never reaches another.

use super::error::ClientError;
use super::handlers::Handlers;
use super::hook::Stage;
use super::options::CallOptions;
use super::session::Session;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Value};

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Head {
    result_type: Option<String>,
    #[serde(default)]
    input_requests: Map<String, Value>,
    request_state: Option<Box<RawValue>>,
}

#[derive(Deserialize)]
struct InputRequest {
    method: String,
    params: Option<Value>,
}

/// Sends `method` and runs its input rounds to the final result, inside the hooks when there
/// are any (`Stage::Call`: the rounds are one call, each round's request one `Stage::Request`).
pub(crate) async fn request_with_input(
    session: &Session,
    method: &str,
    params: Map<String, Value>,
    options: &CallOptions,
) -> Result<Box<RawValue>, ClientError> {
    let hooks = &session.peer().settings.hooks;
    if hooks.is_empty() {
        return rounds(session, method, params, options).await;
    }
    let version = session.peer().mode().version;
    hooks
        .run(
            Stage::Call,
            method,
            version.as_deref(),
            params,
            move |params| Box::pin(rounds(session, method, params, options)),
        )
        .await
}

async fn rounds(
    session: &Session,
    method: &str,
    params: Map<String, Value>,
    options: &CallOptions,
) -> Result<Box<RawValue>, ClientError> {
    let peer = session.peer();
    let max_rounds = peer.settings.max_rounds;
    let mut state: Option<Box<RawValue>> = None;
    let mut responses: Option<Map<String, Value>> = None;
    let mut answered = 0;
    loop {
        let mut round = params.clone();
        if let Some(responses) = responses.take() {
            round.insert("inputResponses".into(), Value::Object(responses));
        }
        let raw = session
            .request(method, round, state.as_deref(), options)
            .await?;
        let head: Head = serde_json::from_str(raw.get())
            .map_err(|e| ClientError::Protocol(format!("{method} result: {e}")))?;
        if head.result_type.as_deref() != Some("input_required") {
            return Ok(raw);
        }
        if answered == max_rounds {
            return Err(ClientError::TooManyRounds(max_rounds));
        }
        answered += 1;
        responses = Some(answer_all(&peer.handlers, head.input_requests).await?);
        state = head.request_state;
    }
}

/// Answers every input request of one round, concurrently.
async fn answer_all(
    handlers: &Handlers,
    requests: Map<String, Value>,
) -> Result<Map<String, Value>, ClientError> {
    let answers = requests.into_iter().map(|(key, request)| async move {
        let request: InputRequest = serde_json::from_value(request)
            .map_err(|e| ClientError::Protocol(format!("input request {key:?}: {e}")))?;
        let answer = handlers
            .answer(&request.method, request.params)
            .await
            .map_err(|error| ClientError::Question {
                method: request.method,
                error,
            })?;
        Ok::<_, ClientError>((key, answer))
    });
    futures_util::future::try_join_all(answers)
        .await
        .map(|pairs| pairs.into_iter().collect())
}
