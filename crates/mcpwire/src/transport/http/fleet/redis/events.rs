//! The event store of a [`RedisBackend`](super::RedisBackend): every event of a session's resumable
//! streams in the session's Redis log (see `event_log.rs`), so a client resumes on any replica.
//!
//! Event ids are `{stream}-{number}`, given here without asking Redis: a request stream is only
//! ever written by the replica running it, and stream numbers start at a random point on each
//! copy of a session, so ids never collide across the fleet, after a restore included. Entries
//! are written behind the events (one writer per replica, many entries a round trip): a client
//! that resumes a moment after an event was sent finds it (a read that misses waits for the
//! writer once).

use super::super::super::events::{EventFuture, EventStore, Replay};
use super::connection::Inner;
use super::event_log::{self, Entries, Entry, parse_id};
use super::followers::{Followers, Reader};
use super::reader;
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use std::sync::Arc;
use std::time::Duration;

/// How long a read that misses an event waits for the writer before it reads again.
const WRITER_LAG: Duration = Duration::from_millis(50);

/// The [`EventStore`] of a [`RedisBackend`](super::RedisBackend).
pub(super) struct RedisEvents {
    pub(super) inner: Arc<Inner>,
    pub(super) entries: Arc<Entries>,
    /// This replica's followers of streams other replicas run, on one Redis connection.
    followers: Followers,
}

impl RedisEvents {
    pub(super) fn new(inner: Arc<Inner>) -> Self {
        let entries = Arc::new(Entries::start(inner.clone()));
        Self {
            inner,
            entries,
            followers: Followers::default(),
        }
    }

    fn queue(&self, session: &str, entry: Entry, last: bool) -> Option<String> {
        self.entries.queue(session, entry, last)
    }
}

impl RedisEvents {
    fn line(stream: u64, kind: &str, payload: &str) -> Entry {
        Entry {
            stream,
            kind: kind.to_owned(),
            payload: payload.to_owned(),
            ..Entry::default()
        }
    }

    /// The entries of `stream` in `session`'s log; `None` when Redis cannot be read.
    async fn stream_entries(&self, session: &str, stream: u64) -> Option<Vec<Entry>> {
        let log = event_log::read(&self.inner, session).await.ok()?;
        Some(log.into_iter().filter(|e| e.stream == stream).collect())
    }
}

impl EventStore for RedisEvents {
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> EventFuture<'a, Option<String>> {
        let id = self.queue(session, Self::line(stream, "line", line), false);
        Box::pin(std::future::ready(id))
    }

    fn append_last<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> EventFuture<'a, Option<String>> {
        let id = self.queue(session, Self::line(stream, "line", line), true);
        Box::pin(std::future::ready(id))
    }

    fn after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> EventFuture<'a, Option<Replay>> {
        Box::pin(async move {
            let (stream, seen) = parse_id(last_event_id)?;
            let mut ours = self.stream_entries(session, stream).await?;
            if ours.last().is_none_or(|e| e.number < seen) {
                // Perhaps not written yet.
                tokio::time::sleep(WRITER_LAG).await;
                ours = self.stream_entries(session, stream).await?;
            }
            // The id was given, and every entry after it is still kept.
            let (first, last) = (ours.first()?, ours.last()?);
            if last.number < seen || first.number > seen + 1 || (seen == 0 && first.number != 0) {
                return None;
            }
            let missed = ours
                .into_iter()
                .filter(|e| e.number > seen && e.kind == "line")
                .map(|e| (format!("{stream}-{}", e.number), e.payload))
                .collect();
            Some((stream, missed))
        })
    }

    fn forget<'a>(&'a self, session: &'a str) -> EventFuture<'a, ()> {
        Box::pin(async move {
            let (log, bytes) = event_log::keys(&self.inner, session);
            let owners = event_log::owners_key(&self.inner, session);
            let mut connection = self.inner.connection.clone();
            let deleted = self
                .inner
                .run(
                    "forget events",
                    redis::cmd("DEL")
                        .arg(log)
                        .arg(bytes)
                        .arg(owners)
                        .query_async::<()>(&mut connection),
                )
                .await;
            if let Err(error) = deleted {
                tracing::debug!(%error, "a session's events were left to expire");
            }
        })
    }

    fn begin<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        request_id: &'a str,
    ) -> EventFuture<'a, ()> {
        let mut entry = Self::line(stream, "begin", "");
        entry.request = Some(request_id.to_owned());
        self.queue(session, entry, false);
        Box::pin(std::future::ready(()))
    }

    fn end<'a>(&'a self, session: &'a str, stream: u64) -> EventFuture<'a, ()> {
        self.queue(session, Self::line(stream, "end", ""), true);
        Box::pin(std::future::ready(()))
    }

    fn follow(
        &self,
        session: &str,
        stream: u64,
        last_event_id: &str,
    ) -> Option<BoxStream<'static, (String, String)>> {
        let (_, seen) = parse_id(last_event_id)?;
        let (following, wanted) = self.followers.follow(session, stream, seen);
        match wanted {
            Reader::Start => {
                let (inner, entries) = (Arc::downgrade(&self.inner), self.entries.clone());
                let registry = self.followers.registry.clone();
                tokio::spawn(reader::read(inner, entries, registry));
            }
            Reader::Wake(id) => {
                tokio::spawn(reader::wake(self.inner.clone(), id));
            }
            Reader::Nothing => {}
        }
        Some(following.boxed())
    }
}
