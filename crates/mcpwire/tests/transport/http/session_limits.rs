//! The bounds of 2025-11-25 sessions over HTTP: how long a session lives, how many one caller
//! holds, what a full table does, one GET stream per session, requests in flight and duplicate
//! request ids.

use crate::support;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;
use support::http::*;

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
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

/// Reads `response` to its end, failing after 10 s.
async fn ends(response: reqwest::Response) -> String {
    tokio::time::timeout(Duration::from_secs(10), response.text())
        .await
        .expect("the stream ended within 10 s")
        .unwrap_or_default()
}

fn add_call(id: u64) -> serde_json::Value {
    legacy_call(id, "add", json!({"a": 1, "b": 1}))
}

#[tokio::test]
async fn an_abandoned_session_with_a_stuck_request_idles_out() {
    let observed = Arc::new(Hang::default());
    let http = server(observed.clone())
        .http()
        .session_idle_timeout(Duration::from_millis(100));
    let server = start_http(http).await;
    let session = server.initialize().await;
    let mut stream = server
        .legacy(&session, &legacy_call(1, "hang", json!({})))
        .await;
    assert_eq!(
        first_event(&mut stream).await["method"],
        "notifications/message"
    );
    // The client goes away; its request would run forever.
    drop(stream);
    eventually("the stuck request is cancelled with its session", || {
        observed.dropped.load(Ordering::SeqCst)
    })
    .await;
    assert_eq!(server.legacy(&session, &add_call(2)).await.status(), 404);
}

#[tokio::test]
async fn a_session_ends_at_its_max_lifetime_even_while_its_client_streams() {
    let observed = Arc::new(Hang::default());
    let http = server(observed.clone())
        .http()
        .max_session_lifetime(Duration::from_millis(300));
    let server = start_http(http).await;
    let session = server.initialize().await;
    let get = server.get_stream(&session, &[]).await;
    assert_eq!(get.status(), 200);
    let mut call = server
        .legacy(&session, &legacy_call(1, "hang", json!({})))
        .await;
    first_event(&mut call).await;
    // Both streams stay open, so the session is never idle; its lifetime still ends it.
    ends(get).await;
    ends(call).await;
    eventually("the running request is cancelled", || {
        observed.dropped.load(Ordering::SeqCst)
    })
    .await;
    assert_eq!(server.legacy(&session, &add_call(2)).await.status(), 404);
}

#[tokio::test]
async fn a_new_get_stream_replaces_the_old_one() {
    let server = start(server(Arc::default())).await;
    let session = server.initialize().await;
    let first = server.get_stream(&session, &[]).await;
    assert_eq!(first.status(), 200);
    let second = server.get_stream(&session, &[]).await;
    assert_eq!(
        second.status(),
        200,
        "a reconnecting client gets its stream"
    );
    assert_eq!(content_type(&second), "text/event-stream");
    assert_eq!(ends(first).await, "", "the old stream ends");
    let third = server.get_stream(&session, &[]).await;
    assert_eq!(third.status(), 200);
    assert_eq!(ends(second).await, "");
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

#[tokio::test]
async fn initialize_is_served_while_every_session_holds_a_get_stream() {
    let server = start_http(server(Arc::default()).http().max_sessions(4)).await;
    let mut streams = Vec::new();
    let mut sessions = Vec::new();
    for _ in 0..4 {
        let session = server.initialize().await;
        let stream = server.get_stream(&session, &[]).await;
        assert_eq!(stream.status(), 200);
        streams.push(stream);
        sessions.push(session);
    }
    let newcomer = server.initialize().await;
    assert_eq!(server.legacy(&newcomer, &add_call(1)).await.status(), 200);
    // This caller held the whole table: it lost its own least recently used session.
    let oldest = streams.remove(0);
    assert_eq!(ends(oldest).await, "");
    assert_eq!(
        server.legacy(&sessions[0], &add_call(2)).await.status(),
        404
    );
    assert_eq!(
        server.legacy(&sessions[1], &add_call(3)).await.status(),
        200
    );
}

#[tokio::test]
async fn an_anonymous_flood_from_one_address_leaves_other_addresses_sessions_alone() {
    let server = start_http(server(Arc::default()).http().max_sessions(4)).await;
    let session = server.initialize().await;
    let flooder = server.reached_from([127, 0, 0, 2]);
    for _ in 0..20 {
        flooder.initialize().await;
    }
    assert_eq!(server.legacy(&session, &add_call(1)).await.status(), 200);
}

/// Opens sessions through "nginx on this machine" (peer 127.0.0.1) for the client `forwarded`,
/// as `X-Forwarded-For` names it.
async fn flood(server: &Running, forwarded: &str, sessions: usize) {
    for _ in 0..sessions {
        server
            .initialize_with(&[("x-forwarded-for", forwarded)])
            .await;
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_anonymous_callers_are_told_apart_by_their_forwarded_address() {
    let http = server(Arc::default()).http().max_sessions(4);
    let server = start_http(http.trusted_proxies(["127.0.0.1"])).await;
    let victim = server
        .initialize_with(&[("x-forwarded-for", "203.0.113.7")])
        .await;
    flood(&server, "198.51.100.9", 20).await;
    assert_eq!(server.legacy(&victim, &add_call(1)).await.status(), 200);
}

#[tokio::test]
async fn a_client_cannot_pick_its_address_with_a_forwarded_header_the_proxy_passes_through() {
    // nginx and HAProxy as documented append the peer to X-Forwarded-For and pass the client's
    // own `Forwarded` through untouched. An anonymous attacker who sends a fresh `Forwarded:
    // for=` with every `initialize` must still count as the one network it is.
    let http = server(Arc::default()).http().max_sessions(4);
    let server = start_http(http.trusted_proxies(["127.0.0.1"])).await;
    let victim = server
        .initialize_with(&[("x-forwarded-for", "203.0.113.7")])
        .await;
    for n in 0..20 {
        let made_up = format!("for=192.0.2.{n}");
        server
            .initialize_with(&[
                ("forwarded", made_up.as_str()),
                ("x-forwarded-for", "198.51.100.9"),
            ])
            .await;
    }
    assert_eq!(server.legacy(&victim, &add_call(1)).await.status(), 200);
}

#[tokio::test]
async fn behind_a_proxy_writing_forwarded_its_for_names_the_client_and_x_forwarded_for_is_ignored()
{
    let http = server(Arc::default())
        .http()
        .max_sessions(4)
        .trusted_proxies(["127.0.0.1"])
        .forwarding_header(mcpwire::transport::http::ForwardingHeader::Forwarded);
    let server = start_http(http).await;
    let victim = server
        .initialize_with(&[("forwarded", "for=203.0.113.7")])
        .await;
    for n in 0..20 {
        let made_up = format!("192.0.2.{n}");
        server
            .initialize_with(&[
                ("x-forwarded-for", made_up.as_str()),
                ("forwarded", "for=198.51.100.9"),
            ])
            .await;
    }
    assert_eq!(server.legacy(&victim, &add_call(1)).await.status(), 200);
}

#[tokio::test]
async fn without_trusted_proxies_every_caller_behind_the_proxy_is_one_owner() {
    let server = start_http(server(Arc::default()).http().max_sessions(4)).await;
    let victim = server
        .initialize_with(&[("x-forwarded-for", "203.0.113.7")])
        .await;
    flood(&server, "198.51.100.9", 20).await;
    assert_eq!(server.legacy(&victim, &add_call(1)).await.status(), 404);
}

#[tokio::test]
async fn forwarding_headers_from_a_peer_that_is_not_a_trusted_proxy_are_ignored() {
    let http = server(Arc::default()).http().max_sessions(4);
    let server = start_http(http.trusted_proxies(["127.0.0.1"])).await;
    let victim = server
        .initialize_with(&[("x-forwarded-for", "203.0.113.7")])
        .await;
    // 127.0.0.2 is no proxy of ours: it claims the victim's address, and is counted as itself.
    let liar = server.reached_from([127, 0, 0, 2]);
    for _ in 0..20 {
        liar.initialize_with(&[("x-forwarded-for", "203.0.113.7")])
            .await;
    }
    assert_eq!(server.legacy(&victim, &add_call(1)).await.status(), 200);
}

#[tokio::test]
async fn a_trusted_proxy_entry_that_is_no_network_fails_start_up() {
    let http = server(Arc::default())
        .http()
        .trusted_proxies(["lb.internal"]);
    let error = http.into_router().await.unwrap_err();
    assert!(error.to_string().contains("lb.internal"), "{error}");
}

#[tokio::test]
async fn a_network_at_its_cap_replaces_its_own_least_recently_used_session() {
    let http = server(Arc::default()).http().max_sessions_per_network(3);
    let server = start_http(http).await;
    let neighbour = server.reached_from([127, 0, 0, 2]).initialize().await;
    let sessions = [
        server.initialize().await,
        server.initialize().await,
        server.initialize().await,
        server.initialize().await,
    ];
    assert_eq!(
        server.legacy(&sessions[0], &add_call(1)).await.status(),
        404
    );
    for kept in &sessions[1..] {
        assert_eq!(server.legacy(kept, &add_call(1)).await.status(), 200);
    }
    let neighbours = server.reached_from([127, 0, 0, 2]);
    assert_eq!(
        neighbours.legacy(&neighbour, &add_call(1)).await.status(),
        200
    );
}

#[tokio::test]
async fn a_handshake_over_its_bound_is_refused_naming_size_and_limit() {
    let server = start_http(server(Arc::default()).http().max_handshake_bytes(1024)).await;
    let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion": LEGACY,
        "capabilities": {"experimental": {"big": "x".repeat(2000)}},
        "clientInfo": {"name": "test", "version": "1"}}});
    let response = server.post_raw(body.to_string(), &[]).await;
    assert_eq!(response.status(), 200);
    assert!(response.headers().get("mcp-session-id").is_none());
    let answer = json_of(response).await;
    assert_eq!(answer["id"], 0);
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    assert_eq!(answer["error"]["data"]["limit"], 1024);
    assert!(answer["error"]["data"]["size"].as_u64().unwrap() > 2000);
    // A usual handshake is well under it.
    server.initialize().await;
}
