//! `Tasks`: a server's tasks at run time. The store holds what clients read; this process holds
//! what cannot be stored: each running task's cancellation and the answers on their way to it.

use super::record::{TaskChange, TaskRecord, now_ms};
use super::signals::{SignalTarget, TaskSignal};
use super::store::{Admission, StoreError, TaskStore};
use crate::context::task::{StatusReporter, TaskLink};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

/// How often at most the store is swept for expired tasks (on task creation).
const SWEEP_EVERY_MS: u64 = 1_000;
/// How many times a change is tried again when the task changed meanwhile.
const CHANGE_ATTEMPTS: usize = 8;

/// A server's tasks: the store and this process's running ones.
pub(crate) struct Tasks {
    pub(crate) store: Arc<dyn TaskStore>,
    pub(crate) ttl_ms: Option<u64>,
    pub(crate) poll_interval_ms: u64,
    /// How many unfinished tasks one principal may have running here.
    max_live_per_principal: usize,
    running: Mutex<RunningTable>,
    last_sweep_ms: AtomicU64,
    /// Every change this process made, for `notifications/tasks` on listen streams.
    changes: tokio::sync::broadcast::Sender<Arc<TaskRecord>>,
}

/// How many task changes a listen stream may fall behind before it skips the oldest.
const CHANGES_BUFFERED: usize = 256;

/// The tasks running here, and how many each principal has.
#[derive(Default)]
struct RunningTable {
    tasks: HashMap<String, Arc<Running>>,
    per_owner: HashMap<Option<Arc<str>>, usize>,
}

/// The caller already has as many unfinished tasks as it may.
#[derive(Debug)]
pub(crate) struct QuotaReached(pub(crate) usize);

/// Why a task was not created.
#[derive(Debug)]
pub(crate) enum NotCreated {
    /// Its owner has its quota of unfinished tasks (counted by a store shared by replicas).
    Quota(QuotaReached),
    /// The store refused or failed.
    Store(StoreError),
}

/// One task running in this process.
pub(crate) struct Running {
    owner: Option<Arc<str>>,
    pub(crate) cancel: CancellationToken,
    answers: Mutex<Map<String, Value>>,
    arrived: Notify,
}

impl Running {
    /// Waits until every key of `keys` has an answer, and takes those answers.
    pub(crate) async fn answers_for(&self, keys: &[String]) -> Map<String, Value> {
        loop {
            {
                let mut answers = self.answers.lock().unwrap_or_else(|e| e.into_inner());
                if keys.iter().all(|key| answers.contains_key(key)) {
                    return keys
                        .iter()
                        .filter_map(|key| answers.remove(key).map(|answer| (key.clone(), answer)))
                        .collect();
                }
            }
            self.arrived.notified().await;
        }
    }
}

/// What a lookup found.
pub(crate) enum Lookup {
    Found(Box<TaskRecord>),
    /// Its TTL ran out (it is deleted at the next sweep).
    Expired,
    /// No such task, or another principal's.
    Unknown,
}

impl Lookup {
    /// What `owner` may see of `task` (as the store found it) at `now_ms`.
    fn of(task: Option<TaskRecord>, owner: Option<&str>, now_ms: u64) -> Self {
        match task {
            Some(task) if task.owner.as_deref() != owner => Lookup::Unknown,
            Some(task) if task.is_expired(now_ms) => Lookup::Expired,
            Some(task) => Lookup::Found(Box::new(task)),
            None => Lookup::Unknown,
        }
    }
}

impl Tasks {
    pub(crate) fn new(
        store: Arc<dyn TaskStore>,
        ttl_ms: Option<u64>,
        poll_interval_ms: u64,
        max_live_per_principal: usize,
    ) -> Self {
        Self {
            store,
            ttl_ms,
            poll_interval_ms,
            max_live_per_principal: max_live_per_principal.max(1),
            running: Mutex::new(RunningTable::default()),
            last_sweep_ms: AtomicU64::new(0),
            changes: tokio::sync::broadcast::channel(CHANGES_BUFFERED).0,
        }
    }

    /// The changes made from now on (each task's new version).
    pub(crate) fn subscribe(&self) -> tokio::sync::broadcast::Receiver<Arc<TaskRecord>> {
        self.changes.subscribe()
    }

    /// A fresh, unguessable task id: 128 random bits, hex.
    pub(crate) fn new_id() -> String {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes).expect("the OS random source works");
        bytes.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// A `working` record for a new task of `owner`.
    pub(crate) fn new_record(&self, id: &str, owner: Option<&str>) -> TaskRecord {
        TaskRecord::working(
            id,
            owner.map(str::to_owned),
            now_ms(),
            self.ttl_ms,
            self.poll_interval_ms,
        )
    }

    /// Registers a task of `owner` about to run here, and the link its context carries; refused
    /// when `owner` (anonymous callers counting as one) already has its quota of unfinished
    /// tasks, so one caller cannot fill the store.
    pub(crate) fn start(
        self: &Arc<Self>,
        id: &str,
        owner: Option<&str>,
    ) -> Result<(Arc<Running>, TaskLink), QuotaReached> {
        let owner: Option<Arc<str>> = owner.map(Arc::from);
        let running = Arc::new(Running {
            owner: owner.clone(),
            cancel: CancellationToken::new(),
            answers: Mutex::new(Map::new()),
            arrived: Notify::new(),
        });
        {
            let mut table = self.lock();
            let held = table.per_owner.entry(owner).or_default();
            if *held >= self.max_live_per_principal {
                return Err(QuotaReached(self.max_live_per_principal));
            }
            *held += 1;
            table.tasks.insert(id.to_owned(), running.clone());
        }
        let link = TaskLink {
            id: Arc::from(id),
            cancel: running.cancel.clone(),
            reporter: Arc::new(Reporter {
                tasks: self.clone(),
                id: id.to_owned(),
            }),
        };
        Ok((running, link))
    }

    /// Keeps the new task `record`, registered with [`Tasks::start`] to run here, within its
    /// owner's quota as the store counts it (across replicas, for a shared store).
    pub(crate) async fn create(&self, record: &TaskRecord) -> Result<(), NotCreated> {
        match self
            .store
            .create_within_quota(record, self.max_live_per_principal)
            .await
        {
            Ok(Admission::Created) => Ok(()),
            Ok(Admission::QuotaReached) => {
                Err(NotCreated::Quota(QuotaReached(self.max_live_per_principal)))
            }
            Err(error) => Err(NotCreated::Store(error)),
        }
    }

    /// Forgets a task that stopped running here, and releases it in the store (its place in
    /// the owner's quota, and for a shared store its lease).
    pub(crate) fn finish(&self, id: &str) {
        {
            let mut table = self.lock();
            if let Some(running) = table.tasks.remove(id)
                && let Some(held) = table.per_owner.get_mut(&running.owner)
            {
                *held -= 1;
                if *held == 0 {
                    table.per_owner.remove(&running.owner);
                }
            }
        }
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            let store = self.store.clone();
            let id = id.to_owned();
            runtime.spawn(async move {
                if let Err(error) = store.release(&id).await {
                    tracing::warn!(%error, task = id, "releasing a task in the store failed");
                }
            });
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RunningTable> {
        self.running.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Asks the task `id` running here to stop; whether it runs here.
    pub(crate) fn cancel(&self, id: &str) -> bool {
        match self.lock().tasks.get(id) {
            Some(running) => {
                running.cancel.cancel();
                true
            }
            None => false,
        }
    }

    /// Hands answers to the task `id` running here; whether it runs here.
    fn deliver_here(&self, id: &str, answers: Map<String, Value>) -> bool {
        match self.lock().tasks.get(id) {
            Some(running) => {
                running
                    .answers
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .extend(answers);
                running.arrived.notify_one();
                true
            }
            None => false,
        }
    }

    /// Hands answers to the task `id`: here if it runs here, else through the store to the
    /// replica running it.
    pub(crate) async fn deliver(
        &self,
        id: &str,
        answers: Map<String, Value>,
    ) -> Result<(), StoreError> {
        let here = self.lock().tasks.contains_key(id);
        if here {
            self.deliver_here(id, answers);
            return Ok(());
        }
        self.store.signal(id, TaskSignal::Answers(answers)).await
    }

    /// Stops the task `id` (already recorded `cancelled`): here if it runs here, else through
    /// the store on the replica running it.
    pub(crate) async fn stop(&self, id: &str) -> Result<(), StoreError> {
        if self.cancel(id) {
            return Ok(());
        }
        self.store.signal(id, TaskSignal::Cancel).await
    }

    /// The task `id` as `owner` may see it.
    pub(crate) async fn lookup(&self, id: &str, owner: Option<&str>) -> Result<Lookup, StoreError> {
        Ok(Lookup::of(self.store.get(id).await?, owner, now_ms()))
    }

    /// The tasks `ids` as `owner` may see them, read in one go.
    pub(crate) async fn lookup_many(
        &self,
        ids: &[String],
        owner: Option<&str>,
    ) -> Result<Vec<Lookup>, StoreError> {
        let now = now_ms();
        let found = self.store.get_many(ids).await?;
        Ok(found
            .into_iter()
            .map(|task| Lookup::of(task, owner, now))
            .collect())
    }

    /// Applies `change` to the task `id` (reading it again when it changed meanwhile); `None`
    /// when the task is gone or already terminal.
    pub(crate) async fn change(
        &self,
        id: &str,
        change: impl Fn(&TaskRecord) -> Option<TaskChange>,
    ) -> Result<Option<TaskRecord>, StoreError> {
        for _ in 0..CHANGE_ATTEMPTS {
            let Some(task) = self.store.get(id).await? else {
                return Ok(None);
            };
            if task.status.is_terminal() {
                return Ok(None);
            }
            let Some(change) = change(&task) else {
                return Ok(Some(task));
            };
            let next = task.changed(change, now_ms());
            match self.store.compare_and_set(&next).await {
                Ok(()) => {
                    let _ = self.changes.send(Arc::new(next.clone()));
                    return Ok(Some(next));
                }
                Err(StoreError::Conflict) => continue,
                Err(error) => return Err(error),
            }
        }
        Err(StoreError::Backend(format!(
            "task {id} kept changing; gave up after {CHANGE_ATTEMPTS} attempts"
        )))
    }

    /// Sweeps the store for expired tasks, at most once a second, stopping those running here.
    pub(crate) async fn sweep_if_due(&self) {
        let now = now_ms();
        let last = self.last_sweep_ms.load(Ordering::Relaxed);
        if now < last.saturating_add(SWEEP_EVERY_MS)
            || self
                .last_sweep_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return;
        }
        match self.store.sweep(now).await {
            Ok(expired) => {
                for id in expired {
                    self.cancel(&id);
                }
            }
            Err(error) => tracing::warn!(%error, "sweeping expired tasks failed"),
        }
    }
}

impl SignalTarget for Tasks {
    fn receive(&self, id: &str, signal: TaskSignal) -> bool {
        match signal {
            TaskSignal::Answers(answers) => self.deliver_here(id, answers),
            TaskSignal::Cancel => self.cancel(id),
        }
    }
}

/// Sets a task's status message from its context's progress reports.
struct Reporter {
    tasks: Arc<Tasks>,
    id: String,
}

impl StatusReporter for Reporter {
    fn report(&self, message: String) -> Pin<Box<dyn Future<Output = ()> + Send + '_>> {
        Box::pin(async move {
            let changed = self
                .tasks
                .change(&self.id, |_| {
                    Some(TaskChange::StatusMessage(message.clone()))
                })
                .await;
            if let Err(error) = changed {
                tracing::warn!(%error, task = self.id, "recording a task's progress failed");
            }
        })
    }
}
