//! The tasks extension's methods (2026-07-28), bound on the extension seam: `tasks/get`,
//! `tasks/update` and `tasks/cancel`. Each admits its request before any middleware sees it:
//! the request declared the extension (`-32021` first, before the id is looked up), and the
//! task it names is the caller's own (any other id is `-32602`, as an unknown one), of a tool
//! whose scopes the caller's grant holds.

use super::call::TaskCalls;
use super::listen::TaskListen;
use super::refusals::store_failed;
use super::runtime::{Lookup, Tasks};
use super::{TaskChange, TaskRecord};
use crate::error::InvalidSignature;
use crate::extension::registry::Binding;
use crate::extension::{
    Admission, Eras, ExtensionMethod, ExtensionRequest, Extensions, MethodFuture,
};
use crate::protocol::ErrorObject;
use crate::protocol::tasks::{
    CANCEL, EXTENSION, GET, TasksCancelParams, TasksGetParams, TasksUpdateParams, UPDATE,
};
use serde_json::{Map, Value, json};
use std::sync::{Arc, Mutex};

/// Declares the tasks extension (2026-07-28 only), binds its methods to `tasks`, and hooks
/// `tools/call` (a call of a tool that takes tasks may become one) and `subscriptions/listen`
/// (`taskIds`, at most `max_listened` per request).
pub(crate) fn install(
    extensions: &mut Extensions,
    tasks: &Arc<Tasks>,
    max_listened: usize,
) -> Result<(), InvalidSignature> {
    extensions.declare(EXTENSION, json!({}), Eras::MODERN)?;
    for (method, kind) in [
        (GET, Kind::Get),
        (UPDATE, Kind::Update),
        (CANCEL, Kind::Cancel),
    ] {
        let handler = Arc::new(TaskMethod {
            tasks: Arc::clone(tasks),
            kind,
        });
        let binding = Binding {
            handler,
            cacheable: false,
        };
        extensions.bind(EXTENSION, method, Eras::MODERN, binding)?;
    }
    let calls = TaskCalls {
        tasks: Arc::clone(tasks),
    };
    extensions.intercept_tool_calls(Arc::new(calls));
    let listen = TaskListen {
        tasks: Arc::clone(tasks),
        max_listened,
    };
    extensions.listen_to(Arc::new(listen));
    Ok(())
}

/// Which of the three methods.
#[derive(Clone, Copy)]
enum Kind {
    Get,
    Update,
    Cancel,
}

/// One of the tasks extension's methods, bound to the server's tasks.
struct TaskMethod {
    tasks: Arc<Tasks>,
    kind: Kind,
}

impl ExtensionMethod for TaskMethod {
    fn admit(&self, request: ExtensionRequest) -> Admission {
        let (tasks, kind) = (Arc::clone(&self.tasks), self.kind);
        Box::pin(async move {
            request.require_negotiated()?;
            let serve: MethodFuture = match kind {
                Kind::Get => {
                    let params: TasksGetParams = request.params()?;
                    let task = find(&request, &tasks, &params.task_id).await?;
                    Box::pin(async move { Ok(json_of(&task.to_detailed())) })
                }
                Kind::Update => {
                    let params: TasksUpdateParams = request.params()?;
                    let answers = match serde_json::from_str::<Value>(params.input_responses.get())
                    {
                        Ok(Value::Object(answers)) => answers,
                        _ => {
                            return Err(ErrorObject::invalid_params(
                                "Invalid params: inputResponses must be an object",
                            ));
                        }
                    };
                    let task = find(&request, &tasks, &params.task_id).await?;
                    Box::pin(async move {
                        update(&tasks, &task.id, answers).await?;
                        Ok(json!({}))
                    })
                }
                Kind::Cancel => {
                    let params: TasksCancelParams = request.params()?;
                    let task = find(&request, &tasks, &params.task_id).await?;
                    Box::pin(async move { cancel(&tasks, &task).await })
                }
            };
            Ok(serve)
        })
    }
}

/// `value` as JSON.
fn json_of(value: &impl serde::Serialize) -> Value {
    serde_json::to_value(value).expect("tasks serialize")
}

/// The task `id` of the caller, or `-32602`; refused when the caller's grant lacks the scopes of
/// the tool it runs.
async fn find(
    request: &ExtensionRequest,
    tasks: &Tasks,
    id: &str,
) -> Result<TaskRecord, ErrorObject> {
    match tasks
        .lookup(id, request.owner())
        .await
        .map_err(store_failed)?
    {
        Lookup::Found(task) => {
            let scopes: Vec<&str> = task.scopes.iter().map(String::as_str).collect();
            request.authorize(&scopes)?;
            Ok(*task)
        }
        Lookup::Expired => Err(ErrorObject::invalid_params("Task has expired")),
        Lookup::Unknown => Err(ErrorObject::invalid_params("Unknown task")),
    }
}

/// Cancels `task` unless it has ended: recorded in the store first (a replica running the task
/// sees it there), then signalled.
async fn cancel(tasks: &Tasks, task: &TaskRecord) -> Result<Value, ErrorObject> {
    if task.status.is_terminal() {
        return Ok(json!({}));
    }
    tasks
        .change(&task.id, |_| Some(TaskChange::Cancelled))
        .await
        .map_err(store_failed)?;
    if let Err(error) = tasks.stop(&task.id).await {
        tracing::warn!(%error, task = task.id, "signalling a cancel failed");
    }
    Ok(json!({}))
}

/// Takes the answers to outstanding questions (others are ignored) off the task and hands them
/// to its worker: the task stays `input_required` while a question is still open.
async fn update(tasks: &Tasks, id: &str, answers: Map<String, Value>) -> Result<(), ErrorObject> {
    let accepted = Mutex::new(Map::new());
    tasks
        .change(id, |task| {
            let mut taken = accepted.lock().unwrap_or_else(|e| e.into_inner());
            taken.clear();
            let mut left = task.input_requests.clone();
            for (key, answer) in &answers {
                if left.remove(key).is_some() {
                    taken.insert(key.clone(), answer.clone());
                }
            }
            if taken.is_empty() {
                None
            } else if left.is_empty() {
                Some(TaskChange::Working {
                    status_message: None,
                })
            } else {
                Some(TaskChange::InputRequired(left))
            }
        })
        .await
        .map_err(store_failed)?;
    let accepted = accepted.into_inner().unwrap_or_else(|e| e.into_inner());
    if !accepted.is_empty() {
        tasks.deliver(id, accepted).await.map_err(store_failed)?;
    }
    Ok(())
}
