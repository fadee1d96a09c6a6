//! This replica's followers of request streams other replicas run (for clients that resumed
//! them here), all fed by one reader (`reader.rs`, started by the event store) on one Redis
//! connection: a registry of who follows what, and where each session's log was read up to.
//!
//! A stream has at most one follower here: a new one replaces it, and the old one ends. A
//! follower whose client reads too slowly (its queue is full) ends; the client resumes.

use super::event_log::Entry;
use futures_util::Stream;
use std::collections::HashMap;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::task::{Context, Poll};
use tokio::sync::mpsc;

/// Events queued for one follower's client; beyond, it ends (and the client may resume).
const QUEUED: usize = 256;

/// `(event id, line)`.
pub(super) type Event = (String, String);

/// The followers of this replica.
#[derive(Default)]
pub(super) struct Followers {
    pub(super) registry: Arc<Shared>,
}

/// What the reader must do for a new follower.
pub(super) enum Reader {
    /// Start: none runs.
    Start,
    /// Wake up (its connection's id) to read the new stream at once.
    Wake(i64),
    /// Nothing (it is connecting).
    Nothing,
}

/// The registry, shared by the followers and the reader.
#[derive(Default)]
pub(super) struct Shared(Mutex<Registry>);

impl Shared {
    pub(super) fn lock(&self) -> MutexGuard<'_, Registry> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Who follows what.
#[derive(Default)]
pub(super) struct Registry {
    /// The followed sessions' logs, by session id.
    pub(super) logs: HashMap<String, Log>,
    /// Numbers the followers, so a replaced one does not remove its successor.
    next: u64,
    /// Whether the reader runs.
    pub(super) reading: bool,
    /// The reader's connection (`CLIENT ID`), to wake it when a follower comes.
    pub(super) reader_id: Option<i64>,
}

/// One session's log as its followers read it.
#[derive(Default)]
pub(super) struct Log {
    /// Redis's id of the last entry read; `None` until its followers' starts are known.
    pub(super) since: Option<String>,
    /// The followers, by request stream.
    pub(super) slots: HashMap<u64, Slot>,
}

/// One follower.
pub(super) struct Slot {
    number: u64,
    sender: mpsc::Sender<Event>,
    /// The last number its client has.
    seen: u64,
    /// What runs the stream; `None` until read from its record.
    pub(super) owner: Option<Owner>,
    /// Whether its record was looked up.
    pub(super) placed: bool,
    /// Whether the last read found nothing new in its log.
    pub(super) idle: bool,
}

/// The record of a running stream: where it begins, the request, the replica running it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Owner {
    pub(super) begin: String,
    pub(super) request: String,
    pub(super) process: String,
}

impl Owner {
    /// A record as the append script writes it (`begin\nrequest\nprocess`).
    pub(super) fn parse(record: &str) -> Option<Self> {
        let mut parts = record.splitn(3, '\n');
        Some(Self {
            begin: parts.next()?.to_owned(),
            request: parts.next()?.to_owned(),
            process: parts.next()?.to_owned(),
        })
    }
}

impl Followers {
    /// Follows `stream` of `session` from after event number `seen`, replacing the follower
    /// it had here; the events end with the stream's last. The caller does what the reader
    /// needs.
    pub(super) fn follow(&self, session: &str, stream: u64, seen: u64) -> (Following, Reader) {
        let (sender, receiver) = mpsc::channel(QUEUED);
        let (number, reader) = {
            let mut registry = self.registry.lock();
            registry.next += 1;
            let number = registry.next;
            let log = registry.logs.entry(session.to_owned()).or_default();
            let slot = Slot {
                number,
                sender,
                seen,
                owner: None,
                placed: false,
                idle: false,
            };
            // The follower replaced, if any, ends: its sender goes.
            log.slots.insert(stream, slot);
            let reader = match (registry.reading, registry.reader_id) {
                (false, _) => Reader::Start,
                (true, Some(id)) => Reader::Wake(id),
                (true, None) => Reader::Nothing,
            };
            registry.reading = true;
            (number, reader)
        };
        let following = Following {
            receiver,
            registry: Arc::downgrade(&self.registry),
            session: session.to_owned(),
            stream,
            number,
        };
        (following, reader)
    }
}

impl Registry {
    /// Hands what was read of `session`'s log to its followers; a follower whose stream ended,
    /// or whose client reads too slowly, goes.
    pub(super) fn dispatch(&mut self, session: &str, entries: Vec<Entry>) {
        let Some(log) = self.logs.get_mut(session) else {
            return;
        };
        for slot in log.slots.values_mut() {
            slot.idle = entries.is_empty();
        }
        for entry in entries {
            log.since = Some(entry.id.clone());
            let Some(slot) = log.slots.get_mut(&entry.stream) else {
                continue;
            };
            let mut gone = entry.last;
            if entry.number > slot.seen {
                slot.seen = entry.number;
                if entry.kind == "line" {
                    let event = (format!("{}-{}", entry.stream, entry.number), entry.payload);
                    gone |= slot.sender.try_send(event).is_err();
                }
            }
            if gone {
                log.slots.remove(&entry.stream);
            }
        }
        if log.slots.is_empty() {
            self.logs.remove(session);
        }
    }

    /// Ends the follower of `stream` in `session` with `event` (its stream's last).
    pub(super) fn finish(&mut self, session: &str, stream: u64, event: Option<Event>) {
        let Some(log) = self.logs.get_mut(session) else {
            return;
        };
        if let (Some(slot), Some(event)) = (log.slots.remove(&stream), event) {
            let _ = slot.sender.try_send(event);
        }
        if log.slots.is_empty() {
            self.logs.remove(session);
        }
    }
}

/// The events a follower's client gets; dropping it stops following.
pub(super) struct Following {
    receiver: mpsc::Receiver<Event>,
    registry: Weak<Shared>,
    session: String,
    stream: u64,
    number: u64,
}

impl Stream for Following {
    type Item = Event;

    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Event>> {
        self.receiver.poll_recv(cx)
    }
}

impl Drop for Following {
    fn drop(&mut self) {
        let Some(registry) = self.registry.upgrade() else {
            return;
        };
        let mut registry = registry.lock();
        let Some(log) = registry.logs.get_mut(&self.session) else {
            return;
        };
        if log.slots.get(&self.stream).map(|s| s.number) == Some(self.number) {
            log.slots.remove(&self.stream);
        }
        if log.slots.is_empty() {
            registry.logs.remove(&self.session);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, stream: u64, number: u64, last: bool) -> Entry {
        Entry {
            id: id.to_owned(),
            stream,
            number,
            kind: "line".to_owned(),
            payload: format!("{stream}/{number}"),
            last,
            ..Entry::default()
        }
    }

    fn registry_with(streams: &[u64]) -> (Registry, Vec<mpsc::Receiver<Event>>) {
        let mut registry = Registry::default();
        let log = registry.logs.entry("s".to_owned()).or_default();
        let mut receivers = Vec::new();
        for &stream in streams {
            let (sender, receiver) = mpsc::channel(2);
            let slot = Slot {
                number: stream,
                sender,
                seen: 1,
                owner: None,
                placed: true,
                idle: false,
            };
            log.slots.insert(stream, slot);
            receivers.push(receiver);
        }
        (registry, receivers)
    }

    #[test]
    fn entries_reach_their_stream_once_and_the_last_ends_it() {
        let (mut registry, mut receivers) = registry_with(&[7, 8]);
        registry.dispatch(
            "s",
            vec![
                entry("1-0", 7, 1, false),
                entry("2-0", 7, 2, false),
                entry("3-0", 8, 2, true),
            ],
        );
        assert_eq!(
            receivers[0].try_recv().unwrap().0,
            "7-2",
            "after the one seen"
        );
        assert!(receivers[0].try_recv().is_err());
        assert_eq!(receivers[1].try_recv().unwrap().0, "8-2");
        let log = &registry.logs["s"];
        assert_eq!(log.since.as_deref(), Some("3-0"));
        assert!(!log.slots.contains_key(&8), "its stream ended");
        registry.dispatch("s", vec![entry("4-0", 7, 3, true)]);
        assert!(registry.logs.is_empty(), "no follower left, no log read");
    }

    #[test]
    fn a_follower_whose_client_lags_ends() {
        let (mut registry, _receivers) = registry_with(&[7]);
        let lines = (2..6).map(|n| entry(&format!("{n}-0"), 7, n, false));
        registry.dispatch("s", lines.collect());
        assert!(registry.logs.is_empty(), "its queue of 2 overflowed");
    }

    #[test]
    fn owner_records_read_as_written() {
        let owner = Owner::parse("17-3\n5\nr1/abc").unwrap();
        assert_eq!(
            (
                owner.begin.as_str(),
                owner.request.as_str(),
                owner.process.as_str()
            ),
            ("17-3", "5", "r1/abc")
        );
        assert!(Owner::parse("17-3").is_none());
    }
}
