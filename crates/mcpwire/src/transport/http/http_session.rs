//! One client's 2025-11-25 session as the HTTP transport holds it: its id, its owner, when its
//! client was last active, its open streams.

use super::caller::{Caller, Owner};
use super::events::EventStore;
use super::relays::Relays;
use super::resumed::Resumed;
use crate::dispatch::handshake::Handshake;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;

/// Milliseconds since the table was made: what sessions record their times in.
#[derive(Clone, Debug)]
pub(super) struct Clock {
    epoch: Instant,
    /// Orders activity across the table: many touches fall in one millisecond, and eviction
    /// must still know which session was used last.
    ticks: Arc<AtomicU64>,
}

impl Clock {
    pub(super) fn start() -> Self {
        Self {
            epoch: Instant::now(),
            ticks: Arc::default(),
        }
    }

    pub(super) fn now_ms(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64
    }

    /// The next activity number: larger is more recent.
    pub(super) fn tick(&self) -> u64 {
        self.ticks.fetch_add(1, Ordering::Relaxed) + 1
    }
}

/// One client's session.
pub(super) struct HttpSession {
    /// The `Mcp-Session-Id`: 128 random bits, hex (visible ASCII).
    pub(super) id: Arc<str>,
    /// The protocol-level session (handshake, requests in flight, requests to the client).
    pub(super) session: Arc<Handshake>,
    /// Whom it belongs to: only its principal may use it.
    pub(super) owner: Owner,
    /// Cancelled when the session ends: its GET stream closes.
    pub(super) closed: CancellationToken,
    /// Milliseconds since the table's epoch at `initialize`.
    created: u64,
    /// Milliseconds since the table's epoch at the client's last activity.
    last_seen: AtomicU64,
    /// The table-wide activity number of the client's last activity (see [`Clock::tick`]).
    recency: AtomicU64,
    /// The client's connections open on it right now (a request waiting for its answer, an
    /// event stream); while one is, the session is not idle. A request running on without its
    /// client does not count.
    busy: AtomicUsize,
    /// Ends the standalone GET stream open now, if any.
    standalone: Mutex<Option<CancellationToken>>,
    /// The live listeners of the session's resumable request streams.
    pub(super) relays: Relays,
    /// The resumed GETs open on it here.
    pub(super) resumed: Resumed,
    next_stream: AtomicU64,
    clock: Clock,
    events: Arc<dyn EventStore>,
    /// Whether the session is shared with other replicas (a session store holds it): then its
    /// events outlive this copy of it.
    pub(super) shared: bool,
    /// When the session store last said the session lives, in the table's milliseconds.
    validated: AtomicU64,
}

/// Keeps a session busy (not idle) while a client connection holds it; touches it when
/// dropped.
pub(super) struct Activity(Arc<HttpSession>);

impl Drop for Activity {
    fn drop(&mut self) {
        self.0.touch();
        self.0.busy.fetch_sub(1, Ordering::AcqRel);
    }
}

impl HttpSession {
    /// A new session for `owner`, ended with `closed`; its events are kept in `events`.
    pub(super) fn new(
        owner: Owner,
        closed: CancellationToken,
        clock: Clock,
        events: Arc<dyn EventStore>,
        shared: bool,
    ) -> Self {
        let id = new_session_id();
        Self::carried_on(
            id,
            Handshake::default(),
            0,
            owner,
            closed,
            clock,
            events,
            shared,
        )
    }

    /// The copy of a session opened `age_ms` ago (on another replica), carrying on from
    /// `session`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn carried_on(
        id: String,
        session: Handshake,
        age_ms: u64,
        owner: Owner,
        closed: CancellationToken,
        clock: Clock,
        events: Arc<dyn EventStore>,
        shared: bool,
    ) -> Self {
        // Stream ids name events across the fleet: a copy of the session on another replica
        // must not reuse this one's, so a shared session's start at a random point.
        let first_stream = if shared { random_u64() >> 12 } else { 0 };
        Self {
            id: Arc::from(id),
            session: Arc::new(session),
            owner,
            closed,
            created: clock.now_ms().saturating_sub(age_ms),
            last_seen: AtomicU64::new(clock.now_ms()),
            recency: AtomicU64::new(clock.tick()),
            busy: AtomicUsize::new(0),
            standalone: Mutex::new(None),
            relays: Relays::default(),
            resumed: Resumed::default(),
            next_stream: AtomicU64::new(first_stream),
            validated: AtomicU64::new(clock.now_ms()),
            clock,
            events,
            shared,
        }
    }

    /// Whether the session store should be asked again whether the session lives (it last
    /// said so `every_ms` ago or more); if so, counts this as the asking.
    pub(super) fn due_for_validation(&self, every_ms: u64) -> bool {
        let now = self.clock.now_ms();
        let last = self.validated.load(Ordering::Relaxed);
        now.saturating_sub(last) >= every_ms
            && self
                .validated
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
    }

    /// Records client activity now.
    pub(super) fn touch(&self) {
        self.touch_at(self.clock.now_ms());
    }

    /// Records client activity at `now` (the table's milliseconds, just read by the caller).
    pub(super) fn touch_at(&self, now: u64) {
        self.last_seen.store(now, Ordering::Relaxed);
        self.recency.store(self.clock.tick(), Ordering::Relaxed);
    }

    /// How recent the client's last activity is, against the other sessions (larger is later).
    pub(super) fn recency(&self) -> u64 {
        self.recency.load(Ordering::Relaxed)
    }

    /// Marks the session busy until the returned guard is dropped.
    pub(super) fn activity(self: &Arc<Self>) -> Activity {
        self.busy.fetch_add(1, Ordering::AcqRel);
        self.touch();
        Activity(self.clone())
    }

    /// Whether a client connection is open on it.
    pub(super) fn is_busy(&self) -> bool {
        self.busy.load(Ordering::Acquire) > 0
    }

    /// When it was opened, in the table's milliseconds.
    pub(super) fn created(&self) -> u64 {
        self.created
    }

    /// When its client was last active, in the table's milliseconds.
    pub(super) fn last_seen(&self) -> u64 {
        self.last_seen.load(Ordering::Relaxed)
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

    /// Opens the standalone GET stream, ending the one open before: a session has one. The
    /// token is cancelled when this stream is replaced or the session ends.
    pub(super) fn open_standalone(&self) -> CancellationToken {
        let ended = self.closed.child_token();
        let mut slot = self.standalone.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(previous) = slot.replace(ended.clone()) {
            previous.cancel();
        }
        ended
    }

    /// Ends the session: its running requests stop, its streams close, its requests to the
    /// client fail, its events go.
    pub(super) fn end(&self) {
        self.release();
        self.forget_events();
        self.record_end();
    }

    /// Tells the server's listeners that the session ended ([`McpServer::on_session_end`]):
    /// the replica that ends it does.
    ///
    /// [`McpServer::on_session_end`]: crate::McpServer::on_session_end
    pub(super) fn record_end(&self) {
        self.session.record_end("tcp");
    }

    /// Ends this replica's copy of a shared session (another replica may carry on with it): its
    /// requests here stop and its streams here close; its events stay.
    pub(super) fn release(&self) {
        self.session.cancel_all();
        self.closed.cancel();
        self.session.close();
    }

    /// Ends the session but lets its running requests finish (the server is shutting down, with
    /// a grace period for them); a shared session lives on elsewhere.
    pub(super) fn close(&self) {
        self.closed.cancel();
        self.session.close();
        if !self.shared {
            self.forget_events();
            self.record_end();
        }
    }

    fn forget_events(&self) {
        let (events, id) = (self.events.clone(), self.id.clone());
        tokio::spawn(async move { events.forget(&id).await });
    }
}

fn random_u64() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    u64::from_le_bytes(bytes)
}

/// 128 bits from the operating system's CSPRNG, as 32 lowercase hex digits.
fn new_session_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_random_visible_ascii() {
        let a = new_session_id();
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        assert_ne!(a, new_session_id());
    }
}
