//! Tasks: durable handles for long-running work, polled by the client. Two incompatible
//! generations share this file; every item says which one it belongs to.
//!
//! - **2026-07-28, extension `io.modelcontextprotocol/tasks`** (SEP-2663; not core). Only
//!   offered to a request whose `clientCapabilities.extensions` names `io.modelcontextprotocol/tasks`. The server
//!   may answer `tools/call` with a [`Task`] flattened into the result and
//!   `resultType: "task"`; the client then polls `tasks/get` (answered with a
//!   [`DetailedTask`]), answers input with `tasks/update` and stops the work with `tasks/cancel`
//!   (both answered with an empty result). `notifications/tasks` carries a [`DetailedTask`] on
//!   a `subscriptions/listen` stream whose filter lists the task id. Fields: `ttlMs`,
//!   `pollIntervalMs`.
//! - **2025-11-25, core** (`basic/utilities/tasks.mdx`). The client asks for a task with
//!   `params.task` ([`TaskMetadata`]) on `tools/call`; the server answers with
//!   [`CreateTaskResult`] (`{"task": …}`), then serves `tasks/get` and `tasks/cancel` (both
//!   answered with a [`LegacyTask`]), `tasks/result` (the original result, tagged
//!   [`TaskPayload`]) and `tasks/list` ([`ListTasksResult`]); `notifications/tasks/status`
//!   carries a [`LegacyTask`]. Fields: `ttl`, `pollInterval`.
//!
//! # Examples
//!
//! ```
//! use mcpwire::protocol::Task;
//!
//! // 2026-07-28 extension: a task result is a `Task` beside `resultType: "task"`.
//! let mut result = serde_json::to_value(Task::working("t-1", "2026-01-01T00:00:00Z")).unwrap();
//! result["resultType"] = "task".into();
//! assert_eq!(result["taskId"], "t-1");
//! ```

use super::jsonrpc::ErrorObject;
use super::pagination::PaginatedParams;
use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;
use serde_json::{Map, Value};

/// 2026-07-28: the extension's id, in `capabilities.extensions` of both sides.
pub const EXTENSION: &str = "io.modelcontextprotocol/tasks";
/// Method (both generations): the task's current state.
pub const GET: &str = "tasks/get";
/// Method (2026-07-28 extension): answers to the task's `inputRequests`.
pub const UPDATE: &str = "tasks/update";
/// Method (both generations): ask the server to stop the task.
pub const CANCEL: &str = "tasks/cancel";
/// Notification (2026-07-28 extension): a task's full state, on a listen stream.
pub const NOTIFICATION: &str = "notifications/tasks";

/// Where a task stands (both generations).
///
/// `working` → `input_required` ↔ `working` → `completed` | `failed` | `cancelled`; the last
/// three are terminal.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TaskStatus;
///
/// assert_eq!(serde_json::to_value(TaskStatus::InputRequired).unwrap(), "input_required");
/// assert_eq!(serde_json::from_str::<TaskStatus>(r#""working""#).unwrap(), TaskStatus::Working);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TaskStatus {
    /// Being processed.
    Working,
    /// Waiting for input from the client.
    InputRequired,
    /// Finished with a result (a tool result with `isError: true` included).
    Completed,
    /// Ended by a JSON-RPC error.
    Failed,
    /// Cancelled before it finished.
    Cancelled,
}

impl TaskStatus {
    /// `completed`, `failed` or `cancelled`: the status will not change again.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::TaskStatus;
    ///
    /// assert!(TaskStatus::Failed.is_terminal());
    /// assert!(!TaskStatus::InputRequired.is_terminal());
    /// ```
    pub fn is_terminal(self) -> bool {
        matches!(
            self,
            TaskStatus::Completed | TaskStatus::Failed | TaskStatus::Cancelled
        )
    }
}

/// A task (2026-07-28 extension).
///
/// Flattened beside `resultType: "task"` it is the extension's `CreateTaskResult`, the answer to
/// a `tools/call` the server chose to run as a task (`resultType` is the envelope's to add).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::Task;
/// use serde_json::json;
///
/// let task = Task { poll_interval_ms: Some(500), ..Task::working("t-1", "2026-01-01T00:00:00Z") };
/// assert_eq!(
///     serde_json::to_value(&task).unwrap(),
///     json!({
///         "taskId": "t-1", "status": "working", "createdAt": "2026-01-01T00:00:00Z",
///         "lastUpdatedAt": "2026-01-01T00:00:00Z", "ttlMs": null, "pollIntervalMs": 500
///     })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Task {
    /// The server-minted id; the client uses it for every `tasks/*` request.
    pub task_id: String,
    /// Where it stands.
    pub status: TaskStatus,
    /// A human-readable note on the status (progress, what input is awaited, why it failed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 time of creation.
    pub created_at: String,
    /// ISO 8601 time of the last change.
    pub last_updated_at: String,
    /// How long after creation the server keeps it, in milliseconds; `None` (written as
    /// `null`, the field is required) means unlimited. May change over the task's life.
    #[serde(default)]
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval_ms: Option<u64>,
}

impl Task {
    /// A `working` task created (and last updated) at `created_at`, kept without limit.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{Task, TaskStatus};
    ///
    /// let task = Task::working("t-1", "2026-01-01T00:00:00Z");
    /// assert_eq!(task.status, TaskStatus::Working);
    /// assert_eq!(task.last_updated_at, task.created_at);
    /// assert_eq!(task.ttl_ms, None);
    /// ```
    pub fn working(task_id: impl Into<String>, created_at: impl Into<String>) -> Self {
        let created_at = created_at.into();
        Self {
            task_id: task_id.into(),
            status: TaskStatus::Working,
            status_message: None,
            last_updated_at: created_at.clone(),
            created_at,
            ttl_ms: None,
            poll_interval_ms: None,
        }
    }

    /// The same task as a 2025-11-25 session sees it.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::Task;
    ///
    /// let task = Task { ttl_ms: Some(60_000), ..Task::working("t-1", "2026-01-01T00:00:00Z") };
    /// let legacy = serde_json::to_value(task.to_legacy()).unwrap();
    /// assert_eq!(legacy["ttl"], 60_000);
    /// assert!(legacy.get("ttlMs").is_none());
    /// ```
    pub fn to_legacy(&self) -> LegacyTask {
        LegacyTask {
            task_id: self.task_id.clone(),
            status: self.status,
            status_message: self.status_message.clone(),
            created_at: self.created_at.clone(),
            last_updated_at: self.last_updated_at.clone(),
            ttl: self.ttl_ms,
            poll_interval: self.poll_interval_ms,
        }
    }
}

/// A task with what its status calls for (2026-07-28 extension): the `tasks/get` result and the
/// `notifications/tasks` params (on a listen stream, tagged with `subscriptions::Subscribed`).
///
/// Exactly one payload goes with each status: `inputRequests` with `input_required`, `result`
/// with `completed`, `error` with `failed`, none otherwise. The type does not enforce it; the
/// constructors do.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{DetailedTask, Task};
/// use serde_json::json;
///
/// let task = Task::working("t-1", "2026-01-01T00:00:00Z");
/// let result = json!({"content": [{"type": "text", "text": "done"}]});
/// let done = DetailedTask::completed(task, result.as_object().unwrap().clone());
/// let json = serde_json::to_value(&done).unwrap();
/// assert_eq!(json["taskId"], "t-1");
/// assert_eq!(json["status"], "completed");
/// assert_eq!(json["result"], result);
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DetailedTask {
    /// The task.
    #[serde(flatten)]
    pub task: Task,
    /// `input_required`: every outstanding question, by key (each `{method, params}` as in an
    /// `InputRequiredResult`). Keys are unique over the task's whole life.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_requests: Option<Map<String, Value>>,
    /// `completed`: what the original request would have returned (e.g. a `CallToolResult`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<Map<String, Value>>,
    /// `failed`: the JSON-RPC error the work ended with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorObject>,
}

impl DetailedTask {
    /// A task with no payload (`working` or `cancelled`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{DetailedTask, Task, TaskStatus};
    ///
    /// let detailed = DetailedTask::new(Task::working("t-1", "2026-01-01T00:00:00Z"));
    /// assert_eq!(detailed.task.status, TaskStatus::Working);
    /// assert!(detailed.input_requests.is_none());
    /// assert!(detailed.result.is_none() && detailed.error.is_none());
    /// ```
    pub fn new(task: Task) -> Self {
        Self {
            task,
            input_requests: None,
            result: None,
            error: None,
        }
    }

    /// The task, set to `input_required` with these questions.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{DetailedTask, Task, TaskStatus};
    /// use serde_json::json;
    ///
    /// let question = json!({"confirm": {"method": "elicitation/create", "params": {"mode": "form",
    ///     "message": "Proceed?", "requestedSchema": {"type": "object", "properties": {}}}}});
    /// let task = Task::working("t-1", "2026-01-01T00:00:00Z");
    /// let waiting = DetailedTask::input_required(task, question.as_object().unwrap().clone());
    /// assert_eq!(waiting.task.status, TaskStatus::InputRequired);
    /// assert!(waiting.input_requests.unwrap().contains_key("confirm"));
    /// ```
    pub fn input_required(mut task: Task, input_requests: Map<String, Value>) -> Self {
        task.status = TaskStatus::InputRequired;
        Self {
            input_requests: Some(input_requests),
            ..Self::new(task)
        }
    }

    /// The task, set to `completed` with this result.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{DetailedTask, Task, TaskStatus};
    /// use serde_json::json;
    ///
    /// let result = json!({"content": []}).as_object().unwrap().clone();
    /// let done = DetailedTask::completed(Task::working("t-1", "2026-01-01T00:00:00Z"), result);
    /// assert_eq!(done.task.status, TaskStatus::Completed);
    /// assert!(done.result.is_some());
    /// ```
    pub fn completed(mut task: Task, result: Map<String, Value>) -> Self {
        task.status = TaskStatus::Completed;
        Self {
            result: Some(result),
            ..Self::new(task)
        }
    }

    /// The task, set to `failed` with this error.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{DetailedTask, ErrorObject, Task, TaskStatus};
    ///
    /// let task = Task::working("t-1", "2026-01-01T00:00:00Z");
    /// let failed = DetailedTask::failed(task, ErrorObject::internal());
    /// assert_eq!(failed.task.status, TaskStatus::Failed);
    /// assert_eq!(failed.error.unwrap().code, -32603);
    /// ```
    pub fn failed(mut task: Task, error: ErrorObject) -> Self {
        task.status = TaskStatus::Failed;
        Self {
            error: Some(error),
            ..Self::new(task)
        }
    }
}

/// `tasks/get` params (both generations).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TasksGetParams;
///
/// let params: TasksGetParams = serde_json::from_str(r#"{"taskId":"t-1"}"#).unwrap();
/// assert_eq!(params, TasksGetParams { task_id: "t-1".into() });
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TasksGetParams {
    /// The task.
    pub task_id: String,
}

/// `tasks/cancel` params (both generations). The result is empty in the 2026-07-28 extension
/// and the [`LegacyTask`] in 2025-11-25. Cancellation is cooperative; `notifications/cancelled`
/// never applies to tasks.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TasksCancelParams;
///
/// let params: TasksCancelParams = serde_json::from_str(r#"{"taskId":"t-1"}"#).unwrap();
/// assert_eq!(params.task_id, "t-1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TasksCancelParams {
    /// The task.
    pub task_id: String,
}

/// `tasks/update` params (2026-07-28 extension). The result is empty.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TasksUpdateParams;
///
/// let params: TasksUpdateParams = serde_json::from_str(
///     r#"{"taskId":"t-1","inputResponses":{"confirm":{"action":"accept"}}}"#,
/// )
/// .unwrap();
/// assert_eq!(params.task_id, "t-1");
/// assert_eq!(params.input_responses.get(), r#"{"confirm":{"action":"accept"}}"#);
/// ```
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TasksUpdateParams {
    /// The task.
    pub task_id: String,
    /// Answers to outstanding `inputRequests`, by key, kept raw like `tools/call`'s. Keys not
    /// outstanding are ignored.
    pub input_responses: Box<RawValue>,
}

/// A task (2025-11-25 core tasks): as [`Task`], with the fields named `ttl` and `pollInterval`.
/// Flattened, it is the `tasks/get` and `tasks/cancel` result and the
/// `notifications/tasks/status` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{LegacyTask, TaskStatus};
///
/// let task: LegacyTask = serde_json::from_str(
///     r#"{"taskId":"t-1","status":"completed","createdAt":"2025-11-25T10:00:00Z",
///         "lastUpdatedAt":"2025-11-25T10:01:00Z","ttl":null,"pollInterval":1000}"#,
/// )
/// .unwrap();
/// assert_eq!(task.status, TaskStatus::Completed);
/// assert_eq!((task.ttl, task.poll_interval), (None, Some(1000)));
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LegacyTask {
    /// The server-minted id.
    pub task_id: String,
    /// Where it stands.
    pub status: TaskStatus,
    /// A human-readable note on the status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status_message: Option<String>,
    /// ISO 8601 time of creation.
    pub created_at: String,
    /// ISO 8601 time of the last change.
    pub last_updated_at: String,
    /// Retention from creation in milliseconds; `None` (written as `null`, the field is
    /// required) means unlimited.
    #[serde(default)]
    pub ttl: Option<u64>,
    /// Suggested polling interval in milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub poll_interval: Option<u64>,
}

/// `params.task` of a task-augmented request (2025-11-25 only; `tools/call` on a server).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TaskMetadata;
///
/// let task: TaskMetadata = serde_json::from_str(r#"{"ttl":60000}"#).unwrap();
/// assert_eq!(task.ttl, Some(60_000));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TaskMetadata {
    /// The retention the client asks for, in milliseconds; the server may choose another.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<u64>,
}

/// Whether a tool may run as a task: `execution.taskSupport` of a 2025-11-25 `Tool` (gone in
/// 2026-07-28, so it is not a field of `tools::Tool`, which both revisions share).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TaskSupport;
///
/// assert_eq!(TaskSupport::default(), TaskSupport::Forbidden);
/// assert_eq!(serde_json::to_value(TaskSupport::Optional).unwrap(), "optional");
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TaskSupport {
    /// Never as a task (the default).
    #[default]
    Forbidden,
    /// Either way.
    Optional,
    /// Only as a task.
    Required,
}

/// A 2025-11-25 tool's `execution` object.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{TaskSupport, ToolExecution};
/// use serde_json::json;
///
/// let execution = ToolExecution { task_support: Some(TaskSupport::Required) };
/// assert_eq!(serde_json::to_value(&execution).unwrap(), json!({"taskSupport": "required"}));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolExecution {
    /// Whether the tool may run as a task.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub task_support: Option<TaskSupport>,
}

/// The answer to a task-augmented request (2025-11-25 only): `{"task": …}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CreateTaskResult {
    /// The new task, normally `working`.
    pub task: LegacyTask,
    /// Result metadata, e.g. `io.modelcontextprotocol/model-immediate-response`.
    #[serde(rename = "_meta", default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

/// `tasks/result` params (2025-11-25 only).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TasksResultParams;
///
/// let params: TasksResultParams = serde_json::from_str(r#"{"taskId":"t-1"}"#).unwrap();
/// assert_eq!(params.task_id, "t-1");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TasksResultParams {
    /// The task.
    pub task_id: String,
}

/// `tasks/list` params (2025-11-25 only): a cursor.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TasksListParams;
///
/// let params: TasksListParams = serde_json::from_str(r#"{"cursor":"page-2"}"#).unwrap();
/// assert_eq!(params.cursor.as_deref(), Some("page-2"));
/// ```
pub type TasksListParams = PaginatedParams;

/// `tasks/list` result (2025-11-25 only).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ListTasksResult, Task};
///
/// let page = ListTasksResult {
///     tasks: vec![Task::working("t-1", "2025-11-25T10:00:00Z").to_legacy()],
///     next_cursor: None,
/// };
/// let json = serde_json::to_value(&page).unwrap();
/// assert_eq!(json["tasks"][0]["taskId"], "t-1");
/// assert!(json.get("nextCursor").is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListTasksResult {
    /// One page of the caller's tasks.
    pub tasks: Vec<LegacyTask>,
    /// Where the next page starts; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_cursor: Option<String>,
}

/// The value of the `io.modelcontextprotocol/related-task` `_meta` key (2025-11-25 only).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::RelatedTask;
/// use serde_json::json;
///
/// let related = RelatedTask { task_id: "t-1".into() };
/// assert_eq!(serde_json::to_value(&related).unwrap(), json!({"taskId": "t-1"}));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RelatedTask {
    /// The task the message belongs to.
    pub task_id: String,
}

/// A `_meta` holding only `io.modelcontextprotocol/related-task`.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{RelatedTask, RelatedTaskMeta};
/// use serde_json::json;
///
/// let meta = RelatedTaskMeta { related_task: RelatedTask { task_id: "t-1".into() } };
/// assert_eq!(
///     serde_json::to_value(&meta).unwrap(),
///     json!({"io.modelcontextprotocol/related-task": {"taskId": "t-1"}})
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RelatedTaskMeta {
    /// The task.
    #[serde(rename = "io.modelcontextprotocol/related-task")]
    pub related_task: RelatedTask,
}

/// The `tasks/result` result (2025-11-25 only): the original request's result (e.g. a
/// `CallToolResult`, whose type must not have its own `_meta`), which must carry the
/// related-task `_meta` because nothing else in it names the task.
///
/// # Examples
///
/// ```
/// use mcpwire::CallToolResult;
/// use mcpwire::protocol::TaskPayload;
/// use serde_json::json;
///
/// let payload = TaskPayload::new("t-1", CallToolResult::text("done"));
/// assert_eq!(
///     serde_json::to_value(&payload).unwrap(),
///     json!({
///         "content": [{"type": "text", "text": "done"}],
///         "_meta": {"io.modelcontextprotocol/related-task": {"taskId": "t-1"}}
///     })
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskPayload<R> {
    /// The result, flattened beside `_meta`.
    #[serde(flatten)]
    pub result: R,
    /// The related-task tag.
    #[serde(rename = "_meta")]
    pub meta: RelatedTaskMeta,
}

impl<R> TaskPayload<R> {
    /// Tags `result` with its task.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::CallToolResult;
    /// use mcpwire::protocol::TaskPayload;
    ///
    /// let payload = TaskPayload::new("t-1", CallToolResult::text("done"));
    /// assert_eq!(payload.meta.related_task.task_id, "t-1");
    /// assert_eq!(payload.result, CallToolResult::text("done"));
    /// ```
    pub fn new(task_id: impl Into<String>, result: R) -> Self {
        Self {
            result,
            meta: RelatedTaskMeta {
                related_task: RelatedTask {
                    task_id: task_id.into(),
                },
            },
        }
    }
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn tasks_createtaskresult() {
        use serde_json::json;

        let task = Task::working("t-1", "2025-11-25T10:00:00Z").to_legacy();
        let meta =
            json!({"io.modelcontextprotocol/model-immediate-response": "Started the export."});
        let created = CreateTaskResult {
            task,
            meta: Some(meta.as_object().unwrap().clone()),
        };
        let json = serde_json::to_value(&created).unwrap();
        assert_eq!(json["task"]["status"], "working");
        let meta = &json["_meta"];
        assert_eq!(
            meta["io.modelcontextprotocol/model-immediate-response"],
            "Started the export."
        );
    }
}
