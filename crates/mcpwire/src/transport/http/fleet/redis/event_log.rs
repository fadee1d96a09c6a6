//! A session's event log in Redis, as the fleet's event store writes and reads it: one Redis
//! stream per session (`{prefix}e:{session}`, its bytes counted in `{prefix}eb:{session}`),
//! whose entries carry the request stream they belong to (`s`), their number in it (`n`), the
//! line (`p`), the replica running it (`o`), on the first the request it answers (`r`), on the
//! last a mark (`z`). Beside it, `{prefix}eo:{session}` holds one small record per running
//! stream (who runs it, where it begins, the request): what a follower reads to tell whether
//! the stream's replica is alive, never the log. Writes are queued and sent by one writer per
//! replica, many per round trip (it lingers 2 ms after the first entry of a round trip to
//! gather more).
//!
//! Only a stream's first entry (`begin`) makes a log: an entry for a log that is gone (the
//! session was deleted while the stream ran) is dropped, so nothing makes a deleted session's
//! keys again. Every write leaves every key of the log with an expiry.

use super::connection::Inner;
use redis::Value;
use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex, Weak};
use std::time::Duration;
use tokio::sync::mpsc;

/// Most events kept per session.
const MAX_EVENTS: usize = 1024;
/// Most bytes of events kept per session (as the in-memory store).
pub(super) const MAX_BYTES: usize = 4 * 1024 * 1024;
/// How long a session's log outlives its last entry.
const KEPT_FOR: Duration = Duration::from_secs(60 * 60);
/// Most entries waiting for the writer; beyond, events are sent but not kept.
pub(super) const WRITE_BACKLOG: usize = 8192;
/// Most entries one round trip carries.
const BATCH: usize = 256;
/// How long the writer waits for more entries after the first of a round trip: a round trip
/// costs about as much CPU as a whole small request, so under load many entries share one.
const LINGER: Duration = Duration::from_millis(2);

/// Appends one entry and trims the oldest beyond the bounds. KEYS: log, bytes, owners. ARGV:
/// stream, number, kind (`begin`, `line`, or `end` for a stream that ended without a last
/// line), payload, max events, max bytes, keep ms, owner, the request id (on a stream's first
/// entry, else empty), `1` on its last entry. Only a `begin` entry makes the log; a `begin`
/// records the stream's owner, its last entry removes it; every key written expires `keep ms`
/// after the last entry.
static APPEND: LazyLock<redis::Script> = LazyLock::new(|| {
    redis::Script::new(
        r"
local size = string.len(ARGV[4])
if size > tonumber(ARGV[6]) then return 0 end
local begin = ARGV[3] == 'begin'
if not begin and redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
local fields = {'s', ARGV[1], 'n', ARGV[2], 'k', ARGV[3], 'p', ARGV[4], 'o', ARGV[8]}
if ARGV[9] ~= '' then fields[#fields + 1] = 'r'; fields[#fields + 1] = ARGV[9] end
if ARGV[10] == '1' then fields[#fields + 1] = 'z'; fields[#fields + 1] = '1' end
local id = redis.call('XADD', KEYS[1], '*', unpack(fields))
local bytes = redis.call('INCRBY', KEYS[2], size)
while redis.call('XLEN', KEYS[1]) > tonumber(ARGV[5]) or bytes > tonumber(ARGV[6]) do
  local first = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  if not first then break end
  redis.call('XDEL', KEYS[1], first[1])
  local kept = first[2]
  for i = 1, #kept, 2 do
    if kept[i] == 'p' then bytes = redis.call('DECRBY', KEYS[2], string.len(kept[i + 1])) end
  end
end
if begin then
  redis.call('HSET', KEYS[3], ARGV[1], id .. '\n' .. ARGV[9] .. '\n' .. ARGV[8])
elseif ARGV[10] == '1' then
  redis.call('HDEL', KEYS[3], ARGV[1])
end
for i = 1, 3 do redis.call('PEXPIRE', KEYS[i], ARGV[7]) end
return 1
",
    )
});

/// One entry of a session's log.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Entry {
    /// Redis's id of the entry.
    pub(super) id: String,
    pub(super) stream: u64,
    /// Its number in the stream (from 1).
    pub(super) number: u64,
    pub(super) kind: String,
    pub(super) payload: String,
    pub(super) owner: String,
    /// The request the stream answers (on its first entry).
    pub(super) request: Option<String>,
    /// Whether it is the stream's last entry.
    pub(super) last: bool,
}

/// Numbers this replica's entries and queues them for the writer.
pub(super) struct Entries {
    inner: Arc<Inner>,
    writer: mpsc::Sender<Pending>,
    /// The last number given in each stream running here.
    numbers: Mutex<HashMap<(String, u64), u64>>,
}

impl Entries {
    /// Numbers and queues `inner`'s entries, written by a writer it starts.
    pub(super) fn start(inner: Arc<Inner>) -> Self {
        let writer = start_writer(&inner);
        Self {
            inner,
            writer,
            numbers: Mutex::default(),
        }
    }

    /// Queues an entry of `stream`, numbered next; its event id, or `None` when it cannot be
    /// kept (too large, or the writer is behind).
    pub(super) fn queue(&self, session: &str, mut entry: Entry, last: bool) -> Option<String> {
        if entry.payload.len() > MAX_BYTES {
            return None;
        }
        let stream = entry.stream;
        if entry.number == 0 && entry.kind != "begin" {
            let mut numbers = self.numbers.lock().unwrap_or_else(|e| e.into_inner());
            let key = (session.to_owned(), stream);
            let number = numbers.entry(key.clone()).or_insert(0);
            *number += 1;
            entry.number = *number;
            if last {
                numbers.remove(&key);
            }
        }
        entry.last = last;
        entry.owner = self.inner.process();
        let number = entry.number;
        let pending = Pending {
            session: session.to_owned(),
            entry,
        };
        match self.writer.try_send(pending) {
            Ok(()) => Some(format!("{stream}-{number}")),
            Err(_) => {
                tracing::warn!(
                    session,
                    "the event writer is behind: an event is sent but not kept"
                );
                None
            }
        }
    }
}

/// An entry on its way to Redis.
struct Pending {
    session: String,
    entry: Entry,
}

/// The log's keys for `session`.
pub(super) fn keys(inner: &Inner, session: &str) -> (String, String) {
    let prefix = &inner.prefix;
    (
        format!("{prefix}e:{session}"),
        format!("{prefix}eb:{session}"),
    )
}

/// The key of the records of `session`'s running streams (their owners).
pub(super) fn owners_key(inner: &Inner, session: &str) -> String {
    format!("{}eo:{session}", inner.prefix)
}

/// Starts the writer of this replica's entries; it stops when the fleet is dropped.
fn start_writer(inner: &Arc<Inner>) -> mpsc::Sender<Pending> {
    let (sender, receiver) = mpsc::channel(WRITE_BACKLOG);
    tokio::spawn(write(Arc::downgrade(inner), receiver));
    sender
}

/// Sends what is queued, up to [`BATCH`] entries a round trip, in order.
async fn write(inner: Weak<Inner>, mut queue: mpsc::Receiver<Pending>) {
    let mut batch = Vec::with_capacity(BATCH);
    while queue.recv_many(&mut batch, BATCH).await > 0 {
        if batch.len() < BATCH {
            tokio::time::sleep(LINGER).await;
            while batch.len() < BATCH {
                match queue.try_recv() {
                    Ok(pending) => batch.push(pending),
                    Err(_) => break,
                }
            }
        }
        let Some(inner) = inner.upgrade() else {
            return;
        };
        let mut pipe = redis::pipe();
        // Loading is idempotent, and makes a restarted Redis know the script.
        pipe.load_script(&APPEND).ignore();
        let invocations: Vec<_> = batch.iter().map(|p| invocation(&inner, p)).collect();
        for invocation in &invocations {
            pipe.invoke_script(invocation).ignore();
        }
        let mut connection = inner.connection.clone();
        if let Err(error) = inner
            .run("append events", pipe.query_async::<()>(&mut connection))
            .await
        {
            tracing::warn!(%error, events = batch.len(), "events were sent but not kept: they cannot be resumed from");
        }
        batch.clear();
    }
}

fn invocation<'a>(inner: &Inner, pending: &'a Pending) -> redis::ScriptInvocation<'a> {
    let (log, bytes) = keys(inner, &pending.session);
    let entry = &pending.entry;
    let mut invocation = APPEND.prepare_invoke();
    invocation
        .key(log)
        .key(bytes)
        .key(owners_key(inner, &pending.session))
        .arg(entry.stream)
        .arg(entry.number)
        .arg(entry.kind.as_str())
        .arg(entry.payload.as_str())
        .arg(MAX_EVENTS)
        .arg(MAX_BYTES)
        .arg(KEPT_FOR.as_millis() as u64)
        .arg(entry.owner.as_str())
        .arg(entry.request.as_deref().unwrap_or(""))
        .arg(if entry.last { "1" } else { "0" });
    invocation
}

/// The session's whole log, oldest first (at most [`MAX_EVENTS`] entries).
pub(super) async fn read(inner: &Inner, session: &str) -> Result<Vec<Entry>, ()> {
    let (log, _) = keys(inner, session);
    let mut connection = inner.connection.clone();
    match inner
        .run(
            "read events",
            redis::cmd("XRANGE")
                .arg(log)
                .arg("-")
                .arg("+")
                .query_async::<Value>(&mut connection),
        )
        .await
    {
        Ok(value) => Ok(entries(value)),
        Err(error) => {
            tracing::warn!(%error, session, "cannot read a session's events");
            Err(())
        }
    }
}

/// The entries of an `XRANGE` reply, or of one stream's part of an `XREAD` reply.
pub(super) fn entries(value: Value) -> Vec<Entry> {
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
        ..Entry::default()
    };
    let mut fields = fields.into_iter();
    while let (Some(name), Some(value)) = (fields.next(), fields.next()) {
        let (name, value) = (text(name)?, text(value)?);
        match name.as_str() {
            "s" => entry.stream = value.parse().ok()?,
            "n" => entry.number = value.parse().ok()?,
            "k" => entry.kind = value,
            "p" => entry.payload = value,
            "o" => entry.owner = value,
            "r" => entry.request = Some(value),
            "z" => entry.last = value == "1",
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

/// `{stream}-{number}` apart.
pub(super) fn parse_id(event_id: &str) -> Option<(u64, u64)> {
    let (stream, number) = event_id.split_once('-')?;
    Some((stream.parse().ok()?, number.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn event_ids_name_a_stream_and_a_number() {
        assert_eq!(parse_id("7-3"), Some((7, 3)));
        assert_eq!(parse_id("7-0"), Some((7, 0)));
        assert_eq!(parse_id("7_1-1"), None);
        assert_eq!(parse_id("x-1"), None);
        assert_eq!(parse_id("7-1; DEL"), None);
    }

    #[test]
    fn entries_are_read_field_by_field() {
        let bulk = |s: &str| Value::BulkString(s.as_bytes().to_vec());
        let reply = Value::Array(vec![Value::Array(vec![
            bulk("1-0"),
            Value::Array(
                [
                    "s", "7", "n", "1", "k", "line", "p", "{}", "o", "r1", "r", "3", "z", "1",
                ]
                .map(bulk)
                .to_vec(),
            ),
        ])]);
        let read = entries(reply);
        assert_eq!(read.len(), 1);
        let entry = &read[0];
        assert_eq!((entry.stream, entry.number, entry.last), (7, 1, true));
        assert_eq!(entry.request.as_deref(), Some("3"));
        assert_eq!((entry.owner.as_str(), entry.payload.as_str()), ("r1", "{}"));
    }
}
