//! How a server keeps its tasks: the builder methods of [`McpServer`] for the tasks extension.

use super::memory::MemoryTaskStore;
use super::runtime::Tasks;
use super::store::TaskStore;
use crate::McpServer;
use crate::protocol::ServerCapabilities;
use crate::protocol::tasks::{EXTENSION, TaskSupport};
use std::sync::Arc;
use std::time::Duration;

/// The default TTL of a task: an hour from its creation.
pub const DEFAULT_TTL: Duration = Duration::from_secs(3600);
/// The default number of unfinished tasks one principal may have
/// ([`McpServer::task_quota`]).
pub const DEFAULT_LIVE_TASKS_PER_PRINCIPAL: usize = 1_000;
/// The default `pollIntervalMs` suggested to clients.
pub const DEFAULT_POLL_INTERVAL: Duration = Duration::from_millis(500);

/// The task settings of a server being built.
pub(crate) struct TaskOptions {
    store: Option<Arc<dyn TaskStore>>,
    ttl: Option<Duration>,
    poll_interval: Duration,
    max_live_per_principal: usize,
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
        Some(Arc::new(Tasks::new(
            store,
            ttl_ms,
            poll_ms,
            self.max_live_per_principal,
        )))
    }
}

/// Declares the tasks extension in `server/discover`'s capabilities.
pub(crate) fn advertise(capabilities: &mut ServerCapabilities) {
    capabilities
        .extensions
        .get_or_insert_with(Default::default)
        .insert(EXTENSION.to_owned(), serde_json::json!({}));
}

impl McpServer {
    /// Where tasks are kept (default: a bounded [`MemoryTaskStore`]). Setting a store also
    /// declares the tasks extension when no tool takes tasks.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::tasks::MemoryTaskStore;
    ///
    /// /// Exports the catalogue, as a task when the client can poll one.
    /// #[tool(task = "optional")]
    /// async fn export() -> &'static str { "exported" }
    ///
    /// let server = McpServer::new("shop")
    ///     .task_store(MemoryTaskStore::with_capacity(1_000))
    ///     .tool(export)?;
    /// # drop(server);
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.tasks.store = Some(Arc::new(store));
        self
    }

    /// How long after its creation a task is kept (default [`DEFAULT_TTL`]); `None` keeps it
    /// until the store's retention bound evicts it. A task still running when its TTL runs out
    /// is stopped; `tasks/get` then answers `-32602` ("Task has expired", later unknown).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// let server = McpServer::new("jobs").task_ttl(Some(Duration::from_secs(600)));
    /// # drop(server);
    /// ```
    pub fn task_ttl(mut self, ttl: Option<Duration>) -> Self {
        self.tasks.ttl = ttl;
        self
    }

    /// The polling interval suggested to clients (`pollIntervalMs`; default
    /// [`DEFAULT_POLL_INTERVAL`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// let server = McpServer::new("jobs").task_poll_interval(Duration::from_secs(2));
    /// # drop(server);
    /// ```
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.tasks.poll_interval = interval;
        self
    }

    /// How many unfinished tasks one principal may have at once (default
    /// 1,000; anonymous callers share one quota). A `tools/call`
    /// past it is refused with `-32000` (server busy) and creates nothing, so one caller cannot
    /// fill the store, nor crowd out other callers' results.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// let server = McpServer::new("jobs").task_quota(50);
    /// # drop(server);
    /// ```
    pub fn task_quota(mut self, tasks: usize) -> Self {
        self.tasks.max_live_per_principal = tasks;
        self
    }
}
