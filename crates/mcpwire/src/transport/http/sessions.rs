//! 2025-11-25 sessions over HTTP: minted by `initialize`, named by `Mcp-Session-Id`, ended by
//! DELETE, by idling past the timeout, or by shutdown.
//!
//! The table is capped: when it is full, `initialize` evicts the session idle the longest (its
//! client gets `404` next time and, as the spec requires, initializes again); when every session
//! is busy (a request or stream open), `initialize` is refused with `503`. A flood of
//! `initialize` therefore costs at most the cap in memory, and active clients keep their sessions.

use super::caller::{Caller, Owner};
use super::events::EventStore;
use super::resume::Relays;
use crate::context::Outbound;
use crate::dispatch::session::Session;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::Receiver;
use tokio_util::sync::CancellationToken;

/// One client's session, as the HTTP transport holds it.
pub(super) struct HttpSession {
    /// The `Mcp-Session-Id`: 128 random bits, hex (visible ASCII).
    pub(super) id: Arc<str>,
    /// The protocol-level session (handshake, requests in flight, requests to the client).
    pub(super) session: Arc<Session>,
    /// Whom it belongs to: only its principal may use it.
    pub(super) owner: Owner,
    /// Cancelled when the session ends: its GET stream closes.
    pub(super) closed: CancellationToken,
    /// Milliseconds since the table's epoch at the last activity.
    last_seen: AtomicU64,
    /// Requests and streams open right now; a busy session never expires.
    busy: AtomicUsize,
    /// The sink of the standalone GET stream, while one is open.
    standalone: Mutex<Option<Outbound>>,
    /// The live listeners of the session's resumable request streams.
    pub(super) relays: Relays,
    next_stream: AtomicU64,
    table: Weak<Table>,
}

/// Keeps a session busy (and so alive) while it exists; touches it when dropped.
pub(super) struct Activity(Arc<HttpSession>);

impl Drop for Activity {
    fn drop(&mut self) {
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

impl HttpSession {
    fn touch(&self) {
        if let Some(table) = self.table.upgrade() {
            self.last_seen.store(table.now_ms(), Ordering::Relaxed);
        }
    }

    /// Marks the session busy until the returned guard is dropped.
    pub(super) fn activity(self: &Arc<Self>) -> Activity {
        self.busy.fetch_add(1, Ordering::AcqRel);
        self.touch();
        Activity(self.clone())
    }

    /// Whether `caller` may use the session: the principal that opened it (or, for a session
    /// opened anonymously, a caller without one). The peer address may change.
    pub(super) fn serves(&self, caller: &Caller) -> bool {
        self.owner.principal() == caller.principal.as_deref()
    }

    /// A new id for one of the session's request streams.
    pub(super) fn next_stream(&self) -> u64 {
        self.next_stream.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Opens the standalone GET stream; `None` when one is already open.
    pub(super) fn open_standalone(&self) -> Option<Receiver<String>> {
        let mut slot = self.standalone.lock().unwrap_or_else(|e| e.into_inner());
        if slot.as_ref().is_some_and(|sink| !sink.is_closed()) {
            return None;
        }
        let (sink, lines) = Outbound::channel(1);
        *slot = Some(sink);
        Some(lines)
    }

    fn close(&self) {
        self.closed.cancel();
        self.session.close();
        if let Some(table) = self.table.upgrade() {
            table.events.forget(&self.id);
        }
    }
}

/// The live sessions.
pub(super) struct Sessions {
    table: Arc<Table>,
}

struct Table {
    sessions: Mutex<HashMap<Arc<str>, Arc<HttpSession>>>,
    epoch: Instant,
    idle_timeout: Duration,
    max: usize,
    shutdown: CancellationToken,
    events: Arc<dyn EventStore>,
}

impl Table {
    fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<Arc<str>, Arc<HttpSession>>> {
        self.sessions.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn expired(&self, session: &HttpSession, now: u64) -> bool {
        session.busy.load(Ordering::Acquire) == 0
            && now.saturating_sub(session.last_seen.load(Ordering::Relaxed))
                > self.idle_timeout.as_millis() as u64
    }
}

/// Why no session could be opened.
pub(super) struct Full;

impl Sessions {
    /// An empty table; sessions end when `shutdown` is cancelled. Starts the reaper of idle
    /// sessions on the current runtime.
    pub(super) fn new(
        idle_timeout: Duration,
        max: usize,
        shutdown: CancellationToken,
        events: Arc<dyn EventStore>,
    ) -> Self {
        let table = Arc::new(Table {
            sessions: Mutex::new(HashMap::new()),
            epoch: Instant::now(),
            idle_timeout,
            max: max.max(1),
            shutdown,
            events,
        });
        tokio::spawn(reap_periodically(Arc::downgrade(&table)));
        Self { table }
    }

    /// Opens a session for `caller`, evicting the longest-idle one when the table is full.
    pub(super) fn create(&self, caller: &Caller) -> Result<Arc<HttpSession>, Full> {
        let table = &self.table;
        let session = Arc::new(HttpSession {
            id: Arc::from(new_session_id()),
            session: Arc::new(Session::default()),
            owner: caller.owner(),
            closed: table.shutdown.child_token(),
            last_seen: AtomicU64::new(table.now_ms()),
            busy: AtomicUsize::new(0),
            standalone: Mutex::new(None),
            relays: Relays::default(),
            next_stream: AtomicU64::new(0),
            table: Arc::downgrade(table),
        });
        let mut sessions = table.lock();
        if sessions.len() >= table.max {
            let idlest = sessions
                .values()
                .filter(|s| s.busy.load(Ordering::Acquire) == 0)
                .min_by_key(|s| s.last_seen.load(Ordering::Relaxed))
                .map(|s| s.id.clone());
            let Some(id) = idlest else {
                return Err(Full);
            };
            if let Some(evicted) = sessions.remove(&id) {
                tracing::info!(session = %evicted.id, "session table full; evicted the idlest");
                evicted.close();
            }
        }
        sessions.insert(session.id.clone(), session.clone());
        Ok(session)
    }

    /// The live session named `id`, when `caller` may use it; `None` when unknown, ended,
    /// expired, or another caller's.
    pub(super) fn get(&self, id: &str, caller: &Caller) -> Option<Arc<HttpSession>> {
        let table = &self.table;
        let mut sessions = table.lock();
        let session = sessions.get(id)?.clone();
        if !session.serves(caller) {
            return None;
        }
        if table.expired(&session, table.now_ms()) {
            sessions.remove(id);
            session.close();
            return None;
        }
        Some(session)
    }

    /// Ends the session named `id`; `false` when there was none.
    pub(super) fn remove(&self, id: &str) -> bool {
        let removed = self.table.lock().remove(id);
        removed.map(|session| session.close()).is_some()
    }

    /// How many sessions are live.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.table.lock().len()
    }
}

async fn reap_periodically(table: Weak<Table>) {
    let period = match table.upgrade() {
        Some(table) => {
            (table.idle_timeout / 2).clamp(Duration::from_millis(10), Duration::from_secs(30))
        }
        None => return,
    };
    let mut ticks = tokio::time::interval(period);
    loop {
        ticks.tick().await;
        let Some(table) = table.upgrade() else {
            return;
        };
        if table.shutdown.is_cancelled() {
            for (_, session) in table.lock().drain() {
                session.close();
            }
            return;
        }
        let now = table.now_ms();
        table.lock().retain(|_, session| {
            let keep = !table.expired(session, now);
            if !keep {
                tracing::debug!(session = %session.id, "session expired");
                session.close();
            }
            keep
        });
    }
}

/// 128 bits from the operating system's CSPRNG, as 32 lowercase hex digits.
fn new_session_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::super::events::MemoryEventStore;
    use super::*;

    #[tokio::test]
    async fn ids_are_random_visible_ascii() {
        let a = new_session_id();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        assert_ne!(a, new_session_id());
    }

    #[tokio::test]
    async fn a_full_table_evicts_the_idlest_and_refuses_when_all_are_busy() {
        let sessions = Sessions::new(
            Duration::from_secs(60),
            2,
            CancellationToken::new(),
            Arc::new(MemoryEventStore::default()),
        );
        let first = sessions.create(&Caller::default()).ok().unwrap();
        let _busy_first = first.activity();
        let second = sessions.create(&Caller::default()).ok().unwrap();
        let third = sessions.create(&Caller::default()).ok().unwrap();
        assert_eq!(sessions.len(), 2);
        assert!(
            sessions.get(&second.id, &Caller::default()).is_none(),
            "the idle one was evicted"
        );
        assert!(second.closed.is_cancelled());
        let _busy_third = third.activity();
        assert!(sessions.create(&Caller::default()).is_err(), "every session is busy");
        assert!(sessions.get(&first.id, &Caller::default()).is_some());
    }

    #[tokio::test]
    async fn idle_sessions_expire_and_busy_ones_do_not() {
        let sessions = Sessions::new(
            Duration::from_millis(20),
            10,
            CancellationToken::new(),
            Arc::new(MemoryEventStore::default()),
        );
        let idle = sessions.create(&Caller::default()).ok().unwrap();
        let busy = sessions.create(&Caller::default()).ok().unwrap();
        let _activity = busy.activity();
        tokio::time::sleep(Duration::from_millis(80)).await;
        assert!(sessions.get(&idle.id, &Caller::default()).is_none());
        assert!(idle.closed.is_cancelled());
        assert!(sessions.get(&busy.id, &Caller::default()).is_some());
    }
}
