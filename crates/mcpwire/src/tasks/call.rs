//! The tasks extension's hook on `tools/call` (2026-07-28), on the extension seam: a call of a
//! tool that takes tasks, on a request that declared the extension, is stored as a task, then
//! announced (`resultType: "task"`), and its worker runs the call in the background. A tool with
//! `ask_before_task` first runs its resolvers inside the request (its questions are
//! `input_required` rounds of the `tools/call`), and becomes a task only once they all have
//! values. A tool that runs only as a task is refused (`-32021`) on a request that did not
//! declare the extension; any other call runs as usual.

use super::refusals::{busy, not_created};
use super::worker::{self, AbortOnDrop, Job};
use super::{TaskRecord, Tasks};
use crate::extension::intercept::{
    Answer, Boxed, CalledTool, InterceptedCall, ToolCallInterceptor,
};
use crate::protocol::Era;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tasks::{EXTENSION, Task, TaskSupport};
use std::sync::Arc;

/// The tasks extension's `tools/call` hook, over the server's tasks.
pub(crate) struct TaskCalls {
    pub(crate) tasks: Arc<Tasks>,
}

impl ToolCallInterceptor for TaskCalls {
    fn wants(&self, tool: &CalledTool, era: Era) -> bool {
        era == Era::Modern && tool.task != TaskSupport::Forbidden
    }

    fn intercept<'a>(&'a self, call: &'a mut dyn InterceptedCall) -> Option<Boxed<'a, Answer>> {
        let tool = call.tool();
        if call.declared(EXTENSION) {
            return Some(Box::pin(as_task(&self.tasks, call)));
        }
        if tool.task == TaskSupport::Required {
            let why = format!("Tool '{}' runs only as a task", tool.name);
            return Some(Box::pin(std::future::ready(Err(
                crate::extension::not_negotiated(&why, EXTENSION),
            ))));
        }
        None
    }
}

/// Runs `call` as a task: announced at once, or once its resolvers have their values.
async fn as_task(tasks: &Arc<Tasks>, call: &mut dyn InterceptedCall) -> Answer {
    tasks.sweep_if_due().await;
    let tool = call.tool();
    let task_id = Tasks::new_id();
    let owner = call.principal().map(str::to_owned);
    let mut record = tasks.new_record(&task_id, owner.as_deref());
    record.scopes = tool.scopes.iter().map(|s| (*s).to_owned()).collect();
    let (running, link) = tasks.start(&task_id, owner.as_deref()).map_err(busy)?;
    // Until a worker owns the task, a dropped request (the client left) forgets it.
    let registered = Registered {
        tasks: tasks.clone(),
        id: Some(task_id.clone()),
    };
    let job = Job {
        tasks: tasks.clone(),
        id: task_id,
        context: call.detached_context(link),
        runner: call.runner(),
        running,
    };
    if !(tool.ask_before_task && tool.resolves) {
        tasks.create(&record).await.map_err(not_created)?;
        registered.hand_over();
        tokio::spawn(worker::drive(job, None));
        return Ok((created(&record), ResultKind::Task));
    }
    let round = call.open_round()?;
    let (signal, resolved) = tokio::sync::oneshot::channel();
    let started = job.runner.run(job.context.clone(), round, Some(signal));
    let handle = AbortOnDrop(tokio::spawn(started));
    if resolved.await.is_ok() {
        tasks.create(&record).await.map_err(not_created)?;
        registered.hand_over();
        tokio::spawn(worker::drive(job, Some(handle)));
        return Ok((created(&record), ResultKind::Task));
    }
    // The call stopped before its body: questions for this request's next round, or a failure.
    drop(registered);
    match handle.join(&*job.runner).await {
        Ok(result) => Ok((to_json(&result), ResultKind::Complete)),
        Err(stop) => call.stopped(stop),
    }
}

/// A task registered as running here, forgotten when dropped unless a worker took it over.
struct Registered {
    tasks: Arc<Tasks>,
    id: Option<String>,
}

impl Registered {
    /// The worker owns the task now (it forgets it when it ends).
    fn hand_over(mut self) {
        self.id = None;
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.tasks.finish(&id);
        }
    }
}

/// The `CreateTaskResult` body (the envelope adds `resultType: "task"`).
fn created(record: &TaskRecord) -> String {
    let task: Task = record.to_detailed().task;
    to_json(&task)
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("results serialize")
}
