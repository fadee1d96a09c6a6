//! The client's answers relayed between the replicas of a fleet (feature `redis`): an answer
//! with an id no replica of the fleet could have issued is not published, and one over the
//! relay bound is refused (`413`) while the replica that asked gets a short error in its place.
//! Two replicas share one Redis (a child of the test, on a unix socket); what Redis published
//! and sent is read from Redis itself (`INFO commandstats`, `INFO stats`).
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use mcpwire::transport::HttpServer;
use mcpwire::transport::http::RedisFleet;
use serde_json::{Value, json};
use std::time::Duration;
use support::http::*;
use support::redis::{Probe, Redis};

/// A name.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize, schemars::JsonSchema)]
struct Name {
    name: String,
}

#[resolver]
fn ask_name() -> Elicit<Name> {
    Elicit::ask("What is your name?")
}

/// Greets the user, whose name it asks.
#[tool]
async fn greet(#[resolve(ask_name)] user: Name) -> String {
    format!("Hello, {}!", user.name)
}

/// A replica of the fleet, configured by `configure`.
async fn replica(
    redis: &Redis,
    id: &str,
    configure: impl FnOnce(HttpServer) -> HttpServer,
) -> support::http::Running {
    let fleet = RedisFleet::connect(&redis.url(), "mcp:relay-test:")
        .await
        .expect("the test's Redis answers")
        .with_replica_id(id);
    let server = McpServer::new("relay-test")
        .request_state_keys(KeyRing::new([[5u8; 32]]).unwrap())
        .tool(greet)
        .unwrap();
    start_authenticated(configure(server.http().fleet(&fleet).allow_any_host())).await
}

/// POSTs `body` on the 2025-11-25 session `session` (none: `initialize`).
async fn post(url: &str, session: Option<&str>, body: &Value) -> reqwest::Response {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", LEGACY)
        .timeout(Duration::from_secs(20))
        .json(body);
    if let Some(session) = session {
        request = request.header("mcp-session-id", session);
    }
    request.send().await.expect("the replica answers")
}

/// Opens a session on the replica at `url`; its id.
async fn initialize(url: &str) -> String {
    let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion": LEGACY,
        "capabilities": {"elicitation": {}},
        "clientInfo": {"name": "relay-test", "version": "1"}}});
    let response = post(url, None, &body).await;
    assert_eq!(response.status(), 200);
    let session = response.headers()["mcp-session-id"]
        .to_str()
        .unwrap()
        .to_owned();
    let initialized = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
    assert_eq!(post(url, Some(&session), &initialized).await.status(), 202);
    session
}

/// SSE events (their data) until `until` accepts one or the stream ends.
async fn events_until(
    response: &mut reqwest::Response,
    until: impl FnMut(&Value) -> bool,
) -> Vec<Value> {
    let events = read_until(response, until).await;
    events.into_iter().map(|(_, event)| event).collect()
}

/// `(PUBLISH calls, bytes Redis sent)` since the last reset of its counters.
async fn published(redis: &mut Probe) -> (u64, u64) {
    (
        redis.calls("publish").await,
        redis.info("stats", "total_net_output_bytes").await,
    )
}

/// A client response with `id` and a result of about `size` bytes.
fn answer(id: &str, size: usize) -> Value {
    json!({"jsonrpc":"2.0","id":id,"result":{"action":"accept",
        "content":{"name":"x".repeat(size)}}})
}

#[tokio::test]
async fn answers_no_replica_asked_for_are_not_published_and_large_ones_not_relayed() {
    let redis = Redis::start();
    let a = replica(&redis, "a", |http| http).await;
    let b = replica(&redis, "b", |http| http).await;
    let mut db = Probe::new(&redis).await;
    let session = initialize(&a.url).await;
    let big = 3 * 1024 * 1024;

    // Five 3 MB answers to ids no replica issued.
    db.reset_stats().await;
    for n in 0..5 {
        let response = post(
            &b.url,
            Some(&session),
            &answer(&format!("made-up-{n}"), big),
        )
        .await;
        assert_eq!(response.status(), 202);
    }
    let (publishes, sent) = published(&mut db).await;
    println!("made-up ids: {publishes} PUBLISH, {sent} bytes out of Redis");
    assert_eq!(publishes, 0, "nothing published");
    assert!(sent < 1024 * 1024, "{sent} bytes sent by Redis");

    // Five 3 MB answers to ids of another replica's form: over the bound, refused.
    db.reset_stats().await;
    for n in 0..5 {
        let id = format!("s-0badc0de-{n}");
        let response = post(&b.url, Some(&session), &answer(&id, big)).await;
        assert_eq!(response.status(), 413);
        let refused = json_of(response).await;
        assert_eq!(refused["error"]["code"], -32600, "{refused}");
    }
    let (publishes, sent) = published(&mut db).await;
    println!("over the bound: {publishes} PUBLISH, {sent} bytes out of Redis");
    assert!(sent < 1024 * 1024, "{sent} bytes sent by Redis");
}

#[tokio::test]
async fn an_answer_over_the_bound_ends_the_waiting_request_with_an_error() {
    let redis = Redis::start();
    let small = |http: HttpServer| http.max_relayed_response_bytes(4096);
    let a = replica(&redis, "a", small).await;
    let b = replica(&redis, "b", small).await;
    let session = initialize(&a.url).await;

    // Within the bound, an answer posted to B reaches the question asked on A.
    let call = |id: u64| json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"greet","arguments":{}}});
    let mut stream = post(&a.url, Some(&session), &call(1)).await;
    let asked = events_until(&mut stream, |e| e["method"] == "elicitation/create").await;
    let id = asked.last().unwrap()["id"].as_str().unwrap().to_owned();
    let answered = post(&b.url, Some(&session), &answer(&id, 10)).await;
    assert_eq!(answered.status(), 202);
    let done = events_until(&mut stream, |e| e["id"] == 1).await;
    let done = done.last().unwrap();
    assert_eq!(
        done["result"]["content"][0]["text"],
        format!("Hello, {}!", "x".repeat(10))
    );

    // Over it: B refuses it, and the request on A ends at once with an error.
    let mut stream = post(&a.url, Some(&session), &call(2)).await;
    let asked = events_until(&mut stream, |e| e["method"] == "elicitation/create").await;
    let id = asked.last().unwrap()["id"].as_str().unwrap().to_owned();
    let refused = post(&b.url, Some(&session), &answer(&id, 10_000)).await;
    assert_eq!(refused.status(), 413);
    let done = events_until(&mut stream, |e| e["id"] == 2).await;
    let done = done.last().unwrap();
    let text = done.to_string();
    assert!(!text.contains("Hello"), "{text}");
    assert!(text.contains("4096"), "the error names the bound: {text}");
}
