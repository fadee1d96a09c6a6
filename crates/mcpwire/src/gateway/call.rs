//! A proxied `tools/call` (or `prompts/get`, `resources/read`), on either revision in front
//! and behind, with the backend's questions, progress and log messages passed on to the
//! caller.
//!
//! | caller \ backend | 2025-11-25 (asks by request) | 2026-07-28 (`input_required`) |
//! |---|---|---|
//! | 2025-11-25 | each question a request to the caller, tied to its call | the client's rounds, each question a request to the caller |
//! | 2026-07-28 | the call held open here ([`held`](super::held)), its questions `input_required` rounds | the backend's rounds passed on, its `requestState` sealed inside ours |

use super::flight::{Answer, Answered, Asked, Backend, Event, InFlight, Note};
use super::held::{Full, HELD_FOR};
use super::link::Failure;
use super::mounted::Mounted;
use super::questions::{ask_caller, declared, of_caller, refused};
use crate::client::{CallOptions, Client, ClientError, Round, ServerQuestion};
use crate::context::Context;
use crate::protocol::{Era, ErrorObject, LoggingLevel};
use crate::resolve::rounds::RoundState;
use crate::resolve::{InputRequired, Stop};
use crate::server::handler::HandlerCall;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::future::Future;
use std::sync::Arc;
use tokio::sync::{mpsc, oneshot};

/// How many progress notifications and log messages of a call wait to be passed on; more are
/// dropped.
const NOTE_QUEUE: usize = 32;
/// How many questions of a held call wait for the caller's next round at most.
const QUESTION_QUEUE: usize = 8;
/// How long a call waits for its backend to take the caller's log level before it goes on.
const LEVEL_WAIT: std::time::Duration = std::time::Duration::from_secs(5);

/// What the gateway carries in its own sealed `requestState` from one round of a 2026-07-28
/// caller to the next: the backend, and either its own `requestState` or the held call's id.
#[derive(Serialize, Deserialize)]
struct Carried {
    backend: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    state: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    held: Option<String>,
}

/// The owner of a caller's held calls: its principal, or one place shared by callers without.
fn owner(context: &Context) -> String {
    match context.principal() {
        Some(identity) => format!("p:{}", identity.subject()),
        None => "anonymous".to_owned(),
    }
}

/// The backend call's options for its caller in `context`: its progress and log messages
/// passed on (at the caller's log level, which a 2026-07-28 backend is told), the caller's
/// capabilities to answer questions declared; and the receiver of what it reports.
fn call_options(context: &Context) -> (CallOptions, mpsc::Receiver<Note>) {
    let (sender, receiver) = mpsc::channel(NOTE_QUEUE);
    let logs = sender.clone();
    let mut options = CallOptions::new()
        .capabilities(of_caller(context))
        .on_progress(move |p| drop(sender.try_send(Note::Progress(p))))
        .on_log(move |message| drop(logs.try_send(Note::Log(message))));
    if let Some(level) = context.log_level() {
        options = options.log_level(level);
    }
    (options, receiver)
}

/// Sends `method` with `params` (`tools/call`, `prompts/get`, `resources/read`) to backend
/// `backend` for `call`'s caller, passing its questions, progress and log messages on; a
/// backend that is
/// unavailable or failed is `unavailable` of what the caller may be told.
pub(crate) async fn forward(
    call: &HandlerCall,
    mounted: Arc<Mounted>,
    backend: usize,
    method: &'static str,
    params: Map<String, Value>,
    token: Option<String>,
    unavailable: fn(String) -> Stop,
) -> Result<Box<RawValue>, Stop> {
    let context = call.context();
    let (options, notes) = call_options(&context);
    let level = context.log_level();
    let link_name = mounted.links[backend].backend.name.clone();
    if context.era() == Era::Legacy {
        // Questions go to the caller as requests, on either backend revision.
        let caller = context.clone();
        let options = options.on_question(move |question| {
            let caller = caller.clone();
            async move { ask_caller(&caller, question).await }
        });
        let running = exchange(mounted, backend, token, level, move |client| async move {
            let result = client.raw(method, params, &options);
            result.await.map(Round::Complete)
        });
        let (_, no_questions) = mpsc::channel(1);
        let mut flight = InFlight::new(link_name, running, no_questions, notes);
        return match flight.next(&context).await {
            Event::Done(done) => complete(done, unavailable),
            Event::Asked(_) => unreachable!("nothing asks on this channel"),
        };
    }
    let carried = match &call.round.get().state.carried {
        None => None,
        Some(carried) => Some(
            serde_json::from_value::<Carried>((**carried).clone())
                .ok()
                .filter(|c| c.backend == link_name)
                .ok_or_else(expired)?,
        ),
    };
    let call_id = call.round.get().call.as_ref().map(|c| c.id.clone());
    let mut flight = match carried {
        Some(Carried { held: Some(id), .. }) => {
            let mut flight = (mounted.held.take(&id, &owner(&context))).ok_or_else(|| {
                Stop::Protocol(ErrorObject::invalid_params(
                    "Invalid params: this call is no longer held by the gateway (it expired, or \
                     the retry reached another replica); call the tool again",
                ))
            })?;
            answer_held(&mut flight, &call.round.get().responses)?;
            flight
        }
        carried => {
            let mut params = params;
            if !call.round.get().responses.is_empty() {
                params.insert(
                    "inputResponses".into(),
                    Value::Object(call.round.get().responses.clone()),
                );
            }
            let state = match carried.and_then(|c| c.state) {
                None => None,
                Some(state) => {
                    Some(serde_json::value::to_raw_value(&state).map_err(|_| expired())?)
                }
            };
            let (asks, questions) = mpsc::channel(QUESTION_QUEUE);
            let capabilities = of_caller(&context);
            let options = options.on_question(move |question| {
                hold_question(asks.clone(), capabilities.clone(), question)
            });
            let running = exchange(
                mounted.clone(),
                backend,
                token,
                level,
                move |client| async move {
                    match client.era() {
                        Era::Modern => {
                            let state = state.as_deref();
                            (client.raw_round(method, params, state, &options)).await
                        }
                        _ => (client.raw(method, params, &options))
                            .await
                            .map(Round::Complete),
                    }
                },
            );
            InFlight::new(link_name.clone(), running, questions, notes)
        }
    };
    match flight.next(&context).await {
        Event::Done(Ok(Round::InputRequired {
            input_requests,
            request_state,
        })) => {
            let state = match request_state {
                Some(raw) => Some(serde_json::from_str(raw.get()).map_err(|_| {
                    Stop::Protocol(ErrorObject::new(
                        crate::protocol::code::INTERNAL_ERROR,
                        format!("backend '{link_name}' failed"),
                    ))
                })?),
                None => None,
            };
            let carried = Carried {
                backend: link_name,
                state,
                held: None,
            };
            Err(input_required(input_requests, &carried, call_id))
        }
        Event::Done(done) => complete(done, unavailable),
        Event::Asked(asked) => {
            let mut requests = Map::new();
            for Asked { question, answer } in asked {
                flight.asked += 1;
                let key = format!("q{}", flight.asked);
                let ServerQuestion { method, params } = question;
                requests.insert(key.clone(), json!({"method": method, "params": params}));
                flight.waiting.push((key, answer));
            }
            flight.detach();
            let id = mounted.held.hold(&owner(&context), flight).map_err(|full| {
                tracing::warn!(backend = %link_name, ?full, "too many backend calls held for callers' answers");
                let who = match full {
                    Full::Caller => "you have",
                    Full::Gateway => "the gateway has",
                };
                Stop::Protocol(ErrorObject::new(
                    crate::protocol::code::SERVER_BUSY,
                    format!("Server busy: {who} too many calls waiting for answers; try again later"),
                ))
            })?;
            let carried = Carried {
                backend: link_name,
                state: None,
                held: Some(id),
            };
            Err(input_required(requests, &carried, call_id))
        }
    }
}

/// The backend call: `exchange` on backend `backend`'s client, as a future the handler owns;
/// a 2025-11-25 backend's session asked first for log messages at `level` (the caller's).
fn exchange<F, Fut>(
    mounted: Arc<Mounted>,
    backend: usize,
    token: Option<String>,
    level: Option<LoggingLevel>,
    exchange: F,
) -> Backend
where
    F: FnOnce(Client) -> Fut + Send + 'static,
    Fut: Future<Output = Result<Answered, ClientError>> + Send,
{
    Box::pin(async move {
        let link = &mounted.links[backend];
        let exchange = |client: Client| async move {
            if let Some(level) = level {
                hear_from(&client, level, &link.backend.name).await;
            }
            exchange(client).await
        };
        link.using(token.as_deref(), exchange).await
    })
}

/// Makes sure a 2025-11-25 backend's session sends log messages at `level` and above, so that
/// the caller hears what it asked for (the session is shared by every caller, so its level only
/// ever goes down; each caller's own level is applied on the way to it). A backend that refuses,
/// or does not answer within [`LEVEL_WAIT`], is left as it is (and not asked again): the call
/// goes on.
async fn hear_from(client: &Client, level: LoggingLevel, backend: &str) {
    match tokio::time::timeout(LEVEL_WAIT, client.lower_logging_level(level)).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            tracing::debug!(%backend, %error, "a backend did not take logging/setLevel");
        }
        Err(_) => tracing::debug!(%backend, "a backend did not answer logging/setLevel in time"),
    }
}

/// A question of a 2025-11-25 backend for a 2026-07-28 caller: queued for the caller's next
/// round, then its answer awaited (at most [`HELD_FOR`]).
async fn hold_question(
    asks: mpsc::Sender<Asked>,
    capabilities: crate::protocol::ClientCapabilities,
    question: ServerQuestion,
) -> Answer {
    if !declared(&capabilities, &question) {
        return refused(&question);
    }
    let (answer, answered) = oneshot::channel();
    let gone = || {
        ErrorObject::new(
            crate::protocol::code::INTERNAL_ERROR,
            "The client behind this gateway did not answer",
        )
    };
    let queued = asks
        .send_timeout(Asked { question, answer }, HELD_FOR)
        .await;
    queued.map_err(|_| gone())?;
    match tokio::time::timeout(HELD_FOR, answered).await {
        Ok(Ok(answer)) => answer,
        _ => Err(gone()),
    }
}

/// Hands the caller's `responses` to the held call's waiting questions; every one must be
/// answered.
fn answer_held(flight: &mut InFlight, responses: &Map<String, Value>) -> Result<(), Stop> {
    if let Some((key, _)) = (flight.waiting.iter()).find(|(key, _)| !responses.contains_key(key)) {
        return Err(Stop::Protocol(ErrorObject::invalid_params(format!(
            "Invalid params: inputResponses has no answer for '{key}'"
        ))));
    }
    for (key, waiting) in flight.waiting.drain(..) {
        let _ = waiting.send(Ok(responses[&key].clone()));
    }
    Ok(())
}

fn input_required(
    requests: Map<String, Value>,
    carried: &Carried,
    call_id: Option<String>,
) -> Stop {
    let state = RoundState {
        carried: Some(Box::new(
            serde_json::to_value(carried).expect("the carried state serializes"),
        )),
        ..RoundState::default()
    };
    Stop::InputRequired(InputRequired {
        requests,
        state,
        call_id,
    })
}

fn expired() -> Stop {
    Stop::Protocol(ErrorObject::invalid_params(
        "Invalid or expired requestState",
    ))
}

/// The result of a finished call, or its failure as the caller sees it.
fn complete(
    done: Result<Answered, Failure>,
    unavailable: fn(String) -> Stop,
) -> Result<Box<RawValue>, Stop> {
    match done {
        Ok(Round::Complete(result)) => Ok(result),
        Ok(Round::InputRequired { .. }) => Err(Stop::Protocol(ErrorObject::internal())),
        Err(Failure::Rpc(error)) => Err(Stop::Protocol(error)),
        Err(Failure::Unavailable(message)) => Err(unavailable(message)),
    }
}
