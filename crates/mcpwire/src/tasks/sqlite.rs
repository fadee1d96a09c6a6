//! `SqliteTaskStore`: tasks in a SQLite database (feature `sqlite`), so completed results
//! survive a restart. Every statement runs on the blocking thread pool, never on the runtime's
//! threads.

use super::record::{TaskChange, TaskRecord, now_ms};
use super::store::{StoreError, StoreFuture, TaskStore};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use rusqlite::{Connection, OptionalExtension, params};
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The error a task that was running when the server stopped ends with.
pub const RESTARTED: &str = "The server restarted while the task was running; run it again";

/// Tasks in a SQLite database file, at most a fixed number (as [`MemoryTaskStore`]: when full,
/// the task that finished longest ago is evicted; with every task unfinished, creation fails).
///
/// Opening the database ends every task it holds that was still running: such a task's work was
/// lost with the process, so it becomes `failed` with [`RESTARTED`] (`-32603`). Completed,
/// failed and cancelled tasks keep their results until their TTL runs out.
///
/// [`MemoryTaskStore`]: super::MemoryTaskStore
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::TaskStatus;
/// use mcpwire::tasks::{SqliteTaskStore, TaskRecord, TaskStore};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let path = std::env::temp_dir().join(format!("mcpwire-doc-{}.db", std::process::id()));
/// let store = SqliteTaskStore::open(&path).await.unwrap();
/// store.create(&TaskRecord::working("t-1", None, 0, None, 1_000)).await.unwrap();
/// drop(store);
/// // After a restart, the task that was running has failed.
/// let store = SqliteTaskStore::open(&path).await.unwrap();
/// let task = store.get("t-1").await.unwrap().unwrap();
/// assert_eq!(task.status, TaskStatus::Failed);
/// # drop(store);
/// # let _ = std::fs::remove_file(&path);
/// # });
/// ```
pub struct SqliteTaskStore {
    db: Arc<Mutex<Db>>,
    capacity: usize,
}

/// The connection, and how many rows the table holds (counted once, at open).
struct Db {
    connection: Connection,
    rows: usize,
}

impl SqliteTaskStore {
    /// Opens (or creates) the database at `path`, keeping at most
    /// [`DEFAULT_CAPACITY`](super::DEFAULT_CAPACITY) tasks, and fails the tasks that were
    /// running when it was last closed.
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the file cannot be opened or is not such a database.
    pub async fn open(path: impl AsRef<Path>) -> Result<Self, StoreError> {
        Self::open_with_capacity(path, super::DEFAULT_CAPACITY).await
    }

    /// As [`SqliteTaskStore::open`], keeping at most `capacity` tasks (at least one).
    ///
    /// # Errors
    ///
    /// [`StoreError::Backend`] when the file cannot be opened or is not such a database.
    pub async fn open_with_capacity(
        path: impl AsRef<Path>,
        capacity: usize,
    ) -> Result<Self, StoreError> {
        let path = path.as_ref().to_owned();
        let db = tokio::task::spawn_blocking(move || -> Result<Db, StoreError> {
            create_owner_only(&path)?;
            let connection = Connection::open(&path).map_err(backend)?;
            connection
                .execute_batch(
                    "PRAGMA journal_mode = WAL;
                     PRAGMA synchronous = NORMAL;
                     CREATE TABLE IF NOT EXISTS mcpwire_tasks (
                         id TEXT PRIMARY KEY,
                         version INTEGER NOT NULL,
                         terminal INTEGER NOT NULL,
                         updated_at_ms INTEGER NOT NULL,
                         expires_at_ms INTEGER,
                         record TEXT NOT NULL
                     );
                     CREATE INDEX IF NOT EXISTS mcpwire_tasks_expiry
                         ON mcpwire_tasks (expires_at_ms);
                     CREATE INDEX IF NOT EXISTS mcpwire_tasks_finished
                         ON mcpwire_tasks (terminal, updated_at_ms);",
                )
                .map_err(backend)?;
            fail_interrupted(&connection)?;
            let rows: i64 = connection
                .query_row("SELECT COUNT(*) FROM mcpwire_tasks", [], |row| row.get(0))
                .map_err(backend)?;
            Ok(Db {
                connection,
                rows: rows as usize,
            })
        })
        .await
        .map_err(|_| StoreError::Backend("opening the task database panicked".into()))??;
        Ok(Self {
            db: Arc::new(Mutex::new(db)),
            capacity: capacity.max(1),
        })
    }

    /// Runs `work` on the connection, on the blocking pool.
    fn with<T: Send + 'static>(
        &self,
        work: impl FnOnce(&mut Db, usize) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'_, T> {
        let db = self.db.clone();
        let capacity = self.capacity;
        Box::pin(async move {
            tokio::task::spawn_blocking(move || {
                let mut db = db.lock().unwrap_or_else(|e| e.into_inner());
                work(&mut db, capacity)
            })
            .await
            .map_err(|_| StoreError::Backend("a task database statement panicked".into()))?
        })
    }
}

impl TaskStore for SqliteTaskStore {
    fn create<'a>(&'a self, task: &'a TaskRecord) -> StoreFuture<'a, ()> {
        let task = task.clone();
        self.with(move |store, capacity| {
            let db = &store.connection;
            if store.rows >= capacity {
                let evicted = db
                    .execute(
                        "DELETE FROM mcpwire_tasks WHERE id = (SELECT id FROM mcpwire_tasks
                         WHERE terminal = 1 ORDER BY updated_at_ms LIMIT 1)",
                        [],
                    )
                    .map_err(backend)?;
                if evicted == 0 {
                    return Err(StoreError::Full);
                }
                store.rows -= evicted;
            }
            let inserted = db
                .execute(
                    "INSERT OR IGNORE INTO mcpwire_tasks
                     (id, version, terminal, updated_at_ms, expires_at_ms, record)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                    params![
                        task.id,
                        task.version as i64,
                        task.status.is_terminal(),
                        task.updated_at_ms as i64,
                        task.expires_at_ms().map(|at| at as i64),
                        to_json(&task)?,
                    ],
                )
                .map_err(backend)?;
            match inserted {
                0 => Err(StoreError::Duplicate),
                _ => {
                    store.rows += 1;
                    Ok(())
                }
            }
        })
    }

    fn get<'a>(&'a self, id: &'a str) -> StoreFuture<'a, Option<TaskRecord>> {
        let id = id.to_owned();
        self.with(move |store, _| read(&store.connection, &id))
    }

    fn compare_and_set<'a>(&'a self, next: &'a TaskRecord) -> StoreFuture<'a, ()> {
        let next = next.clone();
        self.with(move |store, _| {
            let db = &store.connection;
            match read(db, &next.id)? {
                Some(current) if current.may_become(&next) => {}
                _ => return Err(StoreError::Conflict),
            }
            let updated = db
                .execute(
                    "UPDATE mcpwire_tasks SET version = ?2, terminal = ?3, updated_at_ms = ?4,
                     expires_at_ms = ?5, record = ?6 WHERE id = ?1 AND version = ?7",
                    params![
                        next.id,
                        next.version as i64,
                        next.status.is_terminal(),
                        next.updated_at_ms as i64,
                        next.expires_at_ms().map(|at| at as i64),
                        to_json(&next)?,
                        next.version as i64 - 1,
                    ],
                )
                .map_err(backend)?;
            match updated {
                0 => Err(StoreError::Conflict),
                _ => Ok(()),
            }
        })
    }

    fn sweep(&self, now_ms: u64) -> StoreFuture<'_, Vec<String>> {
        self.with(move |store, _| {
            let ids = {
                let mut statement = store
                    .connection
                    .prepare(
                        "DELETE FROM mcpwire_tasks WHERE expires_at_ms IS NOT NULL
                         AND expires_at_ms <= ?1 RETURNING id",
                    )
                    .map_err(backend)?;
                statement
                    .query_map([now_ms as i64], |row| row.get::<_, String>(0))
                    .map_err(backend)?
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(backend)?
            };
            store.rows = store.rows.saturating_sub(ids.len());
            Ok(ids)
        })
    }
}

/// Ends every task that was still running when the database was last closed.
fn fail_interrupted(db: &Connection) -> Result<(), StoreError> {
    let mut statement = db
        .prepare("SELECT record FROM mcpwire_tasks WHERE terminal = 0")
        .map_err(backend)?;
    let running: Vec<String> = statement
        .query_map([], |row| row.get(0))
        .map_err(backend)?
        .collect::<Result<_, _>>()
        .map_err(backend)?;
    let error = ErrorObject::new(code::INTERNAL_ERROR, RESTARTED);
    let interrupted = running.len();
    for record in running {
        let Ok(task) = serde_json::from_str::<TaskRecord>(&record) else {
            continue;
        };
        let failed = task.changed(TaskChange::Failed(error.clone()), now_ms());
        db.execute(
            "UPDATE mcpwire_tasks SET version = ?2, terminal = 1, updated_at_ms = ?3, record = ?4
             WHERE id = ?1",
            params![
                failed.id,
                failed.version as i64,
                failed.updated_at_ms as i64,
                to_json(&failed)?,
            ],
        )
        .map_err(backend)?;
    }
    if interrupted > 0 {
        tracing::warn!(
            interrupted,
            "failed the tasks that were running when the server last stopped"
        );
    }
    Ok(())
}

fn read(db: &Connection, id: &str) -> Result<Option<TaskRecord>, StoreError> {
    let record: Option<String> = db
        .query_row(
            "SELECT record FROM mcpwire_tasks WHERE id = ?1",
            [id],
            |row| row.get(0),
        )
        .optional()
        .map_err(backend)?;
    record
        .map(|record| {
            serde_json::from_str(&record)
                .map_err(|error| StoreError::Backend(format!("task {id} is unreadable: {error}")))
        })
        .transpose()
}

fn to_json(task: &TaskRecord) -> Result<String, StoreError> {
    serde_json::to_string(task).map_err(|error| StoreError::Backend(error.to_string()))
}

/// Creates the database file readable and writable by its owner only (0600 on Unix) when it does
/// not exist yet: tasks hold results and questions meant for their callers alone. SQLite gives
/// its `-wal` and `-shm` files the database file's permissions.
fn create_owner_only(path: &Path) -> Result<(), StoreError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => Err(StoreError::Backend(format!(
            "creating the task database failed: {error}"
        ))),
    }
}

fn backend(error: rusqlite::Error) -> StoreError {
    StoreError::Backend(error.to_string())
}
