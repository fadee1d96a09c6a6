//! [`RateLimit`]: a token bucket per principal, in this process or (feature `redis`) shared by
//! every replica through Redis.

use super::request::{McpFuture, McpRequest, McpService};
use super::response::{McpResponse, RefuseAs};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use serde_json::json;
use std::collections::HashMap;
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::task::{Context as TaskContext, Poll};
use std::time::{Duration, Instant};
use tower_layer::Layer;
use tower_service::Service;

/// A token bucket per principal: each caller may make `burst` requests at once, and one more
/// each time a token comes back (`rate` tokens per `per`). A request with no token left is
/// refused with the JSON-RPC error `-32000` ("Rate limit exceeded: retry in … ms", with
/// `data.retryAfterMs`), or on `tools/call` an `isError` result if so chosen
/// ([`RateLimit::refuse_as`]).
///
/// Callers are told apart by their verified identity (the token's issuer and subject); every
/// anonymous caller (no authorization in front of the transport) shares one bucket. Clones share
/// their buckets.
///
/// With the `redis` feature, `RateLimit::shared` keeps the buckets in Redis so that the limit
/// holds across every replica of a fleet; if Redis cannot answer (within 1 s), each replica
/// falls back to its own buckets (and logs it) rather than refusing everyone or letting
/// everyone through.
///
/// # Examples
///
/// ```
/// use mcpwire::layer::RateLimit;
/// use mcpwire::prelude::*;
/// use std::time::Duration;
///
/// /// Sends an email.
/// #[tool]
/// async fn send_email(to: String) -> String { to }
///
/// let server = McpServer::new("mailer")
///     .tool(send_email)?
///     // 10 emails a minute per caller, no more than 3 in a burst.
///     .tool_layer("send_email", RateLimit::per_principal(10, Duration::from_secs(60)).burst(3))
///     // and 600 requests a minute per caller over everything.
///     .layer(RateLimit::per_principal(600, Duration::from_secs(60)));
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[derive(Clone)]
pub struct RateLimit {
    buckets: Arc<Buckets>,
    refuse_as: RefuseAs,
    #[cfg(feature = "redis")]
    shared: Option<Arc<redis_buckets::RedisBuckets>>,
}

impl std::fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimit")
            .field("burst", &self.buckets.burst)
            .field("tokens_per_second", &self.buckets.per_second)
            .finish_non_exhaustive()
    }
}

/// The buckets of this process.
struct Buckets {
    /// The most tokens a bucket holds.
    burst: f64,
    /// Tokens given back per second.
    per_second: f64,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    by_caller: HashMap<Box<str>, Bucket>,
    /// How many buckets there were after the last sweep: the next sweep waits until twice as
    /// many (so memory stays bounded by the active callers, at a cost amortized over inserts).
    swept_at: usize,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    at: Instant,
}

/// A refused request: how long until a token comes back.
struct Wait(Duration);

impl Buckets {
    fn new(rate: u32, per: Duration, burst: u32) -> Self {
        let seconds = per.as_secs_f64().max(1e-6);
        Self {
            burst: f64::from(burst.max(1)),
            per_second: f64::from(rate.max(1)) / seconds,
            held: Mutex::default(),
        }
    }

    fn take(&self, caller: &str, now: Instant) -> Result<(), Wait> {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let (burst, per_second) = (self.burst, self.per_second);
        if !held.by_caller.contains_key(caller) && held.by_caller.len() >= held.swept_at * 2 {
            // A full bucket is the same as no bucket: forget them.
            held.by_caller.retain(|_, bucket| {
                bucket.tokens + now.duration_since(bucket.at).as_secs_f64() * per_second < burst
            });
            held.swept_at = held.by_caller.len().max(1024);
        }
        let bucket = held.by_caller.entry(Box::from(caller)).or_insert(Bucket {
            tokens: burst,
            at: now,
        });
        let refilled = now.saturating_duration_since(bucket.at).as_secs_f64() * per_second;
        bucket.tokens = (bucket.tokens + refilled).min(burst);
        bucket.at = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            let missing = 1.0 - bucket.tokens;
            let wait = Duration::try_from_secs_f64(missing / per_second).unwrap_or(Duration::MAX);
            Err(Wait(wait))
        }
    }
}

impl RateLimit {
    /// `rate` requests per `per` for each principal, in bursts of up to `rate` (see
    /// [`RateLimit::burst`]).
    ///
    /// ```
    /// # use mcpwire::layer::RateLimit;
    /// let limit = RateLimit::per_principal(100, std::time::Duration::from_secs(1));
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn per_principal(rate: u32, per: Duration) -> Self {
        Self {
            buckets: Arc::new(Buckets::new(rate, per, rate)),
            refuse_as: RefuseAs::Error,
            #[cfg(feature = "redis")]
            shared: None,
        }
    }

    /// The most requests a caller may make at once after a pause (the bucket's size; at least
    /// one). The long-run rate stays as given.
    ///
    /// ```
    /// # use mcpwire::layer::RateLimit;
    /// let limit = RateLimit::per_principal(60, std::time::Duration::from_secs(60)).burst(5);
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn burst(self, burst: u32) -> Self {
        let buckets = Buckets {
            burst: f64::from(burst.max(1)),
            per_second: self.buckets.per_second,
            held: Mutex::default(),
        };
        Self {
            buckets: Arc::new(buckets),
            ..self
        }
    }

    /// How a refused request is answered (default: the JSON-RPC error `-32000`).
    ///
    /// ```
    /// # use mcpwire::layer::{RateLimit, RefuseAs};
    /// let limit = RateLimit::per_principal(10, std::time::Duration::from_secs(1))
    ///     .refuse_as(RefuseAs::ToolError);
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn refuse_as(mut self, refuse_as: RefuseAs) -> Self {
        self.refuse_as = refuse_as;
        self
    }

    /// Whether the caller `key` may make one more request now; else how long until it may.
    async fn take(&self, key: &str) -> Result<(), Wait> {
        #[cfg(feature = "redis")]
        if let Some(shared) = &self.shared {
            match shared
                .take(key, self.buckets.burst, self.buckets.per_second)
                .await
            {
                Ok(taken) => return taken.map_err(Wait),
                Err(why) => {
                    tracing::warn!(
                        why,
                        "the shared rate limit is unavailable; limiting per replica"
                    );
                }
            }
        }
        self.buckets.take(key, Instant::now())
    }
}

impl Layer<McpService> for RateLimit {
    type Service = RateLimitService;

    fn layer(&self, inner: McpService) -> RateLimitService {
        RateLimitService {
            limit: self.clone(),
            inner,
        }
    }
}

/// The service of a [`RateLimit`] layer.
#[derive(Clone, Debug)]
pub struct RateLimitService {
    limit: RateLimit,
    inner: McpService,
}

impl Service<McpRequest> for RateLimitService {
    type Response = McpResponse;
    type Error = Infallible;
    type Future = McpFuture;

    fn poll_ready(&mut self, _: &mut TaskContext<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: McpRequest) -> McpFuture {
        let limit = self.limit.clone();
        let inner = self.inner.clone();
        Box::pin(async move {
            let key = request.principal_key().unwrap_or_default();
            if let Err(Wait(wait)) = limit.take(key).await {
                let retry_ms = u64::try_from(wait.as_millis()).unwrap_or(u64::MAX).max(1);
                let error = ErrorObject::new(
                    code::SERVER_BUSY,
                    format!("Rate limit exceeded: retry in {retry_ms} ms"),
                )
                .with_data(json!({ "retryAfterMs": retry_ms }));
                return Ok(McpResponse::refused(limit.refuse_as, error));
            }
            inner.call_next(request).await
        })
    }
}

#[cfg(feature = "redis")]
impl RateLimit {
    /// Keeps the buckets in the Redis at `url` (`redis://HOST:PORT`, `redis://:PASSWORD@HOST`,
    /// `unix:///path/to/redis.sock`) under keys starting with `prefix` (one prefix per limit:
    /// two limits with one prefix share their buckets), so that every replica given the same
    /// URL and prefix enforces one limit. Redis keeps the time (`TIME`), so the replicas'
    /// clocks need not agree. Feature `redis`.
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
        let shared = redis_buckets::RedisBuckets::connect(url, prefix.into()).await?;
        Ok(Self {
            shared: Some(Arc::new(shared)),
            ..self
        })
    }
}

#[cfg(feature = "redis")]
mod redis_buckets {
    use redis::aio::{ConnectionManager, ConnectionManagerConfig};
    use std::sync::LazyLock;
    use std::time::Duration;

    const CONNECT_TIMEOUT: Duration = Duration::from_secs(2);
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

    pub(super) struct RedisBuckets {
        connection: ConnectionManager,
        prefix: String,
    }

    impl RedisBuckets {
        pub(super) async fn connect(url: &str, prefix: String) -> crate::Result<Self> {
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
                .map_err(|error| {
                    unavailable(format!("cannot connect to Redis: {:?}", error.kind()))
                })?;
            Ok(Self { connection, prefix })
        }

        /// Takes a token of `caller`'s bucket: `Ok(Ok(()))` when taken, `Ok(Err(wait))` when
        /// none is left, `Err` when Redis cannot tell (within 1 s).
        pub(super) async fn take(
            &self,
            caller: &str,
            burst: f64,
            per_second: f64,
        ) -> Result<Result<(), Duration>, String> {
            let mut connection = self.connection.clone();
            let per_ms = per_second / 1000.0;
            let full_after_ms = ((burst / per_ms).ceil() as u64).saturating_add(1000);
            let mut invocation = TAKE.prepare_invoke();
            invocation
                .key(format!("{}:{caller}", self.prefix))
                .arg(burst)
                .arg(per_ms)
                .arg(full_after_ms);
            let asked = invocation.invoke_async::<(i64, i64)>(&mut connection);
            match tokio::time::timeout(COMMAND_TIMEOUT, asked).await {
                Ok(Ok((1, _))) => Ok(Ok(())),
                Ok(Ok((_, wait))) => Ok(Err(Duration::from_millis(wait.max(1) as u64))),
                Ok(Err(error)) => Err(format!("Redis refused the script: {:?}", error.kind())),
                Err(_) => Err("Redis did not answer within 1 s".to_owned()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_one_token_per_period() {
        let buckets = Buckets::new(2, Duration::from_secs(1), 2);
        let start = Instant::now();
        assert!(buckets.take("ada", start).is_ok());
        assert!(buckets.take("ada", start).is_ok());
        let Err(Wait(wait)) = buckets.take("ada", start) else {
            panic!("a third request in the same instant is refused");
        };
        assert!(wait > Duration::from_millis(400) && wait <= Duration::from_millis(500));
        assert!(
            buckets.take("bob", start).is_ok(),
            "another caller has its own bucket"
        );
        assert!(
            buckets
                .take("ada", start + Duration::from_millis(500))
                .is_ok()
        );
        assert!(
            buckets
                .take("ada", start + Duration::from_millis(500))
                .is_err()
        );
    }
}
