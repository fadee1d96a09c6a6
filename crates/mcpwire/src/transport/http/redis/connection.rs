//! [`RedisFleet`]: the connection to the fleet's Redis, this replica's id, and its heartbeat.

use super::super::fleet::random_replica_id;
use super::super::shared::Unavailable;
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

/// How long one command may take by default.
const COMMAND_TIMEOUT: Duration = Duration::from_millis(500);
/// How often a replica says it is alive, and how long the word lasts.
pub(super) const HEARTBEAT: Duration = Duration::from_secs(2);
pub(super) const ALIVE_FOR: Duration = Duration::from_secs(6);

/// A fleet's shared state in Redis: set it on every replica with [`HttpServer::fleet`](crate::transport::HttpServer::fleet), and
/// 2025-11-25 sessions, resumable streams, the server's questions to the client and change
/// notifications work whichever replica a request lands on. 2026-07-28 requests never touch
/// it (the bus carries their listeners' changes).
///
/// Commands are bounded ([`RedisFleet::command_timeout`], default 500 ms). When Redis cannot be
/// reached, requests that need it are refused with `503` (a new or unknown session) while
/// sessions this replica holds go on, and the connection is made again in the background.
///
/// ```no_run
/// use mcpwire::McpServer;
/// use mcpwire::transport::http::RedisFleet;
///
/// # async fn run() -> mcpwire::Result<()> {
/// let fleet = RedisFleet::connect("unix:///run/redis/redis.sock", "mcp:shop:")
///     .await?
///     .with_replica_id("shop-1");
/// McpServer::new("shop").http().fleet(&fleet).serve("0.0.0.0:8080").await
/// # }
/// ```
#[derive(Clone)]
pub struct RedisFleet {
    pub(super) inner: Arc<Inner>,
}

pub(super) struct Inner {
    pub(super) client: redis::Client,
    pub(super) connection: ConnectionManager,
    pub(super) prefix: String,
    pub(super) timeout: Duration,
    replica: Mutex<Arc<str>>,
    /// Drawn at start: tells this process from an earlier one restarted with the same replica
    /// id (its streams' owner, its messages' sender).
    instance: String,
    target: String,
}

impl std::fmt::Debug for RedisFleet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisFleet")
            .field("target", &self.inner.target)
            .field("prefix", &self.inner.prefix)
            .field("replica", &self.replica())
            .finish_non_exhaustive()
    }
}

impl RedisFleet {
    /// Connects to the Redis at `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST`,
    /// `unix:///path/to/redis.sock`), keeping the fleet's keys under `prefix` (one per server:
    /// every replica of it uses the same). The replica id is random until
    /// [`with_replica_id`](RedisFleet::with_replica_id).
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
            prefix: prefix.into(),
            timeout: COMMAND_TIMEOUT,
            replica: Mutex::new(Arc::from(random_replica_id())),
            instance: random_replica_id(),
        });
        tokio::spawn(heartbeat(Arc::downgrade(&inner)));
        Ok(Self { inner })
    }

    /// This replica's id (default: random). Each process must have its own (`MCP_REPLICA_ID`
    /// in the examples).
    pub fn with_replica_id(self, id: impl Into<String>) -> Self {
        *self.inner.replica.lock().unwrap_or_else(|e| e.into_inner()) = Arc::from(id.into());
        self
    }

    /// How long one command may take before the request needing it is refused (default
    /// 500 ms). Set it before [`HttpServer::fleet`](crate::transport::HttpServer::fleet).
    pub fn command_timeout(mut self, timeout: Duration) -> Self {
        if let Some(inner) = Arc::get_mut(&mut self.inner) {
            inner.timeout = timeout;
        }
        self
    }

    /// This replica's id.
    pub fn replica(&self) -> Arc<str> {
        self.inner.replica()
    }

    /// This process's id in the fleet: the replica id and an instance drawn at start, so a
    /// replica restarted under the same id is told from the process it replaces.
    pub fn process(&self) -> String {
        self.inner.process()
    }

    /// Where Redis is, without credentials: `unix:///run/redis.sock`, `redis://host:6379/0`.
    /// For the start-up log.
    pub fn target(&self) -> &str {
        &self.inner.target
    }

    /// The key prefix.
    pub fn prefix(&self) -> &str {
        &self.inner.prefix
    }

    /// The `#[tool(once)]` record on this fleet's connection, under its prefix: set it with
    /// [`McpServer::replay_guard`](crate::McpServer::replay_guard) on every replica, and a call
    /// that completed on one is refused on all.
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::RedisFleet;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let fleet = RedisFleet::connect("redis://127.0.0.1:6379", "mcp:shop:").await?;
    /// let server = McpServer::new("shop").replay_guard(fleet.replay_guard());
    /// server.http().fleet(&fleet).serve("0.0.0.0:8080").await
    /// # }
    /// ```
    pub fn replay_guard(&self) -> crate::request_state::RedisReplayGuard {
        let prefix = self.inner.prefix.trim_end_matches(':');
        crate::request_state::RedisReplayGuard::on(self.inner.connection.clone(), prefix)
    }
}

impl Inner {
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
        match tokio::time::timeout(self.timeout, command).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(error)) => Err(Unavailable::new(format!(
                "Redis {what}: {:?}",
                error.kind()
            ))),
            Err(_) => Err(Unavailable::new(format!(
                "Redis {what}: no answer within {:?}",
                self.timeout
            ))),
        }
    }

    pub(super) fn alive_key(&self, replica: &str) -> String {
        format!("{}alive:{replica}", self.prefix)
    }
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
