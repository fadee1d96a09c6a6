//! The 2026-07-28 multi round-trip loop: while the server answers `input_required`, answer its
//! `inputRequests` with the client's handlers and retry the same request (a new JSON-RPC id,
//! `inputResponses`, and the `requestState` echoed exactly), up to a round cap. A result without
//! `resultType` is complete. The state of one call never reaches another. A call's own
//! answerer ([`CallOptions::on_question`]) answers instead of the handlers when it has one;
//! [`one_round`] sends one round only and hands the questions back ([`Round`]).

use super::error::ClientError;
use super::handlers::Handlers;
use super::hook::Stage;
use super::options::CallOptions;
use super::question::{QuestionAnswerer, ServerQuestion};
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

/// The head of `method`'s result `raw` when it is `input_required`; `None` when it is final. A
/// result whose text cannot say `input_required` (not even through an escape) is final
/// without being read.
fn input_required(method: &str, raw: &RawValue) -> Result<Option<Head>, ClientError> {
    let text = raw.get();
    if !text.contains("input_required") && !text.contains("\\u") {
        return Ok(None);
    }
    let head: Head = serde_json::from_str(text)
        .map_err(|e| ClientError::Protocol(format!("{method} result: {e}")))?;
    Ok((head.result_type.as_deref() == Some("input_required")).then_some(head))
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
        let Some(head) = input_required(method, &raw)? else {
            return Ok(raw);
        };
        if answered == max_rounds {
            return Err(ClientError::TooManyRounds(max_rounds));
        }
        answered += 1;
        let answerer = options.questions.as_ref();
        responses = Some(answer_all(&peer.handlers, answerer, head.input_requests).await?);
        state = head.request_state;
    }
}

/// Answers every input request of one round, concurrently.
async fn answer_all(
    handlers: &Handlers,
    answerer: Option<&QuestionAnswerer>,
    requests: Map<String, Value>,
) -> Result<Map<String, Value>, ClientError> {
    let answers = requests.into_iter().map(|(key, request)| async move {
        let request: InputRequest = serde_json::from_value(request)
            .map_err(|e| ClientError::Protocol(format!("input request {key:?}: {e}")))?;
        let answer = match answerer {
            Some(answerer) => {
                let params = request.params.unwrap_or_else(|| Value::Object(Map::new()));
                let method = request.method.clone();
                answerer(ServerQuestion { method, params }).await
            }
            None => handlers.answer(&request.method, request.params).await,
        };
        let answer = answer.map_err(|error| ClientError::Question {
            method: request.method,
            error,
        })?;
        Ok::<_, ClientError>((key, answer))
    });
    futures_util::future::try_join_all(answers)
        .await
        .map(|pairs| pairs.into_iter().collect())
}

/// What one round of a 2026-07-28 request came back with: the result, or the server's
/// questions and the state to send back with their answers. A 2025-11-25 request (whose
/// questions are requests of the server's, answered while it runs) is always complete.
///
/// `T` is the form of the final result: a `Value` ([`Client::request_round`]), or the bytes the
/// server sent, `Box<RawValue>` ([`Client::request_round_raw`]).
///
/// [`Client::request_round`]: super::Client::request_round
/// [`Client::request_round_raw`]: super::Client::request_round_raw
///
/// # Examples
///
/// ```
/// use mcpwire::client::Round;
///
/// let round = Round::Complete(serde_json::json!({"content": []}));
/// assert!(matches!(round, Round::Complete(_)));
/// ```
#[derive(Debug)]
pub enum Round<T = Value> {
    /// The final result.
    Complete(T),
    /// `input_required`: the questions, by key, and the `requestState` to echo exactly.
    InputRequired {
        /// `inputRequests`: each a `{"method", "params"}` question, by key.
        input_requests: Map<String, Value>,
        /// `requestState`, when the server sent one.
        request_state: Option<Box<RawValue>>,
    },
}

/// Sends one round of `method`: `params` (with the `inputResponses` of the previous round,
/// when there was one) and `request_state` echoed; the questions come back instead of being
/// answered.
pub(crate) async fn one_round(
    session: &Session,
    method: &str,
    params: Map<String, Value>,
    request_state: Option<&RawValue>,
    options: &CallOptions,
) -> Result<Round, ClientError> {
    match one_raw_round(session, method, params, request_state, options).await? {
        Round::Complete(raw) => Ok(Round::Complete(serde_json::from_str(raw.get())?)),
        Round::InputRequired {
            input_requests,
            request_state,
        } => Ok(Round::InputRequired {
            input_requests,
            request_state,
        }),
    }
}

/// [`one_round`], its final result left as the server sent it.
pub(crate) async fn one_raw_round(
    session: &Session,
    method: &str,
    params: Map<String, Value>,
    request_state: Option<&RawValue>,
    options: &CallOptions,
) -> Result<Round<Box<RawValue>>, ClientError> {
    let raw = session
        .request(method, params, request_state, options)
        .await?;
    match input_required(method, &raw)? {
        Some(head) => Ok(Round::InputRequired {
            input_requests: head.input_requests,
            request_state: head.request_state,
        }),
        None => Ok(Round::Complete(raw)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    #[test]
    fn only_a_result_that_says_input_required_is_read_as_one() {
        let complete = raw(r#"{"resultType":"complete","content":[{"type":"text","text":"5"}]}"#);
        assert!(input_required("tools/call", &complete).unwrap().is_none());
        let plain = raw(r#"{"content":[{"type":"text","text":"input_required"}]}"#);
        assert!(input_required("tools/call", &plain).unwrap().is_none());
        let asks =
            raw(r#"{"resultType":"input_required","inputRequests":{"q":{}},"requestState":"s"}"#);
        let head = input_required("tools/call", &asks).unwrap().unwrap();
        assert!(head.input_requests.contains_key("q"));
        assert_eq!(head.request_state.unwrap().get(), r#""s""#);
        // Spelt with an escape, it is still read, and still found.
        let escaped = raw(r#"{"resultType":"input_requ\u0069red","inputRequests":{}}"#);
        assert!(input_required("tools/call", &escaped).unwrap().is_some());
        let bad = raw(r#"{"resultType":"input_required","inputRequests":7}"#);
        assert!(matches!(
            input_required("tools/call", &bad),
            Err(ClientError::Protocol(_))
        ));
    }
}
