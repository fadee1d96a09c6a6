//! The event store behind resumable 2025-11-25 streams: every event a session's request stream
//! carries gets an id, and the recent ones are kept so a client that lost the stream can ask for
//! the rest with `Last-Event-ID`, on this replica or, with a shared store, on any other.

use futures_util::stream::BoxStream;
use std::collections::{HashMap, VecDeque};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;

/// The future an [`EventStore`] method returns.
pub type EventFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// A stream's events after an id: `(stream, [(event id, line)])`, oldest first.
pub type Replay = (u64, Vec<(String, String)>);

/// Keeps the recent events of each session's streams. Replace the in-memory default (see
/// [`HttpServer::event_store`](super::HttpServer::event_store)) to share it between replicas:
/// `RedisFleet` (feature `redis`) keeps them in a Redis stream per session.
///
/// Every method is async and must not block the runtime's threads. An id returned by
/// [`append`](EventStore::append) must be unique among the session's events (across replicas,
/// for a shared store), and the event committed before it returns: the client may resume from
/// it on another replica at once.
///
/// # Examples
///
/// ```
/// use mcpwire::McpServer;
/// use mcpwire::transport::http::{EventFuture, EventStore, MemoryEventStore, Replay};
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// /// The in-memory store, counting the events it keeps.
/// #[derive(Default)]
/// struct Counted { inner: MemoryEventStore, appended: AtomicUsize }
///
/// impl EventStore for Counted {
///     fn append<'a>(&'a self, session: &'a str, stream: u64, line: &'a str) -> EventFuture<'a, Option<String>> {
///         self.appended.fetch_add(1, Ordering::Relaxed);
///         self.inner.append(session, stream, line)
///     }
///     fn after<'a>(&'a self, session: &'a str, last: &'a str) -> EventFuture<'a, Option<Replay>> {
///         self.inner.after(session, last)
///     }
///     fn forget<'a>(&'a self, session: &'a str) -> EventFuture<'a, ()> { self.inner.forget(session) }
/// }
///
/// let server = McpServer::new("demo").http().event_store(Counted::default());
/// # drop(server);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an event store",
    note = "implement `mcpwire::transport::http::EventStore`, or use `mcpwire::transport::http::MemoryEventStore`"
)]
pub trait EventStore: Send + Sync + 'static {
    /// Stores `line` as the next event of `stream` in `session`; returns the event's id, or
    /// `None` when it could not be kept (the event is still sent live, without an id).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::transport::http::{EventStore, MemoryEventStore};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let store = MemoryEventStore::default();
    /// let line = r#"{"jsonrpc":"2.0","id":1,"result":{}}"#;
    /// assert_eq!(store.append("session-a", 0, line).await.as_deref(), Some("0-1"));
    /// assert_eq!(store.append("session-a", 0, "second").await.as_deref(), Some("0-2"));
    /// assert_eq!(store.append("session-a", 1, "other stream").await.as_deref(), Some("1-1"));
    /// # });
    /// ```
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> EventFuture<'a, Option<String>>;

    /// The stream `last_event_id` belongs to and its events after that one, oldest first, as
    /// `(id, line)`; `None` when the id is unknown (never issued, or no longer kept).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::transport::http::{EventStore, MemoryEventStore};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let store = MemoryEventStore::default();
    /// store.append("s", 0, "one").await;
    /// store.append("s", 0, "two").await;
    /// let (stream, missed) = store.after("s", "0-1").await.unwrap();
    /// assert_eq!((stream, missed), (0, vec![("0-2".to_owned(), "two".to_owned())]));
    /// assert!(store.after("s", "0-9").await.is_none()); // never issued
    /// # });
    /// ```
    fn after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> EventFuture<'a, Option<Replay>>;

    /// Forgets a session's events (the session ended).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::transport::http::{EventStore, MemoryEventStore};
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let store = MemoryEventStore::default();
    /// store.append("s", 0, "one").await;
    /// store.forget("s").await;
    /// assert!(store.after("s", "0-1").await.is_none());
    /// # });
    /// ```
    fn forget<'a>(&'a self, session: &'a str) -> EventFuture<'a, ()>;

    /// The id of `stream`'s priming event (sent before anything else, so the client can resume
    /// from the start): `{stream}-0` by default. [`after`](EventStore::after) must know it.
    ///
    /// ```
    /// use mcpwire::transport::http::{EventStore, MemoryEventStore};
    ///
    /// assert_eq!(MemoryEventStore::default().priming_id(7), "7-0");
    /// ```
    fn priming_id(&self, stream: u64) -> String {
        format!("{stream}-0")
    }

    /// `stream` of `session` starts: it answers the request `request_id` (its JSON), on this
    /// replica. A shared store records it, so another replica following the stream can tell
    /// the client when this replica is gone. Nothing by default.
    fn begin<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        request_id: &'a str,
    ) -> EventFuture<'a, ()> {
        let _ = (session, stream, request_id);
        Box::pin(std::future::ready(()))
    }

    /// Stores `line` as the last event of `stream` (the response): as
    /// [`append`](EventStore::append), then [`end`](EventStore::end), by default; a shared
    /// store may record both at once.
    fn append_last<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> EventFuture<'a, Option<String>> {
        Box::pin(async move {
            let id = self.append(session, stream, line).await;
            self.end(session, stream).await;
            id
        })
    }

    /// `stream` of `session` ended without a last event (the request was cancelled): followers
    /// stop waiting. Nothing by default.
    fn end<'a>(&'a self, session: &'a str, stream: u64) -> EventFuture<'a, ()> {
        let _ = (session, stream);
        Box::pin(std::future::ready(()))
    }

    /// The events of `stream` after `last_event_id` as other replicas append them, until its
    /// last (see [`end`](EventStore::end)): how a client resuming on this replica follows a
    /// stream another replica runs. `None` (the default) when the store cannot: the resumed
    /// stream then ends after the replay.
    fn follow(
        &self,
        session: &str,
        stream: u64,
        last_event_id: &str,
    ) -> Option<BoxStream<'static, (String, String)>> {
        let _ = (session, stream, last_event_id);
        None
    }
}

/// The default store: in memory, at most `per_session` events and [`max_bytes`] bytes of
/// events per session (the oldest are dropped first; a client resuming from before them is
/// told its id is unknown).
///
/// [`max_bytes`]: MemoryEventStore::max_bytes
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::transport::http::MemoryEventStore;
///
/// let store = MemoryEventStore::new(256).max_bytes(512 * 1024);
/// let server = McpServer::new("demo").http().event_store(store);
/// # drop(server);
/// ```
pub struct MemoryEventStore {
    per_session: usize,
    max_bytes: usize,
    sessions: Mutex<HashMap<String, SessionEvents>>,
}

#[derive(Default)]
struct SessionEvents {
    /// `(stream, sequence, line)`, oldest first.
    events: VecDeque<(u64, u64, String)>,
    /// The bytes of the lines in `events`.
    bytes: usize,
    sequences: HashMap<u64, u64>,
}

impl MemoryEventStore {
    /// A store keeping at most `per_session` events of each session, and at most 4 MiB of them
    /// (see [`max_bytes`](MemoryEventStore::max_bytes)).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::MemoryEventStore;
    ///
    /// let server = McpServer::new("demo").http().event_store(MemoryEventStore::new(256));
    /// # drop(server);
    /// ```
    pub fn new(per_session: usize) -> Self {
        Self {
            per_session: per_session.max(1),
            max_bytes: 4 * 1024 * 1024,
            sessions: Mutex::new(HashMap::new()),
        }
    }

    /// The most bytes of events kept for one session (default 4 MiB, the largest message
    /// accepted by default, so one whole result can always be replayed). Older events are
    /// dropped first; an event larger than this is sent but not kept.
    pub fn max_bytes(mut self, bytes: usize) -> Self {
        self.max_bytes = bytes;
        self
    }
}

impl Default for MemoryEventStore {
    /// 1 024 events and 4 MiB per session.
    fn default() -> Self {
        Self::new(1024)
    }
}

impl MemoryEventStore {
    fn append_now(&self, session: &str, stream: u64, line: &str) -> String {
        let mut sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        let events = sessions.entry(session.to_owned()).or_default();
        let sequence = events.sequences.entry(stream).or_insert(0);
        *sequence += 1;
        let sequence = *sequence;
        events.events.push_back((stream, sequence, line.to_owned()));
        events.bytes += line.len();
        while events.events.len() > self.per_session || events.bytes > self.max_bytes {
            let Some((_, _, dropped)) = events.events.pop_front() else {
                break;
            };
            events.bytes -= dropped.len();
        }
        format!("{stream}-{sequence}")
    }

    fn after_now(&self, session: &str, last_event_id: &str) -> Option<Replay> {
        let (stream, sequence) = last_event_id.split_once('-')?;
        let (stream, sequence) = (stream.parse::<u64>().ok()?, sequence.parse::<u64>().ok()?);
        let sessions = self.sessions.lock().unwrap_or_else(|e| e.into_inner());
        let recorded = sessions
            .get(session)
            .and_then(|events| events.sequences.get(&stream));
        let (Some(events), Some(&last)) = (sessions.get(session), recorded) else {
            // Only the priming event (sequence 0) of a stream that has sent nothing yet.
            return (sequence == 0).then(|| (stream, Vec::new()));
        };
        if sequence > last {
            return None;
        }
        // Every event after `sequence` must still be here.
        let first_kept = events
            .events
            .iter()
            .filter(|(s, ..)| *s == stream)
            .map(|(_, n, _)| *n)
            .min();
        let complete = sequence == last || first_kept.is_some_and(|first| first <= sequence + 1);
        if !complete {
            return None;
        }
        let rest = events
            .events
            .iter()
            .filter(|(s, n, _)| *s == stream && *n > sequence)
            .map(|(s, n, line)| (format!("{s}-{n}"), line.clone()))
            .collect();
        Some((stream, rest))
    }
}

impl EventStore for MemoryEventStore {
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> EventFuture<'a, Option<String>> {
        Box::pin(std::future::ready(Some(
            self.append_now(session, stream, line),
        )))
    }

    fn after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> EventFuture<'a, Option<Replay>> {
        Box::pin(std::future::ready(self.after_now(session, last_event_id)))
    }

    fn forget<'a>(&'a self, session: &'a str) -> EventFuture<'a, ()> {
        self.sessions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(session);
        Box::pin(std::future::ready(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replays_one_stream_after_an_id_and_forgets_old_events() {
        let store = MemoryEventStore::new(3);
        assert_eq!(store.append_now("s", 1, "a"), "1-1");
        assert_eq!(store.append_now("s", 2, "x"), "2-1");
        assert_eq!(store.append_now("s", 1, "b"), "1-2");
        let (stream, rest) = store.after_now("s", "1-1").unwrap();
        assert_eq!(stream, 1);
        assert_eq!(rest, vec![("1-2".to_owned(), "b".to_owned())]);
        assert_eq!(store.after_now("s", "1-0").unwrap().1.len(), 2);
        assert!(store.after_now("s", "1-9").is_none(), "never issued");
        assert!(store.after_now("other", "1-1").is_none());
        store.append_now("s", 1, "c");
        store.append_now("s", 1, "d");
        assert!(
            store.after_now("s", "1-0").is_none(),
            "the first events are gone"
        );
        store.sessions.lock().unwrap().remove("s");
        assert!(store.after_now("s", "1-3").is_none());
    }

    #[test]
    fn the_default_store_keeps_at_most_4_mib_of_a_session() {
        let store = MemoryEventStore::default();
        let mebibyte = "x".repeat(1024 * 1024);
        for _ in 0..5 {
            store.append_now("s", 1, &mebibyte);
        }
        assert!(
            store.after_now("s", "1-0").is_none(),
            "the first event is gone"
        );
        assert_eq!(store.after_now("s", "1-1").unwrap().1.len(), 4);
    }

    #[test]
    fn events_are_capped_by_bytes_per_session() {
        let store = MemoryEventStore::new(100).max_bytes(10);
        store.append_now("s", 1, "aaaa");
        store.append_now("s", 1, "bbbb");
        store.append_now("other", 1, "cccc");
        store.append_now("s", 1, "dddd");
        assert!(
            store.after_now("s", "1-0").is_none(),
            "12 bytes: the oldest went"
        );
        let kept: Vec<String> = store
            .after_now("s", "1-1")
            .unwrap()
            .1
            .into_iter()
            .map(|(_, l)| l)
            .collect();
        assert_eq!(kept, ["bbbb", "dddd"]);
        assert_eq!(
            store.after_now("other", "1-0").unwrap().1.len(),
            1,
            "sessions are apart"
        );
        store.append_now("s", 1, &"e".repeat(11));
        assert!(
            store.after_now("s", "1-3").is_none(),
            "an event larger than the cap is not kept"
        );
        store.append_now("s", 1, "ffff");
        assert_eq!(store.after_now("s", "1-4").unwrap().1.len(), 1);
    }
}
