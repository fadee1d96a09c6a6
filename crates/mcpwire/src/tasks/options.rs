//! How a server keeps its tasks: the task settings of a server being built (set with
//! [`McpServer::task_store`](crate::McpServer::task_store) and its siblings), and the runtime
//! they start.

use super::memory::MemoryTaskStore;
use super::runtime::Tasks;
use super::signals::TaskSignals;
use super::store::TaskStore;
use crate::protocol::tasks::TaskSupport;
use std::sync::Arc;
use std::time::Duration;

/// The default TTL of a task: an hour from its creation.
pub const DEFAULT_TTL: Duration = Duration::from_secs(3600);
/// The default number of unfinished tasks one principal may have
/// ([`McpServer::task_quota`](crate::McpServer::task_quota)).
pub const DEFAULT_LIVE_TASKS_PER_PRINCIPAL: usize = 1_000;
/// The default `pollIntervalMs` suggested to clients.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// The task settings of a server being built.
pub(crate) struct TaskOptions {
    /// Where tasks are kept; a bounded memory store when none is set.
    pub(crate) store: Option<Arc<dyn TaskStore>>,
    /// How long after its creation a task is kept; `None` until the store evicts it.
    pub(crate) ttl: Option<Duration>,
    /// The `pollIntervalMs` suggested to clients.
    pub(crate) poll_interval: Duration,
    /// How many unfinished tasks one principal may have at once.
    pub(crate) max_live_per_principal: usize,
    /// Whether a registered tool may run as a task.
    tool_takes_tasks: bool,
}

impl Default for TaskOptions {
    fn default() -> Self {
        Self {
            store: None,
            ttl: Some(DEFAULT_TTL),
            poll_interval: DEFAULT_POLL_INTERVAL,
            max_live_per_principal: DEFAULT_LIVE_TASKS_PER_PRINCIPAL,
            tool_takes_tasks: false,
        }
    }
}

impl TaskOptions {
    /// Notes a registered tool's task support.
    pub(crate) fn note_tool(&mut self, task: TaskSupport) {
        self.tool_takes_tasks |= task != TaskSupport::Forbidden;
    }

    /// The runtime, when the server offers tasks: a tool takes them, or a store was set.
    pub(crate) fn start(self) -> Option<Arc<Tasks>> {
        if !self.tool_takes_tasks && self.store.is_none() {
            return None;
        }
        let store = self
            .store
            .unwrap_or_else(|| Arc::new(MemoryTaskStore::default()));
        let ttl_ms = self.ttl.map(|ttl| ttl.as_millis().max(1) as u64);
        let poll_ms = self.poll_interval.as_millis().max(1) as u64;
        let tasks = Arc::new(Tasks::new(
            store,
            ttl_ms,
            poll_ms,
            self.max_live_per_principal,
        ));
        tasks.store.listen(TaskSignals::new(&tasks));
        Some(tasks)
    }
}
