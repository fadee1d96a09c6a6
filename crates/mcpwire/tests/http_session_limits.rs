//! The bounds of 2025-11-25 sessions over HTTP: requests in flight and duplicate request ids.

mod http_support;

use http_support::*;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(Default)]
struct Hang {
    dropped: AtomicBool,
}

struct SetOnDrop(Arc<Hang>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.dropped.store(true, Ordering::SeqCst);
    }
}

/// Logs once, then never answers.
#[tool]
async fn hang(ctx: Context) -> String {
    let _guard = SetOnDrop(ctx.state::<Arc<Hang>>().clone());
    ctx.info("hanging").await;
    std::future::pending::<()>().await;
    unreachable!()
}

fn server(observed: Arc<Hang>) -> McpServer {
    McpServer::new("bounded")
        .state(observed)
        .tool(add)
        .unwrap()
        .tool(hang)
        .unwrap()
}

fn add_call(id: u64) -> serde_json::Value {
    legacy_call(id, "add", json!({"a": 1, "b": 1}))
}

#[tokio::test]
async fn a_second_request_with_the_id_of_one_in_flight_on_a_session_is_refused() {
    let observed = Arc::new(Hang::default());
    let server = start(server(observed.clone())).await;
    let session = server.initialize().await;
    let mut first = server
        .legacy(&session, &legacy_call(7, "hang", json!({})))
        .await;
    first_event(&mut first).await;
    let duplicate = server.legacy(&session, &add_call(7)).await;
    assert_eq!(duplicate.status(), 200);
    assert_eq!(
        json_of(duplicate).await,
        json!({"jsonrpc":"2.0","id":7,"error":{"code":-32600,
            "message":"Invalid Request: a request with id 7 is already in flight"}})
    );
    // The cancel reaches the first request, not the refused one.
    let cancel =
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}});
    assert_eq!(server.legacy(&session, &cancel).await.status(), 202);
    eventually("the first request is cancelled", || {
        observed.dropped.load(Ordering::SeqCst)
    })
    .await;
    assert_eq!(server.legacy(&session, &add_call(7)).await.status(), 200);
}

#[tokio::test]
async fn requests_over_the_in_flight_cap_of_a_session_are_refused() {
    let observed = Arc::new(Hang::default());
    let server = start(server(observed).max_requests_in_flight(2)).await;
    let session = server.initialize().await;
    let mut one = server
        .legacy(&session, &legacy_call(1, "hang", json!({})))
        .await;
    let mut two = server
        .legacy(&session, &legacy_call(2, "hang", json!({})))
        .await;
    first_event(&mut one).await;
    first_event(&mut two).await;
    let refused = server.legacy(&session, &add_call(3)).await;
    assert_eq!(
        json_of(refused).await,
        json!({"jsonrpc":"2.0","id":3,"error":{"code":-32000,
            "message":"Server busy: 2 requests in flight; retry later"}})
    );
    let cancel =
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}});
    assert_eq!(server.legacy(&session, &cancel).await.status(), 202);
    // Another session has its own allowance.
    let other = server.initialize().await;
    assert_eq!(server.legacy(&other, &add_call(4)).await.status(), 200);
    let served = server.legacy(&session, &add_call(5)).await;
    assert_eq!(
        json_of(served).await["result"]["structuredContent"]["result"],
        2
    );
}
