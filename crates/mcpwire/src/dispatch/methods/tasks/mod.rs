//! Serving the tasks extension (2026-07-28): `tools/call` answered with a task, and
//! `tasks/get`, `tasks/update` and `tasks/cancel`. Every `tasks/*` request must declare the
//! extension (`-32021` first, before the id is looked up), and sees only its own principal's
//! tasks (any other id is `-32602`, as an unknown one).

mod call;
mod worker;

pub(crate) use call::call_tool;

use crate::dispatch::authorize;
use crate::dispatch::era::Served;
use crate::dispatch::exchange::{Exchange, parse};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use crate::protocol::tasks::{
    CANCEL, EXTENSION, GET, TasksCancelParams, TasksGetParams, TasksUpdateParams, UPDATE,
};
use crate::tasks::runtime::Lookup;
use crate::tasks::{StoreError, TaskChange, TaskRecord, Tasks};
use serde_json::value::RawValue;
use serde_json::{Map, Value, json};
use std::sync::Mutex;

/// Whether this request declared the tasks extension in its own `_meta` capabilities.
pub(crate) fn negotiated(served: &Served) -> bool {
    served
        .capabilities
        .other
        .get("extensions")
        .and_then(|extensions| extensions.get(EXTENSION))
        .is_some()
}

/// `-32021`: the request needs the tasks extension, which it did not declare.
pub(crate) fn not_negotiated(why: &str) -> ErrorObject {
    ErrorObject::new(
        code::MISSING_REQUIRED_CLIENT_CAPABILITY,
        format!("{why}: the request must declare the {EXTENSION} extension"),
    )
    .with_data(json!({ "requiredCapabilities": { "extensions": { EXTENSION: {} } } }))
}

/// A store failure, for the client: `-32603` without the backend's details (they go to the
/// server log).
pub(crate) fn store_failed(error: StoreError) -> ErrorObject {
    match error {
        StoreError::Full => ErrorObject::new(
            code::INTERNAL_ERROR,
            "Internal error: too many tasks are unfinished; try again later",
        ),
        other => {
            tracing::error!(error = %other, "the task store failed");
            ErrorObject::new(
                code::INTERNAL_ERROR,
                "Internal error: the task store failed",
            )
        }
    }
}

/// A `tasks/get`, `tasks/update` or `tasks/cancel` admitted: the caller's task, found, of a
/// tool whose scopes the caller holds.
pub(crate) enum TaskRequest {
    /// `tasks/get`.
    Get(TaskRecord),
    /// `tasks/update`, with the answers it brings.
    Update(TaskRecord, Map<String, Value>),
    /// `tasks/cancel`.
    Cancel(TaskRecord),
}

/// Admits `tasks/get`, `tasks/update` or `tasks/cancel`: the request declared the extension,
/// its params parse, and the task it names is the caller's own, of a tool whose scopes the
/// caller's grant holds.
pub(crate) async fn admit(
    exchange: &Exchange,
    method: &str,
    params: Option<&RawValue>,
    served: &Served,
) -> Result<TaskRequest, ErrorObject> {
    if !negotiated(served) {
        return Err(not_negotiated(method));
    }
    let tasks = exchange
        .core
        .tasks
        .as_ref()
        .ok_or_else(|| ErrorObject::method_not_found(method))?;
    match method {
        GET => {
            let params: TasksGetParams = parse(params)?;
            Ok(TaskRequest::Get(
                find(exchange, tasks, &params.task_id).await?,
            ))
        }
        UPDATE => {
            let params: TasksUpdateParams = parse(params)?;
            let answers = match serde_json::from_str::<Value>(params.input_responses.get()) {
                Ok(Value::Object(answers)) => answers,
                _ => {
                    return Err(ErrorObject::invalid_params(
                        "Invalid params: inputResponses must be an object",
                    ));
                }
            };
            let task = find(exchange, tasks, &params.task_id).await?;
            Ok(TaskRequest::Update(task, answers))
        }
        CANCEL => {
            let params: TasksCancelParams = parse(params)?;
            Ok(TaskRequest::Cancel(
                find(exchange, tasks, &params.task_id).await?,
            ))
        }
        _ => Err(ErrorObject::method_not_found(method)),
    }
}

/// Serves an admitted `tasks/*` request; returns its result object.
pub(crate) async fn serve(
    exchange: &Exchange,
    request: TaskRequest,
) -> Result<String, ErrorObject> {
    let tasks = exchange
        .core
        .tasks
        .as_ref()
        .ok_or_else(ErrorObject::internal)?;
    match request {
        TaskRequest::Get(task) => {
            Ok(serde_json::to_string(&task.to_detailed()).expect("tasks serialize"))
        }
        TaskRequest::Update(task, answers) => {
            update(tasks, &task.id, answers).await?;
            Ok("{}".to_owned())
        }
        TaskRequest::Cancel(task) => {
            if task.status.is_terminal() {
                return Ok("{}".to_owned());
            }
            tasks
                .change(&task.id, |_| Some(TaskChange::Cancelled))
                .await
                .map_err(store_failed)?;
            // The cancel is recorded: a replica running the task also sees it in the store.
            if let Err(error) = tasks.stop(&task.id).await {
                tracing::warn!(%error, task = task.id, "signalling a cancel failed");
            }
            Ok("{}".to_owned())
        }
    }
}

/// The task `id` of the caller, or `-32602`; refused when the caller's grant lacks the scopes of
/// the tool it runs.
async fn find(exchange: &Exchange, tasks: &Tasks, id: &str) -> Result<TaskRecord, ErrorObject> {
    match tasks
        .lookup(id, exchange.principal.as_deref())
        .await
        .map_err(store_failed)?
    {
        Lookup::Found(task) => {
            let scopes: Vec<&str> = task.scopes.iter().map(String::as_str).collect();
            authorize::admit(exchange, &scopes)?;
            Ok(*task)
        }
        Lookup::Expired => Err(ErrorObject::invalid_params("Task has expired")),
        Lookup::Unknown => Err(ErrorObject::invalid_params("Unknown task")),
    }
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
