//! The seams a fleet of replicas shares 2025-11-25 sessions through: a [`SessionStore`] (the
//! session records) and a [`FleetBus`] (changes, ended sessions, and the client's answers and
//! cancellations for requests another replica runs). Without them (the default) sessions live
//! in one process. `RedisFleet` (feature `redis`) implements both, and the
//! [`EventStore`](super::EventStore); implement them to put a fleet on another backend.

use super::session_change::{SessionCaps, SessionChange};
use futures_util::stream::BoxStream;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// The future a [`SessionStore`] or [`FleetBus`] method returns.
pub type SharedFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, Unavailable>> + Send + 'a>>;

/// The shared backend could not answer (unreachable, too slow, a broken record). Requests that
/// need it are refused with `503`; the message is for the server log only.
///
/// ```
/// use mcpwire::transport::http::Unavailable;
///
/// let error = Unavailable::new("no answer from Redis within 500 ms");
/// assert_eq!(error.to_string(), "shared state unavailable: no answer from Redis within 500 ms");
/// ```
#[derive(Clone, Debug, thiserror::Error)]
#[error("shared state unavailable: {0}")]
pub struct Unavailable(String);

impl Unavailable {
    /// An error saying why, for the log (never a URL or a credential).
    pub fn new(why: impl Into<String>) -> Self {
        Self(why.into())
    }
}

/// One 2025-11-25 session as a [`SessionStore`] keeps it: its id, whom it is bound to, and what
/// a later request needs (negotiated revision, client capabilities and info, log level,
/// subscriptions) as JSON the SDK reads back; stores keep `state` as it is.
///
/// ```
/// use mcpwire::transport::http::SessionRecord;
///
/// let record = SessionRecord {
///     id: "9f1c".into(),
///     principal: Some("https://issuer.example|alice".into()),
///     created_at_ms: 1_764_547_200_000,
///     state: "{}".into(),
/// };
/// let json = serde_json::to_string(&record).unwrap();
/// assert_eq!(serde_json::from_str::<SessionRecord>(&json).unwrap(), record);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionRecord {
    /// The `Mcp-Session-Id`: 128 random bits.
    pub id: String,
    /// The principal (issuer and subject) that opened it, and alone may use it; `None` for an
    /// anonymous session.
    pub principal: Option<String>,
    /// When `initialize` opened it, in milliseconds since the Unix epoch.
    pub created_at_ms: u64,
    /// What the session carries, as JSON (opaque to stores).
    pub state: String,
}

/// Where the sessions of a fleet are kept, so any replica serves any request of any session.
///
/// A record is found by its principal and id together (the spec's `<user>:<session>` key): a
/// lookup by another principal finds nothing. Every method is bounded by the store (a lookup
/// that cannot answer soon returns [`Unavailable`]), and must not block the runtime's threads.
///
/// # Examples
///
/// A store in one process's memory (what a test of a custom store might start from):
///
/// ```
/// use mcpwire::transport::http::{SessionRecord, SessionStore, SharedFuture};
/// use std::collections::HashMap;
/// use std::sync::Mutex;
/// use std::time::Duration;
///
/// #[derive(Default)]
/// struct InMemory(Mutex<HashMap<(Option<String>, String), SessionRecord>>);
///
/// impl SessionStore for InMemory {
///     fn create<'a>(&'a self, record: &'a SessionRecord, _idle: Duration, _cap: usize)
///         -> SharedFuture<'a, Vec<String>> {
///         let key = (record.principal.clone(), record.id.clone());
///         self.0.lock().unwrap().insert(key, record.clone());
///         Box::pin(async { Ok(Vec::new()) })
///     }
///     fn load<'a>(&'a self, principal: Option<&'a str>, id: &'a str)
///         -> SharedFuture<'a, Option<SessionRecord>> {
///         let found = self.0.lock().unwrap().get(&(principal.map(Into::into), id.into())).cloned();
///         Box::pin(async move { Ok(found) })
///     }
///     fn save<'a>(&'a self, record: &'a SessionRecord, _idle: Duration) -> SharedFuture<'a, bool> {
///         let key = (record.principal.clone(), record.id.clone());
///         let kept = self.0.lock().unwrap().get_mut(&key).map(|r| *r = record.clone()).is_some();
///         Box::pin(async move { Ok(kept) })
///     }
///     fn touch<'a>(&'a self, principal: Option<&'a str>, id: &'a str, _idle: Duration)
///         -> SharedFuture<'a, bool> {
///         let live = self.0.lock().unwrap().contains_key(&(principal.map(Into::into), id.into()));
///         Box::pin(async move { Ok(live) })
///     }
///     fn delete<'a>(&'a self, principal: Option<&'a str>, id: &'a str) -> SharedFuture<'a, ()> {
///         self.0.lock().unwrap().remove(&(principal.map(Into::into), id.into()));
///         Box::pin(async { Ok(()) })
///     }
/// }
///
/// let server = mcpwire::McpServer::new("demo").http().session_store(InMemory::default());
/// # drop(server);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a session store",
    note = "implement `mcpwire::transport::http::SessionStore`, or use `RedisFleet` (feature `redis`)"
)]
pub trait SessionStore: Send + Sync + 'static {
    /// Keeps a new session, expiring after `idle` without a touch. An authenticated principal
    /// holds at most `max_per_principal` sessions across the fleet: beyond that, its least
    /// recently used ones are deleted, and their ids returned (the replicas holding them end
    /// them).
    fn create<'a>(
        &'a self,
        record: &'a SessionRecord,
        idle: Duration,
        max_per_principal: usize,
    ) -> SharedFuture<'a, Vec<String>>;

    /// The session `id` of `principal`, if it is live.
    fn load<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
    ) -> SharedFuture<'a, Option<SessionRecord>>;

    /// Replaces a live session's record, touching it; `false` when it is gone. (The SDK makes
    /// changes with [`update`](SessionStore::update).)
    fn save<'a>(&'a self, record: &'a SessionRecord, idle: Duration) -> SharedFuture<'a, bool>;

    /// Records activity: the session lives `idle` from now; `false` when it is gone.
    fn touch<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
        idle: Duration,
    ) -> SharedFuture<'a, bool>;

    /// Ends the session everywhere.
    fn delete<'a>(&'a self, principal: Option<&'a str>, id: &'a str) -> SharedFuture<'a, ()>;

    /// Keeps a new session like [`create`](SessionStore::create), and also holds the anonymous
    /// callers of one network to `caps.per_network` sessions across the fleet (beyond it, the
    /// network's least recently used ones are deleted, and their ids returned). The SDK calls
    /// this one. By default: `create` with `caps.per_principal`, so a store that does not
    /// implement it does not cap anonymous sessions per network (the replicas leave counting
    /// to the store when sessions are shared).
    fn create_capped<'a>(
        &'a self,
        record: &'a SessionRecord,
        idle: Duration,
        caps: &'a SessionCaps,
    ) -> SharedFuture<'a, Vec<String>> {
        self.create(record, idle, caps.per_principal)
    }

    /// Makes `change` to the live session `id` of `principal` (its log level, a subscription),
    /// leaving its expiry as it is; `false` when it is gone. A store that keeps fields writes
    /// only the one changed; by default the record is loaded, changed and
    /// [`save`](SessionStore::save)d whole.
    fn update<'a>(
        &'a self,
        principal: Option<&'a str>,
        id: &'a str,
        change: &'a SessionChange,
        idle: Duration,
    ) -> SharedFuture<'a, bool> {
        Box::pin(async move {
            let Some(mut record) = self.load(principal, id).await? else {
                return Ok(false);
            };
            record.state = change
                .applied_to(&record.state)
                .ok_or_else(|| Unavailable::new("an unreadable session record"))?;
            self.save(&record, idle).await
        })
    }
}

/// What a [`FleetBus`] subscription yields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BusEvent {
    /// A payload another replica (or this one) published.
    Message(String),
    /// The subscription was lost and is back: messages may have been missed meanwhile.
    Reconnected,
}

/// Carries messages between the replicas of a fleet: every replica receives every payload
/// published (its own included), at most once. Payloads are the SDK's own (JSON); a bus
/// carries them as they are.
///
/// # Examples
///
/// A bus within one process (replicas sharing a runtime, as in tests):
///
/// ```
/// use futures_util::StreamExt;
/// use mcpwire::transport::http::{BusEvent, FleetBus, SharedFuture};
/// use tokio::sync::broadcast;
///
/// struct Local(broadcast::Sender<String>);
///
/// impl FleetBus for Local {
///     fn publish(&self, payload: String) -> SharedFuture<'_, ()> {
///         let _ = self.0.send(payload);
///         Box::pin(async { Ok(()) })
///     }
///     fn subscribe(&self) -> futures_util::stream::BoxStream<'static, BusEvent> {
///         futures_util::stream::unfold(self.0.subscribe(), |mut receiver| async move {
///             match receiver.recv().await {
///                 Ok(payload) => Some((BusEvent::Message(payload), receiver)),
///                 Err(broadcast::error::RecvError::Lagged(_)) => Some((BusEvent::Reconnected, receiver)),
///                 Err(broadcast::error::RecvError::Closed) => None,
///             }
///         })
///         .boxed()
///     }
/// }
///
/// let bus = Local(broadcast::channel(16).0);
/// let server = mcpwire::McpServer::new("demo").http().fleet_bus(bus);
/// # drop(server);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a fleet bus",
    note = "implement `mcpwire::transport::http::FleetBus`, or use `RedisFleet` (feature `redis`)"
)]
pub trait FleetBus: Send + Sync + 'static {
    /// Sends `payload` to every replica, bounded in time.
    fn publish(&self, payload: String) -> SharedFuture<'_, ()>;

    /// Sends `payload` as [`publish`](Self::publish) does, and says how many subscribers
    /// received it (this replica's own subscription included) when the bus can tell, as Redis's
    /// `PUBLISH` does. A replica that ends a session waits for that many acknowledgements before
    /// it answers, so that no other replica serves the session afterwards; with `None` (the
    /// default) it waits only for its own message to come back.
    fn publish_counted(&self, payload: String) -> SharedFuture<'_, Option<usize>> {
        let published = self.publish(payload);
        Box::pin(async move { published.await.map(|()| None) })
    }

    /// Every payload published from now on, and [`BusEvent::Reconnected`] after an outage. The
    /// stream never ends while the bus lives (it reconnects by itself).
    fn subscribe(&self) -> BoxStream<'static, BusEvent>;
}

/// How long a record may stay idle in a store.
#[cfg(feature = "redis")]
pub(super) fn idle_ms(idle: Duration) -> u64 {
    idle.as_millis().clamp(1, u128::from(u64::MAX)) as u64
}

impl From<Unavailable> for crate::Error {
    /// A shared backend that cannot be reached at start-up fails the start.
    fn from(error: Unavailable) -> Self {
        crate::Error::Startup(error.to_string())
    }
}
