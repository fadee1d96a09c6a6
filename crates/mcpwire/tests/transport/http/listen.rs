//! `subscriptions/listen` over Streamable HTTP (2026-07-28): an SSE stream that opens with the
//! acknowledgement and carries tagged change notifications.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::protocol::ChangedList;
use serde_json::{Value, json};
use std::time::Duration;
use support::http::*;

/// Changes the tool list.
#[tool]
async fn change_tools(ctx: Context) -> String {
    ctx.notify_list_changed(ChangedList::Tools);
    "changed".into()
}

/// Reads SSE events from `response` until `count` have arrived.
async fn events(response: &mut reqwest::Response, count: usize) -> Vec<Value> {
    let mut text = String::new();
    loop {
        let events = parse_events(&text);
        if events.len() >= count {
            return events;
        }
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .expect("events within 10 s")
            .unwrap()
            .expect("the stream is still open");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
    }
}

#[tokio::test]
async fn a_listen_stream_acknowledges_then_carries_tagged_changes() {
    let server = McpServer::new("listen").tool(change_tools).unwrap();
    // Its lists may change (it holds a catalog), so it declares and delivers list changes.
    let _catalog = server.catalog();
    let server = start(server).await;
    let listen = modern_body(
        7,
        "subscriptions/listen",
        json!({"notifications": {"toolsListChanged": true, "taskIds": ["t-1"]}}),
    );
    let mut stream = server.modern(&listen).await;
    assert_eq!(stream.status(), 200);
    assert_eq!(content_type(&stream), "text/event-stream");
    assert_eq!(stream.headers()["x-accel-buffering"], "no");
    let ack = first_event(&mut stream).await;
    assert_eq!(ack["method"], "notifications/subscriptions/acknowledged");
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true}),
        "no tasks here"
    );
    assert_eq!(
        ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"],
        7
    );

    let call = modern_body(8, "tools/call", json!({"name": "change_tools"}));
    assert_eq!(
        json_of(server.modern(&call).await).await["result"]["content"][0]["text"],
        "changed"
    );
    let received = events(&mut stream, 1).await;
    assert_eq!(
        received[0],
        json!({"jsonrpc": "2.0", "method": "notifications/tools/list_changed",
               "params": {"_meta": {"io.modelcontextprotocol/subscriptionId": 7}}})
    );
}
