//! Running a tool's resolver graph for one round: every resolver at most once, independent ones
//! concurrently, each as soon as the values it needs exist. A question is asked right away on a
//! 2025-11-25 session; on 2026-07-28 it is answered from the recorded state or this round's
//! responses, or else it waits for the next round, with every other independent question.

use super::from_resolved::{ConsumerCheck, FromResolved};
use super::inputs::{ArgumentSource, ResolverInputs, read_value};
use super::into_resolution::Resolution;
use super::param_spec::ResolverOutcome;
use super::plan::{PlanNode, ToolPlan};
use super::question::Question;
use super::resolved_value::ResolvedValue;
use super::rounds::{InputRequired, NextRound, Recorded, RoundInputs};
use crate::context::{ClientRequestError, Context, Ending, observe};
use crate::error::ToolError;
use crate::protocol::{Era, ErrorObject};
use futures_util::FutureExt;
use futures_util::stream::{FuturesUnordered, StreamExt};
use std::collections::VecDeque;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::task::Poll;

/// The values of one round, from which the tool takes its resolved parameters.
pub struct Resolved<'p> {
    plan: &'p ToolPlan,
    values: Vec<Option<ResolvedValue>>,
}

impl Resolved<'_> {
    /// The value for the tool's `position`-th resolved parameter (counting resolved parameters
    /// only), converted to the parameter's type.
    pub fn take<O: 'static, P: FromResolved<O>>(
        &self,
        position: usize,
        param: &'static str,
        _output: std::marker::PhantomData<O>,
    ) -> Result<P, ToolError> {
        read_value::<O, P>(&self.values, self.plan.tool_inputs[position], param)
    }
}

/// Why a round did not produce every value.
#[derive(Debug)]
pub enum Stop {
    /// The arguments could not be parsed into the handler's parameters.
    InvalidArguments(ToolError),
    /// A resolver failed: an `isError` result.
    Failed(ToolError),
    /// A protocol error (e.g. `-32021` for an undeclared capability).
    Protocol(ErrorObject),
    /// Questions wait for the client (2026-07-28).
    InputRequired(InputRequired),
}

impl From<ToolError> for Stop {
    /// `Failed`, or `Protocol` for a [`ToolError::protocol`] failure.
    fn from(error: ToolError) -> Self {
        match error.protocol_error() {
            Some(protocol) => Stop::Protocol(protocol.clone()),
            None => Stop::Failed(error),
        }
    }
}

/// Runs every resolver of `plan` once for this round.
///
/// `checks` are the handler's own resolved parameters, in order: as soon as a value they take
/// exists, each says whether it already fails (a declined elicitation taken as its model), and
/// the call then fails in this round, asking nothing more.
pub(crate) async fn resolve<'p>(
    plan: &'p ToolPlan,
    context: &Context,
    arguments: &dyn ArgumentSource,
    round: &RoundInputs,
    checks: &[(ConsumerCheck, &'static str)],
) -> Result<Resolved<'p>, Stop> {
    let count = plan.nodes.len();
    let mut values: Vec<Option<ResolvedValue>> = vec![None; count];
    if count == 0 {
        return Ok(Resolved { plan, values });
    }
    let round_started = context
        .observer()
        .is_some()
        .then(std::time::SystemTime::now);
    let mut next = NextRound::default();
    let mut waits_for = plan.waits_for.clone();
    // Started resolvers, in start order, not yet polled. Each is polled once here: most finish
    // then (their bodies do not wait), and only one that is still pending goes to `running`,
    // the set built on first need, which drives the waiting ones concurrently. The order in
    // which finished resolvers are handled is the start order, as in a `FuturesUnordered`.
    let mut fresh = VecDeque::with_capacity(count);
    let mut running = None::<FuturesUnordered<_>>;
    for (node, waiting) in waits_for.iter().enumerate() {
        if *waiting == 0 {
            fresh.push_back(Box::pin(start(plan, node, context, arguments, &values)));
        }
    }
    loop {
        let (node, outcome) = if let Some(mut body) = fresh.pop_front() {
            match poll_once(body.as_mut()).await {
                Some(finished) => finished,
                None => {
                    running.get_or_insert_with(FuturesUnordered::new).push(body);
                    continue;
                }
            }
        } else if let Some(finished) = match running.as_mut() {
            Some(running) => running.next().await,
            None => None,
        } {
            finished
        } else {
            break;
        };
        let name = plan.nodes[node].definition.name;
        let key = plan.nodes[node].definition.key;
        let value = match outcome {
            NodeOutcome::Value(value) => value,
            NodeOutcome::Stop(stop) => return Err(stop),
            NodeOutcome::Ask(question) => {
                match answer_from_round(context, name, key, &question, round, &mut next)? {
                    Some(value) => value,
                    None => continue,
                }
            }
        };
        for (position, &input) in plan.tool_inputs.iter().enumerate() {
            if input == node
                && let Some(&(check, param)) = checks.get(position)
                && let Some(error) = check(&*value, param)
            {
                return Err(Stop::Failed(error));
            }
        }
        values[node] = Some(value);
        for &dependent in &plan.dependents[node] {
            waits_for[dependent] -= 1;
            if waits_for[dependent] == 0 {
                fresh.push_back(Box::pin(start(
                    plan, dependent, context, arguments, &values,
                )));
            }
        }
    }
    if !next.requests.is_empty() {
        if let (Some(started), Some(observer)) = (round_started, context.observer()) {
            let keys: Vec<&str> = next.requests.keys().map(String::as_str).collect();
            observer.input_required(started, &keys);
        }
        return Err(Stop::InputRequired(InputRequired {
            requests: next.requests,
            state: next.state,
            call_id: round.get().call.as_ref().map(|call| call.id.clone()),
        }));
    }
    Ok(Resolved { plan, values })
}

/// Polls `future` once: its output if it is ready, `None` (and the task woken later) if not.
async fn poll_once<F: Future>(mut future: Pin<&mut F>) -> Option<F::Output> {
    std::future::poll_fn(|cx| {
        Poll::Ready(match future.as_mut().poll(cx) {
            Poll::Ready(output) => Some(output),
            Poll::Pending => None,
        })
    })
    .await
}

/// What one node's run came to, after a 2025-11-25 question was answered in place.
enum NodeOutcome {
    Value(ResolvedValue),
    Stop(Stop),
    /// A 2026-07-28 question, for the round's bookkeeping.
    Ask(Question),
}

fn start(
    plan: &ToolPlan,
    node: usize,
    context: &Context,
    arguments: &dyn ArgumentSource,
    values: &[Option<ResolvedValue>],
) -> impl Future<Output = (usize, NodeOutcome)> + Send + use<> {
    let PlanNode { definition, inputs } = &plan.nodes[node];
    let name = definition.name;
    let body = (definition.run)(ResolverInputs {
        context,
        arguments,
        values,
        sources: inputs,
    });
    let context = context.clone();
    let observed = context
        .observer()
        .and_then(|observer| observer.resolver(name));
    let run = async move {
        let outcome: ResolverOutcome = match AssertUnwindSafe(body).catch_unwind().await {
            Ok(outcome) => outcome,
            Err(panic) => {
                tracing::error!(
                    resolver = name,
                    panic = panic_message(&panic),
                    "resolver panicked"
                );
                Resolution::Failed(ToolError::new(format!("resolver '{name}' panicked")))
            }
        };
        let outcome = match outcome {
            Resolution::Ready(value) => NodeOutcome::Value(value),
            Resolution::Failed(error) => NodeOutcome::Stop(Stop::from(error)),
            Resolution::Ask(question) if context.era() == Era::Modern => NodeOutcome::Ask(question),
            // Boxed: a question asked in place is rare, and its future is most of this one's
            // size, which every resolver's start would otherwise copy.
            Resolution::Ask(question) => match Box::pin(ask_now(&context, name, question)).await {
                Ok(value) => NodeOutcome::Value(value),
                Err(stop) => NodeOutcome::Stop(stop),
            },
        };
        (node, outcome)
    };
    async move {
        let ran = observe(observed, run, |(_, outcome)| ending(outcome)).await;
        ran.unwrap_or_else(|| {
            let stopped = Stop::Failed(ToolError::new(format!("resolver '{name}' did not run")));
            (node, NodeOutcome::Stop(stopped))
        })
    }
}

/// How a resolver's run ended, as an observer records it.
fn ending(outcome: &NodeOutcome) -> Ending<'static> {
    match outcome {
        NodeOutcome::Value(_) => Ending::Done,
        NodeOutcome::Ask(_) => Ending::Asked,
        NodeOutcome::Stop(Stop::Protocol(error)) => Ending::Failed {
            kind: "protocol",
            code: Some(error.code),
        },
        NodeOutcome::Stop(Stop::InputRequired(_)) => Ending::Failed {
            kind: "input_required",
            code: None,
        },
        NodeOutcome::Stop(Stop::Failed(_) | Stop::InvalidArguments(_)) => Ending::Failed {
            kind: "resolver_error",
            code: None,
        },
    }
}

/// 2025-11-25: sends the question as a request to the client and reads its answer.
async fn ask_now(context: &Context, name: &str, question: Question) -> Result<ResolvedValue, Stop> {
    if !question
        .capability
        .declared_by(context.client_capabilities())
    {
        return Err(Stop::Protocol(question.capability.missing(name)));
    }
    let mut params = question
        .params
        .clone()
        .unwrap_or_else(|| serde_json::json!({}));
    if let (Some(id), Some(map)) = (&question.url_elicitation_id, params.as_object_mut()) {
        map.insert(
            "elicitationId".into(),
            serde_json::Value::String(id.clone()),
        );
    }
    let answer = context
        .send_request(question.method, &params)
        .await
        .map_err(|error| {
            let why = match error {
                ClientRequestError::Rejected(error) => {
                    format!("the client answered: {}", error.message)
                }
                other => other.to_string(),
            };
            Stop::Failed(ToolError::new(format!(
                "Resolver '{name}' got no answer: {why}"
            )))
        })?;
    let answer: serde_json::Value = serde_json::from_str(answer.get()).map_err(|_| {
        Stop::Failed(ToolError::new(format!(
            "Resolver '{name}' got an unreadable answer"
        )))
    })?;
    let value =
        (question.decode)(&answer).map_err(|error| Stop::Failed(error.for_resolver(name)))?;
    // The user agreed to open the URL: the completion notice is owed from now on.
    if let Some(id) = &question.url_elicitation_id
        && answer["action"] == "accept"
    {
        context.url_elicitation_started(id);
    }
    Ok(value)
}

/// 2026-07-28: the recorded answer to this exact question, or a fresh answer to the question
/// asked last round; otherwise the question is asked (in this round's `inputRequests`).
fn answer_from_round(
    context: &Context,
    name: &str,
    key: &str,
    question: &Question,
    round: &RoundInputs,
    next: &mut NextRound,
) -> Result<Option<ResolvedValue>, Stop> {
    let round = round.get();
    let digest = question.digest();
    if let Some(recorded) = round.state.answered.get(key).filter(|r| r.q == digest) {
        if let Ok(value) = (question.decode)(&recorded.d) {
            next.state.answered.insert(key.to_owned(), recorded.clone());
            return Ok(Some(value));
        }
        tracing::info!(
            resolver = name,
            "a recorded answer no longer fits its question; asking again"
        );
    }
    let asked_last_round = round.state.asked.get(key) == Some(&digest);
    if let Some(answer) = round.responses.get(key).filter(|_| asked_last_round) {
        let value =
            (question.decode)(answer).map_err(|error| Stop::Failed(error.for_resolver(name)))?;
        next.state.answered.insert(
            key.to_owned(),
            Recorded {
                d: answer.clone(),
                q: digest,
            },
        );
        return Ok(Some(value));
    }
    // A first round (no requestState) may bring an answer to the question it would ask: it
    // counts when it fits that question's form, and is ignored (the question asked) otherwise.
    if round.call.is_none()
        && round.state.asked.is_empty()
        && let Some(answer) = round.responses.get(key)
        && let Ok(value) = (question.decode)(answer)
    {
        next.state.answered.insert(
            key.to_owned(),
            Recorded {
                d: answer.clone(),
                q: digest,
            },
        );
        return Ok(Some(value));
    }
    if !question
        .capability
        .declared_by(context.client_capabilities())
    {
        return Err(Stop::Protocol(question.capability.missing(name)));
    }
    next.requests
        .insert(key.to_owned(), question.input_request());
    next.state.asked.insert(key.to_owned(), digest);
    Ok(None)
}

/// The text of a panic payload, for the server log.
pub(crate) fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> &str {
    panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("<non-string panic payload>")
}
