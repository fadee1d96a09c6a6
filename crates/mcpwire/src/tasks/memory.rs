//! `MemoryTaskStore`: the default store, in this process's memory, bounded.

use super::record::TaskRecord;
use super::store::{StoreError, StoreFuture, TaskStore};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// Tasks in memory, at most a fixed number: when full, creating a task evicts the task of the
/// same owner that finished longest ago, else the task of anyone that finished longest ago (so a
/// busy caller makes room with its own results first); with every task still unfinished,
/// creation fails ([`StoreError::Full`]). Lost on restart.
///
/// # Examples
///
/// ```
/// use mcpwire::tasks::{MemoryTaskStore, StoreError, TaskChange, TaskRecord, TaskStore};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let store = MemoryTaskStore::with_capacity(1);
/// let task = TaskRecord::working("t-1", None, 0, None, 1_000);
/// store.create(&task).await.unwrap();
/// let second = TaskRecord::working("t-2", None, 0, None, 1_000);
/// assert_eq!(store.create(&second).await, Err(StoreError::Full));
/// store.compare_and_set(&task.changed(TaskChange::Cancelled, 1)).await.unwrap();
/// store.create(&second).await.unwrap(); // the cancelled task made room
/// assert!(store.get("t-1").await.unwrap().is_none());
/// # });
/// ```
pub struct MemoryTaskStore {
    inner: Mutex<Inner>,
    capacity: usize,
}

#[derive(Default)]
struct Inner {
    tasks: HashMap<String, TaskRecord>,
    /// Ids of tasks in the order they ended (some may be gone already): the eviction order.
    finished: VecDeque<String>,
}

/// How many tasks [`MemoryTaskStore::default`] keeps.
pub const DEFAULT_CAPACITY: usize = 10_000;

impl Default for MemoryTaskStore {
    fn default() -> Self {
        Self::with_capacity(DEFAULT_CAPACITY)
    }
}

impl MemoryTaskStore {
    /// A store keeping at most `capacity` tasks (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            inner: Mutex::new(Inner::default()),
            capacity: capacity.max(1),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl TaskStore for MemoryTaskStore {
    fn create<'a>(&'a self, task: &'a TaskRecord) -> StoreFuture<'a, ()> {
        let outcome = (|| {
            let mut inner = self.lock();
            let Inner { tasks, finished } = &mut *inner;
            if tasks.contains_key(&task.id) {
                return Err(StoreError::Duplicate);
            }
            while tasks.len() >= self.capacity {
                let own = finished.iter().position(|id| {
                    tasks
                        .get(id)
                        .is_some_and(|held| held.status.is_terminal() && held.owner == task.owner)
                });
                let oldest = match own {
                    Some(at) => finished.remove(at),
                    None => finished.pop_front(),
                };
                tasks.remove(&oldest.ok_or(StoreError::Full)?);
            }
            if task.status.is_terminal() {
                finished.push_back(task.id.clone());
            }
            tasks.insert(task.id.clone(), task.clone());
            Ok(())
        })();
        Box::pin(std::future::ready(outcome))
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        let found = self.lock().tasks.get(id).cloned();
        Box::pin(std::future::ready(Ok(found)))
    }

    fn compare_and_set<'a>(&'a self, next: &'a TaskRecord) -> StoreFuture<'a, ()> {
        let mut inner = self.lock();
        let Inner { tasks, finished } = &mut *inner;
        let outcome = match tasks.get_mut(&next.id) {
            Some(current) if current.may_become(next) => {
                *current = next.clone();
                if next.status.is_terminal() {
                    finished.push_back(next.id.clone());
                }
                Ok(())
            }
            _ => Err(StoreError::Conflict),
        };
        Box::pin(std::future::ready(outcome))
    }

    fn sweep(&self, now_ms: u64) -> StoreFuture<'_, Vec<String>> {
        let mut inner = self.lock();
        let Inner { tasks, finished } = &mut *inner;
        let expired: Vec<String> = tasks
            .values()
            .filter(|t| t.is_expired(now_ms))
            .map(|t| t.id.clone())
            .collect();
        for id in &expired {
            tasks.remove(id);
        }
        if !expired.is_empty() {
            finished.retain(|id| tasks.contains_key(id));
        }
        Box::pin(std::future::ready(Ok(expired)))
    }
}
