//! [`Acks`]: waiting until every replica has ended its copy of a session. The replica that ends a
//! session publishes the end once and learns from the bus how many subscribers received it (Redis
//! `PUBLISH` answers with that count); each other replica ends its copy and then acknowledges,
//! and this replica's own echo counts as its own acknowledgement. Once as many replicas as
//! received the end have acknowledged it, a client's next request is refused on whichever replica
//! takes it, instead of racing the bus there. A bus that cannot count receivers waits for the
//! echo alone, as before acknowledgements existed.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::watch;

/// How long a replica waits for the fleet's acknowledgements before it goes on anyway (the bus
/// is slow or down, or a replica of an earlier version never acknowledges).
pub(super) const ACK_WAIT: Duration = Duration::from_millis(250);

/// The most ends waited for at once; past it, a sender does not wait (each waiter is a request
/// being answered, so this is bounded by them already).
const MAX_WAITING: usize = 4096;

/// The most distinct replicas one wait counts: a fleet larger than this is waited for up to it.
const MAX_REPLICAS: usize = 1024;

/// One waiter: the replicas heard from so far, and how many of them there are.
struct Waiter {
    heard_from: HashSet<String>,
    count: watch::Sender<usize>,
}

/// The waits on one session's end.
type Waiters = Vec<Arc<Mutex<Waiter>>>;

/// Waiters by the session whose end they announced.
#[derive(Clone, Default)]
pub(super) struct Acks {
    waiting: Arc<Mutex<HashMap<String, Waiters>>>,
}

impl Acks {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Waiters>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts counting the acknowledgements of the end of `session`; `None` when too many wait
    /// already.
    pub(super) fn expect(&self, session: &str) -> Option<AckWait> {
        let mut waiting = self.lock();
        if waiting.values().map(Vec::len).sum::<usize>() >= MAX_WAITING {
            return None;
        }
        let (count, receiver) = watch::channel(0);
        let waiter = Arc::new(Mutex::new(Waiter {
            heard_from: HashSet::new(),
            count,
        }));
        waiting
            .entry(session.to_owned())
            .or_default()
            .push(waiter.clone());
        Some(AckWait {
            acks: self.clone(),
            session: session.to_owned(),
            waiter,
            receiver,
        })
    }

    /// `replica` ended its copy of `session` (this replica's own echo included): it counts
    /// once for every wait on that session.
    pub(super) fn heard(&self, session: &str, replica: &str) {
        let waiting = self.lock();
        let Some(waiters) = waiting.get(session) else {
            return;
        };
        for waiter in waiters {
            let mut waiter = waiter.lock().unwrap_or_else(|e| e.into_inner());
            if waiter.heard_from.len() < MAX_REPLICAS
                && waiter.heard_from.insert(replica.to_owned())
            {
                let heard = waiter.heard_from.len();
                waiter.count.send_replace(heard);
            }
        }
    }
}

/// One wait for acknowledgements; forgets itself when dropped.
pub(super) struct AckWait {
    acks: Acks,
    session: String,
    waiter: Arc<Mutex<Waiter>>,
    receiver: watch::Receiver<usize>,
}

impl AckWait {
    /// Waits until `replicas` distinct replicas acknowledged (at most [`MAX_REPLICAS`]), at most
    /// `bound`; whether they did.
    pub(super) async fn all_within(mut self, replicas: usize, bound: Duration) -> bool {
        let wanted = replicas.min(MAX_REPLICAS);
        tokio::time::timeout(bound, self.receiver.wait_for(|heard| *heard >= wanted))
            .await
            .is_ok_and(|heard| heard.is_ok())
    }
}

impl Drop for AckWait {
    fn drop(&mut self) {
        let mut waiting = self.acks.lock();
        if let Some(waiters) = waiting.get_mut(&self.session) {
            waiters.retain(|waiter| !Arc::ptr_eq(waiter, &self.waiter));
            if waiters.is_empty() {
                waiting.remove(&self.session);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_wait_ends_when_enough_distinct_replicas_acknowledged_and_is_forgotten_either_way() {
        let acks = Acks::default();
        let wait = acks.expect("s1").unwrap();
        acks.heard("s1", "a");
        acks.heard("s1", "a");
        acks.heard("other", "b");
        let short = acks.expect("s1").unwrap();
        assert!(
            !short.all_within(2, Duration::from_millis(10)).await,
            "one replica twice is not two"
        );
        acks.heard("s1", "b");
        assert!(wait.all_within(2, Duration::from_secs(1)).await);
        let late = acks.expect("s2").unwrap();
        assert!(!late.all_within(1, Duration::from_millis(10)).await);
        assert!(acks.lock().is_empty(), "no waiter is left behind");
    }

    #[tokio::test]
    async fn an_acknowledgement_counts_only_for_the_waits_that_began_before_it() {
        let acks = Acks::default();
        let first = acks.expect("s").unwrap();
        acks.heard("s", "a");
        let second = acks.expect("s").unwrap();
        acks.heard("s", "b");
        assert!(first.all_within(2, Duration::from_secs(1)).await);
        assert!(!second.all_within(2, Duration::from_millis(10)).await);
        assert!(
            acks.expect("s")
                .unwrap()
                .all_within(0, Duration::ZERO)
                .await
        );
    }
}
