//! `TaskRecord`: everything a store keeps of one task, and the state machine its changes follow.

use crate::protocol::ErrorObject;
use crate::protocol::tasks::{DetailedTask, Task, TaskStatus};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// One task as a [`TaskStore`](super::TaskStore) keeps it: serializable, so any store can hold
/// it as one value (the SQLite store keeps it as JSON).
///
/// `version` grows by one with every change; a store only accepts a change made from the version
/// it holds ([`TaskStore::compare_and_set`](super::TaskStore::compare_and_set)).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TaskStatus;
/// use mcpwire::tasks::TaskRecord;
///
/// let task = TaskRecord::working("t-1", Some("ada".into()), 1_000, Some(60_000), 500);
/// assert_eq!((task.status, task.version), (TaskStatus::Working, 0));
/// assert_eq!(task.expires_at_ms(), Some(61_000));
/// let json = serde_json::to_value(task.to_detailed()).unwrap();
/// assert_eq!(json["taskId"], "t-1");
/// assert_eq!(json["ttlMs"], 60_000);
/// assert_eq!(json["createdAt"], "1970-01-01T00:00:01.000Z");
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TaskRecord {
    /// The unguessable id the client holds.
    pub id: String,
    /// The principal that created it (who the transport authenticated), if any: only requests
    /// of the same principal see it.
    pub owner: Option<String>,
    /// The scopes of the tool it runs: a caller's grant must hold them to get, answer, cancel
    /// or watch it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
    /// Where it stands.
    pub status: TaskStatus,
    /// A note on the status (progress, why it failed).
    pub status_message: Option<String>,
    /// Creation time, in milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// Time of the last change, in milliseconds since the Unix epoch.
    pub updated_at_ms: u64,
    /// How long after creation it is kept, in milliseconds; `None`: until retention evicts it.
    pub ttl_ms: Option<u64>,
    /// How often the client should poll, in milliseconds.
    pub poll_interval_ms: u64,
    /// `input_required`: the outstanding questions, by key.
    #[serde(default)]
    pub input_requests: Map<String, Value>,
    /// `completed`: the result (a `CallToolResult`, possibly `isError`).
    #[serde(default)]
    pub result: Option<Map<String, Value>>,
    /// `failed`: the JSON-RPC error it ended with.
    #[serde(default)]
    pub error: Option<ErrorObject>,
    /// Grows by one with every change.
    pub version: u64,
}

impl TaskRecord {
    /// A new `working` task (version 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::tasks::TaskRecord;
    ///
    /// let task = TaskRecord::working("t-1", None, 0, None, 1_000);
    /// assert_eq!(task.expires_at_ms(), None);
    /// assert!(!task.status.is_terminal());
    /// ```
    pub fn working(
        id: impl Into<String>,
        owner: Option<String>,
        now_ms: u64,
        ttl_ms: Option<u64>,
        poll_interval_ms: u64,
    ) -> Self {
        Self {
            id: id.into(),
            owner,
            scopes: Vec::new(),
            status: TaskStatus::Working,
            status_message: None,
            created_at_ms: now_ms,
            updated_at_ms: now_ms,
            ttl_ms,
            poll_interval_ms,
            input_requests: Map::new(),
            result: None,
            error: None,
            version: 0,
        }
    }

    /// When it expires (creation plus TTL), in milliseconds since the Unix epoch.
    pub fn expires_at_ms(&self) -> Option<u64> {
        self.ttl_ms
            .map(|ttl| self.created_at_ms.saturating_add(ttl))
    }

    /// Whether its TTL has run out at `now_ms`.
    pub fn is_expired(&self, now_ms: u64) -> bool {
        self.expires_at_ms().is_some_and(|at| at <= now_ms)
    }

    /// The task as `tasks/get` shows it: with its questions, result or error as its status
    /// calls for.
    pub fn to_detailed(&self) -> DetailedTask {
        let task = Task {
            task_id: self.id.clone(),
            status: self.status,
            status_message: self.status_message.clone(),
            created_at: rfc3339(self.created_at_ms),
            last_updated_at: rfc3339(self.updated_at_ms),
            ttl_ms: self.ttl_ms,
            poll_interval_ms: Some(self.poll_interval_ms),
        };
        match self.status {
            TaskStatus::InputRequired => {
                DetailedTask::input_required(task, self.input_requests.clone())
            }
            TaskStatus::Completed => {
                DetailedTask::completed(task, self.result.clone().unwrap_or_default())
            }
            TaskStatus::Failed => DetailedTask::failed(
                task,
                self.error.clone().unwrap_or_else(ErrorObject::internal),
            ),
            TaskStatus::Working | TaskStatus::Cancelled => DetailedTask::new(task),
        }
    }

    /// The next version of this task, changed by `change` at `now_ms`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::TaskStatus;
    /// use mcpwire::tasks::{TaskChange, TaskRecord};
    ///
    /// let task = TaskRecord::working("t-1", None, 0, None, 1_000);
    /// let done = task.changed(TaskChange::Cancelled, 5);
    /// assert_eq!((done.status, done.version, done.updated_at_ms), (TaskStatus::Cancelled, 1, 5));
    /// ```
    pub fn changed(&self, change: TaskChange, now_ms: u64) -> Self {
        let mut next = self.clone();
        next.version += 1;
        next.updated_at_ms = now_ms.max(self.updated_at_ms);
        next.input_requests = Map::new();
        match change {
            TaskChange::Working { status_message } => {
                next.status = TaskStatus::Working;
                if status_message.is_some() {
                    next.status_message = status_message;
                }
            }
            TaskChange::StatusMessage(message) => {
                next.status_message = Some(message);
                next.input_requests = self.input_requests.clone();
            }
            TaskChange::InputRequired(requests) => {
                next.status = TaskStatus::InputRequired;
                next.input_requests = requests;
            }
            TaskChange::Completed(result) => {
                next.status = TaskStatus::Completed;
                next.result = Some(result);
            }
            TaskChange::Failed(error) => {
                next.status = TaskStatus::Failed;
                next.status_message = Some(error.message.to_string());
                next.error = Some(error);
            }
            TaskChange::Cancelled => next.status = TaskStatus::Cancelled,
        }
        next
    }

    /// Whether a store may replace this version with `next`: the next version, of the same
    /// task, not leaving a terminal status.
    pub fn may_become(&self, next: &TaskRecord) -> bool {
        next.id == self.id
            && next.version == self.version + 1
            && next.owner == self.owner
            && !self.status.is_terminal()
    }
}

/// A change to a task, made by the runtime through
/// [`TaskStore::compare_and_set`](super::TaskStore::compare_and_set).
#[derive(Clone, Debug, PartialEq)]
pub enum TaskChange {
    /// Back to (or still) `working`, optionally with a new status message.
    Working {
        /// The new status message, if any.
        status_message: Option<String>,
    },
    /// A new status message; the status stays.
    StatusMessage(String),
    /// Waiting for the client's answers to these questions.
    InputRequired(Map<String, Value>),
    /// Finished with this result.
    Completed(Map<String, Value>),
    /// Ended by this JSON-RPC error.
    Failed(ErrorObject),
    /// Cancelled by the client.
    Cancelled,
}

/// Milliseconds since the Unix epoch, now.
pub(crate) fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_millis() as u64)
}

/// `ms` (since the Unix epoch) as an RFC 3339 UTC time with milliseconds.
fn rfc3339(ms: u64) -> String {
    humantime::format_rfc3339_millis(UNIX_EPOCH + Duration::from_millis(ms)).to_string()
}
