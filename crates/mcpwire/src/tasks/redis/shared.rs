//! What a [`RedisTaskStore`](super::RedisTaskStore) and its background work share: the
//! connection, the tasks running here, and each operation on Redis.

use super::scripts::{
    COMPARE_AND_SET, CREATE, REFRESH, RELEASE, SIGNAL_ANSWERS, TAKE_ANSWERS, eval,
};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use crate::tasks::record::{TaskChange, TaskRecord, now_ms};
use crate::tasks::signals::{TaskSignal, TaskSignals};
use crate::tasks::store::{Admission, StoreError};
use redis::aio::ConnectionManager;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Notify;

/// The error a task ends with when the replica running it stopped (its lease ran out).
pub const LEASE_LOST: &str =
    "The replica running this task stopped before the task ended; run it again";
/// The latest expiry Redis is given (year 9999).
const LATEST_EXPIRY_MS: u64 = 253_402_300_799_000;
/// How many tasks one lease refresh covers (a larger set is refreshed in several scripts).
const REFRESH_BATCH: usize = 500;

/// What the store and its background work share.
pub(super) struct Shared {
    pub(super) connection: ConnectionManager,
    pub(super) prefix: String,
    /// This store's id (random), the value of the leases it holds.
    pub(super) replica: String,
    pub(super) lease_ms: AtomicU64,
    pub(super) timeout_ms: AtomicU64,
    /// The most tasks kept, finished or not ([`RedisTaskStore::capacity`]).
    ///
    /// [`RedisTaskStore::capacity`]: super::RedisTaskStore::capacity
    pub(super) capacity: AtomicUsize,
    /// The most finished tasks kept per principal; 0: as many as the quota of unfinished ones.
    pub(super) finished_per_principal: AtomicUsize,
    /// How long a task without a TTL is kept after its last change, in ms
    /// ([`RedisTaskStore::retention`](super::RedisTaskStore::retention)).
    pub(super) retention_ms: AtomicU64,
    /// The quota of unfinished tasks the server last created a task within.
    pub(super) quota: AtomicUsize,
    /// Wakes the refresher when the lease changed.
    pub(super) lease_changed: Notify,
    /// The tasks running here, leased by this store.
    pub(super) held: Mutex<HashMap<String, Held>>,
    /// The runtimes of the servers using this store.
    pub(super) runtimes: Mutex<Vec<TaskSignals>>,
}

/// A task leased by this store.
pub(super) struct Held {
    pub(super) owner_key: String,
    pub(super) expires_at_ms: Option<u64>,
}

impl Shared {
    pub(super) fn key(&self, kind: &str, id: &str) -> String {
        format!("{}:{kind}:{id}", self.prefix)
    }

    pub(super) fn owner_key(&self, owner: Option<&str>) -> String {
        match owner {
            Some(owner) => format!("{}:owner:+{owner}", self.prefix),
            None => format!("{}:owner:-", self.prefix),
        }
    }

    /// The owner's finished tasks (a sorted set, by end time).
    pub(super) fn finished_key(&self, owner: Option<&str>) -> String {
        match owner {
            Some(owner) => format!("{}:finished:+{owner}", self.prefix),
            None => format!("{}:finished:-", self.prefix),
        }
    }

    /// How many finished tasks one principal keeps.
    fn finished_kept(&self) -> usize {
        match self.finished_per_principal.load(Ordering::Relaxed) {
            0 => self.quota.load(Ordering::Relaxed),
            set => set,
        }
        .max(1)
    }

    pub(super) fn channel(&self) -> String {
        format!("{}:signals", self.prefix)
    }

    pub(super) fn lease_ms(&self) -> u64 {
        self.lease_ms.load(Ordering::Relaxed)
    }

    pub(super) fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    /// Runs `command` (or a script) on the shared connection, bounded by the command timeout.
    pub(super) async fn run<T: redis::FromRedisValue>(
        &self,
        command: &redis::Cmd,
    ) -> Result<T, StoreError> {
        let mut connection = self.connection.clone();
        bounded(self.timeout(), command.query_async::<T>(&mut connection)).await
    }

    /// Creates `task`, leased by this store; `quota` 0 counts nothing.
    pub(super) async fn create(
        &self,
        task: &TaskRecord,
        quota: usize,
    ) -> Result<Admission, StoreError> {
        if quota > 0 {
            self.quota.store(quota, Ordering::Relaxed);
        }
        let record = to_json(task)?;
        let owner_key = self.owner_key(task.owner.as_deref());
        let terminal = task.status.is_terminal();
        let mut script = eval(CREATE, 6);
        script
            .arg(self.key("task", &task.id))
            .arg(self.key("lease", &task.id))
            .arg(&owner_key)
            .arg(format!("{}:index", self.prefix))
            .arg(format!("{}:finished", self.prefix))
            .arg(self.finished_key(task.owner.as_deref()))
            .arg(record)
            .arg(self.expiry(task))
            .arg(self.lease_ms())
            .arg(&self.replica)
            .arg(quota)
            .arg(format!("{}:lease:", self.prefix))
            .arg(&task.id)
            .arg(&self.prefix)
            .arg(self.capacity.load(Ordering::Relaxed).max(1))
            .arg(now_ms())
            .arg(u8::from(terminal))
            .arg(task.updated_at_ms);
        let answer: String = self.run(&script).await?;
        match answer.as_str() {
            "ok" if terminal => Ok(Admission::Created),
            "ok" => {
                self.lock_held().insert(
                    task.id.clone(),
                    Held {
                        owner_key,
                        expires_at_ms: task.expires_at_ms(),
                    },
                );
                Ok(Admission::Created)
            }
            "quota" => Ok(Admission::QuotaReached),
            "duplicate" => Err(StoreError::Duplicate),
            "full" => Err(StoreError::Full),
            other => Err(StoreError::Backend(format!(
                "unexpected answer from the create script: {other}"
            ))),
        }
    }

    pub(super) async fn compare_and_set(&self, next: &TaskRecord) -> Result<(), StoreError> {
        if next.version == 0 {
            return Err(StoreError::Conflict);
        }
        let mut script = eval(COMPARE_AND_SET, 7);
        script
            .arg(self.key("task", &next.id))
            .arg(self.owner_key(next.owner.as_deref()))
            .arg(self.key("lease", &next.id))
            .arg(self.key("answers", &next.id))
            .arg(format!("{}:index", self.prefix))
            .arg(format!("{}:finished", self.prefix))
            .arg(self.finished_key(next.owner.as_deref()))
            .arg(to_json(next)?)
            .arg(self.expiry(next))
            .arg(u8::from(next.status.is_terminal()))
            .arg(&next.id)
            .arg(&self.prefix)
            .arg(next.updated_at_ms)
            .arg(self.finished_kept());
        match self.run::<i64>(&script).await? {
            1 => Ok(()),
            _ => Err(StoreError::Conflict),
        }
    }

    /// The task and whether its lease is held.
    pub(super) async fn read(&self, id: &str) -> Result<Option<(TaskRecord, bool)>, StoreError> {
        let mut command = redis::cmd("MGET");
        command.arg(self.key("task", id)).arg(self.key("lease", id));
        let found: Vec<Option<String>> = self.run(&command).await?;
        let mut found = found.into_iter();
        let (Some(Some(record)), leased) = (found.next(), found.next()) else {
            return Ok(None);
        };
        let task = serde_json::from_str(&record)
            .map_err(|error| StoreError::Backend(format!("task {id} is unreadable: {error}")))?;
        Ok(Some((task, matches!(leased, Some(Some(_))))))
    }

    /// The tasks `ids` and whether each is leased, in one `MGET`.
    async fn read_many(
        &self,
        ids: &[String],
    ) -> Result<Vec<Option<(TaskRecord, bool)>>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        let mut command = redis::cmd("MGET");
        for id in ids {
            command.arg(self.key("task", id)).arg(self.key("lease", id));
        }
        let found: Vec<Option<String>> = self.run(&command).await?;
        let mut tasks = Vec::with_capacity(ids.len());
        for (id, pair) in ids.iter().zip(found.chunks(2)) {
            let task = match pair {
                [Some(record), leased] => {
                    let task = serde_json::from_str(record).map_err(|error| {
                        StoreError::Backend(format!("task {id} is unreadable: {error}"))
                    })?;
                    Some((task, leased.is_some()))
                }
                _ => None,
            };
            tasks.push(task);
        }
        Ok(tasks)
    }

    pub(super) async fn get_many(
        &self,
        ids: &[String],
    ) -> Result<Vec<Option<TaskRecord>>, StoreError> {
        let mut tasks = Vec::with_capacity(ids.len());
        for (id, found) in ids.iter().zip(self.read_many(ids).await?) {
            tasks.push(match found {
                Some((task, leased)) => self.checked(id, task, leased).await?,
                None => None,
            });
        }
        Ok(tasks)
    }

    pub(super) async fn get(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let Some((task, leased)) = self.read(id).await? else {
            return Ok(None);
        };
        self.checked(id, task, leased).await
    }

    /// The task as read, or, unfinished with its lease gone, ended `failed` first.
    async fn checked(
        &self,
        id: &str,
        task: TaskRecord,
        leased: bool,
    ) -> Result<Option<TaskRecord>, StoreError> {
        if leased || task.status.is_terminal() {
            return Ok(Some(task));
        }
        // Nobody runs it any more: whoever sees that first ends it.
        let error = ErrorObject::new(code::INTERNAL_ERROR, LEASE_LOST);
        let failed = task.changed(TaskChange::Failed(error), now_ms());
        match self.compare_and_set(&failed).await {
            Ok(()) => {
                tracing::warn!(task = id, "a task's lease ran out: it failed");
                Ok(Some(failed))
            }
            Err(StoreError::Conflict) => Ok(self.read(id).await?.map(|(task, _)| task)),
            Err(error) => Err(error),
        }
    }

    pub(super) async fn signal(&self, id: &str, signal: TaskSignal) -> Result<(), StoreError> {
        let note = |kind: &str| serde_json::json!({ "task": id, "signal": kind }).to_string();
        match signal {
            TaskSignal::Answers(answers) => {
                let mut script = eval(SIGNAL_ANSWERS, 2);
                script
                    .arg(self.key("answers", id))
                    .arg(self.key("task", id))
                    .arg(self.channel())
                    .arg(note("answers"));
                for (key, answer) in &answers {
                    script.arg(key).arg(answer.to_string());
                }
                self.run::<i64>(&script).await.map(drop)
            }
            TaskSignal::Cancel => {
                let mut command = redis::cmd("PUBLISH");
                command.arg(self.channel()).arg(note("cancel"));
                self.run::<i64>(&command).await.map(drop)
            }
        }
    }

    pub(super) async fn release(&self, id: &str) -> Result<(), StoreError> {
        let Some(held) = self.lock_held().remove(id) else {
            return Ok(());
        };
        let mut script = eval(RELEASE, 2);
        script
            .arg(held.owner_key)
            .arg(self.key("lease", id))
            .arg(id)
            .arg(&self.replica);
        self.run::<i64>(&script).await.map(drop)
    }

    /// Refreshes the leases of the tasks running here; hands over waiting answers and stops
    /// tasks that ended elsewhere (cancelled, or failed after their lease ran out).
    pub(super) async fn refresh(&self) -> Result<(), StoreError> {
        let ids: Vec<String> = self.lock_held().keys().cloned().collect();
        for batch in ids.chunks(REFRESH_BATCH) {
            let mut script = eval(REFRESH, 0);
            script
                .arg(&self.prefix)
                .arg(&self.replica)
                .arg(self.lease_ms());
            for id in batch {
                script.arg(id);
            }
            let states: Vec<i64> = self.run(&script).await?;
            for (id, state) in batch.iter().zip(states) {
                match state {
                    1 => self.hand_over(id, TaskSignal::Cancel),
                    2 => self.take_answers(id).await?,
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// Takes the answers waiting for the task `id` (running here) and hands them over.
    pub(super) async fn take_answers(&self, id: &str) -> Result<(), StoreError> {
        let mut script = eval(TAKE_ANSWERS, 1);
        script.arg(self.key("answers", id));
        let flat: Vec<String> = self.run(&script).await?;
        let mut answers = Map::new();
        for pair in flat.chunks(2) {
            if let [key, answer] = pair {
                match serde_json::from_str::<Value>(answer) {
                    Ok(answer) => {
                        answers.insert(key.clone(), answer);
                    }
                    Err(_) => tracing::warn!(task = id, key, "an unreadable answer was dropped"),
                }
            }
        }
        if !answers.is_empty() {
            self.hand_over(id, TaskSignal::Answers(answers));
        }
        Ok(())
    }

    /// Hands `signal` to the runtime running the task `id` here, if one does.
    pub(super) fn hand_over(&self, id: &str, signal: TaskSignal) {
        let mut runtimes = self.runtimes.lock().unwrap_or_else(|e| e.into_inner());
        runtimes.retain(TaskSignals::is_alive);
        for runtime in runtimes.iter() {
            if runtime.deliver(id, signal.clone()) {
                return;
            }
        }
    }

    /// Acts on a note from the channel.
    pub(super) async fn on_note(&self, payload: &str) {
        let Ok(note) = serde_json::from_str::<Value>(payload) else {
            return;
        };
        let Some(id) = note["task"].as_str() else {
            return;
        };
        if !self.lock_held().contains_key(id) {
            return;
        }
        match note["signal"].as_str() {
            Some("answers") => {
                if let Err(error) = self.take_answers(id).await {
                    tracing::warn!(%error, task = id, "taking a task's answers failed");
                }
            }
            Some("cancel") => self.hand_over(id, TaskSignal::Cancel),
            _ => {}
        }
    }

    pub(super) fn lock_held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// `work`, bounded by `timeout`; Redis errors by kind only (never the URL).
pub(super) async fn bounded<T>(
    timeout: Duration,
    work: impl Future<Output = redis::RedisResult<T>>,
) -> Result<T, StoreError> {
    match tokio::time::timeout(timeout, work).await {
        Ok(Ok(answer)) => Ok(answer),
        Ok(Err(error)) => Err(StoreError::Backend(format!(
            "Redis refused the command: {:?}",
            error.kind()
        ))),
        Err(_) => Err(StoreError::Backend(
            "Redis did not answer within the timeout".into(),
        )),
    }
}

impl Shared {
    /// The task's expiry for Redis, in milliseconds since the epoch: its TTL's, or for a task
    /// without one the retention from now (every key the store writes expires).
    fn expiry(&self, task: &TaskRecord) -> u64 {
        let at = task.expires_at_ms().unwrap_or_else(|| {
            let now = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap_or_default()
                .as_millis() as u64;
            now.saturating_add(self.retention_ms.load(Ordering::Relaxed))
        });
        at.clamp(1, LATEST_EXPIRY_MS)
    }
}

fn to_json(task: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(task).map_err(|error| StoreError::Backend(error.to_string()))
}
