//! [`RedisReplayGuard`] (feature `redis`): the `#[tool(once)]` record kept in Redis, so that every
//! replica of a fleet refuses a replayed call that completed on any of them.

use super::replay::{ReplayFuture, ReplayGuard, ReplayUnavailable};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::time::Duration;

/// How long one Redis command may take before the guard gives up (and the call is refused).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(2);
/// The latest expiry Redis is given (year 9999); a call whose states never expire is kept that
/// long.
const LATEST_EXPIRY_MS: u64 = 253_402_300_799_000;

/// A [`ReplayGuard`] in Redis: one key per completed call, `{prefix}:once:{call id}` (the
/// prefix without a trailing `:`), set with
/// `SET NX PXAT` (atomic insert-if-absent) and expiring with the call's last state. Replicas
/// that share a `requestState` key ring share this guard (same URL, same prefix).
///
/// Commands are bounded ([`RedisReplayGuard::command_timeout`], default 2 s). When Redis cannot
/// be reached, the guard cannot tell whether the call completed elsewhere, so it refuses the
/// call (the client gets `-32000`, server busy, and may retry); the connection is re-established
/// in the background.
///
/// ```no_run
/// use mcpwire::McpServer;
/// use mcpwire::request_state::RedisReplayGuard;
///
/// # async fn run() -> Result<(), Box<dyn std::error::Error>> {
/// let guard = RedisReplayGuard::connect("redis://127.0.0.1:6379", "mcpwire:shop").await?;
/// let server = McpServer::new("shop").replay_guard(guard);
/// # drop(server);
/// # Ok(()) }
/// ```
pub struct RedisReplayGuard {
    connection: ConnectionManager,
    prefix: String,
    timeout: Duration,
}

impl std::fmt::Debug for RedisReplayGuard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RedisReplayGuard")
            .field("prefix", &self.prefix)
            .finish_non_exhaustive()
    }
}

impl RedisReplayGuard {
    /// Connects to the Redis at `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST`,
    /// `unix:///path/to/redis.sock`), keeping its keys under `prefix` (one per server,
    /// `mcp:{server name}`, with or without a trailing `:`: the keys are `{prefix}:once:…`).
    ///
    /// # Errors
    ///
    /// When the URL is not a Redis URL, or no connection is made within the command timeout.
    /// The error never repeats the URL (it may hold a password).
    pub async fn connect(url: &str, prefix: impl Into<String>) -> Result<Self, ReplayUnavailable> {
        let client = redis::Client::open(url)
            .map_err(|_| ReplayUnavailable::new("the Redis URL is not valid"))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(COMMAND_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            .set_number_of_retries(1);
        let connecting = ConnectionManager::new_with_config(client, config);
        let connection = tokio::time::timeout(COMMAND_TIMEOUT, connecting)
            .await
            .map_err(|_| ReplayUnavailable::new("no connection to Redis within the timeout"))?
            .map_err(|error| {
                ReplayUnavailable::new(format!("cannot connect to Redis: {:?}", error.kind()))
            })?;
        let prefix: String = prefix.into();
        Ok(Self {
            connection,
            // `mcp:shop` and `mcp:shop:` (a fleet backend's form) name the same keys.
            prefix: prefix.trim_end_matches(':').to_owned(),
            timeout: COMMAND_TIMEOUT,
        })
    }

    /// A guard on an existing connection (a fleet backend's), keeping its keys under `prefix`,
    /// each command bounded by `timeout`.
    #[cfg(feature = "http")]
    pub(crate) fn on(connection: ConnectionManager, prefix: String, timeout: Duration) -> Self {
        Self {
            connection,
            prefix,
            timeout,
        }
    }

    /// How long one command may take (default 2 s) before the call is refused.
    ///
    /// ```no_run
    /// # use mcpwire::request_state::RedisReplayGuard;
    /// # async fn run() -> Result<(), mcpwire::request_state::ReplayUnavailable> {
    /// let guard = RedisReplayGuard::connect("redis://127.0.0.1", "shop")
    ///     .await?
    ///     .command_timeout(std::time::Duration::from_millis(500));
    /// # drop(guard);
    /// # Ok(()) }
    /// ```
    pub fn command_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }
}

impl ReplayGuard for RedisReplayGuard {
    fn first_use<'a>(&'a self, call_id: &'a str, expires_at_ms: u64) -> ReplayFuture<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let key = format!("{}:once:{call_id}", self.prefix);
            let mut command = redis::cmd("SET");
            command
                .arg(&key)
                .arg(1)
                .arg("NX")
                .arg("PXAT")
                .arg(expires_at_ms.min(LATEST_EXPIRY_MS));
            let set = command.query_async::<Option<String>>(&mut connection);
            match tokio::time::timeout(self.timeout, set).await {
                Ok(Ok(answer)) => Ok(answer.is_some()),
                Ok(Err(error)) => Err(ReplayUnavailable::new(format!(
                    "Redis refused the command: {:?}",
                    error.kind()
                ))),
                Err(_) => Err(ReplayUnavailable::new(
                    "Redis did not answer within the timeout",
                )),
            }
        })
    }
}
