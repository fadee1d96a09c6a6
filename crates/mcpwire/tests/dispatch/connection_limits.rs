//! The bounds of one connection (in memory, as on stdio): requests in flight, duplicate request
//! ids, and a client that reads slower than the server writes.

use crate::support;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use support::{call, connect, exchange, next, text};
use tokio::sync::Notify;

/// Waits until the gate opens.
#[tool]
async fn wait(ctx: Context) -> String {
    ctx.state::<Arc<Notify>>().notified().await;
    "opened".into()
}

/// Answers at once.
#[tool]
async fn quick() -> String {
    "quick".into()
}

fn gated(gate: Arc<Notify>) -> McpServer {
    McpServer::new("limits")
        .state(gate)
        .tool(wait)
        .unwrap()
        .tool(quick)
        .unwrap()
}

#[tokio::test]
async fn requests_over_the_in_flight_cap_are_refused_and_the_server_keeps_serving() {
    let gate = Arc::new(Notify::new());
    let mut client = connect(gated(gate.clone())).await;
    // The default cap is 128 requests in flight per connection.
    for id in 1..=128 {
        client.send(call(id, "wait", json!({})));
    }
    let refused = exchange(&mut client, call(129, "quick", json!({}))).await;
    assert_eq!(
        refused,
        json!({"jsonrpc":"2.0","id":129,"error":{"code":-32000,
            "message":"Server busy: 128 requests in flight; retry later"}})
    );
    gate.notify_waiters();
    for _ in 1..=128 {
        assert_eq!(text(&next(&mut client).await), "opened");
    }
    let served = exchange(&mut client, call(130, "quick", json!({}))).await;
    assert_eq!(text(&served), "quick");
}

#[tokio::test]
async fn the_in_flight_cap_is_configurable() {
    let gate = Arc::new(Notify::new());
    let mut client = connect(gated(gate.clone()).max_requests_in_flight(2)).await;
    client.send(call(1, "wait", json!({})));
    client.send(call(2, "wait", json!({})));
    let refused = exchange(&mut client, call(3, "quick", json!({}))).await;
    assert_eq!(refused["error"]["code"], -32000);
    gate.notify_waiters();
    assert_eq!(text(&next(&mut client).await), "opened");
    assert_eq!(text(&next(&mut client).await), "opened");
    assert_eq!(
        text(&exchange(&mut client, call(4, "quick", json!({}))).await),
        "quick"
    );
}

#[tokio::test]
async fn a_second_request_with_the_id_of_one_in_flight_is_refused() {
    let gate = Arc::new(Notify::new());
    let mut client = connect(gated(gate.clone())).await;
    client.send(call(1, "wait", json!({})));
    let duplicate = exchange(&mut client, call(1, "quick", json!({}))).await;
    assert_eq!(
        duplicate,
        json!({"jsonrpc":"2.0","id":1,"error":{"code":-32600,
            "message":"Invalid Request: a request with id 1 is already in flight"}})
    );
    // The first request still owns its id: a cancel reaches it, and its answer is not lost.
    gate.notify_waiters();
    let first = next(&mut client).await;
    assert_eq!(first["id"], 1);
    assert_eq!(text(&first), "opened");
    // Once answered, the id may be used again.
    assert_eq!(
        text(&exchange(&mut client, call(1, "quick", json!({}))).await),
        "quick"
    );
}

const FLOOD: usize = 10_000;

/// Sends `FLOOD` progress notifications, counting those the transport took.
#[tool]
async fn flood(ctx: Context) -> String {
    let sent = ctx.state::<Arc<AtomicUsize>>();
    for i in 0..FLOOD {
        ctx.report_progress(i as f64, None, None).await;
        sent.fetch_add(1, Ordering::SeqCst);
    }
    "flooded".into()
}

#[tokio::test(start_paused = true)]
async fn a_client_that_does_not_read_pauses_the_sender_instead_of_growing_a_queue() {
    let sent = Arc::new(AtomicUsize::new(0));
    let server = McpServer::new("slow-reader")
        .state(sent.clone())
        .tool(flood)
        .unwrap();
    let mut client = connect(server).await;
    client.send(
        json!({"jsonrpc":"2.0","id":1,"method":"tools/call",
               "params":{"name":"flood","_meta":{"progressToken":"p"}}})
        .to_string(),
    );
    // With the clock paused, this sleep ends only once every task is idle: the tool has sent
    // all it could without the client reading.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let queued = sent.load(Ordering::SeqCst);
    assert!(
        queued <= 1_024,
        "the default outbound queue holds 1 024 messages; {queued} were taken"
    );
    // Nothing was lost: the client reads everything, then the result.
    for i in 0..FLOOD {
        let progress = next(&mut client).await;
        assert_eq!(progress["params"]["progress"], json!(i as f64));
    }
    assert_eq!(text(&next(&mut client).await), "flooded");
}
