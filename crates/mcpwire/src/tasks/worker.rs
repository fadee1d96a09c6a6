//! A task's worker: runs the call in the background, turns the questions its resolvers ask into
//! the task's `input_required` (under keys never used before in this task), waits for their
//! answers, runs the next round with them, and records how the call ended. A cancelled task's
//! call has a short grace period to notice (`Context::cancelled`) before it is dropped.

use super::runtime::Running;
use super::{TaskChange, Tasks};
use crate::context::Context;
use crate::error::ToolError;
use crate::extension::intercept::{Boxed, RunOutcome, ToolRunner};
use crate::protocol::CallToolResult;
use crate::resolve::{RoundInputs, Stop};
use serde_json::{Map, Value};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::Duration;
use tokio::task::JoinHandle;

/// How long a cancelled task's call may run on to clean up before it is dropped.
const CANCEL_GRACE: Duration = Duration::from_secs(2);

/// What a worker runs.
pub(super) struct Job {
    pub(super) tasks: Arc<Tasks>,
    pub(super) id: String,
    /// Runs the tool; it also holds what the request's middleware keeps alive while the task
    /// runs (a concurrency limit's place), dropped when the task ends.
    pub(super) runner: Box<dyn ToolRunner>,
    pub(super) context: Context,
    pub(super) running: Arc<Running>,
}

/// A spawned call, aborted when dropped.
pub(super) struct AbortOnDrop(pub(super) JoinHandle<RunOutcome>);

impl AbortOnDrop {
    /// The call's outcome (a call that was aborted or panicked is a failure).
    pub(super) async fn join(mut self, runner: &dyn ToolRunner) -> RunOutcome {
        (&mut self.0)
            .await
            .unwrap_or_else(|_| Ok(runner.failed(&ToolError::new("the tool stopped"))))
    }
}

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// Runs the task to its end, or until its TTL runs out (the call is then dropped, and the task
/// reads as expired); `started` is its call when it already runs (it asked its questions before
/// the task).
pub(super) async fn drive(job: Job, started: Option<AbortOnDrop>) {
    let tasks = job.tasks.clone();
    let id = job.id.clone();
    let ttl = tasks.ttl_ms.map(Duration::from_millis);
    let expiry = async move {
        match ttl {
            Some(ttl) => tokio::time::sleep(ttl).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        () = run_to_end(job, started) => {}
        () = expiry => tracing::info!(task = id, "a task ran out of time and was stopped"),
    }
    tasks.finish(&id);
}

async fn run_to_end(job: Job, started: Option<AbortOnDrop>) {
    let Job {
        tasks,
        id,
        runner,
        context,
        running,
    } = job;
    let mut started = started;
    let mut round = RoundInputs::default();
    let mut used_keys = HashSet::new();
    let change = loop {
        let call: Boxed<'_, RunOutcome> = match started.take() {
            Some(handle) => Box::pin(handle.join(&*runner)),
            None => runner.run(context.clone(), std::mem::take(&mut round), None),
        };
        let Some(outcome) = until_cancelled(call, &running).await else {
            break None;
        };
        let input = match outcome {
            Ok(result) => break Some(TaskChange::Completed(to_map(&result))),
            Err(Stop::Failed(error) | Stop::InvalidArguments(error)) => {
                break Some(TaskChange::Completed(to_map(&runner.failed(&error))));
            }
            Err(Stop::Protocol(error)) => break Some(TaskChange::Failed(error)),
            Err(Stop::InputRequired(input)) => input,
        };
        // Keys are unique over the task's life: a key asked again gets a fresh suffix.
        let mut questions = Map::new();
        let mut resolver_keys = HashMap::new();
        for (key, request) in input.requests {
            let mut wire_key = key.clone();
            let mut n = 1;
            while used_keys.contains(&wire_key) {
                n += 1;
                wire_key = format!("{key}.{n}");
            }
            used_keys.insert(wire_key.clone());
            resolver_keys.insert(wire_key.clone(), key);
            questions.insert(wire_key, request);
        }
        let keys: Vec<String> = questions.keys().cloned().collect();
        let asked = tasks
            .change(&id, |_| Some(TaskChange::InputRequired(questions.clone())))
            .await;
        match asked {
            Ok(Some(_)) => {}
            Ok(None) => break None,
            Err(error) => {
                tracing::error!(%error, task = id, "recording a task's questions failed");
                break None;
            }
        }
        let answers = tokio::select! {
            answers = running.answers_for(&keys) => answers,
            _ = running.cancel.cancelled() => break None,
        };
        let responses: Map<String, Value> = answers
            .into_iter()
            .filter_map(|(key, answer)| resolver_keys.remove(&key).map(|key| (key, answer)))
            .collect();
        round = RoundInputs::new(input.state, responses, None);
    };
    if let Some(change) = change {
        let recorded = tasks.change(&id, |_| Some(change.clone())).await;
        if let Err(error) = recorded {
            tracing::error!(%error, task = id, "recording how a task ended failed");
        }
    }
}

/// The call's outcome, or `None` when the task was cancelled first (the call then had
/// [`CANCEL_GRACE`] to end on its own).
async fn until_cancelled(mut call: Boxed<'_, RunOutcome>, running: &Running) -> Option<RunOutcome> {
    tokio::select! {
        outcome = &mut call => Some(outcome),
        _ = running.cancel.cancelled() => {
            let _ = tokio::time::timeout(CANCEL_GRACE, call).await;
            None
        }
    }
}

fn to_map(result: &CallToolResult) -> Map<String, Value> {
    match serde_json::to_value(result) {
        Ok(Value::Object(map)) => map,
        _ => Map::new(),
    }
}
