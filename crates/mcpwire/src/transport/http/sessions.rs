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
//! - anonymous callers are told apart by network (see [`Owner`]) and only ever take room from
//!   anonymous sessions, so an anonymous flood cannot evict an authenticated session;
//! - when the table is full, `initialize` evicts a session of the owner holding the most (see
//!   `eviction.rs`); when no session may be evicted, it is refused with `503`.
//!
//! An evicted client gets `404` next time and, as the spec requires, initializes again.

use super::caller::{Caller, Owner};
use super::events::EventStore;
use super::eviction::{self, Candidate};
use super::http_session::{Clock, HttpSession};
use std::collections::HashMap;
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
}

/// The sessions by id, and how many each owner holds.
#[derive(Default)]
struct Live {
    by_id: HashMap<Arc<str>, Arc<HttpSession>>,
    held: HashMap<Owner, usize>,
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

    fn expired(&self, session: &HttpSession, now: u64) -> bool {
        let idle = !session.is_busy()
            && now.saturating_sub(session.last_seen())
                > self.limits.idle_timeout.as_millis() as u64;
        idle || now.saturating_sub(session.created()) >= self.limits.lifetime.as_millis() as u64
    }

    /// The session that makes room for a newcomer of `owner`; `Err` when room is needed and
    /// none may be made.
    fn make_room(&self, live: &Live, owner: &Owner) -> Result<Option<Arc<str>>, Full> {
        if !owner.is_anonymous() && live.held(owner) >= self.limits.max_per_principal {
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

impl Sessions {
    /// An empty table; sessions end when `shutdown` is cancelled. Starts the reaper of idle
    /// sessions on the current runtime.
    pub(super) fn new(
        limits: SessionLimits,
        shutdown: CancellationToken,
        events: Arc<dyn EventStore>,
    ) -> Self {
        let limits = SessionLimits {
            max: limits.max.max(1),
            max_per_principal: limits.max_per_principal.max(1),
            ..limits
        };
        let table = Arc::new(Table {
            live: Mutex::new(Live::default()),
            clock: Clock::start(),
            limits,
            shutdown,
            events,
        });
        tokio::spawn(reap_periodically(Arc::downgrade(&table)));
        Self { table }
    }

    /// Opens a session for `caller`, making room when its owner or the table is full.
    pub(super) fn create(&self, caller: &Caller) -> Result<Arc<HttpSession>, Full> {
        let table = &self.table;
        let owner = caller.owner();
        let mut live = table.lock();
        if let Some(id) = table.make_room(&live, &owner)?
            && let Some(evicted) = live.remove(&id)
        {
            tracing::info!(session = %evicted.id, owner = ?evicted.owner, "no room for a new session; evicted one");
            evicted.end();
        }
        let session = Arc::new(HttpSession::new(
            owner,
            table.shutdown.child_token(),
            table.clock.clone(),
            table.events.clone(),
        ));
        live.insert(session.clone());
        Ok(session)
    }

    /// The live session named `id`, when `caller` may use it (it counts as the client's
    /// activity); `None` when unknown, ended, expired, or another caller's.
    pub(super) fn get(&self, id: &str, caller: &Caller) -> Option<Arc<HttpSession>> {
        let table = &self.table;
        let mut live = table.lock();
        let session = live.by_id.get(id)?.clone();
        if !session.serves(caller) {
            return None;
        }
        if table.expired(&session, table.clock.now_ms()) {
            live.remove(id);
            session.end();
            return None;
        }
        // Any message from the client is activity (a notification, an answer to a question).
        session.touch();
        Some(session)
    }

    /// Ends the session named `id`; `false` when there was none.
    pub(super) fn remove(&self, id: &str) -> bool {
        let removed = self.table.lock().remove(id);
        removed.map(|session| session.end()).is_some()
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
                session.end();
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
        };
        let events = Arc::new(MemoryEventStore::default());
        Sessions::new(limits, CancellationToken::new(), events)
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
        let first = sessions.create(&me).ok().unwrap();
        let _busy_first = first.activity();
        let second = sessions.create(&me).ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let third = sessions.create(&me).ok().unwrap();
        assert_eq!(sessions.len(), 2);
        assert!(sessions.get(&second.id, &me).is_none(), "the idle one went");
        assert!(second.closed.is_cancelled());
        let _busy_third = third.activity();
        let stranger = principal("stranger");
        let strangers = sessions.create(&stranger).ok().unwrap();
        let _busy_stranger = strangers.activity();
        assert!(
            sessions.get(&first.id, &me).is_none(),
            "a busy session goes to an owner holding fewer"
        );
        assert!(
            sessions.create(&principal("other")).is_err(),
            "every owner holds one session, and they are busy or its own"
        );
    }

    #[tokio::test(start_paused = true)]
    async fn idle_sessions_expire_and_busy_ones_do_not() {
        let sessions = table(Duration::from_millis(20), 10, 10);
        let idle = sessions.create(&anonymous()).ok().unwrap();
        let busy = sessions.create(&anonymous()).ok().unwrap();
        let _activity = busy.activity();
        tokio::time::sleep(Duration::from_millis(80)).await;
        assert!(sessions.get(&idle.id, &anonymous()).is_none());
        assert!(idle.closed.is_cancelled());
        assert!(sessions.get(&busy.id, &anonymous()).is_some());
    }

    #[tokio::test(start_paused = true)]
    async fn a_session_ends_at_its_lifetime_however_busy() {
        let sessions = table(Duration::from_secs(60), 10, 10);
        let session = sessions.create(&anonymous()).ok().unwrap();
        let _streaming = session.activity();
        tokio::time::sleep(Duration::from_secs(3599)).await;
        assert!(sessions.get(&session.id, &anonymous()).is_some());
        tokio::time::sleep(Duration::from_secs(1)).await;
        assert!(sessions.get(&session.id, &anonymous()).is_none());
        assert!(session.closed.is_cancelled());
    }

    #[tokio::test(start_paused = true)]
    async fn a_principal_at_its_cap_replaces_its_own_least_recently_used_session() {
        let sessions = table(Duration::from_secs(60), 100, 2);
        let bob = principal("bob");
        let alice = sessions.create(&principal("alice")).ok().unwrap();
        let first = sessions.create(&bob).ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let second = sessions.create(&bob).ok().unwrap();
        tokio::time::advance(Duration::from_millis(1)).await;
        let _busy_first = first.activity();
        let third = sessions.create(&bob).ok().unwrap();
        assert!(sessions.get(&second.id, &bob).is_none());
        assert!(sessions.get(&first.id, &bob).is_some());
        assert!(sessions.get(&third.id, &bob).is_some());
        assert!(sessions.get(&alice.id, &principal("alice")).is_some());
        assert_eq!(sessions.len(), 3);
    }

    #[tokio::test(start_paused = true)]
    async fn anonymous_callers_take_room_only_from_anonymous_sessions() {
        let sessions = table(Duration::from_secs(60), 2, 10);
        let alice = principal("alice");
        let authenticated = sessions.create(&alice).ok().unwrap();
        let anonymous_one = sessions.create(&anonymous()).ok().unwrap();
        let _busy = anonymous_one.activity();
        assert!(
            sessions
                .create(&Caller {
                    principal: None,
                    peer: Some("10.0.0.9".parse().unwrap()),
                    ..Caller::default()
                })
                .is_err(),
            "only a busy anonymous session of an owner no larger could make room"
        );
        assert!(sessions.get(&authenticated.id, &alice).is_some());
        assert!(
            sessions.create(&principal("bob")).is_ok(),
            "an idle session of alice's is fair game"
        );
    }
}
