//! The builder methods of [`McpServer`] for the tasks extension (2026-07-28): where tasks are
//! kept, for how long, how often clients poll, and how many one principal may have.

use super::builder::McpServer;
use crate::tasks::TaskStore;
use std::sync::Arc;
use std::time::Duration;

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
    ///
    /// [`MemoryTaskStore`]: crate::tasks::MemoryTaskStore
    pub fn task_store(mut self, store: impl TaskStore) -> Self {
        self.tasks.store = Some(Arc::new(store));
        self
    }

    /// Whether [`McpServer::task_store`] was called.
    #[cfg(all(feature = "redis", feature = "http"))]
    pub(crate) fn has_task_store(&self) -> bool {
        self.tasks.store.is_some()
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
    ///
    /// [`DEFAULT_TTL`]: crate::tasks::DEFAULT_TTL
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
    ///
    /// [`DEFAULT_POLL_INTERVAL`]: crate::tasks::DEFAULT_POLL_INTERVAL
    pub fn task_poll_interval(mut self, interval: Duration) -> Self {
        self.tasks.poll_interval = interval;
        self
    }

    /// How many unfinished tasks one principal may have at once (default 1,000; anonymous
    /// callers share one quota). A `tools/call` past it is refused with `-32000` (server busy)
    /// and creates nothing, so one caller cannot fill the store, nor crowd out other callers'
    /// results.
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

    /// The most `taskIds` one `subscriptions/listen` request may name (default 100). A request
    /// naming more is refused with `-32602` (`data.limit`) before any task is looked up; the
    /// ones it names are looked up together (one round trip to a shared store).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// let server = McpServer::new("jobs").max_listened_tasks(500);
    /// # drop(server);
    /// ```
    pub fn max_listened_tasks(mut self, tasks: usize) -> Self {
        self.limits.max_listened_tasks = tasks;
        self
    }
}
