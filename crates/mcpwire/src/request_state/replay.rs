//! Replay guards: a multi-round call marked `#[tool(once)]` completes once. Every `requestState`
//! of one call carries the same call id; when the tool body is about to run, the guard records
//! the id, and a replay of any of the call's rounds (a still-valid state sent again) is refused.

use std::collections::{BTreeSet, HashMap};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

/// The future [`ReplayGuard::first_use`] returns: `Ok(true)` the first time, `Ok(false)` for a
/// replay, `Err` when the guard cannot tell (a shared store out of reach): the call is then
/// refused, never run twice.
pub type ReplayFuture<'a> =
    Pin<Box<dyn Future<Output = Result<bool, ReplayUnavailable>> + Send + 'a>>;

/// A replay guard could not tell whether a call already completed (its store is out of reach).
/// The message goes to the server's log; the client is told only that the server is busy.
///
/// ```
/// let error = mcpwire::request_state::ReplayUnavailable::new("Redis did not answer");
/// assert_eq!(error.to_string(), "the replay guard is unavailable: Redis did not answer");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the replay guard is unavailable: {0}")]
pub struct ReplayUnavailable(String);

impl ReplayUnavailable {
    /// The error, with why.
    pub fn new(why: impl Into<String>) -> Self {
        Self(why.into())
    }
}

/// Remembers which multi-round calls have completed, so each completes once.
///
/// The default, [`MemoryReplayGuard`], remembers within one process. Replicas behind a load
/// balancer share one guard (a database or cache with an atomic insert-if-absent), the way they
/// share the `requestState` keys.
///
/// ```
/// use mcpwire::request_state::{ReplayFuture, ReplayGuard};
/// use std::collections::HashSet;
/// use std::sync::Mutex;
///
/// /// Remembers forever (a real guard forgets ids once they expire).
/// #[derive(Default)]
/// struct Forever(Mutex<HashSet<String>>);
///
/// impl ReplayGuard for Forever {
///     fn first_use<'a>(&'a self, call_id: &'a str, _expires_at_ms: u64) -> ReplayFuture<'a> {
///         Box::pin(async move { Ok(self.0.lock().unwrap().insert(call_id.to_owned())) })
///     }
/// }
///
/// let server = mcpwire::McpServer::new("shop").replay_guard(Forever::default());
/// # drop(server);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a replay guard",
    note = "implement `mcpwire::request_state::ReplayGuard`, or use `mcpwire::request_state::MemoryReplayGuard`"
)]
pub trait ReplayGuard: Send + Sync + 'static {
    /// Records `call_id` as completed until `expires_at_ms` (milliseconds since the Unix
    /// epoch: no state of the call is valid after it). `Ok(true)` the first time, `Ok(false)`
    /// for a replay, [`ReplayUnavailable`] when it cannot tell.
    fn first_use<'a>(&'a self, call_id: &'a str, expires_at_ms: u64) -> ReplayFuture<'a>;
}

/// The in-memory [`ReplayGuard`]: at most `capacity` ids (default 100,000), each forgotten when
/// its states expire. When it is full of unexpired ids, the one that expires first is
/// forgotten early (a replay of that call becomes possible again until it expires): memory
/// stays bounded whatever the traffic.
///
/// ```
/// use mcpwire::request_state::{MemoryReplayGuard, ReplayGuard};
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let guard = MemoryReplayGuard::with_capacity(10);
/// assert_eq!(guard.first_use("call-1", u64::MAX).await, Ok(true));
/// assert_eq!(guard.first_use("call-1", u64::MAX).await, Ok(false), "the replay is refused");
/// # });
/// ```
#[derive(Debug)]
pub struct MemoryReplayGuard {
    capacity: usize,
    seen: Mutex<Seen>,
}

#[derive(Debug, Default)]
struct Seen {
    expiry_of: HashMap<String, u64>,
    by_expiry: BTreeSet<(u64, String)>,
}

impl MemoryReplayGuard {
    /// The default capacity.
    pub const DEFAULT_CAPACITY: usize = 100_000;

    /// A guard that remembers at most `capacity` calls (at least one).
    pub fn with_capacity(capacity: usize) -> Self {
        Self {
            capacity: capacity.max(1),
            seen: Mutex::new(Seen::default()),
        }
    }

    /// How many calls it remembers now.
    ///
    /// ```
    /// let guard = mcpwire::request_state::MemoryReplayGuard::default();
    /// assert_eq!(guard.len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.seen.lock().expect("replay guard lock").expiry_of.len()
    }

    /// Whether it remembers no call.
    ///
    /// ```
    /// assert!(mcpwire::request_state::MemoryReplayGuard::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn record(&self, call_id: &str, expires_at_ms: u64, now_ms: u64) -> bool {
        let mut seen = self.seen.lock().expect("replay guard lock");
        while let Some((expiry, _)) = seen.by_expiry.first()
            && *expiry <= now_ms
        {
            let (_, id) = seen.by_expiry.pop_first().expect("checked first");
            seen.expiry_of.remove(&id);
        }
        if seen.expiry_of.contains_key(call_id) {
            return false;
        }
        if seen.expiry_of.len() >= self.capacity
            && let Some((_, id)) = seen.by_expiry.pop_first()
        {
            seen.expiry_of.remove(&id);
        }
        seen.expiry_of.insert(call_id.to_owned(), expires_at_ms);
        seen.by_expiry.insert((expires_at_ms, call_id.to_owned()));
        true
    }
}

impl Default for MemoryReplayGuard {
    fn default() -> Self {
        Self::with_capacity(Self::DEFAULT_CAPACITY)
    }
}

impl ReplayGuard for MemoryReplayGuard {
    fn first_use<'a>(&'a self, call_id: &'a str, expires_at_ms: u64) -> ReplayFuture<'a> {
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
        let first = self.record(call_id, expires_at_ms, now_ms);
        Box::pin(std::future::ready(Ok(first)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remembers_until_expiry_and_stays_bounded() {
        let guard = MemoryReplayGuard::with_capacity(2);
        assert!(guard.record("a", 100, 0));
        assert!(
            !guard.record("a", 100, 50),
            "a replay before expiry is refused"
        );
        assert!(guard.record("a", 300, 100), "expired ids are forgotten");
        assert!(guard.record("b", 400, 100));
        assert!(
            guard.record("c", 500, 100),
            "full: the soonest to expire goes"
        );
        assert_eq!(guard.len(), 2);
        assert!(!guard.record("b", 400, 100));
        assert!(!guard.record("c", 500, 100));
    }
}
