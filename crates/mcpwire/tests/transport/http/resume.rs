//! Resumable 2025-11-25 request streams: a client that loses the stream of a running call
//! reconnects with `GET` and `Last-Event-ID`, and gets what it missed, then the rest.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::transport::http::MemoryEventStore;
use serde_json::json;
use std::time::Duration;
use support::http::*;
use tokio::sync::Notify;

struct Gate(Notify);

/// Reports progress, waits for the gate, reports again, then answers.
#[tool]
async fn slow(ctx: Context) -> String {
    ctx.report_progress(1.0, Some(3.0), Some("started".into()))
        .await;
    ctx.state::<std::sync::Arc<Gate>>().0.notified().await;
    ctx.report_progress(2.0, Some(3.0), Some("halfway".into()))
        .await;
    "done".into()
}

/// The raw SSE body of `response` until `events` events (data or priming) have arrived.
async fn read_events(response: &mut reqwest::Response, events: usize) -> String {
    let mut text = String::new();
    while text.matches("\n\n").count() < events {
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .expect("events within 10 s")
            .unwrap()
            .expect("the stream is open");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
    text
}

fn ids(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| l.strip_prefix("id:"))
        .map(|id| id.trim().to_owned())
        .collect()
}

#[tokio::test]
async fn a_dropped_stream_is_resumed_from_its_last_event_id() {
    let gate = std::sync::Arc::new(Gate(Notify::new()));
    let server = start(
        McpServer::new("resume")
            .state(gate.clone())
            .tool(slow)
            .unwrap(),
    )
    .await;
    let session = server.initialize().await;
    let call = json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow",
        "_meta":{"progressToken":"p"}}});
    let mut stream = server.legacy(&session, &call).await;
    assert_eq!(content_type(&stream), "text/event-stream");
    let first = read_events(&mut stream, 2).await;
    let seen = ids(&first);
    assert_eq!(
        seen.len(),
        2,
        "a priming event, then the first progress: {first}"
    );
    assert!(first.contains("started"));
    let last_seen = seen[1].clone();
    drop(stream);

    // The call goes on without its stream (a disconnect is no cancellation on a session).
    gate.0.notify_one();
    tokio::time::sleep(Duration::from_millis(100)).await;

    let resumed = server
        .client
        .get(&server.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .header("accept", "text/event-stream")
        .header("last-event-id", &last_seen)
        .send()
        .await
        .unwrap();
    assert_eq!(resumed.status(), 200);
    let rest = tokio::time::timeout(Duration::from_secs(10), resumed.text())
        .await
        .unwrap()
        .unwrap();
    let events = parse_events(&rest);
    assert_eq!(events.len(), 2, "{rest}");
    assert_eq!(events[0]["params"]["message"], "halfway");
    assert_eq!(events[1]["id"], 5);
    assert_eq!(events[1]["result"]["content"][0]["text"], "done");
    let resumed_ids = ids(&rest);
    assert!(
        resumed_ids.iter().all(|id| !seen.contains(id)),
        "nothing is sent twice"
    );
}

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[tokio::test]
async fn an_unknown_last_event_id_opens_a_fresh_stream_and_keeps_the_session() {
    let server = start(McpServer::new("resume").tool(add).unwrap()).await;
    let session = server.initialize().await;
    for unknown in ["99-1", "1-5", "no-such-id", ""] {
        let stream = server
            .get_stream(&session, &[("last-event-id", unknown)])
            .await;
        assert_eq!(stream.status(), 200, "{unknown:?}");
        assert_eq!(content_type(&stream), "text/event-stream");
    }
    let call = legacy_call(1, "add", json!({"a": 1, "b": 2}));
    let response = server.legacy(&session, &call).await;
    assert_eq!(response.status(), 200, "the session lives on");
    assert_eq!(
        json_of(response).await["result"]["structuredContent"]["result"],
        3
    );
}

const LINES: usize = 400;

/// Sends `LINES` progress notifications of 64 KiB each, then answers.
#[tool]
async fn firehose(ctx: Context) -> String {
    let padding = "x".repeat(64 * 1024);
    for i in 0..LINES {
        ctx.report_progress(i as f64, None, Some(padding.clone()))
            .await;
    }
    ctx.state::<std::sync::Arc<std::sync::atomic::AtomicBool>>()
        .store(true, std::sync::atomic::Ordering::SeqCst);
    "done".into()
}

#[tokio::test]
async fn a_client_that_reads_too_slowly_loses_its_stream_not_its_events() {
    let finished = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let server = McpServer::new("firehose")
        .state(finished.clone())
        .tool(firehose)
        .unwrap()
        .max_queued_messages(8)
        .http()
        .event_store(MemoryEventStore::new(1_000).max_bytes(64 * 1024 * 1024));
    let server = start_http(server).await;
    let session = server.initialize().await;
    let call = json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"firehose",
        "_meta":{"progressToken":"p"}}});
    let stream = server.legacy(&session, &call).await;
    assert_eq!(content_type(&stream), "text/event-stream");
    // The client reads nothing until the tool has sent everything (25 MiB).
    eventually("the tool finished", || {
        finished.load(std::sync::atomic::Ordering::SeqCst)
    })
    .await;
    let first = tokio::time::timeout(Duration::from_secs(10), stream.text())
        .await
        .expect("the server ended the slow stream")
        .unwrap();
    let events = parse_events(&first);
    assert!(
        events.len() < LINES && events.iter().all(|e| e.get("result").is_none()),
        "the stream was cut short: {} events",
        events.len()
    );
    let last = ids(&first).pop().unwrap();
    let resumed = server
        .get_stream(&session, &[("last-event-id", &last)])
        .await;
    let rest = tokio::time::timeout(Duration::from_secs(10), resumed.text())
        .await
        .unwrap()
        .unwrap();
    let all: Vec<_> = events.into_iter().chain(parse_events(&rest)).collect();
    assert_eq!(all.len(), LINES + 1, "every event once");
    for (i, event) in all[..LINES].iter().enumerate() {
        assert_eq!(event["params"]["progress"], json!(i as f64));
    }
    assert_eq!(all[LINES]["result"]["content"][0]["text"], "done");
}

/// The in-memory store, saying which sessions it was told to forget.
#[derive(Default)]
struct Forgetful {
    inner: MemoryEventStore,
    forgotten: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl mcpwire::transport::http::EventStore for Forgetful {
    fn append<'a>(
        &'a self,
        session: &'a str,
        stream: u64,
        line: &'a str,
    ) -> mcpwire::transport::http::EventFuture<'a, Option<String>> {
        self.inner.append(session, stream, line)
    }
    fn after<'a>(
        &'a self,
        session: &'a str,
        last: &'a str,
    ) -> mcpwire::transport::http::EventFuture<'a, Option<mcpwire::transport::http::Replay>> {
        self.inner.after(session, last)
    }
    fn forget<'a>(&'a self, session: &'a str) -> mcpwire::transport::http::EventFuture<'a, ()> {
        self.forgotten.lock().unwrap().push(session.to_owned());
        self.inner.forget(session)
    }
}

#[tokio::test]
async fn a_deleted_session_s_events_are_forgotten() {
    let store = Forgetful::default();
    let forgotten = store.forgotten.clone();
    let server = start_http(
        McpServer::new("resume")
            .tool(add)
            .unwrap()
            .http()
            .event_store(store),
    )
    .await;
    let session = server.initialize().await;
    let deleted = server
        .client
        .delete(&server.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .send()
        .await
        .unwrap();
    assert_eq!(deleted.status(), 200);
    eventually("the store forgets the session's events", || {
        forgotten.lock().unwrap().contains(&session)
    })
    .await;
}
