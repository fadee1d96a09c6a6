//! [`RateLimit`]: a token bucket per principal, kept where its [`RateBuckets`] say: in this
//! process (`buckets.rs`) or shared by every replica through Redis (`redis_buckets.rs`, feature
//! `redis`).

mod buckets;
#[cfg(feature = "redis")]
mod redis_buckets;

pub use buckets::{BucketFuture, BucketsUnavailable, MemoryBuckets, RateBuckets, Refill, Taken};
#[cfg(all(feature = "redis", feature = "http"))]
pub(crate) use redis_buckets::RedisBuckets;

use super::request::{McpFuture, McpRequest, McpService};
use super::response::{McpResponse, RefuseAs};
use crate::protocol::ErrorObject;
use crate::protocol::jsonrpc::code;
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
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
/// The buckets live in this process unless [`RateLimit::buckets`] puts them elsewhere: with
/// the `redis` feature, a fleet's `RedisBackend::rate_limit_buckets` (or `RateLimit::shared`)
/// keeps them in Redis so that the limit holds across every replica; if the shared buckets
/// cannot answer (within the backend's command timeout), each replica falls back to its own
/// buckets (and logs it) rather than refusing everyone or letting everyone through.
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
///     .tool_layer("send_email", RateLimit::per_principal(10, Duration::from_secs(60)).burst(3))?
///     // and 600 requests a minute per caller over everything.
///     .layer(RateLimit::per_principal(600, Duration::from_secs(60)));
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[derive(Clone)]
pub struct RateLimit {
    refill: Refill,
    /// This process's buckets: the limit's own, or the fallback of shared ones.
    local: Arc<MemoryBuckets>,
    /// Buckets kept elsewhere ([`RateLimit::buckets`]).
    shared: Option<Arc<dyn RateBuckets>>,
    refuse_as: RefuseAs,
}

impl std::fmt::Debug for RateLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RateLimit")
            .field("burst", &self.refill.burst)
            .field("tokens_per_second", &self.refill.per_second)
            .finish_non_exhaustive()
    }
}

/// A refused request: how long until a token comes back.
struct Wait(Duration);

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
        let seconds = per.as_secs_f64().max(1e-6);
        Self {
            refill: Refill {
                burst: f64::from(rate.max(1)),
                per_second: f64::from(rate.max(1)) / seconds,
            },
            local: Arc::default(),
            shared: None,
            refuse_as: RefuseAs::Error,
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
        Self {
            refill: Refill {
                burst: f64::from(burst.max(1)),
                ..self.refill
            },
            local: Arc::default(),
            ..self
        }
    }

    /// Keeps the buckets in `buckets` (default: this process's, [`MemoryBuckets`]): shared
    /// buckets, such as a fleet's `RedisBackend::rate_limit_buckets` (feature `redis`), make
    /// one limit of every replica's. When they cannot answer, this process's buckets stand in.
    ///
    /// ```
    /// use mcpwire::layer::{MemoryBuckets, RateLimit};
    /// let limit = RateLimit::per_principal(600, std::time::Duration::from_secs(60))
    ///     .buckets(MemoryBuckets::default());
    /// # let _ = mcpwire::McpServer::new("demo").layer(limit);
    /// ```
    pub fn buckets(self, buckets: impl RateBuckets) -> Self {
        Self {
            shared: Some(Arc::new(buckets)),
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
        if let Some(shared) = &self.shared {
            match shared.take(key, self.refill).await {
                Ok(taken) => return taken.map_err(Wait),
                Err(why) => {
                    tracing::warn!(
                        %why,
                        "the shared rate limit is unavailable; limiting per replica"
                    );
                }
            }
        }
        self.local
            .take_at(key, self.refill, Instant::now())
            .map_err(Wait)
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
