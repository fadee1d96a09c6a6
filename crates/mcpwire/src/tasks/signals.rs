//! `TaskSignal`: what `tasks/update` and `tasks/cancel` hand to the process running a task, and
//! `TaskSignals`, the handle through which a store shared by replicas delivers them there.

use serde_json::{Map, Value};
use std::sync::{Arc, Weak};

/// Something the process running a task must act on: answers to its questions, or a cancel.
///
/// A store shared by replicas carries a signal from the replica that received `tasks/update` or
/// `tasks/cancel` to the one running the task ([`TaskStore::signal`]), which hands it to its
/// runtime through [`TaskSignals::deliver`].
///
/// [`TaskStore::signal`]: super::TaskStore::signal
///
/// # Examples
///
/// ```
/// use mcpwire::tasks::TaskSignal;
/// use serde_json::json;
///
/// let answers = json!({"confirm": {"action": "accept", "content": {"ok": true}}});
/// let signal = TaskSignal::Answers(answers.as_object().unwrap().clone());
/// assert!(matches!(signal, TaskSignal::Answers(ref a) if a.contains_key("confirm")));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum TaskSignal {
    /// Answers to the task's outstanding questions, by key (already taken off the stored task).
    Answers(Map<String, Value>),
    /// The task was cancelled: its body should stop.
    Cancel,
}

/// What receives signals: a server's task runtime.
pub(crate) trait SignalTarget: Send + Sync {
    /// Acts on `signal` if the task `id` runs here; whether it does.
    fn receive(&self, id: &str, signal: TaskSignal) -> bool;
}

/// The runtime of one server, as a store sees it: where a shared store delivers the signals
/// meant for the tasks running in this process. A server hands one to its store once, when it
/// starts ([`TaskStore::listen`]); it holds the runtime weakly, so a store outliving its server
/// keeps nothing alive.
///
/// [`TaskStore::listen`]: super::TaskStore::listen
///
/// # Examples
///
/// A store that keeps the handle it is given:
///
/// ```
/// use mcpwire::tasks::{MemoryTaskStore, StoreFuture, TaskRecord, TaskSignals, TaskStore};
/// use std::sync::Mutex;
///
/// #[derive(Default)]
/// struct Listening { inner: MemoryTaskStore, runtimes: Mutex<Vec<TaskSignals>> }
///
/// impl TaskStore for Listening {
///     fn create<'a>(&'a self, task: &'a TaskRecord) -> StoreFuture<'a, ()> {
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
///     fn listen(&self, signals: TaskSignals) {
///         self.runtimes.lock().unwrap().push(signals);
///     }
/// }
/// ```
#[derive(Clone)]
pub struct TaskSignals {
    target: Weak<dyn SignalTarget>,
}

impl std::fmt::Debug for TaskSignals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TaskSignals")
            .field("alive", &self.is_alive())
            .finish()
    }
}

impl TaskSignals {
    pub(crate) fn new<T: SignalTarget + 'static>(target: &Arc<T>) -> Self {
        let target: Arc<dyn SignalTarget> = target.clone();
        Self {
            target: Arc::downgrade(&target),
        }
    }

    /// Hands `signal` to the task `id` if it runs in this runtime: answers reach its waiting
    /// resolvers, a cancel completes its `Context::cancelled`. Whether the task runs here (a
    /// signal for any other task is dropped).
    pub fn deliver(&self, id: &str, signal: TaskSignal) -> bool {
        self.target
            .upgrade()
            .is_some_and(|target| target.receive(id, signal))
    }

    /// Whether the server it belongs to still runs (a store may forget handles that are not).
    pub fn is_alive(&self) -> bool {
        self.target.strong_count() > 0
    }
}
