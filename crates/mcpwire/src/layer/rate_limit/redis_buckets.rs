//! [`RedisBuckets`] (feature `redis`): token buckets in Redis, shared by every replica given the
//! same Redis and prefix. Redis keeps the time (`TIME`), so the replicas' clocks need not agree.

use super::RateLimit;
use super::buckets::{BucketFuture, BucketsUnavailable, RateBuckets, Refill};
use redis::aio::{ConnectionManager, ConnectionManagerConfig};
use std::sync::LazyLock;
use std::time::Duration;

/// How long connecting may take ([`RateLimit::shared`](super::RateLimit::shared)).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
/// How long one command may take by default.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(1);

/// One token taken from the bucket `KEYS[1]` (fields `tokens`, `at`), refilled first at
/// `ARGV[2]` tokens per millisecond up to `ARGV[1]`, by Redis's clock; the bucket expires
/// once it would be full anyway (`ARGV[3]` ms). Answers `{1, 0}` when a token was taken,
/// else `{0, milliseconds until one comes back}`.
static TAKE: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local burst = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(held[1])
local at = tonumber(held[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) * rate)
local taken = 0
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
  taken = 1
else
  wait = math.ceil((1 - tokens) / rate)
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {taken, wait}
",
    )
});

/// Token buckets in Redis: one hash per caller, `{prefix}:{caller}`, expiring once it would be
/// full anyway. Get them from a fleet's backend (`RedisBackend::rate_limit_buckets`, on its
/// connection and under its prefix) or with [`RateLimit::shared`](super::RateLimit::shared).
pub(crate) struct RedisBuckets {
    connection: ConnectionManager,
    prefix: String,
    timeout: Duration,
}

impl RedisBuckets {
    /// Buckets on an existing connection (a fleet backend's), under `prefix`, each command
    /// bounded by `timeout`.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn on(connection: ConnectionManager, prefix: String, timeout: Duration) -> Self {
        Self {
            connection,
            prefix,
            timeout,
        }
    }

    /// Connects to the Redis at `url` on a connection of their own.
    async fn connect(url: &str, prefix: String) -> crate::Result<Self> {
        let unavailable = |why: String| crate::Error::Startup(format!("rate limit: {why}"));
        let client = redis::Client::open(url)
            .map_err(|_| unavailable("the Redis URL is not valid".into()))?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(CONNECT_TIMEOUT))
            .set_response_timeout(Some(COMMAND_TIMEOUT))
            .set_number_of_retries(1);
        let connecting = ConnectionManager::new_with_config(client, config);
        let connection = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .map_err(|_| unavailable("no connection to Redis within 2 s".into()))?
            .map_err(|error| unavailable(format!("cannot connect to Redis: {:?}", error.kind())))?;
        // `shop:rate` and `shop:rate:` name the same keys, `{prefix}:{caller}`.
        let prefix = prefix.trim_end_matches(':').to_owned();
        Ok(Self::on(connection, prefix, COMMAND_TIMEOUT))
    }
}

impl RateBuckets for RedisBuckets {
    fn take<'a>(&'a self, caller: &'a str, refill: Refill) -> BucketFuture<'a> {
        Box::pin(async move {
            let mut connection = self.connection.clone();
            let per_ms = refill.per_second / 1000.0;
            let full_after_ms = ((refill.burst / per_ms).ceil() as u64).saturating_add(1000);
            let mut invocation = TAKE.prepare_invoke();
            invocation
                .key(format!("{}:{caller}", self.prefix))
                .arg(refill.burst)
                .arg(per_ms)
                .arg(full_after_ms);
            let asked = invocation.invoke_async::<(i64, i64)>(&mut connection);
            match tokio::time::timeout(self.timeout, asked).await {
                Ok(Ok((1, _))) => Ok(Ok(())),
                Ok(Ok((_, wait))) => Ok(Err(Duration::from_millis(wait.max(1) as u64))),
                Ok(Err(error)) => Err(BucketsUnavailable::new(format!(
                    "Redis refused the script: {:?}",
                    error.kind()
                ))),
                Err(_) => Err(BucketsUnavailable::new(format!(
                    "Redis did not answer within {:?}",
                    self.timeout
                ))),
            }
        })
    }
}

impl RateLimit {
    /// Keeps the buckets in the Redis at `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST`,
    /// `unix:///path/to/redis.sock`) under keys starting with `prefix` (one prefix per limit:
    /// two limits with one prefix share their buckets), so that every replica given the same
    /// URL and prefix enforces one limit. Redis keeps the time (`TIME`), so the replicas'
    /// clocks need not agree. Feature `redis`.
    ///
    /// The buckets get a connection of their own; a fleet's backend hands out buckets on its
    /// one connection (`RedisBackend::rate_limit_buckets`, set with [`RateLimit::buckets`]).
    ///
    /// # Errors
    ///
    /// [`Error::Startup`](crate::Error::Startup) when the URL is not a Redis URL or no
    /// connection is made within 2 s. The message never repeats the URL (it may hold a
    /// password).
    ///
    /// ```no_run
    /// use mcpwire::layer::RateLimit;
    /// use std::time::Duration;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let limit = RateLimit::per_principal(600, Duration::from_secs(60))
    ///     .shared("redis://127.0.0.1:6379", "shop:rate")
    ///     .await?;
    /// let server = mcpwire::McpServer::new("shop").layer(limit);
    /// # drop(server);
    /// # Ok(()) }
    /// ```
    pub async fn shared(self, url: &str, prefix: impl Into<String>) -> crate::Result<Self> {
        let shared = RedisBuckets::connect(url, prefix.into()).await?;
        Ok(self.buckets(shared))
    }
}
