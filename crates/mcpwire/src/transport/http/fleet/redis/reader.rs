//! The one reader of a replica's followers (`followers.rs`): a task with a connection of its
//! own that reads every followed session's log with one blocking `XREAD` over all their keys,
//! and hands the entries to the followers. It starts with the first follower and stops with
//! the last, so a replica holds at most one such connection, however many clients resumed.
//!
//! Once a second it asks, for the followers that found nothing new, whether the replicas
//! running their streams are alive: one `EXISTS` per replica, from the streams' small owner
//! records, never the logs. A stream whose replica is gone is answered with an error (kept in
//! the log, so every follower sends the same) and ends.

use super::connection::Inner;
use super::event_log::{self, Entries, Entry};
use super::followers::{Owner, Shared};
use redis::Value;
use redis::aio::MultiplexedConnection;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::time::Instant;

/// How long one blocking read waits.
const BLOCK: Duration = Duration::from_secs(1);
/// How long the reader goes on without reaching Redis before its followers end.
const GIVE_UP: Duration = Duration::from_secs(10);
/// How often idle followers' replicas are checked.
const CHECK_EVERY: Duration = Duration::from_secs(1);
/// Most entries of one log one read takes.
const COUNT: usize = 64;
/// The number of the error written for a stream whose replica died: after any other.
const ORPHANED: u64 = u64::MAX / 2;

/// Reads for the followers until none is left (or the fleet is dropped, or Redis stays out of
/// reach for [`GIVE_UP`]).
pub(super) async fn read(inner: Weak<Inner>, entries: Arc<Entries>, registry: Arc<Shared>) {
    let mut connection = None;
    let mut unreachable_since: Option<Instant> = None;
    let mut checked = Instant::now();
    loop {
        let Some(fleet) = inner.upgrade() else {
            stop(&registry);
            return;
        };
        let round = round(&fleet, &entries, &registry, &mut connection, &mut checked).await;
        drop(fleet);
        match round {
            Ok(true) => unreachable_since = None,
            Ok(false) => return,
            Err(()) => {
                connection = None;
                let since = *unreachable_since.get_or_insert_with(Instant::now);
                if since.elapsed() >= GIVE_UP {
                    tracing::warn!(
                        "lost Redis while following streams; they end, and their clients may resume"
                    );
                    stop(&registry);
                    return;
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    }
}

/// Wakes the reader (its connection `reader`) out of its blocking read: a follower came.
pub(super) async fn wake(fleet: Arc<Inner>, reader: i64) {
    let mut connection = fleet.connection.clone();
    let mut command = redis::cmd("CLIENT");
    command.arg("UNBLOCK").arg(reader);
    let unblock = command.query_async::<Value>(&mut connection);
    if let Err(error) = fleet.run("wake the followers' reader", unblock).await {
        tracing::debug!(%error, "the followers' reader reads the new stream after its block");
    }
}

/// Ends every follower; the reader stops.
fn stop(registry: &Shared) {
    let mut registry = registry.lock();
    registry.logs.clear();
    registry.reading = false;
    registry.reader_id = None;
}

/// One read for every follower; `Ok(false)` when none is left (the reader stopped).
async fn round(
    fleet: &Inner,
    entries: &Entries,
    registry: &Shared,
    connection: &mut Option<MultiplexedConnection>,
    checked: &mut Instant,
) -> Result<bool, ()> {
    place(fleet, registry).await?;
    let logs: HashMap<String, (String, String)> = {
        let mut registry = registry.lock();
        if registry.logs.is_empty() {
            registry.reading = false;
            registry.reader_id = None;
            return Ok(false);
        }
        let placed = registry.logs.iter().filter_map(|(session, log)| {
            let (key, _) = event_log::keys(fleet, session);
            Some((key, (session.clone(), log.since.clone()?)))
        });
        placed.collect()
    };
    if logs.is_empty() {
        return Ok(true);
    }
    if connection.is_none() {
        *connection = Some(connect(fleet, registry).await?);
    }
    let connection = connection.as_mut().expect("connected above");
    let mut command = redis::cmd("XREAD");
    command
        .arg("COUNT")
        .arg(COUNT)
        .arg("BLOCK")
        .arg(BLOCK.as_millis() as u64)
        .arg("STREAMS");
    let order: Vec<(&String, &(String, String))> = logs.iter().collect();
    for (key, _) in &order {
        command.arg(key.as_str());
    }
    for (_, (_, since)) in &order {
        command.arg(since.as_str());
    }
    let reply = tokio::time::timeout(BLOCK + fleet.timeout(), command.query_async(connection))
        .await
        .map_err(|_| ())?
        .map_err(|_| ())?;
    let mut read = by_key(reply);
    {
        let mut registry = registry.lock();
        for (key, (session, _)) in &logs {
            registry.dispatch(session, read.remove(key).unwrap_or_default());
        }
    }
    if checked.elapsed() >= CHECK_EVERY {
        *checked = Instant::now();
        check(fleet, entries, registry).await?;
    }
    Ok(true)
}

/// A connection for the blocking reads; its id is kept to wake it.
async fn connect(fleet: &Inner, registry: &Shared) -> Result<MultiplexedConnection, ()> {
    let config =
        redis::AsyncConnectionConfig::new().set_response_timeout(Some(BLOCK + fleet.timeout()));
    let connecting = fleet
        .client
        .get_multiplexed_async_connection_with_config(&config);
    let mut connection = fleet.run("connect", connecting).await.map_err(|_| ())?;
    let mut command = redis::cmd("CLIENT");
    command.arg("ID");
    let asking = command.query_async::<i64>(&mut connection);
    let id = fleet.run("client id", asking).await.map_err(|_| ())?;
    registry.lock().reader_id = Some(id);
    Ok(connection)
}

/// Reads the owner records of the followers that came since the last read (one round trip),
/// and starts each log where its followed streams begin (from its start when unknown).
async fn place(fleet: &Inner, registry: &Shared) -> Result<(), ()> {
    let wanted: Vec<(String, u64)> = {
        let registry = registry.lock();
        let new = registry.logs.iter().flat_map(|(session, log)| {
            let slots = log.slots.iter().filter(|(_, slot)| !slot.placed);
            slots.map(|(stream, _)| (session.clone(), *stream))
        });
        new.collect()
    };
    if wanted.is_empty() {
        return Ok(());
    }
    let mut pipe = redis::pipe();
    for (session, stream) in &wanted {
        pipe.cmd("HGET")
            .arg(event_log::owners_key(fleet, session))
            .arg(*stream);
    }
    let mut connection = fleet.connection.clone();
    let records: Vec<Option<String>> = fleet
        .run("read stream owners", pipe.query_async(&mut connection))
        .await
        .map_err(|_| ())?;
    let mut registry = registry.lock();
    for ((session, stream), record) in wanted.into_iter().zip(records) {
        let Some(log) = registry.logs.get_mut(&session) else {
            continue;
        };
        let owner = record.as_deref().and_then(Owner::parse);
        let begin = owner.as_ref().map_or("0-0", |o| o.begin.as_str());
        log.since = Some(match log.since.take() {
            Some(since) if order(&since) <= order(begin) => since,
            _ => begin.to_owned(),
        });
        if let Some(slot) = log.slots.get_mut(&stream) {
            slot.placed = true;
            slot.owner = owner;
        }
    }
    Ok(())
}

/// A Redis entry id as numbers, to compare.
fn order(id: &str) -> (u64, u64) {
    let (ms, seq) = id.split_once('-').unwrap_or((id, "0"));
    (ms.parse().unwrap_or(0), seq.parse().unwrap_or(0))
}

/// Ends the idle followers whose stream's replica is gone (with an error for the request), or
/// whose stream's record is gone (nothing tells who runs it).
async fn check(fleet: &Inner, entries: &Entries, registry: &Shared) -> Result<(), ()> {
    let idle: Vec<(String, u64, Option<Owner>)> = {
        let registry = registry.lock();
        let idle = registry.logs.iter().flat_map(|(session, log)| {
            let slots = log.slots.iter().filter(|(_, s)| s.placed && s.idle);
            slots.map(|(stream, slot)| (session.clone(), *stream, slot.owner.clone()))
        });
        idle.collect()
    };
    let processes: Vec<&str> = idle
        .iter()
        .filter_map(|(_, _, owner)| Some(owner.as_ref()?.process.as_str()))
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let mut alive = HashSet::new();
    if !processes.is_empty() {
        let mut pipe = redis::pipe();
        for process in &processes {
            pipe.cmd("EXISTS").arg(fleet.alive_key(process));
        }
        let mut connection = fleet.connection.clone();
        let answers: Vec<bool> = fleet
            .run("check replicas", pipe.query_async(&mut connection))
            .await
            .map_err(|_| ())?;
        alive.extend(
            processes
                .into_iter()
                .zip(answers)
                .filter(|(_, a)| *a)
                .map(|(p, _)| p),
        );
    }
    let mut ended = Vec::new();
    for (session, stream, owner) in &idle {
        match owner {
            None => ended.push((session, *stream, None)),
            Some(owner) if !alive.contains(owner.process.as_str()) => {
                tracing::info!(
                    session,
                    owner = owner.process,
                    "the replica running a followed stream is gone; the request is answered with an error"
                );
                let error = orphaned(&owner.request);
                let entry = Entry {
                    stream: *stream,
                    number: ORPHANED,
                    kind: "line".to_owned(),
                    payload: error.clone(),
                    ..Entry::default()
                };
                let id = entries.queue(session, entry, true).unwrap_or_default();
                ended.push((session, *stream, Some((id, error))));
            }
            Some(_) => {}
        }
    }
    let mut registry = registry.lock();
    for (session, stream, event) in ended {
        registry.finish(session, stream, event);
    }
    Ok(())
}

/// The error answering request `request` (its JSON id) whose replica died.
fn orphaned(request: &str) -> String {
    let request_id: serde_json::Value =
        serde_json::from_str(request).unwrap_or(serde_json::Value::Null);
    serde_json::json!({
        "jsonrpc": "2.0",
        "id": request_id,
        "error": {
            "code": crate::protocol::jsonrpc::code::INTERNAL_ERROR,
            "message": "The server instance running this request stopped before it finished; send the request again",
        },
    })
    .to_string()
}

/// The entries of an `XREAD` reply, by key.
fn by_key(reply: Value) -> HashMap<String, Vec<Entry>> {
    let pairs: Vec<(Value, Value)> = match reply {
        Value::Array(streams) => streams
            .into_iter()
            .filter_map(|stream| match stream {
                Value::Array(mut pair) if pair.len() == 2 => {
                    let entries = pair.pop()?;
                    Some((pair.pop()?, entries))
                }
                _ => None,
            })
            .collect(),
        Value::Map(streams) => streams,
        _ => Vec::new(),
    };
    pairs
        .into_iter()
        .filter_map(|(key, entries)| {
            let key = match key {
                Value::BulkString(bytes) => String::from_utf8(bytes).ok()?,
                Value::SimpleString(text) => text,
                _ => return None,
            };
            Some((key, event_log::entries(entries)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_ids_compare_as_numbers() {
        assert!(order("9-5") < order("10-0"));
        assert!(order("10-2") < order("10-10"));
        assert_eq!(order("0-0"), (0, 0));
    }

    #[test]
    fn the_orphaned_error_answers_the_request() {
        let error: serde_json::Value = serde_json::from_str(&orphaned("\"r-1\"")).unwrap();
        assert_eq!(error["id"], "r-1");
        assert_eq!(error["error"]["code"], -32603);
    }
}
