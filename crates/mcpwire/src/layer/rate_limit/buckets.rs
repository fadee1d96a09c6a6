//! [`RateBuckets`]: where a [`RateLimit`](super::RateLimit) keeps its token buckets, and
//! [`MemoryBuckets`], the buckets of this process (the default).

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The size and refill of every bucket of one limit, as [`RateLimit`](super::RateLimit) was
/// configured: a bucket holds at most `burst` tokens and gets `per_second` back each second.
///
/// ```
/// use mcpwire::layer::Refill;
/// let refill = Refill { burst: 3.0, per_second: 0.5 };
/// assert_eq!(refill.burst, 3.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Refill {
    /// The most tokens a bucket holds (at least 1).
    pub burst: f64,
    /// Tokens given back per second.
    pub per_second: f64,
}

/// What [`RateBuckets::take`] answers: `Ok(())` when a token was taken, else how long until one
/// comes back.
pub type Taken = Result<(), Duration>;

/// The future of [`RateBuckets::take`]: `Err` when the buckets cannot tell (the limit then falls
/// back to this process's buckets, and logs why).
pub type BucketFuture<'a> =
    Pin<Box<dyn Future<Output = Result<Taken, BucketsUnavailable>> + Send + 'a>>;

/// Why shared buckets could not answer (never the URL of the backend: it may hold a password).
///
/// ```
/// let why = mcpwire::layer::BucketsUnavailable::new("Redis did not answer");
/// assert_eq!(why.to_string(), "Redis did not answer");
/// ```
#[derive(Clone, Debug, thiserror::Error)]
#[error("{0}")]
pub struct BucketsUnavailable(String);

impl BucketsUnavailable {
    /// An error saying `why`.
    pub fn new(why: impl Into<String>) -> Self {
        Self(why.into())
    }
}

/// Where a [`RateLimit`](super::RateLimit) keeps its token buckets, one per caller: in this
/// process ([`MemoryBuckets`], the default) or shared by the replicas of a fleet (the Redis
/// buckets of `RedisBackend::rate_limit_buckets`, feature `redis`). Set it with
/// [`RateLimit::buckets`](super::RateLimit::buckets).
///
/// # Examples
///
/// Buckets that hand every caller a token (a stand-in for a shared store):
///
/// ```
/// use mcpwire::layer::{BucketFuture, RateBuckets, RateLimit, Refill};
///
/// struct Generous;
///
/// impl RateBuckets for Generous {
///     fn take<'a>(&'a self, _caller: &'a str, _refill: Refill) -> BucketFuture<'a> {
///         Box::pin(async { Ok(Ok(())) })
///     }
/// }
///
/// let limit = RateLimit::per_principal(1, std::time::Duration::from_secs(1)).buckets(Generous);
/// # let _ = mcpwire::McpServer::new("demo").layer(limit);
/// ```
pub trait RateBuckets: Send + Sync + 'static {
    /// Takes one token of `caller`'s bucket, refilled first as `refill` says.
    fn take<'a>(&'a self, caller: &'a str, refill: Refill) -> BucketFuture<'a>;
}

/// The token buckets of this process: what a [`RateLimit`](super::RateLimit) uses unless given
/// others, and what it falls back to when shared buckets cannot answer. Memory stays bounded by
/// the active callers (a full bucket is forgotten).
///
/// ```
/// use mcpwire::layer::{MemoryBuckets, RateLimit};
/// let limit = RateLimit::per_principal(10, std::time::Duration::from_secs(1))
///     .buckets(MemoryBuckets::default());
/// # let _ = mcpwire::McpServer::new("demo").layer(limit);
/// ```
#[derive(Default)]
pub struct MemoryBuckets {
    held: Mutex<Held>,
}

impl std::fmt::Debug for MemoryBuckets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MemoryBuckets").finish_non_exhaustive()
    }
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

impl MemoryBuckets {
    /// Takes a token of `caller`'s bucket at `now`.
    pub(super) fn take_at(&self, caller: &str, refill: Refill, now: Instant) -> Taken {
        let mut held = self.held.lock().unwrap_or_else(|e| e.into_inner());
        let Refill { burst, per_second } = refill;
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
            Err(Duration::try_from_secs_f64(missing / per_second).unwrap_or(Duration::MAX))
        }
    }
}

impl RateBuckets for MemoryBuckets {
    fn take<'a>(&'a self, caller: &'a str, refill: Refill) -> BucketFuture<'a> {
        Box::pin(std::future::ready(Ok(self.take_at(
            caller,
            refill,
            Instant::now(),
        ))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_one_token_per_period() {
        let buckets = MemoryBuckets::default();
        let refill = Refill {
            burst: 2.0,
            per_second: 2.0,
        };
        let start = Instant::now();
        assert!(buckets.take_at("ada", refill, start).is_ok());
        assert!(buckets.take_at("ada", refill, start).is_ok());
        let Err(wait) = buckets.take_at("ada", refill, start) else {
            panic!("a third request in the same instant is refused");
        };
        assert!(wait > Duration::from_millis(400) && wait <= Duration::from_millis(500));
        assert!(
            buckets.take_at("bob", refill, start).is_ok(),
            "another caller has its own bucket"
        );
        let later = start + Duration::from_millis(500);
        assert!(buckets.take_at("ada", refill, later).is_ok());
        assert!(buckets.take_at("ada", refill, later).is_err());
    }
}
