//! `RedisTaskStore` (feature `redis`): tasks kept in Redis, so that every replica of a fleet can
//! answer `tasks/get`, `tasks/update` and `tasks/cancel` for any task; answers and cancels reach
//! the replica running the task over pub/sub, a lease turns the tasks of a replica that died
//! `failed`, and the per-principal quota is counted across the fleet.
//!
//! `mod.rs` is the store and its settings; `shared.rs` what the store and its background work
//! share (each operation on Redis); `scripts.rs` the Lua scripts; `background.rs` the lease
//! refresher and the subscriber.

mod background;
mod scripts;
mod shared;

pub use shared::LEASE_LOST;

use super::record::TaskRecord;
use super::signals::{TaskSignal, TaskSignals};
use super::store::{Admission, StoreError, StoreFuture, TaskStore};
use background::{refresh_leases, subscribe};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use shared::Shared;
use std::collections::HashMap;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Notify;
use tokio_util::sync::{CancellationToken, DropGuard};

/// How long a task outlives the last sign of life of the replica running it, by default.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);
/// How long a task without a TTL is kept after its last change, unless
/// [`RedisTaskStore::retention`] says otherwise.
pub const DEFAULT_RETENTION: Duration = Duration::from_secs(24 * 60 * 60);
/// How long one Redis command may take by default.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);
/// The shortest lease accepted.
const SHORTEST_LEASE: Duration = Duration::from_millis(30);

/// The prefix as the keys use it, `{prefix}:{kind}…`: without a trailing `:`, so `mcp:shop` and
/// `mcp:shop:` (a fleet backend's form) name the same keys.
fn name_prefix(prefix: String) -> String {
    prefix.trim_end_matches(':').to_owned()
}

/// What a store made on another's connection (a fleet backend's) is given.
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) struct On {
    /// For the subscriber's connection.
    pub(crate) client: redis::Client,
    /// For every other command.
    pub(crate) connection: ConnectionManager,
    /// How long one command may take.
    pub(crate) timeout: Duration,
    /// Where the subscriber and the lease refresher run.
    pub(crate) runtime: tokio::runtime::Handle,
}

/// A [`TaskStore`] in Redis, shared by the replicas of a fleet: any replica answers
/// `tasks/get`, `tasks/update` and `tasks/cancel` for any task, and answers and cancels reach the
/// replica running the task.
///
/// - **Data.** One key per task, `{prefix}:task:{id}`, holding the [`TaskRecord`] as JSON and
///   expiring with the task's TTL (`PXAT`). Changes go through a Lua script that compares the
///   stored version (compare-and-set), so concurrent replicas never lose a change, and a
///   terminal task never changes again.
/// - **Signals.** Answers (`tasks/update`) wait in `{prefix}:answers:{id}` and a note is
///   published on the channel `{prefix}:signals`; a cancel is recorded in the task and
///   published too. Each store holds one subscriber connection (re-established on its own).
///   Pub/sub may drop a note while a replica reconnects: the lease refresh below also picks up
///   waiting answers and cancels, so a signal arrives within a third of the lease at worst.
/// - **Lease.** The replica running a task sets `{prefix}:lease:{id}` (`PX`, the lease,
///   [`DEFAULT_LEASE`] unless set with [`RedisTaskStore::lease`]) and refreshes it every third
///   of the lease. A replica that reads an unfinished task whose lease is gone (its replica
///   stopped, or lost Redis for longer than the lease) ends it `failed` with [`LEASE_LOST`]
///   (`-32603`), by compare-and-set, so one reader does it.
/// - **Quota.** `{prefix}:owner:…` is the set of a principal's unfinished tasks, maintained with
///   the tasks by the scripts: the quota of [`McpServer::task_quota`] holds across the fleet.
///   A task leaves the set when it ends, when its replica stops running it, or when its lease
///   has run out.
/// - **Bounds.** The store keeps at most [`capacity`](RedisTaskStore::capacity) tasks
///   ([`DEFAULT_CAPACITY`](super::DEFAULT_CAPACITY), 10,000, as the other stores), finished or
///   not: a new task evicts its owner's task that finished longest ago, else anyone's; with
///   every task unfinished, creation fails ([`StoreError::Full`]). Each principal keeps at most
///   [`finished_per_principal`](RedisTaskStore::finished_per_principal) finished tasks (by
///   default as many as its quota of unfinished ones, [`McpServer::task_quota`], 1,000): a task
///   that ends evicts its owner's oldest finished one beyond that. The scripts keep the indexes
///   `{prefix}:index` (every task, by expiry), `{prefix}:finished` and
///   `{prefix}:finished:…` (finished tasks, by end time, all and per principal); each expires
///   with its longest-lived task.
/// - **Failure.** Every command is bounded ([`RedisTaskStore::command_timeout`], 2 s by
///   default). When Redis cannot be reached, the request gets `-32603` ("the task store
///   failed"; the reason, without the URL, goes to the server log), and the connection is
///   re-established in the background.
///
/// [`sweep`](TaskStore::sweep) deletes nothing (Redis expires the keys); it returns the ids of
/// the tasks running here whose TTL has run out, which the runtime stops.
///
/// The scripts touch keys they compute from the prefix: use a standalone Redis (or a primary
/// with replicas), 7.0 or later, not Redis Cluster.
///
/// [`McpServer::task_quota`]: crate::McpServer::task_quota
///
/// # Examples
///
/// ```no_run
/// use mcpwire::McpServer;
/// use mcpwire::tasks::RedisTaskStore;
/// use std::time::Duration;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let store = RedisTaskStore::connect("redis://127.0.0.1:6379", "mcpwire:jobs")
///     .await?
///     .lease(Duration::from_secs(10));
/// let server = McpServer::new("jobs").task_store(store);
/// # drop(server);
/// # Ok(()) }
/// ```
pub struct RedisTaskStore {
    shared: Arc<Shared>,
    /// Stops the lease refresher and the subscriber when the store is dropped.
    _stop: DropGuard,
}

impl std::fmt::Debug for RedisTaskStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisTaskStore")
            .field("prefix", &self.shared.prefix)
            .field("replica", &self.shared.replica)
            .field("lease_ms", &self.shared.lease_ms.load(Ordering::Relaxed))
            .finish_non_exhaustive()
    }
}

impl RedisTaskStore {
    /// Connects to the Redis at `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST`,
    /// `unix:///path/to/redis.sock`), keeping the tasks under `prefix` (`mcp:{server name}`,
    /// with or without a trailing `:`, as a fleet backend's; one per server: its
    /// name, say; every replica of the server uses the same). Starts the subscriber and the
    /// lease refresher on the current Tokio runtime; they stop when the store is dropped.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the URL is not a Redis URL, or no connection is made within
    /// the command timeout. The error never repeats the URL (it may hold a password).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcpwire::tasks::StoreError> {
    /// let store = mcpwire::tasks::RedisTaskStore::connect("unix:///run/redis.sock", "jobs").await?;
    /// # drop(store);
    /// # Ok(()) }
    /// ```
    pub async fn connect(url: &str, prefix: impl Into<String>) -> Result<Self, StoreError> {
        let client = redis::Client::open(url)
            .map_err(|_| StoreError::Backend("the Redis URL is not valid".into()))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(COMMAND_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            .set_number_of_retries(1);
        let connecting = ConnectionManager::new_with_config(client.clone(), config);
        let connection = tokio::time::timeout(COMMAND_TIMEOUT, connecting)
            .await
            .map_err(|_| StoreError::Backend("no connection to Redis within the timeout".into()))?
            .map_err(|error| {
                StoreError::Backend(format!("cannot connect to Redis: {:?}", error.kind()))
            })?;
        let on = On {
            client,
            connection,
            timeout: COMMAND_TIMEOUT,
            runtime: tokio::runtime::Handle::current(),
        };
        Ok(Self::on(on, name_prefix(prefix.into())))
    }

    /// A store on an existing connection (a fleet backend's), keeping the tasks under `prefix`;
    /// its subscriber and lease refresher run on `on.runtime`.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn on(on: On, prefix: String) -> Self {
        let mut replica = [0u8; 8];
        getrandom::fill(&mut replica).expect("the operating system's random source works");
        let shared = Arc::new(Shared {
            connection: on.connection,
            prefix,
            replica: replica.iter().map(|b| format!("{b:02x}")).collect(),
            lease_ms: AtomicU64::new(DEFAULT_LEASE.as_millis() as u64),
            timeout_ms: AtomicU64::new(on.timeout.as_millis().max(1) as u64),
            capacity: AtomicUsize::new(super::DEFAULT_CAPACITY),
            finished_per_principal: AtomicUsize::new(0),
            retention_ms: AtomicU64::new(DEFAULT_RETENTION.as_millis() as u64),
            quota: AtomicUsize::new(super::options::DEFAULT_LIVE_TASKS_PER_PRINCIPAL),
            lease_changed: Notify::new(),
            held: Mutex::new(HashMap::new()),
            runtimes: Mutex::new(Vec::new()),
        });
        let stop = CancellationToken::new();
        on.runtime
            .spawn(refresh_leases(shared.clone(), stop.clone()));
        on.runtime
            .spawn(subscribe(shared.clone(), on.client, stop.clone()));
        Self {
            shared,
            _stop: stop.drop_guard(),
        }
    }

    /// How long a task outlives the last lease refresh of the replica running it
    /// ([`DEFAULT_LEASE`] unless set; at least 30 ms). The lease is refreshed every third of
    /// it: a replica that cannot reach Redis for longer loses its tasks (they end `failed`).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcpwire::tasks::StoreError> {
    /// use std::time::Duration;
    /// let store = mcpwire::tasks::RedisTaskStore::connect("redis://127.0.0.1", "jobs")
    ///     .await?
    ///     .lease(Duration::from_secs(5));
    /// # drop(store);
    /// # Ok(()) }
    /// ```
    pub fn lease(self, lease: Duration) -> Self {
        let lease = lease.max(SHORTEST_LEASE).as_millis() as u64;
        self.shared.lease_ms.store(lease, Ordering::Relaxed);
        self.shared.lease_changed.notify_one();
        self
    }

    /// The most tasks the store keeps, finished or not (default
    /// [`DEFAULT_CAPACITY`](super::DEFAULT_CAPACITY), 10,000; at least one), across every
    /// replica sharing it. A new task evicts its owner's task that finished longest ago, else
    /// anyone's; with every task unfinished, `tools/call` gets `-32603` ("too many tasks are
    /// unfinished").
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcpwire::tasks::StoreError> {
    /// let store = mcpwire::tasks::RedisTaskStore::connect("redis://127.0.0.1", "jobs")
    ///     .await?
    ///     .capacity(50_000);
    /// # drop(store);
    /// # Ok(()) }
    /// ```
    pub fn capacity(self, tasks: usize) -> Self {
        self.shared.capacity.store(tasks.max(1), Ordering::Relaxed);
        self
    }

    /// The most finished tasks (with their results) one principal keeps (anonymous callers
    /// count as one); by default as many as its quota of unfinished tasks
    /// ([`McpServer::task_quota`](crate::McpServer::task_quota), 1,000). When a task ends, its
    /// owner's finished task beyond that which ended longest ago is evicted (`tasks/get` then
    /// answers `Unknown task`).
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcpwire::tasks::StoreError> {
    /// let store = mcpwire::tasks::RedisTaskStore::connect("redis://127.0.0.1", "jobs")
    ///     .await?
    ///     .finished_per_principal(100);
    /// # drop(store);
    /// # Ok(()) }
    /// ```
    pub fn finished_per_principal(self, tasks: usize) -> Self {
        self.shared
            .finished_per_principal
            .store(tasks.max(1), Ordering::Relaxed);
        self
    }

    /// How long a task without a TTL ([`McpServer::task_ttl(None)`](crate::McpServer::task_ttl))
    /// is kept after its last change (default 24 h): every key the store writes expires, so
    /// nothing a caller makes stays in Redis for ever. Tasks with a TTL expire with it.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcpwire::tasks::StoreError> {
    /// use std::time::Duration;
    /// let store = mcpwire::tasks::RedisTaskStore::connect("redis://127.0.0.1", "jobs")
    ///     .await?
    ///     .retention(Duration::from_secs(7 * 24 * 60 * 60));
    /// # drop(store);
    /// # Ok(()) }
    /// ```
    pub fn retention(self, retention: Duration) -> Self {
        let retention = retention.as_millis().max(1) as u64;
        self.shared.retention_ms.store(retention, Ordering::Relaxed);
        self
    }

    /// How long one Redis command may take (default 2 s) before the request that needed it
    /// fails.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # async fn run() -> Result<(), mcpwire::tasks::StoreError> {
    /// use std::time::Duration;
    /// let store = mcpwire::tasks::RedisTaskStore::connect("redis://127.0.0.1", "jobs")
    ///     .await?
    ///     .command_timeout(Duration::from_millis(500));
    /// # drop(store);
    /// # Ok(()) }
    /// ```
    pub fn command_timeout(self, timeout: Duration) -> Self {
        let timeout = timeout.as_millis().max(1) as u64;
        self.shared.timeout_ms.store(timeout, Ordering::Relaxed);
        self
    }
}

impl TaskStore for RedisTaskStore {
    /// Keeps `task`, leased by this store (as if it ran here) until it ends or is
    /// [released](TaskStore::release); no quota.
    fn create<'a>(&'a self, task: &'a TaskRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move { self.shared.create(task, 0).await.map(drop) })
    }

    /// The task `id`. An unfinished task whose lease is gone is ended `failed` with
    /// [`LEASE_LOST`] first (compare-and-set: one reader does it).
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        Box::pin(self.shared.get(id))
    }

    /// One `MGET` for all of them (an unfinished task whose lease is gone is then read again,
    /// as [`get`](TaskStore::get) does).
    fn get_many<'a>(&'a self, ids: &'a [String]) -> StoreFuture<'a, Vec<Option<TaskRecord>>> {
        Box::pin(self.shared.get_many(ids))
    }

    fn compare_and_set<'a>(&'a self, next: &'a TaskRecord) -> StoreFuture<'a, ()> {
        Box::pin(self.shared.compare_and_set(next))
    }

    /// Deletes nothing (Redis expires every key itself): the ids of the tasks running here
    /// whose TTL ran out at `now_ms`.
    fn sweep(&self, now_ms: u64) -> StoreFuture<'_, Vec<String>> {
        let expired = self
            .shared
            .lock_held()
            .iter()
            .filter(|(_, held)| held.expires_at_ms.is_some_and(|at| at <= now_ms))
            .map(|(id, _)| id.clone())
            .collect();
        Box::pin(std::future::ready(Ok(expired)))
    }

    /// Counts the owner's unfinished tasks across every replica sharing the store (tasks
    /// whose lease ran out no longer count).
    fn create_within_quota<'a>(
        &'a self,
        task: &'a TaskRecord,
        quota: usize,
    ) -> StoreFuture<'a, Admission> {
        Box::pin(self.shared.create(task, quota.max(1)))
    }

    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        Box::pin(self.shared.release(id))
    }

    fn signal<'a>(&'a self, id: &'a str, signal: TaskSignal) -> StoreFuture<'a, ()> {
        Box::pin(self.shared.signal(id, signal))
    }

    fn listen(&self, signals: TaskSignals) {
        self.shared
            .runtimes
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(signals);
    }
}

#[cfg(test)]
mod tests {
    use super::name_prefix;

    #[test]
    fn a_prefix_with_or_without_its_colon_names_the_same_keys() {
        assert_eq!(name_prefix("mcp:shop:".into()), "mcp:shop");
        assert_eq!(name_prefix("mcp:shop".into()), "mcp:shop");
    }
}
