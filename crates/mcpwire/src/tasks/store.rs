//! `TaskStore`: where tasks are kept, pluggable. The runtime (futures, cancellation, answers on
//! their way to a waiting resolver) stays in the process; everything a client can read is in the
//! store.

use super::record::TaskRecord;
use super::signals::{TaskSignal, TaskSignals};
use std::future::Future;
use std::pin::Pin;

/// The future a [`TaskStore`] method returns.
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

/// Why a store refused or failed. The client sees `-32603` for every kind but
/// [`StoreError::Conflict`], which the runtime handles (it reads the task again).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StoreError {
    /// The task changed since it was read, or it is terminal: the change was not made.
    #[error("the task changed meanwhile, or has ended")]
    Conflict,
    /// `create` with an id the store already holds.
    #[error("a task with this id exists")]
    Duplicate,
    /// The store is full of unfinished tasks (its bound is reached): no task can be created
    /// until one ends.
    #[error("too many tasks are running; try again later")]
    Full,
    /// The backend failed (I/O, a broken row); the message is for the server log.
    #[error("the task store failed: {0}")]
    Backend(String),
}

/// How [`TaskStore::create_within_quota`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admission {
    /// The task is stored.
    Created,
    /// Its owner already has as many unfinished tasks as it may: nothing was stored.
    QuotaReached,
}

/// Where a server keeps its tasks (tasks extension, 2026-07-28): [`MemoryTaskStore`] by default,
/// `SqliteTaskStore` (feature `sqlite`) to keep completed results across restarts,
/// `RedisTaskStore` (feature `redis`) to share them between replicas; set with
/// [`McpServer::task_store`](crate::McpServer::task_store).
///
/// Every method is async and must not block the runtime's threads (a store on blocking I/O runs
/// it on the blocking pool). A store shared by replicas must make `create` visible to every
/// replica before it returns: the client may call `tasks/get` on any of them at once.
///
/// [`MemoryTaskStore`]: super::MemoryTaskStore
///
/// # Examples
///
/// A store that forwards to another, counting creations:
///
/// ```
/// use mcpwire::tasks::{MemoryTaskStore, StoreFuture, TaskRecord, TaskStore};
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// #[derive(Default)]
/// struct Counting { inner: MemoryTaskStore, created: AtomicUsize }
///
/// impl TaskStore for Counting {
///     fn create<'a>(&'a self, task: &'a TaskRecord) -> StoreFuture<'a, ()> {
///         self.created.fetch_add(1, Ordering::Relaxed);
///         self.inner.create(task)
///     }
///     fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
///         self.inner.get(id)
///     }
///     fn compare_and_set<'a>(&'a self, next: &'a TaskRecord) -> StoreFuture<'a, ()> {
///         self.inner.compare_and_set(next)
///     }
///     fn sweep(&self, now_ms: u64) -> StoreFuture<'_, Vec<String>> {
///         self.inner.sweep(now_ms)
///     }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let store = Counting::default();
/// store.create(&TaskRecord::working("t-1", None, 0, None, 1_000)).await.unwrap();
/// assert_eq!(store.created.load(Ordering::Relaxed), 1);
/// assert!(store.get("t-1").await.unwrap().is_some());
/// # });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a task store",
    note = "implement `mcpwire::tasks::TaskStore`, or use `MemoryTaskStore`"
)]
pub trait TaskStore: Send + Sync + 'static {
    /// Keeps a new task. When it returns `Ok`, `get` finds the task (on every replica sharing
    /// the store). [`StoreError::Full`] when the store's bound is reached and nothing finished
    /// can be evicted to make room.
    fn create<'a>(&'a self, task: &'a TaskRecord) -> StoreFuture<'a, ()>;

    /// The task `id`, if the store holds it (expired or not: the caller checks).
    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>>;

    /// Replaces the task with `next` if the store holds exactly the version before it
    /// (`next.version - 1`) and that version may become `next`
    /// ([`TaskRecord::may_become`]: a terminal task never changes); otherwise
    /// [`StoreError::Conflict`].
    fn compare_and_set<'a>(&'a self, next: &'a TaskRecord) -> StoreFuture<'a, ()>;

    /// Deletes every task whose TTL ran out at `now_ms`, and returns their ids (the runtime
    /// stops those still running).
    fn sweep(&self, now_ms: u64) -> StoreFuture<'_, Vec<String>>;

    /// The tasks `ids`, in order, as [`get`](TaskStore::get) finds each (`None` for one the
    /// store does not hold). A store across the network reads them in one round trip.
    ///
    /// By default: [`get`](TaskStore::get) for each, one after the other.
    fn get_many<'a>(&'a self, ids: &'a [String]) -> StoreFuture<'a, Vec<Option<TaskRecord>>> {
        Box::pin(async move {
            let mut found = Vec::with_capacity(ids.len());
            for id in ids {
                found.push(self.get(id).await?);
            }
            Ok(found)
        })
    }

    // Provided methods: what a store shared by replicas does beyond keeping records. A store of
    // one process keeps the defaults, and the runtime does all of it in memory.

    /// Keeps a new task that is about to run in this process, if its owner (`task.owner`;
    /// anonymous callers count as one) has fewer than `quota` unfinished tasks. A store shared
    /// by replicas counts them across every replica, and holds the task for this process until
    /// [`release`](TaskStore::release).
    ///
    /// By default: [`create`](TaskStore::create), counting nothing (the runtime counts the
    /// tasks running in this process, which for an unshared store are all of them).
    fn create_within_quota<'a>(
        &'a self,
        task: &'a TaskRecord,
        quota: usize,
    ) -> StoreFuture<'a, Admission> {
        let _ = quota;
        Box::pin(async move { self.create(task).await.map(|()| Admission::Created) })
    }

    /// The task `id` stopped running in this process (it ended, was cancelled, ran out of time,
    /// or could not be created): it no longer counts against its owner's quota, and this process
    /// no longer answers for it. Called once per task created with
    /// [`create_within_quota`](TaskStore::create_within_quota), and also for tasks that never
    /// got that far (nothing to do then).
    ///
    /// By default: nothing.
    fn release<'a>(&'a self, id: &'a str) -> StoreFuture<'a, ()> {
        let _ = id;
        Box::pin(std::future::ready(Ok(())))
    }

    /// Carries `signal` to the process running the task `id`, which is not this one: answers
    /// from `tasks/update`, a cancel from `tasks/cancel` (already recorded in the task). That
    /// process receives it through the [`TaskSignals`] it gave to [`listen`](TaskStore::listen).
    ///
    /// By default: nothing (an unshared store's tasks all run in this process, where the
    /// runtime hands signals over itself).
    fn signal<'a>(&'a self, id: &'a str, signal: TaskSignal) -> StoreFuture<'a, ()> {
        let _ = (id, signal);
        Box::pin(std::future::ready(Ok(())))
    }

    /// Called once by each server using this store, when it starts: `signals` delivers what
    /// other replicas [`signal`](TaskStore::signal) to the tasks running here. Must not block.
    ///
    /// By default: nothing.
    fn listen(&self, signals: TaskSignals) {
        let _ = signals;
    }
}
