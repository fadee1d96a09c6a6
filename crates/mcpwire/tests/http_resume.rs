//! Resumable 2025-11-25 request streams: a client that loses the stream of a running call
//! reconnects with `GET` and `Last-Event-ID`, and gets what it missed, then the rest.

mod http_support;

use http_support::*;
use mcpwire::prelude::*;
use serde_json::json;
use std::time::Duration;
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

    let unknown = server
        .client
        .get(&server.url)
        .header("mcp-session-id", &session)
        .header("mcp-protocol-version", "2025-11-25")
        .header("last-event-id", "99-1")
        .send()
        .await
        .unwrap();
    assert_eq!(unknown.status(), 404);
}
