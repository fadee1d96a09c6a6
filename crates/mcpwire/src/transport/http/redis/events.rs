//! The event log of a [`RedisFleet`](super::RedisFleet): one Redis stream per session, bounded by
//! events and bytes, whose entries carry the request stream they belong to. Event ids are
//! `{stream}_{entry id}`: Redis makes entry ids unique and ordered within the session's log,
//! whichever replica appends. A stream's first entry names the replica running it and the
//! request it answers, its last says it ended; a replica following a stream another one runs
//! answers the request with an error when that replica stops saying it is alive.

use super::super::events::{EventFuture, EventStore, Replay};
use super::connection::Inner;
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use redis::Value;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

/// Most events kept per session.
const MAX_EVENTS: usize = 1024;
/// Most bytes of events kept per session (as the in-memory store).
const MAX_BYTES: usize = 4 * 1024 * 1024;
/// How long a session's log outlives its last event.
const KEPT_FOR: Duration = Duration::from_secs(60 * 60);
/// How long one blocking read of a followed stream waits.
const FOLLOW_BLOCK: Duration = Duration::from_secs(1);
/// How long a follower goes on without reaching Redis before it ends the stream.
const FOLLOW_GIVE_UP: Duration = Duration::from_secs(10);

/// Appends one entry and trims the oldest beyond the bounds. KEYS: log, bytes. ARGV: stream,
/// kind (`line`, `begin`, `end`), payload, max events, max bytes, keep ms, owner. Returns the
/// entry id, or false when the line is larger than the bound (not kept).
static APPEND: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local size = string.len(ARGV[3])
if size > tonumber(ARGV[5]) then return false end
local id = redis.call('XADD', KEYS[1], '*', 's', ARGV[1], 'k', ARGV[2], 'p', ARGV[3], 'o', ARGV[7])
local bytes = redis.call('INCRBY', KEYS[2], size)
while redis.call('XLEN', KEYS[1]) > tonumber(ARGV[4]) or bytes > tonumber(ARGV[5]) do
  local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if not first then break end
  redis.call('XDEL', KEYS[1], first[1])
  local fields = first[2]
  for i = 1, #fields, 2 do
    if fields[i] == 'p' then bytes = redis.call('DECRBY', KEYS[2], string.len(fields[i + 1])) end
  end
end
redis.call('PEXPIRE', KEYS[1], ARGV[6])
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return id
",
    )
});

/// The [`EventStore`] of a [`RedisFleet`](super::RedisFleet).
pub(super) struct RedisEvents {
    inner: Arc<Inner>,
}

/// One entry of a session's log.
#[derive(Debug)]
struct Entry {
    id: String,
    stream: u64,
    kind: String,
    payload: String,
    owner: String,
}

impl RedisEvents {
    pub(super) fn new(inner: Arc<Inner>) -> Self {
        Self { inner }
    }

    fn keys(&self, session: &str) -> (String, String) {
        let prefix = &self.inner.prefix;
        (
            format!("{prefix}e:{session}"),
            format!("{prefix}eb:{session}"),
        )
    }

    async fn add(&self, session: &str, stream: u64, kind: &str, payload: &str) -> Option<String> {
        let (log, bytes) = self.keys(session);
        let mut invocation = APPEND.prepare_invoke();
        invocation
            .key(log)
            .key(bytes)
            .arg(stream)
            .arg(kind)
            .arg(payload)
            .arg(MAX_EVENTS)
            .arg(MAX_BYTES)
            .arg(KEPT_FOR.as_millis() as u64)
            .arg(&*self.inner.replica());
        let mut connection = self.inner.connection.clone();
        match self
            .inner
            .run(
                "append event",
                invocation.invoke_async::<Option<String>>(&mut connection),
            )
            .await
        {
            Ok(Some(id)) => Some(format!("{stream}_{id}")),
            Ok(None) => None,
            Err(error) => {
                tracing::warn!(%error, session, "an event was sent but not kept: it cannot be resumed from");
                None
            }
        }
    }

    /// The session's log from `from` (`-`, or `(id` for after it), oldest first.
    async fn range(&self, session: &str, from: &str) -> Option<Vec<Entry>> {
        let (log, _) = self.keys(session);
        let mut connection = self.inner.connection.clone();
        match self
            .inner
            .run(
                "read events",
                redis::cmd("XRANGE")
                    .arg(log)
                    .arg(from)
                    .arg("+")
                    .query_async::<Value>(&mut connection),
            )
            .await
        {
            Ok(value) => Some(entries(value)),
            Err(error) => {
                tracing::warn!(%error, session, "cannot read events to resume a stream");
                None
            }
        }
    }
}

/// The entries of an `XRANGE` or one stream's part of an `XREAD` reply.
fn entries(value: Value) -> Vec<Entry> {
    let Value::Array(items) = value else {
        return Vec::new();
    };
    items.into_iter().filter_map(entry).collect()
}

fn entry(item: Value) -> Option<Entry> {
    let Value::Array(mut parts) = item else {
        return None;
    };
    let fields = parts.pop()?;
    let id = text(parts.pop()?)?;
    let Value::Array(fields) = fields else {
        return None;
    };
    let mut entry = Entry {
        id,
        stream: 0,
        kind: String::new(),
        payload: String::new(),
        owner: String::new(),
    };
    let mut fields = fields.into_iter();
    while let (Some(name), Some(value)) = (fields.next(), fields.next()) {
        let (name, value) = (text(name)?, text(value)?);
        match name.as_str() {
            "s" => entry.stream = value.parse().ok()?,
            "k" => entry.kind = value,
            "p" => entry.payload = value,
            "o" => entry.owner = value,
            _ => {}
        }
    }
    Some(entry)
}

fn text(value: Value) -> Option<String> {
    match value {
        Value::BulkString(bytes) => String::from_utf8(bytes).ok(),
        Value::SimpleString(text) => Some(text),
        _ => None,
    }
}

/// `{stream}_{entry id}` apart.
fn parse_id(event_id: &str) -> Option<(u64, &str)> {
    let (stream, entry) = event_id.split_once('_')?;
    let (ms, seq) = entry.split_once('-')?;
    (ms.bytes().all(|b| b.is_ascii_digit()) && seq.bytes().all(|b| b.is_ascii_digit()))
        .then_some(())?;
    Some((stream.parse().ok()?, entry))
}

impl EventStore for RedisEvents {
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> EventFuture<'a, Option<String>> {
        Box::pin(self.add(session, stream, "line", line))
    }

    fn after<'a>(
        &'a self,
        session: &'a str,
        last_event_id: &'a str,
    ) -> EventFuture<'a, Option<Replay>> {
        Box::pin(async move {
            let (stream, entry) = parse_id(last_event_id)?;
            let log = self.range(session, "-").await?;
            let ours: Vec<&Entry> = log.iter().filter(|e| e.stream == stream).collect();
            // Complete only when the stream's start, or the event named, is still kept.
            let kept = if entry == "0-0" {
                ours.first().is_some_and(|first| first.kind == "begin")
            } else {
                ours.iter().any(|e| e.id == entry)
            };
            if !kept {
                return None;
            }
            let after_named = |e: &&&Entry| entry == "0-0" || later(&e.id, entry);
            let missed = ours
                .iter()
                .filter(after_named)
                .filter(|e| e.kind == "line")
                .map(|e| (format!("{stream}_{}", e.id), e.payload.clone()))
                .collect();
            Some((stream, missed))
        })
    }

    fn forget<'a>(&'a self, session: &'a str) -> EventFuture<'a, ()> {
        Box::pin(async move {
            let (log, bytes) = self.keys(session);
            let mut connection = self.inner.connection.clone();
            if let Err(error) = self
                .inner
                .run(
                    "forget events",
                    redis::cmd("DEL")
                        .arg(log)
                        .arg(bytes)
                        .query_async::<()>(&mut connection),
                )
                .await
            {
                tracing::debug!(%error, "a session's events were left to expire");
            }
        })
    }

    fn priming_id(&self, stream: u64) -> String {
        format!("{stream}_0-0")
    }

    fn begin<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        request_id: &'a str,
    ) -> EventFuture<'a, ()> {
        Box::pin(async move {
            self.add(session, stream, "begin", request_id).await;
        })
    }

    fn end<'a>(&'a self, session: &'a str, stream: u64) -> EventFuture<'a, ()> {
        Box::pin(async move {
            self.add(session, stream, "end", "").await;
        })
    }

    fn follow(
        &self,
        session: &str,
        stream: u64,
        last_event_id: &str,
    ) -> Option<BoxStream<'static, (String, String)>> {
        let (_, since) = parse_id(last_event_id)?;
        let follower = Follower {
            events: RedisEvents::new(self.inner.clone()),
            session: session.to_owned(),
            stream,
            since: since.to_owned(),
            connection: None,
            done: false,
        };
        Some(futures_util::stream::unfold(follower, Follower::next).boxed())
    }
}

/// Whether entry id `a` comes after `b` (`ms-seq`, compared as numbers).
fn later(a: &str, b: &str) -> bool {
    let key = |id: &str| {
        let (ms, seq) = id.split_once('-').unwrap_or((id, "0"));
        (
            ms.parse::<u64>().unwrap_or(0),
            seq.parse::<u64>().unwrap_or(0),
        )
    };
    key(a) > key(b)
}

/// Reads a stream another replica runs as it is appended, until it ends.
struct Follower {
    events: RedisEvents,
    session: String,
    stream: u64,
    since: String,
    /// A connection of its own: a blocking read would hold up the shared one.
    connection: Option<redis::aio::MultiplexedConnection>,
    done: bool,
}

impl Follower {
    async fn next(mut self) -> Option<((String, String), Self)> {
        let mut unreachable_since: Option<tokio::time::Instant> = None;
        while !self.done {
            match self.read().await {
                Ok(Some(event)) => return Some((event, self)),
                Ok(None) => unreachable_since = None,
                Err(()) => {
                    let since = *unreachable_since.get_or_insert_with(tokio::time::Instant::now);
                    if since.elapsed() >= FOLLOW_GIVE_UP {
                        tracing::warn!(
                            session = self.session,
                            "lost Redis while following a stream; it ends, and the client may resume"
                        );
                        return None;
                    }
                    self.connection = None;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
            }
        }
        None
    }

    /// The next event of the stream, `None` when none came within the block (or the stream
    /// ended: then `done`), `Err` when Redis could not be read.
    async fn read(&mut self) -> Result<Option<(String, String)>, ()> {
        let inner = self.events.inner.clone();
        if self.connection.is_none() {
            // Its reads block up to FOLLOW_BLOCK: longer than a command's default timeout.
            let config = redis::AsyncConnectionConfig::new()
                .set_response_timeout(Some(FOLLOW_BLOCK + inner.timeout));
            let connecting = inner
                .client
                .get_multiplexed_async_connection_with_config(&config);
            self.connection = Some(inner.run("connect", connecting).await.map_err(|_| ())?);
        }
        let (log, _) = self.events.keys(&self.session);
        let connection = self.connection.as_mut().expect("connected above");
        let reply = tokio::time::timeout(
            FOLLOW_BLOCK + inner.timeout,
            redis::cmd("XREAD")
                .arg("COUNT")
                .arg(64)
                .arg("BLOCK")
                .arg(FOLLOW_BLOCK.as_millis() as u64)
                .arg("STREAMS")
                .arg(&log)
                .arg(&self.since)
                .query_async::<Value>(connection),
        )
        .await
        .map_err(|_| ())?
        .map_err(|_| ())?;
        let fresh = match reply {
            Value::Nil => Vec::new(),
            Value::Array(streams) => streams.into_iter().flat_map(stream_entries).collect(),
            Value::Map(streams) => streams.into_iter().flat_map(|(_, v)| entries(v)).collect(),
            _ => Vec::new(),
        };
        if fresh.is_empty() {
            return self.check_owner().await;
        }
        for entry in fresh {
            self.since = entry.id.clone();
            if entry.stream != self.stream {
                continue;
            }
            match entry.kind.as_str() {
                "end" => {
                    self.done = true;
                    return Ok(None);
                }
                "line" => {
                    return Ok(Some((
                        format!("{}_{}", self.stream, entry.id),
                        entry.payload,
                    )));
                }
                _ => {}
            }
        }
        Ok(None)
    }

    /// Nothing new: when the replica running the stream stopped saying it is alive, answers
    /// the request with an error (kept in the log, so every follower sends the same) and ends.
    async fn check_owner(&mut self) -> Result<Option<(String, String)>, ()> {
        let log = self.events.range(&self.session, "-").await.ok_or(())?;
        let begin = log
            .iter()
            .find(|e| e.stream == self.stream && e.kind == "begin");
        let Some(begin) = begin else {
            // Its start is no longer kept: nothing tells who runs it.
            self.done = true;
            return Ok(None);
        };
        if log
            .iter()
            .any(|e| e.stream == self.stream && e.kind == "end")
        {
            self.done = true;
            return Ok(None);
        }
        let inner = &self.events.inner;
        let mut connection = inner.connection.clone();
        if inner
            .run(
                "check replica",
                redis::cmd("EXISTS")
                    .arg(inner.alive_key(&begin.owner))
                    .query_async::<bool>(&mut connection),
            )
            .await
            .map_err(|_| ())?
        {
            return Ok(None);
        }
        let request_id: serde_json::Value =
            serde_json::from_str(&begin.payload).unwrap_or(serde_json::Value::Null);
        let error = serde_json::json!({
            "jsonrpc": "2.0",
            "id": request_id,
            "error": {
                "code": crate::protocol::jsonrpc::code::INTERNAL_ERROR,
                "message": "The server instance running this request stopped before it finished; send the request again",
            },
        })
        .to_string();
        tracing::info!(
            session = self.session,
            owner = begin.owner,
            "the replica running a followed stream is gone; the request is answered with an error"
        );
        let id = self
            .events
            .add(&self.session, self.stream, "line", &error)
            .await;
        self.events.add(&self.session, self.stream, "end", "").await;
        self.done = true;
        Ok(Some((id.unwrap_or_default(), error)))
    }
}

/// The entries of one `[key, entries]` pair of an `XREAD` reply.
fn stream_entries(stream: Value) -> Vec<Entry> {
    match stream {
        Value::Array(mut pair) if pair.len() == 2 => entries(pair.pop().expect("two items")),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_a_stream_and_an_entry() {
        assert_eq!(parse_id("7_1700000000000-3"), Some((7, "1700000000000-3")));
        assert_eq!(parse_id("7_0-0"), Some((7, "0-0")));
        assert_eq!(parse_id("7-0"), None);
        assert_eq!(parse_id("x_1-1"), None);
        assert_eq!(parse_id("7_1-1; DEL"), None);
        assert!(later("2-0", "1-9"));
        assert!(later("1-10", "1-9"));
        assert!(!later("1-9", "1-9"));
    }
}
