//! [`RedisBackend`]: the one connection to the fleet's Redis, this replica's id, its heartbeat,
//! and the stores it hands out (`stores.rs`).

use super::super::super::shared::Unavailable;
use super::super::random_replica_id;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// How long one command may take by default.
const COMMAND_TIMEOUT: Duration = Duration::from_millis(500);
/// How often a replica says it is alive, and how long the word lasts.
pub(super) const HEARTBEAT: Duration = Duration::from_secs(2);
pub(super) const ALIVE_FOR: Duration = Duration::from_secs(6);

/// A fleet's shared state in Redis, on one connection: set it on every replica with
/// [`HttpServer::fleet`](crate::transport::HttpServer::fleet), and 2025-11-25 sessions,
/// resumable streams, the server's questions to the client, change notifications, tasks and the
/// `#[tool(once)]` record work whichever replica a request lands on. 2026-07-28 requests touch
/// it only for tasks and `#[tool(once)]` calls (the bus carries their listeners' changes).
///
/// One backend is one connection manager for every store it hands out
/// ([`session_store`](RedisBackend::session_store), [`event_store`](RedisBackend::event_store),
/// [`bus`](RedisBackend::bus), [`task_store`](RedisBackend::task_store),
/// [`replay_guard`](RedisBackend::replay_guard),
/// [`rate_limit_buckets`](RedisBackend::rate_limit_buckets)); besides it, the bus and the task
/// store's signals each hold a subscriber connection, and the followers of streams other
/// replicas run hold one blocking reader while there are any.
///
/// **Keys.** Every key lives under the backend's prefix, `mcp:{server name}:` by convention (a
/// prefix given without its trailing `:` gets one): sessions and streams as the table of
/// `transport/http/fleet/redis/mod.rs` says (`{prefix}r:…`, `{prefix}e:…`, …), tasks under
/// `{prefix}task:…` and the task store's other keys (see [`RedisTaskStore`]), the `#[tool(once)]`
/// record under `{prefix}once:…`, rate limits under `{prefix}rate:{limit}:…`. Every key expires.
///
/// **Failure.** Commands are bounded ([`RedisBackend::command_timeout`], default 500 ms, for
/// every store handed out after it is set). When Redis cannot be reached, requests that need it
/// are refused with `503` (a new or unknown session) or a JSON-RPC error (a task, a
/// `#[tool(once)]` call), sessions this replica holds go on, a shared rate limit falls back to
/// this replica's buckets, and the connection is made again in the background.
///
/// [`RedisTaskStore`]: crate::tasks::RedisTaskStore
///
/// ```no_run
/// use mcpwire::McpServer;
/// use mcpwire::transport::http::RedisBackend;
///
/// # async fn run() -> mcpwire::Result<()> {
/// let backend = RedisBackend::connect("unix:///run/redis/redis.sock", "mcp:shop")
///     .await?
///     .with_replica_id("shop-1");
/// McpServer::new("shop").http().fleet(&backend).serve("0.0.0.0:8080").await
/// # }
/// ```
#[derive(Clone)]
pub struct RedisBackend {
    pub(super) inner: Arc<Inner>,
}

/// The earlier name of [`RedisBackend`], when it shared sessions only.
pub type RedisFleet = RedisBackend;

pub(super) struct Inner {
    pub(super) client: redis::Client,
    pub(super) connection: ConnectionManager,
    pub(super) prefix: String,
    /// How long one command may take, in ms ([`RedisBackend::command_timeout`]).
    timeout_ms: AtomicU64,
    replica: Mutex<Arc<str>>,
    /// Drawn at start: tells this process from an earlier one restarted with the same replica
    /// id (its streams' owner, its messages' sender).
    instance: String,
    target: String,
    /// Where the stores' background work runs (the runtime that connected).
    pub(super) runtime: tokio::runtime::Handle,
}

impl std::fmt::Debug for RedisBackend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisBackend")
            .field("target", &self.inner.target)
            .field("prefix", &self.inner.prefix)
            .field("replica", &self.replica())
            .field("command_timeout", &self.inner.timeout())
            .finish_non_exhaustive()
    }
}

impl RedisBackend {
    /// Connects to the Redis at `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST`,
    /// `unix:///path/to/redis.sock`), keeping every key under `prefix` (one per server,
    /// `mcp:{server name}` by convention: every replica of it uses the same; a `:` is added
    /// when it does not end with one). The replica id is random until
    /// [`with_replica_id`](RedisBackend::with_replica_id).
    ///
    /// # Errors
    ///
    /// When the URL is not a Redis URL, or no connection is made within the command timeout.
    /// The error never repeats the URL (it may hold a password).
    pub async fn connect(url: &str, prefix: impl Into<String>) -> Result<Self, Unavailable> {
        let client =
            redis::Client::open(url).map_err(|_| Unavailable::new("the Redis URL is not valid"))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(COMMAND_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            .set_number_of_retries(1);
        let connecting = ConnectionManager::new_with_config(client.clone(), config);
        let connection = tokio::time::timeout(COMMAND_TIMEOUT * 4, connecting)
            .await
            .map_err(|_| Unavailable::new("no connection to Redis within the timeout"))?
            .map_err(|error| {
                Unavailable::new(format!("cannot connect to Redis: {:?}", error.kind()))
            })?;
        let inner = Arc::new(Inner {
            target: describe(client.get_connection_info()),
            client,
            connection,
            prefix: key_prefix(prefix.into()),
            timeout_ms: AtomicU64::new(COMMAND_TIMEOUT.as_millis() as u64),
            runtime: tokio::runtime::Handle::current(),
            replica: Mutex::new(Arc::from(random_replica_id())),
            instance: random_replica_id(),
        });
        tokio::spawn(heartbeat(Arc::downgrade(&inner)));
        Ok(Self { inner })
    }

    /// This replica's id (default: random). Each process must have its own
    /// ([`RedisBackend::from_env`] reads `MCP_REPLICA_ID`).
    ///
    /// ```no_run
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = mcpwire::transport::http::RedisBackend::connect("redis://127.0.0.1", "mcp:shop")
    ///     .await?
    ///     .with_replica_id("shop-2");
    /// assert_eq!(&*backend.replica(), "shop-2");
    /// # Ok(()) }
    /// ```
    pub fn with_replica_id(self, id: impl Into<String>) -> Self {
        *self.inner.replica.lock().unwrap_or_else(|e| e.into_inner()) = Arc::from(id.into());
        self
    }

    /// How long one command may take before the request needing it is refused (default
    /// 500 ms), for every store: set it right after connecting, before handing out stores
    /// (before [`HttpServer::fleet`](crate::transport::HttpServer::fleet)): the task store,
    /// replay guard and rate-limit buckets take the timeout they are made with. The connection
    /// itself gives up on an answer after 500 ms: a longer timeout does not wait longer.
    ///
    /// ```no_run
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = mcpwire::transport::http::RedisBackend::connect("redis://127.0.0.1", "mcp:shop")
    ///     .await?
    ///     .command_timeout(std::time::Duration::from_millis(250));
    /// # drop(backend);
    /// # Ok(()) }
    /// ```
    pub fn command_timeout(self, timeout: Duration) -> Self {
        let timeout = timeout.as_millis().clamp(1, u128::from(u64::MAX)) as u64;
        self.inner.timeout_ms.store(timeout, Ordering::Relaxed);
        self
    }

    /// This replica's id. See [`RedisBackend::with_replica_id`] for an example.
    pub fn replica(&self) -> Arc<str> {
        self.inner.replica()
    }

    /// This process's id in the fleet: the replica id and an instance drawn at start, so a
    /// replica restarted under the same id is told from the process it replaces.
    ///
    /// ```no_run
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = mcpwire::transport::http::RedisBackend::connect("redis://127.0.0.1", "mcp:shop")
    ///     .await?
    ///     .with_replica_id("shop-1");
    /// assert!(backend.process().starts_with("shop-1/"));
    /// # Ok(()) }
    /// ```
    pub fn process(&self) -> String {
        self.inner.process()
    }

    /// Where Redis is, without credentials: `unix:///run/redis.sock`, `redis://host:6379/0`.
    /// For the start-up log.
    ///
    /// ```no_run
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = mcpwire::transport::http::RedisBackend::connect("redis://:secret@127.0.0.1", "mcp:shop")
    ///     .await?;
    /// assert_eq!(backend.target(), "redis://127.0.0.1:6379/0");
    /// # Ok(()) }
    /// ```
    pub fn target(&self) -> &str {
        &self.inner.target
    }

    /// The key prefix, ending with `:`.
    ///
    /// ```no_run
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = mcpwire::transport::http::RedisBackend::connect("redis://127.0.0.1", "mcp:shop")
    ///     .await?;
    /// assert_eq!(backend.prefix(), "mcp:shop:");
    /// # Ok(()) }
    /// ```
    pub fn prefix(&self) -> &str {
        &self.inner.prefix
    }
}

impl Inner {
    /// How long one command may take.
    pub(super) fn timeout(&self) -> Duration {
        Duration::from_millis(self.timeout_ms.load(Ordering::Relaxed))
    }

    pub(super) fn replica(&self) -> Arc<str> {
        self.replica
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// This process among the fleet's: its replica id and its instance. A replica restarted
    /// with the same id is another process: what the dead one ran is not its own.
    pub(super) fn process(&self) -> String {
        format!("{}/{}", self.replica(), self.instance)
    }

    /// Runs one command (or pipeline, or script) with the timeout.
    pub(super) async fn run<T, F>(&self, what: &str, command: F) -> Result<T, Unavailable>
    where
        F: std::future::Future<Output = redis::RedisResult<T>>,
    {
        let timeout = self.timeout();
        match tokio::time::timeout(timeout, command).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(Unavailable::new(format!(
                "Redis {what}: {:?}",
                error.kind()
            ))),
            Err(_) => Err(Unavailable::new(format!(
                "Redis {what}: no answer within {timeout:?}"
            ))),
        }
    }

    pub(super) fn alive_key(&self, replica: &str) -> String {
        format!("{}alive:{replica}", self.prefix)
    }
}

/// `prefix` ending with `:`: every key is `{prefix}{kind}…`.
fn key_prefix(mut prefix: String) -> String {
    if !prefix.ends_with(':') {
        prefix.push(':');
    }
    prefix
}

/// Where the connection goes, without user or password.
fn describe(info: &redis::ConnectionInfo) -> String {
    match info.addr() {
        redis::ConnectionAddr::Unix(path) => format!("unix://{}", path.display()),
        redis::ConnectionAddr::Tcp(host, port) => {
            format!("redis://{host}:{port}/{}", info.redis_settings().db())
        }
        redis::ConnectionAddr::TcpTls { host, port, .. } => {
            format!("rediss://{host}:{port}/{}", info.redis_settings().db())
        }
        _ => "redis".to_owned(),
    }
}

/// Says this replica is alive every [`HEARTBEAT`], until the fleet is dropped: a replica that
/// follows a stream another one runs tells the client when that one is gone.
async fn heartbeat(inner: Weak<Inner>) {
    let mut ticks = tokio::time::interval(HEARTBEAT);
    loop {
        ticks.tick().await;
        let Some(inner) = inner.upgrade() else {
            return;
        };
        let key = inner.alive_key(&inner.process());
        let mut connection = inner.connection.clone();
        if let Err(error) = inner
            .run(
                "heartbeat",
                redis::cmd("SET")
                    .arg(&key)
                    .arg(1)
                    .arg("PX")
                    .arg(ALIVE_FOR.as_millis() as u64)
                    .query_async::<()>(&mut connection),
            )
            .await
        {
            tracing::debug!(%error, "the heartbeat did not reach Redis");
        }
    }
}
