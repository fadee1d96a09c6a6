//! Backend calls held open between a 2026-07-28 caller's rounds: a 2025-11-25 backend asks its
//! questions as requests while its call runs, so the call cannot be carried in a
//! `requestState`; it waits here, under a random id that the caller's sealed state carries,
//! until the caller retries with the answers. Only the replica holding a call can continue it.
//!
//! Bounded: [`MAX_HELD`] calls in all, [`MAX_HELD_PER_CALLER`] per caller (its principal, or
//! one shared place for callers without one), each for at most [`HELD_FOR`]; a call beyond
//! them is refused, not queued, and an expired one is dropped (its backend request cancelled).

use super::flight::InFlight;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How many backend calls may be held at once.
pub(crate) const MAX_HELD: usize = 256;
/// How many of them one caller may hold.
pub(crate) const MAX_HELD_PER_CALLER: usize = 16;
/// How long a held call waits for its caller's next round.
pub(crate) const HELD_FOR: Duration = Duration::from_secs(120);

struct Entry {
    owner: String,
    expires: Instant,
    call: InFlight,
}

/// The held calls of one gateway.
#[derive(Default)]
pub(crate) struct Held {
    calls: Mutex<HashMap<String, Entry>>,
}

/// Why a call could not be held.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Full {
    /// The caller holds [`MAX_HELD_PER_CALLER`] already.
    Caller,
    /// The gateway holds [`MAX_HELD`] already.
    Gateway,
}

impl Held {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Entry>> {
        self.calls.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Holds `call` for `owner`; its id, or why not (the call is then dropped, cancelling it).
    pub(crate) fn hold(&self, owner: &str, call: InFlight) -> Result<String, Full> {
        let now = Instant::now();
        let mut calls = self.lock();
        let expired: Vec<String> = (calls.iter())
            .filter(|(_, entry)| entry.expires <= now)
            .map(|(id, _)| id.clone())
            .collect();
        let dropped: Vec<Entry> = expired.iter().filter_map(|id| calls.remove(id)).collect();
        let outcome = if calls.len() >= MAX_HELD {
            Err(Full::Gateway)
        } else if calls.values().filter(|e| e.owner == owner).count() >= MAX_HELD_PER_CALLER {
            Err(Full::Caller)
        } else {
            let id = new_id();
            let entry = Entry {
                owner: owner.to_owned(),
                expires: now + HELD_FOR,
                call,
            };
            calls.insert(id.clone(), entry);
            Ok(id)
        };
        drop(calls);
        drop(dropped);
        outcome
    }

    /// Takes back the call held under `id` for `owner`, unless it expired.
    pub(crate) fn take(&self, id: &str, owner: &str) -> Option<InFlight> {
        let mut calls = self.lock();
        if calls.get(id)?.owner != owner {
            return None;
        }
        let entry = calls.remove(id)?;
        drop(calls);
        (entry.expires > Instant::now()).then_some(entry.call)
    }

    /// How many calls are held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.lock().len()
    }
}

/// 128 random bits, hex.
fn new_id() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the operating system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_caller_holds_at_most_its_share_and_the_gateway_at_most_its_bound() {
        let held = Held::default();
        for _ in 0..MAX_HELD_PER_CALLER {
            held.hold("alice", InFlight::finished()).unwrap();
        }
        assert_eq!(held.hold("alice", InFlight::finished()), Err(Full::Caller));
        let mut others = 0;
        while held
            .hold(&format!("caller-{others}"), InFlight::finished())
            .is_ok()
        {
            others += 1;
        }
        assert_eq!(held.len(), MAX_HELD);
        assert_eq!(others, MAX_HELD - MAX_HELD_PER_CALLER);
        assert_eq!(held.hold("bob", InFlight::finished()), Err(Full::Gateway));
    }

    #[tokio::test]
    async fn a_call_is_taken_back_once_and_only_by_its_owner() {
        let held = Held::default();
        let id = held.hold("alice", InFlight::finished()).unwrap();
        assert!(held.take(&id, "mallory").is_none());
        assert!(held.take(&id, "alice").is_some());
        assert!(held.take(&id, "alice").is_none(), "taken twice");
    }
}
