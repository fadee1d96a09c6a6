//! Following a request stream another replica runs, for a client that resumed it here: the
//! stream's new entries as they are appended, until its last; and when the replica running it
//! stops saying it is alive, the request is answered with an error instead of a hang.

use super::connection::Inner;
use super::event_log::{self, Entries, Entry};
use redis::Value;
use std::sync::Arc;
use std::time::Duration;

/// How long one blocking read waits.
const BLOCK: Duration = Duration::from_secs(1);
/// How long a follower goes on without reaching Redis before it ends the stream.
const GIVE_UP: Duration = Duration::from_secs(10);
/// The number of the error a follower writes for a stream whose replica died: after any other.
const ORPHANED: u64 = u64::MAX / 2;

/// Reads a stream another replica runs as it is appended, until it ends.
pub(super) struct Follower {
    inner: Arc<Inner>,
    /// Where the error for an orphaned stream is written (this replica's writer).
    entries: Arc<Entries>,
    session: String,
    stream: u64,
    /// The last number the client has.
    seen: u64,
    /// Redis's id of the last entry read.
    since: String,
    /// A connection of its own: a blocking read would hold up the shared one.
    connection: Option<redis::aio::MultiplexedConnection>,
    done: bool,
}

impl Follower {
    pub(super) fn new(
        inner: &Arc<Inner>,
        entries: &Arc<Entries>,
        session: &str,
        stream: u64,
        seen: u64,
    ) -> Self {
        Self {
            inner: inner.clone(),
            entries: entries.clone(),
            session: session.to_owned(),
            stream,
            seen,
            since: "0-0".to_owned(),
            connection: None,
            done: false,
        }
    }

    /// The next event the client has not seen, until the stream's last.
    pub(super) async fn next(mut self) -> Option<((String, String), Self)> {
        let mut unreachable_since: Option<tokio::time::Instant> = None;
        while !self.done {
            match self.read().await {
                Ok(Some(event)) => return Some((event, self)),
                Ok(None) => unreachable_since = None,
                Err(()) => {
                    let since = *unreachable_since.get_or_insert_with(tokio::time::Instant::now);
                    if since.elapsed() >= GIVE_UP {
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

    /// The next unseen event of the stream; `None` when none came within the block (or the
    /// stream ended: then `done`); `Err` when Redis could not be read.
    async fn read(&mut self) -> Result<Option<(String, String)>, ()> {
        if self.connection.is_none() {
            let config = redis::AsyncConnectionConfig::new()
                .set_response_timeout(Some(BLOCK + self.inner.timeout));
            let connecting = self
                .inner
                .client
                .get_multiplexed_async_connection_with_config(&config);
            self.connection = Some(
                self.inner
                    .run("connect", connecting)
                    .await
                    .map_err(|_| ())?,
            );
        }
        let (log, _) = event_log::keys(&self.inner, &self.session);
        let connection = self.connection.as_mut().expect("connected above");
        let mut command = redis::cmd("XREAD");
        command
            .arg("COUNT")
            .arg(64)
            .arg("BLOCK")
            .arg(BLOCK.as_millis() as u64)
            .arg("STREAMS")
            .arg(&log)
            .arg(&self.since);
        let read = command.query_async::<Value>(connection);
        let reply = tokio::time::timeout(BLOCK + self.inner.timeout, read)
            .await
            .map_err(|_| ())?
            .map_err(|_| ())?;
        let fresh: Vec<Entry> = match reply {
            Value::Array(streams) => streams.into_iter().flat_map(stream_part).collect(),
            Value::Map(streams) => streams
                .into_iter()
                .flat_map(|(_, v)| event_log::entries(v))
                .collect(),
            _ => Vec::new(),
        };
        if fresh.is_empty() {
            return self.check_owner().await;
        }
        for entry in fresh {
            self.since = entry.id.clone();
            if entry.stream != self.stream || entry.number <= self.seen {
                continue;
            }
            self.seen = entry.number;
            self.done = entry.last;
            if entry.kind == "line" {
                return Ok(Some((
                    format!("{}-{}", self.stream, entry.number),
                    entry.payload,
                )));
            }
            if self.done {
                return Ok(None);
            }
        }
        Ok(None)
    }

    /// Nothing new: when the replica running the stream stopped saying it is alive, answers
    /// the request with an error (kept in the log, so every follower sends the same) and ends.
    async fn check_owner(&mut self) -> Result<Option<(String, String)>, ()> {
        let log = event_log::read(&self.inner, &self.session).await?;
        let ours: Vec<&Entry> = log.iter().filter(|e| e.stream == self.stream).collect();
        if ours.iter().any(|e| e.last) {
            // It ended meanwhile: the next read finds the end.
            return Ok(None);
        }
        let Some(begin) = ours.iter().find(|e| e.kind == "begin") else {
            // Its start is no longer kept: nothing tells who runs it.
            self.done = true;
            return Ok(None);
        };
        let mut connection = self.inner.connection.clone();
        let alive = self
            .inner
            .run(
                "check replica",
                redis::cmd("EXISTS")
                    .arg(self.inner.alive_key(&begin.owner))
                    .query_async::<bool>(&mut connection),
            )
            .await
            .map_err(|_| ())?;
        if alive {
            return Ok(None);
        }
        let request = begin.request.as_deref().unwrap_or("null");
        let request_id: serde_json::Value =
            serde_json::from_str(request).unwrap_or(serde_json::Value::Null);
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
        let entry = Entry {
            stream: self.stream,
            number: ORPHANED,
            kind: "line".to_owned(),
            payload: error.clone(),
            ..Entry::default()
        };
        let id = self.entries.queue(&self.session, entry, true);
        self.done = true;
        Ok(Some((id.unwrap_or_default(), error)))
    }
}

/// The entries of one `[key, entries]` pair of an `XREAD` reply.
fn stream_part(stream: Value) -> Vec<Entry> {
    match stream {
        Value::Array(mut pair) if pair.len() == 2 => {
            event_log::entries(pair.pop().expect("two items"))
        }
        _ => Vec::new(),
    }
}
