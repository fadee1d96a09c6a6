//! 2025-11-25 sessions over HTTP: minted by `initialize`, named by `Mcp-Session-Id`, ended by
//! DELETE, by idling past the timeout, by reaching the longest lifetime, by eviction, or by
//! shutdown. Ending a session (but for shutdown, which has its grace period) stops its running
//! requests.
//!
//! A session is idle while no client connection is open on it: a request whose client left
//! does not keep it alive, so an abandoned session with stuck requests still ends. A client
//! that keeps streams open forever is bounded by the lifetime.
//!
//! The table is bounded, and its room is shared out per [`Owner`], so one caller cannot take it
//! from the others:
//!
//! - an authenticated principal holds at most `max_per_principal` sessions: beyond that, its
//!   `initialize` replaces its own least recently used session;
//! - anonymous callers are told apart by network (see [`Owner`]), hold at most
//!   `max_per_network` sessions a network (replaced the same way; not counted when the peer is
//!   unknown), and only ever take room from anonymous sessions, so an anonymous flood cannot
//!   evict an authenticated session;
//! - when the table is full, `initialize` evicts a session of the owner holding the most (see
//!   `eviction.rs`); when no session may be evicted, it is refused with `503`.
//!
//! An evicted client gets `404` next time and, as the spec requires, initializes again.
//!
//! **Shared** (a [`SessionStore`](super::SessionStore) is set): the store holds every session
//! of the fleet and this table holds the copies this replica serves. A request naming a session
//! the table lacks loads it from the store (bound to its principal), a copy asks the store now
//! and then whether its session still lives (which also keeps it alive there), the per-principal
//! and per-network caps are counted by the store across the fleet, and a session that ends
//! (DELETE, eviction, lifetime) ends on every replica through the bus; DELETE and eviction
//! (here, or by the store's caps) also delete its record. A copy that idles out here only goes
//! from this replica. A change to a session (log level, subscriptions) is written to its field
//! of the record and carried to the other copies by the bus, which apply it as it is.

use super::caller::{Caller, Owner};
use super::events::EventStore;
use super::eviction::{self, Candidate};
use super::fleet::{Fleet, Message};
use super::http_session::{Clock, HttpSession};
use super::session_change::{SessionCaps, SessionChange};
use super::shared::{SessionRecord, SessionStore, Unavailable};
use crate::context::SessionEndHooks;
use crate::dispatch::handshake::{Handshake, HandshakeState};
use crate::tasks::now_ms;
use crate::wire::fast_map::FastMap;
use futures_util::future::Either;
use std::future::{Future, Ready, ready};
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The bounds of a session table.
#[derive(Clone, Copy, Debug)]
pub(super) struct SessionLimits {
    /// How long a session may stay idle before it ends.
    pub(super) idle_timeout: Duration,
    /// How long a session may live, busy or not.
    pub(super) lifetime: Duration,
    /// The most sessions held at once.
    pub(super) max: usize,
    /// The most sessions one principal holds at once.
    pub(super) max_per_principal: usize,
    /// The most sessions the anonymous callers of one network hold at once.
    pub(super) max_per_network: usize,
    /// The most bytes a session keeps of its handshake (checked by `initialize`).
    pub(super) max_handshake_bytes: usize,
}

/// The live sessions.
pub(super) struct Sessions {
    table: Arc<Table>,
}

struct Table {
    live: Mutex<Live>,
    clock: Clock,
    limits: SessionLimits,
    shutdown: CancellationToken,
    events: Arc<dyn EventStore>,
    fleet: Fleet,
    /// The most subscriptions a session holds (a restored one included).
    max_subscriptions: usize,
    /// What hears a session end (a copy taken over from another replica too).
    session_ends: SessionEndHooks,
}

/// What a session lookup found.
pub(super) enum Lookup {
    Found(Arc<HttpSession>),
    /// Unknown, ended, expired, or another caller's: `404`.
    Unknown,
    /// The session store could not tell: `503`.
    Unavailable,
}

impl Lookup {
    /// Whether a session was found.
    #[cfg(test)]
    pub(super) fn is_found(&self) -> bool {
        matches!(self, Lookup::Found(_))
    }
}

/// The sessions by id, and how many each owner holds: looked up on every request of a session
/// ([`FastMap`]).
#[derive(Default)]
struct Live {
    by_id: FastMap<Arc<str>, Arc<HttpSession>>,
    held: FastMap<Owner, usize>,
}

impl Live {
    fn held(&self, owner: &Owner) -> usize {
        self.held.get(owner).copied().unwrap_or(0)
    }

    fn insert(&mut self, session: Arc<HttpSession>) {
        *self.held.entry(session.owner.clone()).or_insert(0) += 1;
        self.by_id.insert(session.id.clone(), session);
    }

    fn remove(&mut self, id: &str) -> Option<Arc<HttpSession>> {
        let session = self.by_id.remove(id)?;
        if let Some(held) = self.held.get_mut(&session.owner) {
            *held -= 1;
            if *held == 0 {
                self.held.remove(&session.owner);
            }
        }
        Some(session)
    }

    /// The session to evict for a newcomer of `owner`, among those `eligible`.
    fn victim(&self, owner: &Owner, eligible: impl Fn(&HttpSession) -> bool) -> Option<Arc<str>> {
        let candidates = self.by_id.values().filter(|s| eligible(s)).map(|s| {
            let candidate = Candidate {
                owner_sessions: self.held(&s.owner),
                own: s.owner == *owner,
                busy: s.is_busy(),
                last_seen: s.recency(),
            };
            (s.id.clone(), candidate)
        });
        eviction::victim(candidates, self.held(owner))
    }
}

impl Table {
    fn lock(&self) -> MutexGuard<'_, Live> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Makes room for a newcomer of `owner`: ends the session chosen. A shared one is returned,
    /// its copy here ended: eviction ends it for the whole fleet, as DELETE does, and the
    /// caller ends it there (see [`Sessions::end_in_fleet`]).
    fn make_room_for(&self, live: &mut Live, owner: &Owner) -> Result<Evicted, Full> {
        let Some(id) = self.make_room(live, owner)? else {
            return Ok(None);
        };
        let Some(evicted) = live.remove(&id) else {
            return Ok(None);
        };
        tracing::info!(session = %evicted.id, owner = ?evicted.owner, "no room for a new session; evicted one");
        if evicted.shared {
            evicted.release();
            evicted.record_end();
            Ok(Some(evicted))
        } else {
            evicted.end();
            Ok(None)
        }
    }

    /// How many sessions `owner` may hold: a principal `max_per_principal`, the anonymous
    /// callers of a known network `max_per_network`; `None` when the peer is unknown.
    fn cap_of(&self, owner: &Owner) -> Option<usize> {
        match owner {
            Owner::Principal(_) => Some(self.limits.max_per_principal),
            Owner::Anonymous(Some(_)) => Some(self.limits.max_per_network),
            Owner::Anonymous(None) => None,
        }
    }

    /// How often a copy asks the store whether its session lives: a quarter of the idle
    /// timeout, so the store's expiry is pushed back in time.
    fn validation_every_ms(&self) -> u64 {
        (self.limits.idle_timeout.as_millis() as u64 / 4).max(1)
    }

    fn past_lifetime(&self, session: &HttpSession) -> bool {
        self.clock.now_ms().saturating_sub(session.created())
            >= self.limits.lifetime.as_millis() as u64
    }

    /// The record a session store keeps of `session`.
    fn record_of(&self, session: &HttpSession) -> SessionRecord {
        let state = serde_json::to_string(&session.session.state()).expect("states serialize");
        let age = self.clock.now_ms().saturating_sub(session.created());
        SessionRecord {
            id: session.id.to_string(),
            principal: session.owner.principal().map(str::to_owned),
            created_at_ms: now_ms().saturating_sub(age),
            state,
        }
    }

    /// A copy here of the session `record` holds, for `caller`, and the shared session evicted
    /// to make room for it, if any; `None` when the record is unreadable, the session is past
    /// its lifetime, or there is no room.
    fn carry_on(
        &self,
        record: SessionRecord,
        caller: &Caller,
    ) -> Option<(Arc<HttpSession>, Evicted)> {
        let age = now_ms().saturating_sub(record.created_at_ms);
        if age >= self.limits.lifetime.as_millis() as u64 {
            return None;
        }
        let state: HandshakeState = serde_json::from_str(&record.state)
            .inspect_err(|error| tracing::warn!(%error, "an unreadable session record"))
            .ok()?;
        let owner = caller.owner();
        let mut live = self.lock();
        if let Some(session) = live.by_id.get(record.id.as_str()) {
            return Some((session.clone(), None));
        }
        let evicted = self.make_room_for(&mut live, &owner).ok()?;
        let handshake = Handshake::restored(state, self.max_subscriptions);
        handshake.watch_end(&self.session_ends);
        let session = Arc::new(HttpSession::carried_on(
            record.id,
            handshake,
            age,
            owner,
            self.shutdown.child_token(),
            self.clock.clone(),
            self.events.clone(),
            true,
        ));
        live.insert(session.clone());
        Some((session, evicted))
    }

    fn expired(&self, session: &HttpSession, now: u64) -> bool {
        let idle = !session.is_busy()
            && now.saturating_sub(session.last_seen())
                > self.limits.idle_timeout.as_millis() as u64;
        idle || now.saturating_sub(session.created()) >= self.limits.lifetime.as_millis() as u64
    }

    /// The session that makes room for a newcomer of `owner`; `Err` when room is needed and
    /// none may be made.
    fn make_room(&self, live: &Live, owner: &Owner) -> Result<Option<Arc<str>>, Full> {
        // Shared, the store counts a principal's (a network's) sessions across the fleet.
        if !self.fleet.shares_sessions()
            && let Some(cap) = self.cap_of(owner)
            && live.held(owner) >= cap
        {
            return Ok(live.victim(owner, |s| s.owner == *owner));
        }
        if live.by_id.len() < self.limits.max {
            return Ok(None);
        }
        let victim = if owner.is_anonymous() {
            live.victim(owner, |s| s.owner.is_anonymous())
        } else {
            live.victim(owner, |_| true)
        };
        victim.map(Some).ok_or(Full)
    }
}

/// Why no session could be opened.
pub(super) struct Full;

/// A shared session evicted here, to be ended for the whole fleet.
type Evicted = Option<Arc<HttpSession>>;

impl Sessions {
    /// An empty table; sessions end when `shutdown` is cancelled. Starts the reaper of idle
    /// sessions on the current runtime.
    pub(super) fn new(
        limits: SessionLimits,
        shutdown: CancellationToken,
        events: Arc<dyn EventStore>,
        fleet: Fleet,
        (max_subscriptions, session_ends): (usize, SessionEndHooks),
    ) -> Self {
        let limits = SessionLimits {
            max: limits.max.max(1),
            max_per_principal: limits.max_per_principal.max(1),
            max_per_network: limits.max_per_network.max(1),
            ..limits
        };
        let table = Arc::new(Table {
            live: Mutex::new(Live::default()),
            clock: Clock::start(),
            limits,
            shutdown,
            events,
            fleet,
            max_subscriptions,
            session_ends,
        });
        tokio::spawn(reap_periodically(Arc::downgrade(&table)));
        Self { table }
    }

    /// The most bytes a session keeps of its handshake.
    pub(super) fn max_handshake_bytes(&self) -> usize {
        self.table.limits.max_handshake_bytes
    }

    /// Opens a session for `caller`, making room when its owner or the table is full (a shared
    /// session evicted for it ends on every replica).
    pub(super) async fn create(&self, caller: &Caller) -> Result<Arc<HttpSession>, Full> {
        let table = &self.table;
        let owner = caller.owner();
        let (session, evicted) = {
            let mut live = table.lock();
            let evicted = table.make_room_for(&mut live, &owner)?;
            let session = Arc::new(HttpSession::new(
                owner,
                table.shutdown.child_token(),
                table.clock.clone(),
                table.events.clone(),
                table.fleet.shares_sessions(),
            ));
            live.insert(session.clone());
            (session, evicted)
        };
        if let Some(evicted) = evicted {
            self.end_in_fleet(evicted.owner.principal(), &evicted.id)
                .await;
        }
        Ok(session)
    }

    /// Ends the shared session `id` of `principal` for the whole fleet, its copy here already
    /// ended: its record goes from the store, the other replicas end their copies, its events
    /// go.
    async fn end_in_fleet(&self, principal: Option<&str>, id: &str) {
        let table = &self.table;
        if let Some(store) = &table.fleet.sessions
            && let Err(error) = store.delete(principal, id).await
        {
            tracing::warn!(%error, session = id, "the session store did not take the end of a session");
        }
        // Answered once every replica has the news, so that the client's next request is refused
        // wherever it lands.
        table.fleet.end_everywhere(id).await;
        table.events.forget(id).await;
    }

    /// Shares the session `initialize` just opened with the fleet (when sessions are shared):
    /// the store keeps it, and the sessions of its principal (or network) beyond the cap end
    /// everywhere.
    pub(super) async fn share(&self, session: &HttpSession) -> Result<(), Unavailable> {
        let table = &self.table;
        let Some(store) = &table.fleet.sessions else {
            return Ok(());
        };
        let record = table.record_of(session);
        let caps = SessionCaps {
            per_principal: table.limits.max_per_principal,
            network: session.owner.network(),
            per_network: table.limits.max_per_network,
        };
        let evicted = store
            .create_capped(&record, table.limits.idle_timeout, &caps)
            .await?;
        for id in evicted {
            tracing::info!(session = %id, "a caller over its cap of sessions; its least recently used one ended");
            self.end_here(&id);
            table
                .fleet
                .send(Message::SessionEnded {
                    session: id.clone(),
                    ack: false,
                })
                .await;
            table.events.forget(&id).await;
        }
        Ok(())
    }

    /// Makes `change` (taken here) to the session's record in the store, and tells the other
    /// replicas, whose copies apply it as it is (see [`Sessions::apply`]).
    pub(super) async fn change(&self, session: &HttpSession, change: SessionChange) {
        let table = &self.table;
        let Some(store) = &table.fleet.sessions else {
            return;
        };
        let (principal, idle) = (session.owner.principal(), table.limits.idle_timeout);
        match store.update(principal, &session.id, &change, idle).await {
            Ok(true) => {
                let id = session.id.to_string();
                let message = Message::SessionChanged {
                    session: id,
                    change: Some(change),
                };
                table.fleet.send(message).await;
            }
            Ok(false) => tracing::debug!(session = %session.id, "a change to a session gone"),
            Err(error) => {
                tracing::warn!(%error, session = %session.id, "a session's change was not shared")
            }
        }
    }

    /// Applies `change`, made on another replica, to the copy here of the session `id`, if any.
    pub(super) fn apply(&self, id: &str, change: &SessionChange) {
        let Some(held) = self.held(id) else {
            return;
        };
        match change {
            SessionChange::LogLevel(level) => held.session.set_log_level(*level),
            SessionChange::Subscribed(uri) => {
                let cap = self.table.max_subscriptions;
                if held.session.subscribe(uri, cap).is_err() {
                    tracing::warn!(
                        session = id,
                        "a subscription made elsewhere is over the cap here"
                    );
                }
            }
            SessionChange::Unsubscribed(uri) => held.session.unsubscribe(uri),
        }
    }

    /// The live session named `id`, when `caller` may use it (it counts as the client's
    /// activity); with a session store, loaded from it when this replica has no copy.
    ///
    /// Answered at once when the store need not be asked (no store, or this replica's copy not
    /// due for a check): only asking it is a future of its own, boxed, so that every session
    /// request's future (boxed whole) does not hold one.
    pub(super) fn get<'a>(
        &'a self,
        id: &'a str,
        caller: &'a Caller,
    ) -> Either<Ready<Lookup>, Pin<Box<dyn Future<Output = Lookup> + Send + 'a>>> {
        let table = &self.table;
        // Read once: what the session is checked against is when it is touched.
        let now = table.clock.now_ms();
        let found = {
            let mut live = table.lock();
            match live.by_id.get(id).cloned() {
                Some(session) if !session.serves(caller) => {
                    return Either::Left(ready(Lookup::Unknown));
                }
                Some(session) if table.expired(&session, now) => {
                    live.remove(id);
                    if session.shared && !table.past_lifetime(&session) {
                        session.release();
                    } else {
                        session.end();
                        return Either::Left(ready(Lookup::Unknown));
                    }
                    None
                }
                found => found,
            }
        };
        let Some(store) = &table.fleet.sessions else {
            return Either::Left(ready(match found {
                Some(session) => {
                    // Any message from the client is activity (a notification, an answer).
                    session.touch_at(now);
                    Lookup::Found(session)
                }
                None => Lookup::Unknown,
            }));
        };
        if let Some(session) = &found {
            session.touch_at(now);
        }
        match found {
            Some(session) if !session.due_for_validation(table.validation_every_ms()) => {
                Either::Left(ready(Lookup::Found(session)))
            }
            found => Either::Right(Box::pin(self.ask_store(store, found, id, caller))),
        }
    }

    /// [`get`](Sessions::get) where the store is asked: whether this replica's copy (`found`)
    /// still lives there (and keep it alive), or the session's record when there is no copy.
    async fn ask_store(
        &self,
        store: &Arc<dyn SessionStore>,
        found: Option<Arc<HttpSession>>,
        id: &str,
        caller: &Caller,
    ) -> Lookup {
        let table = &self.table;
        let principal = caller.principal.as_deref();
        let idle = table.limits.idle_timeout;
        if let Some(session) = found {
            // Ask the store now and then whether the session lives (and keep it alive there).
            match store.touch(principal, id, idle).await {
                Ok(true) => {}
                Ok(false) => {
                    self.end_here(id);
                    return Lookup::Unknown;
                }
                Err(error) => {
                    tracing::warn!(%error, "cannot confirm a session in the store; served from this replica's copy")
                }
            }
            return Lookup::Found(session);
        }
        let record = match store.load(principal, id).await {
            Ok(Some(record)) if record.id == id && record.principal.as_deref() == principal => {
                record
            }
            Ok(_) => return Lookup::Unknown,
            Err(error) => {
                tracing::warn!(%error, "cannot load a session from the store");
                return Lookup::Unavailable;
            }
        };
        match table.carry_on(record, caller) {
            Some((session, evicted)) => {
                if let Some(evicted) = evicted {
                    self.end_in_fleet(evicted.owner.principal(), &evicted.id)
                        .await;
                }
                session.touch();
                Lookup::Found(session)
            }
            None => Lookup::Unavailable,
        }
    }

    /// Ends the session named `id` (DELETE), on every replica; `false` when there was none.
    pub(super) async fn remove(&self, id: &str, caller: &Caller) -> bool {
        let table = &self.table;
        if !table.fleet.shares_sessions() {
            let removed = table.lock().remove(id);
            return removed.map(|session| session.end()).is_some();
        }
        let removed = table.lock().remove(id);
        if let Some(session) = removed {
            session.release();
            session.record_end();
        }
        self.end_in_fleet(caller.principal.as_deref(), id).await;
        true
    }

    /// Ends this replica's copy of the session `id` (it ended elsewhere, or here); `false` when
    /// there was none.
    pub(super) fn end_here(&self, id: &str) -> bool {
        let removed = self.table.lock().remove(id);
        removed.map(|session| session.release()).is_some()
    }

    /// The copy here of the session `id`, if any (for messages from other replicas: never
    /// loaded from the store).
    pub(super) fn held(&self, id: &str) -> Option<Arc<HttpSession>> {
        self.table.lock().by_id.get(id).cloned()
    }

    /// Reloads the copy here of the session `id` (its record changed on another replica, which
    /// did not say how).
    pub(super) async fn reload(&self, id: &str) {
        let table = &self.table;
        let (Some(store), Some(session)) = (&table.fleet.sessions, self.held(id)) else {
            return;
        };
        match store.load(session.owner.principal(), id).await {
            Ok(Some(record)) => match serde_json::from_str::<HandshakeState>(&record.state) {
                Ok(state) => session.session.apply(state, table.max_subscriptions),
                Err(error) => tracing::warn!(%error, session = id, "an unreadable session record"),
            },
            Ok(None) => {
                self.end_here(id);
            }
            Err(error) => tracing::warn!(%error, session = id, "cannot reload a changed session"),
        }
    }

    /// How many sessions are live.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.table.lock().by_id.len()
    }
}

async fn reap_periodically(table: Weak<Table>) {
    let period = match table.upgrade() {
        Some(table) => (table.limits.idle_timeout.min(table.limits.lifetime) / 2)
            .clamp(Duration::from_millis(10), Duration::from_secs(30)),
        None => return,
    };
    let mut ticks = tokio::time::interval(period);
    loop {
        ticks.tick().await;
        let Some(table) = table.upgrade() else {
            return;
        };
        if table.shutdown.is_cancelled() {
            for (_, session) in table.lock().by_id.drain() {
                session.close();
            }
            return;
        }
        let now = table.clock.now_ms();
        let mut to_touch = Vec::new();
        {
            let mut live = table.lock();
            let expired: Vec<Arc<str>> = live
                .by_id
                .values()
                .filter(|session| table.expired(session, now))
                .map(|session| session.id.clone())
                .collect();
            for id in expired {
                if let Some(session) = live.remove(&id) {
                    tracing::debug!(session = %session.id, "session expired");
                    if session.shared && !table.past_lifetime(&session) {
                        session.release();
                    } else {
                        session.end();
                    }
                }
            }
            // A shared session kept busy here (a long stream) must not expire in the store.
            if table.fleet.shares_sessions() {
                to_touch.extend(
                    live.by_id
                        .values()
                        .filter(|session| {
                            session.is_busy()
                                && session.due_for_validation(table.validation_every_ms())
                        })
                        .cloned(),
                );
            }
        }
        if let Some(store) = &table.fleet.sessions {
            for session in to_touch {
                let principal = session.owner.principal();
                if let Err(error) = store
                    .touch(principal, &session.id, table.limits.idle_timeout)
                    .await
                {
                    tracing::warn!(%error, "cannot keep a busy session alive in the store");
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::MemoryEventStore;
    use super::*;

    fn table(idle_timeout: Duration, max: usize, max_per_principal: usize) -> Sessions {
        let limits = SessionLimits {
            idle_timeout,
            lifetime: Duration::from_secs(3600),
            max,
            max_per_principal,
            max_per_network: 100,
            max_handshake_bytes: 16 * 1024,
        };
        let events = Arc::new(MemoryEventStore::default());
        Sessions::new(
            limits,
            CancellationToken::new(),
            events,
            Fleet::default(),
            (100, Arc::new([])),
        )
    }

    fn anonymous() -> Caller {
        Caller::default()
    }

    fn principal(name: &str) -> Caller {
        Caller {
            principal: Some(Arc::from(name)),
            peer: None,
            ..Caller::default()
        }
    }

    #[tokio::test(start_paused = true)]
    async fn a_full_table_evicts_the_idlest_and_refuses_when_all_are_busy() {
        let sessions = table(Duration::from_secs(60), 2, 10);
        let me = anonymous();
        let first = sessions.create(&me).await.ok().unwrap();
        let _busy_first = first.activity();
        let second = sessions.create(&me).await.ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let third = sessions.create(&me).await.ok().unwrap();
        assert_eq!(sessions.len(), 2);
        assert!(
            !sessions.get(&second.id, &me).await.is_found(),
            "the idle one went"
        );
        assert!(second.closed.is_cancelled());
        let _busy_third = third.activity();
        let stranger = principal("stranger");
        let strangers = sessions.create(&stranger).await.ok().unwrap();
        let _busy_stranger = strangers.activity();
        assert!(
            !sessions.get(&first.id, &me).await.is_found(),
            "a busy session goes to an owner holding fewer"
        );
        assert!(
            sessions.create(&principal("other")).await.is_err(),
            "every owner holds one session, and they are busy or its own"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_expire_and_busy_ones_do_not() {
        let sessions = table(Duration::from_millis(20), 10, 10);
        let idle = sessions.create(&anonymous()).await.ok().unwrap();
        let busy = sessions.create(&anonymous()).await.ok().unwrap();
        let _activity = busy.activity();
        tokio::time::sleep(Duration::from_millis(80)).await;
        assert!(!sessions.get(&idle.id, &anonymous()).await.is_found());
        assert!(idle.closed.is_cancelled());
        assert!(sessions.get(&busy.id, &anonymous()).await.is_found());
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_ends_at_its_lifetime_however_busy() {
        let sessions = table(Duration::from_secs(60), 10, 10);
        let session = sessions.create(&anonymous()).await.ok().unwrap();
        let _streaming = session.activity();
        tokio::time::sleep(Duration::from_secs(3599)).await;
        assert!(sessions.get(&session.id, &anonymous()).await.is_found());
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(!sessions.get(&session.id, &anonymous()).await.is_found());
        assert!(session.closed.is_cancelled());
    }

    #[tokio::test(start_paused = true)]
    async fn a_principal_at_its_cap_replaces_its_own_least_recently_used_session() {
        let sessions = table(Duration::from_secs(60), 100, 2);
        let bob = principal("bob");
        let alice = sessions.create(&principal("alice")).await.ok().unwrap();
        let first = sessions.create(&bob).await.ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let second = sessions.create(&bob).await.ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let _busy_first = first.activity();
        let third = sessions.create(&bob).await.ok().unwrap();
        assert!(!sessions.get(&second.id, &bob).await.is_found());
        assert!(sessions.get(&first.id, &bob).await.is_found());
        assert!(sessions.get(&third.id, &bob).await.is_found());
        assert!(
            sessions
                .get(&alice.id, &principal("alice"))
                .await
                .is_found()
        );
        assert_eq!(sessions.len(), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn a_network_at_its_cap_replaces_its_own_least_recently_used_session() {
        let limits = SessionLimits {
            idle_timeout: Duration::from_secs(60),
            lifetime: Duration::from_secs(3600),
            max: 100,
            max_per_principal: 100,
            max_per_network: 2,
            max_handshake_bytes: 16 * 1024,
        };
        let events = Arc::new(MemoryEventStore::default());
        let sessions = Sessions::new(
            limits,
            CancellationToken::new(),
            events,
            Fleet::default(),
            (100, Arc::new([])),
        );
        let from = |peer: &str| Caller {
            principal: None,
            peer: Some(peer.parse().unwrap()),
            ..Caller::default()
        };
        let (here, there) = (from("10.0.0.1"), from("10.0.0.2"));
        let first = sessions.create(&here).await.ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let second = sessions.create(&here).await.ok().unwrap();
        let elsewhere = sessions.create(&there).await.ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let _third = sessions.create(&here).await.ok().unwrap();
        assert!(first.closed.is_cancelled(), "the network's oldest went");
        assert!(sessions.get(&second.id, &here).await.is_found());
        assert!(sessions.get(&elsewhere.id, &there).await.is_found());
        assert_eq!(sessions.len(), 3);
        // Callers whose address is unknown are not counted per network.
        for _ in 0..3 {
            sessions.create(&anonymous()).await.ok().unwrap();
        }
        assert_eq!(sessions.len(), 6);
    }

    #[tokio::test(start_paused = true)]
    async fn anonymous_callers_take_room_only_from_anonymous_sessions() {
        let sessions = table(Duration::from_secs(60), 2, 10);
        let alice = principal("alice");
        let authenticated = sessions.create(&alice).await.ok().unwrap();
        let anonymous_one = sessions.create(&anonymous()).await.ok().unwrap();
        let _busy = anonymous_one.activity();
        assert!(
            sessions
                .create(&Caller {
                    principal: None,
                    peer: Some("10.0.0.9".parse().unwrap()),
                    ..Caller::default()
                })
                .await
                .is_err(),
            "only a busy anonymous session of an owner no larger could make room"
        );
        assert!(sessions.get(&authenticated.id, &alice).await.is_found());
        assert!(
            sessions.create(&principal("bob")).await.is_ok(),
            "an idle session of alice's is fair game"
        );
    }
}
