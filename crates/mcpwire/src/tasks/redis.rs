//! `RedisTaskStore` (feature `redis`): tasks kept in Redis, so that every replica of a fleet can
//! answer `tasks/get`, `tasks/update` and `tasks/cancel` for any task; answers and cancels reach
//! the replica running the task over pub/sub, a lease turns the tasks of a replica that died
//! `failed`, and the per-principal quota is counted across the fleet.

use super::record::{TaskChange, TaskRecord, now_ms};
use super::signals::{TaskSignal, TaskSignals};
use super::store::{Admission, StoreError, StoreFuture, TaskStore};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use futures_util::StreamExt as _;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Notify;
use tokio_util::sync::{CancellationToken, DropGuard};

/// The error a task ends with when the replica running it stopped (its lease ran out).
pub const LEASE_LOST: &str =
    "The replica running this task stopped before the task ended; run it again";
/// How long a task outlives the last sign of life of the replica running it, by default.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(30);
/// How long one Redis command may take by default.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);
/// The shortest lease accepted.
const SHORTEST_LEASE: Duration = Duration::from_millis(30);
/// The latest expiry Redis is given (year 9999).
const LATEST_EXPIRY_MS: u64 = 253_402_300_799_000;
/// How many tasks one lease refresh covers (a larger set is refreshed in several scripts).
const REFRESH_BATCH: usize = 500;
/// The longest pause between two attempts to subscribe again.
const LONGEST_BACKOFF: Duration = Duration::from_secs(2);

/// Creates a task with its lease, within its owner's quota.
/// KEYS: task, lease, owner set. ARGV: record, expiry (ms since the epoch, 0: none), lease (ms),
/// replica, quota (0: none), lease key prefix, id.
const CREATE: &str = r#"
if redis.call('EXISTS', KEYS[1]) == 1 then return 'duplicate' end
local quota = tonumber(ARGV[5])
if quota > 0 and redis.call('SCARD', KEYS[3]) >= quota then
  for _, id in ipairs(redis.call('SMEMBERS', KEYS[3])) do
    if redis.call('EXISTS', ARGV[6] .. id) == 0 then redis.call('SREM', KEYS[3], id) end
  end
  if redis.call('SCARD', KEYS[3]) >= quota then return 'quota' end
end
local at = tonumber(ARGV[2])
if at > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', at)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
redis.call('SET', KEYS[2], ARGV[4], 'PX', ARGV[3])
redis.call('SADD', KEYS[3], ARGV[7])
local owners_at = redis.call('PEXPIRETIME', KEYS[3])
if at == 0 then
  redis.call('PERSIST', KEYS[3])
elseif (owners_at == -1 and redis.call('SCARD', KEYS[3]) == 1) or (owners_at >= 0 and owners_at < at) then
  redis.call('PEXPIREAT', KEYS[3], at)
end
return 'ok'
"#;

/// Replaces a task with its next version, if the stored one is the version before and not
/// terminal; a terminal version releases the task (quota, lease, pending answers).
/// KEYS: task, owner set, lease, answers. ARGV: next record, expiry (0: none), terminal (0/1), id.
const COMPARE_AND_SET: &str = r#"
local stored = redis.call('GET', KEYS[1])
if not stored then return 0 end
local held = cjson.decode(stored)
local next = cjson.decode(ARGV[1])
if held.version + 1 ~= next.version or held.id ~= next.id or held.owner ~= next.owner then return 0 end
local s = held.status
if s == 'completed' or s == 'failed' or s == 'cancelled' then return 0 end
local at = tonumber(ARGV[2])
if at > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'PXAT', at)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
if ARGV[3] == '1' then
  redis.call('SREM', KEYS[2], ARGV[4])
  redis.call('DEL', KEYS[3], KEYS[4])
end
return 1
"#;

/// Refreshes the leases of the tasks running here; says for each whether it ended (1: gone or
/// terminal) or has answers waiting (2), else 0.
/// ARGV: key prefix, replica, lease (ms), then the ids.
const REFRESH: &str = r#"
local out = {}
for i = 4, #ARGV do
  local id = ARGV[i]
  local stored = redis.call('GET', ARGV[1] .. ':task:' .. id)
  local state = 1
  if stored then
    local s = cjson.decode(stored).status
    if s ~= 'completed' and s ~= 'failed' and s ~= 'cancelled' then
      state = 0
      redis.call('SET', ARGV[1] .. ':lease:' .. id, ARGV[2], 'PX', ARGV[3])
      if redis.call('EXISTS', ARGV[1] .. ':answers:' .. id) == 1 then state = 2 end
    end
  end
  out[#out + 1] = state
end
return out
"#;

/// Keeps answers for the replica running a task, and tells it.
/// KEYS: answers, task. ARGV: channel, message, then key, answer, key, answer…
const SIGNAL_ANSWERS: &str = r#"
if redis.call('EXISTS', KEYS[2]) == 0 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local at = redis.call('PEXPIRETIME', KEYS[2])
if at > 0 then redis.call('PEXPIREAT', KEYS[1], at) end
redis.call('PUBLISH', ARGV[1], ARGV[2])
return 1
"#;

/// Takes a task's waiting answers. KEYS: answers.
const TAKE_ANSWERS: &str = r#"
local all = redis.call('HGETALL', KEYS[1])
redis.call('DEL', KEYS[1])
return all
"#;

/// Releases a task that stopped running here: its place in the quota, its lease if still ours.
/// KEYS: owner set, lease. ARGV: id, replica.
const RELEASE: &str = r#"
redis.call('SREM', KEYS[1], ARGV[1])
if redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
return 1
"#;

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

/// What the store and its background work share.
struct Shared {
    connection: ConnectionManager,
    prefix: String,
    /// This store's id (random), the value of the leases it holds.
    replica: String,
    lease_ms: AtomicU64,
    timeout_ms: AtomicU64,
    /// Wakes the refresher when the lease changed.
    lease_changed: Notify,
    /// The tasks running here, leased by this store.
    held: Mutex<HashMap<String, Held>>,
    /// The runtimes of the servers using this store.
    runtimes: Mutex<Vec<TaskSignals>>,
}

/// A task leased by this store.
struct Held {
    owner_key: String,
    expires_at_ms: Option<u64>,
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
    /// `unix:///path/to/redis.sock`), keeping the tasks under `prefix` (one per server: its
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
        let mut replica = [0u8; 8];
        getrandom::fill(&mut replica)
            .map_err(|_| StoreError::Backend("the OS random source failed".into()))?;
        let shared = Arc::new(Shared {
            connection,
            prefix: prefix.into(),
            replica: replica.iter().map(|b| format!("{b:02x}")).collect(),
            lease_ms: AtomicU64::new(DEFAULT_LEASE.as_millis() as u64),
            timeout_ms: AtomicU64::new(COMMAND_TIMEOUT.as_millis() as u64),
            lease_changed: Notify::new(),
            held: Mutex::new(HashMap::new()),
            runtimes: Mutex::new(Vec::new()),
        });
        let stop = CancellationToken::new();
        tokio::spawn(refresh_leases(shared.clone(), stop.clone()));
        tokio::spawn(subscribe(shared.clone(), client, stop.clone()));
        Ok(Self {
            shared,
            _stop: stop.drop_guard(),
        })
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

impl Shared {
    fn key(&self, kind: &str, id: &str) -> String {
        format!("{}:{kind}:{id}", self.prefix)
    }

    fn owner_key(&self, owner: Option<&str>) -> String {
        match owner {
            Some(owner) => format!("{}:owner:+{owner}", self.prefix),
            None => format!("{}:owner:-", self.prefix),
        }
    }

    fn channel(&self) -> String {
        format!("{}:signals", self.prefix)
    }

    fn lease_ms(&self) -> u64 {
        self.lease_ms.load(Ordering::Relaxed)
    }

    fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    /// Runs `command` (or a script) on the shared connection, bounded by the command timeout.
    async fn run<T: redis::FromRedisValue>(&self, command: &redis::Cmd) -> Result<T, StoreError> {
        let mut connection = self.connection.clone();
        bounded(self.timeout(), command.query_async::<T>(&mut connection)).await
    }

    /// Creates `task`, leased by this store; `quota` 0 counts nothing.
    async fn create(&self, task: &TaskRecord, quota: usize) -> Result<Admission, StoreError> {
        let record = to_json(task)?;
        let owner_key = self.owner_key(task.owner.as_deref());
        let mut script = eval(CREATE, 3);
        script
            .arg(self.key("task", &task.id))
            .arg(self.key("lease", &task.id))
            .arg(&owner_key)
            .arg(record)
            .arg(expiry(task))
            .arg(self.lease_ms())
            .arg(&self.replica)
            .arg(quota)
            .arg(format!("{}:lease:", self.prefix))
            .arg(&task.id);
        let answer: String = self.run(&script).await?;
        match answer.as_str() {
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
            other => Err(StoreError::Backend(format!(
                "unexpected answer from the create script: {other}"
            ))),
        }
    }

    async fn compare_and_set(&self, next: &TaskRecord) -> Result<(), StoreError> {
        if next.version == 0 {
            return Err(StoreError::Conflict);
        }
        let mut script = eval(COMPARE_AND_SET, 4);
        script
            .arg(self.key("task", &next.id))
            .arg(self.owner_key(next.owner.as_deref()))
            .arg(self.key("lease", &next.id))
            .arg(self.key("answers", &next.id))
            .arg(to_json(next)?)
            .arg(expiry(next))
            .arg(u8::from(next.status.is_terminal()))
            .arg(&next.id);
        match self.run::<i64>(&script).await? {
            1 => Ok(()),
            _ => Err(StoreError::Conflict),
        }
    }

    /// The task and whether its lease is held.
    async fn read(&self, id: &str) -> Result<Option<(TaskRecord, bool)>, StoreError> {
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

    async fn get(&self, id: &str) -> Result<Option<TaskRecord>, StoreError> {
        let Some((task, leased)) = self.read(id).await? else {
            return Ok(None);
        };
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

    async fn signal(&self, id: &str, signal: TaskSignal) -> Result<(), StoreError> {
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

    async fn release(&self, id: &str) -> Result<(), StoreError> {
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
    async fn refresh(&self) -> Result<(), StoreError> {
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
    async fn take_answers(&self, id: &str) -> Result<(), StoreError> {
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
    fn hand_over(&self, id: &str, signal: TaskSignal) {
        let mut runtimes = self.runtimes.lock().unwrap_or_else(|e| e.into_inner());
        runtimes.retain(TaskSignals::is_alive);
        for runtime in runtimes.iter() {
            if runtime.deliver(id, signal.clone()) {
                return;
            }
        }
    }

    /// Acts on a note from the channel.
    async fn on_note(&self, payload: &str) {
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

    fn lock_held(&self) -> std::sync::MutexGuard<'_, HashMap<String, Held>> {
        self.held.lock().unwrap_or_else(|e| e.into_inner())
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

/// Refreshes the leases every third of the lease, until `stop`.
async fn refresh_leases(shared: Arc<Shared>, stop: CancellationToken) {
    loop {
        let every = Duration::from_millis((shared.lease_ms() / 3).max(1));
        tokio::select! {
            () = stop.cancelled() => return,
            () = shared.lease_changed.notified() => continue,
            () = tokio::time::sleep(every) => {}
        }
        if let Err(error) = shared.refresh().await {
            tracing::warn!(%error, "refreshing the leases of running tasks failed");
        }
    }
}

/// Listens on the signal channel, subscribing again after every disconnection, until `stop`.
async fn subscribe(shared: Arc<Shared>, client: redis::Client, stop: CancellationToken) {
    let mut backoff = Duration::from_millis(50);
    loop {
        let listened = tokio::select! {
            () = stop.cancelled() => return,
            listened = listen_once(&shared, &client, &stop) => listened,
        };
        match listened {
            Ok(()) => backoff = Duration::from_millis(50),
            Err(error) => tracing::warn!(%error, "listening for task signals failed"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(LONGEST_BACKOFF);
    }
}

/// One subscription: returns when the connection is lost (or cannot be made).
async fn listen_once(
    shared: &Shared,
    client: &redis::Client,
    stop: &CancellationToken,
) -> Result<(), StoreError> {
    let timeout = shared.timeout();
    let mut pubsub = bounded(timeout, client.get_async_pubsub()).await?;
    bounded(timeout, pubsub.subscribe(shared.channel())).await?;
    // Notes published while no subscription was open: pick up what is waiting.
    shared.refresh().await?;
    let (mut sink, mut notes) = pubsub.split();
    loop {
        let check = Duration::from_millis(shared.lease_ms().max(1_000));
        tokio::select! {
            () = stop.cancelled() => return Ok(()),
            note = notes.next() => match note {
                Some(note) => {
                    if let Ok(payload) = note.get_payload::<String>() {
                        shared.on_note(&payload).await;
                    }
                }
                None => return Ok(()),
            },
            () = tokio::time::sleep(check) => {
                // A silent connection may be a dead one.
                bounded(timeout, sink.ping::<redis::Value>()).await?;
            }
        }
    }
}

/// `work`, bounded by `timeout`; Redis errors by kind only (never the URL).
async fn bounded<T>(
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

/// An `EVAL` of `script` with `keys` keys, arguments to follow.
fn eval(script: &str, keys: usize) -> redis::Cmd {
    let mut command = redis::cmd("EVAL");
    command.arg(script).arg(keys);
    command
}

/// The task's expiry for Redis, in milliseconds since the epoch; 0 when it never expires.
fn expiry(task: &TaskRecord) -> u64 {
    task.expires_at_ms()
        .map_or(0, |at| at.clamp(1, LATEST_EXPIRY_MS))
}

fn to_json(task: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(task).map_err(|error| StoreError::Backend(error.to_string()))
}
