//! What the virtual clients sent and got back, by kind of request.
//!
//! Every request is counted once as sent and, later, once as exactly one of: answered (the
//! expected answer), abandoned (the client left on purpose before the answer), wrong (an answer,
//! but not the expected one) or lost (no answer at all: the connection closed, the stream ended,
//! or nothing came within the answer timeout).

use hyper::header::HeaderValue;
use serde_json::{Value, json};
use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};

/// Why a request did not get its expected answer.
#[derive(Debug)]
pub enum Failure {
    /// No answer.
    Lost(String),
    /// An answer, but not the expected one (an error, a bad status, the wrong content).
    Wrong(String),
}

/// The counts of one kind of request.
#[derive(Default, Clone, Copy)]
pub struct Counts {
    pub sent: u64,
    pub answered: u64,
    pub abandoned: u64,
    pub wrong: u64,
    pub lost: u64,
}

impl Counts {
    /// Sent but not (yet) counted as anything else.
    fn open(&self) -> u64 {
        self.sent - self.answered - self.abandoned - self.wrong - self.lost
    }
}

/// At most this many failures are kept, with their reasons, for the report.
const KEPT_FAILURES: usize = 20;
/// At most this many sessions left behind are remembered (the latest).
const KEPT_SESSIONS: usize = 64;

#[derive(Default)]
struct Inner {
    kinds: BTreeMap<&'static str, Counts>,
    /// Other events worth counting that are not requests (sessions left to expire, …).
    events: BTreeMap<&'static str, u64>,
    failures: Vec<String>,
    /// The latest sessions the clients left behind (to expire, or vanished from).
    left: VecDeque<HeaderValue>,
}

/// The shared tally of every virtual client.
#[derive(Clone, Default)]
pub struct Tally(Arc<Mutex<Inner>>);

impl Tally {
    fn with<R>(&self, f: impl FnOnce(&mut Inner) -> R) -> R {
        f(&mut self.0.lock().unwrap_or_else(|e| e.into_inner()))
    }

    pub fn sent(&self, kind: &'static str) {
        self.with(|t| t.kinds.entry(kind).or_default().sent += 1);
    }

    pub fn answered(&self, kind: &'static str) {
        self.with(|t| t.kinds.entry(kind).or_default().answered += 1);
    }

    pub fn abandoned(&self, kind: &'static str) {
        self.with(|t| t.kinds.entry(kind).or_default().abandoned += 1);
    }

    /// Counts a failed request and keeps its reason (the first few).
    pub fn failed(&self, kind: &'static str, failure: Failure) {
        self.with(|t| {
            let counts = t.kinds.entry(kind).or_default();
            let (what, why) = match failure {
                Failure::Lost(why) => (&mut counts.lost, format!("{kind}: lost: {why}")),
                Failure::Wrong(why) => (&mut counts.wrong, format!("{kind}: wrong: {why}")),
            };
            *what += 1;
            if t.failures.len() < KEPT_FAILURES {
                t.failures.push(why);
            }
        });
    }

    /// Counts something that is not a request.
    pub fn event(&self, name: &'static str) {
        self.with(|t| *t.events.entry(name).or_default() += 1);
    }

    /// Remembers a session left behind (the latest [`KEPT_SESSIONS`]).
    pub fn left(&self, session: &HeaderValue) {
        self.with(|t| {
            if t.left.len() == KEPT_SESSIONS {
                t.left.pop_front();
            }
            t.left.push_back(session.clone());
        });
    }

    /// The latest sessions left behind.
    pub fn left_sessions(&self) -> Vec<HeaderValue> {
        self.with(|t| t.left.iter().cloned().collect())
    }

    /// The sums over every kind.
    pub fn total(&self) -> Counts {
        self.with(|t| {
            t.kinds.values().fold(Counts::default(), |a, c| Counts {
                sent: a.sent + c.sent,
                answered: a.answered + c.answered,
                abandoned: a.abandoned + c.abandoned,
                wrong: a.wrong + c.wrong,
                lost: a.lost + c.lost,
            })
        })
    }

    /// Requests sent that were never accounted for (must be 0 once traffic stopped).
    pub fn open(&self) -> u64 {
        self.with(|t| t.kinds.values().map(Counts::open).sum())
    }

    /// The counts of `kind`.
    pub fn of(&self, kind: &str) -> Counts {
        self.with(|t| t.kinds.get(kind).copied().unwrap_or_default())
    }

    /// The kinds, the other events and the kept failures, as JSON.
    pub fn report(&self) -> Value {
        self.with(|t| {
            let kinds: serde_json::Map<String, Value> = t
                .kinds
                .iter()
                .map(|(kind, c)| {
                    let counts = json!({"sent": c.sent, "answered": c.answered,
                        "abandoned": c.abandoned, "wrong": c.wrong, "lost": c.lost});
                    ((*kind).to_owned(), counts)
                })
                .collect();
            json!({"requests": kinds, "events": t.events, "failures": t.failures})
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_request_ends_once() {
        let tally = Tally::default();
        for _ in 0..4 {
            tally.sent("a");
        }
        tally.answered("a");
        tally.abandoned("a");
        tally.failed("a", Failure::Lost("gone".into()));
        assert_eq!(tally.open(), 1);
        tally.failed("a", Failure::Wrong("bad".into()));
        assert_eq!(tally.open(), 0);
        let total = tally.total();
        assert_eq!((total.sent, total.lost, total.wrong), (4, 1, 1));
        assert_eq!(tally.report()["failures"].as_array().unwrap().len(), 2);
    }
}
