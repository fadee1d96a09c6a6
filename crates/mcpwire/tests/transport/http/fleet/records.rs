//! The session records a fleet keeps in Redis are bounded by what the server allows, not by
//! what a client sends: the handshake kept is capped, anonymous sessions are capped per network
//! across replicas, an evicted session leaves nothing in Redis, and a change to a session writes
//! one field that no replica reads back. Each test counts what Redis itself saw (`INFO`,
//! `MEMORY USAGE`, `SCAN`, `EXISTS`, `INFO commandstats`), not only what the replicas answered.
//! Two replicas, each on a runtime of its own, share a Redis child of the test.
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::transport::HttpServer;
use mcpwire::transport::http::RedisFleet;
use serde_json::{Value, json};
use std::time::Duration;
use support::http::*;
use support::redis::{Probe, Redis};

const PREFIX: &str = "mcp:records-test:";

/// Logs at `info`, then answers.
#[tool]
async fn chatty(ctx: Context) -> String {
    ctx.info("something happened").await;
    "ok".into()
}

/// One replica: a server on 127.0.0.1 on a runtime of its own (stopped when dropped).
struct Replica {
    url: String,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Replica {
    async fn start(redis: &Redis, id: &str) -> Self {
        Self::start_with(redis, id, |http| http).await
    }

    async fn start_with(
        redis: &Redis,
        id: &str,
        configure: impl FnOnce(HttpServer) -> HttpServer + Send + 'static,
    ) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let (url_sender, url) = tokio::sync::oneshot::channel::<String>();
        let (redis_url, id) = (redis.url(), id.to_owned());
        runtime.spawn(async move {
            let fleet = RedisFleet::connect(&redis_url, PREFIX)
                .await
                .expect("the test's Redis answers")
                .with_replica_id(id);
            let server = McpServer::new("records-test").tool(chatty).unwrap();
            let router = configure(server.http().fleet(&fleet).allow_any_host())
                .into_router()
                .await
                .unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let _ = url_sender.send(format!("http://{}/mcp", listener.local_addr().unwrap()));
            let router = router.layer(axum::middleware::from_fn(authenticate));
            let app = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
            let _ = axum::serve(listener, app).await;
        });
        let url = tokio::time::timeout(Duration::from_secs(10), url)
            .await
            .expect("the replica started within 10 s")
            .unwrap();
        Replica {
            url,
            runtime: Some(runtime),
        }
    }

    /// POSTs `body` (with the session and the user, when given).
    async fn post(&self, session: Option<&str>, user: Option<&str>, body: &Value) -> Response {
        let mut request = reqwest::Client::new()
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", LEGACY)
            .timeout(Duration::from_secs(20))
            .body(body.to_string());
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        if let Some(user) = user {
            request = request.header("x-user", user);
        }
        let response = request.send().await.expect("the replica answers");
        let status = response.status().as_u16();
        let session = response
            .headers()
            .get("mcp-session-id")
            .map(|id| id.to_str().unwrap().to_owned());
        let text = response.text().await.unwrap();
        Response {
            status,
            session,
            text,
        }
    }

    /// `initialize` with `capabilities`, as `user` (anonymous when `None`).
    async fn initialize_with(&self, user: Option<&str>, capabilities: Value) -> Response {
        let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion": LEGACY,
            "capabilities": capabilities,
            "clientInfo": {"name": "records-test", "version": "1"}}});
        self.post(None, user, &body).await
    }

    /// A session of `user`, initialized (with `capabilities`).
    async fn open(&self, user: Option<&str>, capabilities: Value) -> String {
        let response = self.initialize_with(user, capabilities).await;
        assert_eq!(response.status, 200, "{}", response.text);
        let session = response.session.expect("a session id");
        let initialized = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
        let done = self.post(Some(&session), user, &initialized).await;
        assert_eq!(done.status, 202);
        session
    }

    /// The status of a `ping` in `session`.
    async fn ping(&self, session: &str, user: Option<&str>) -> u16 {
        let ping = json!({"jsonrpc":"2.0","id":1,"method":"ping"});
        self.post(Some(session), user, &ping).await.status
    }
}

/// What a replica answered.
struct Response {
    status: u16,
    session: Option<String>,
    text: String,
}

impl Response {
    /// The JSON-RPC messages of the body (JSON, or SSE `data:` lines).
    fn messages(&self) -> Vec<Value> {
        match serde_json::from_str::<Value>(&self.text) {
            Ok(value) => vec![value],
            Err(_) => parse_events(&self.text),
        }
    }
}

/// The keys holding session `id`'s record (whatever its principal).
async fn record_keys(store: &mut Probe, id: &str) -> Vec<String> {
    store.keys(&format!("{PREFIX}[rs]:*:{id}")).await
}

/// `experimental` capabilities of about `bytes` bytes.
fn capabilities_of(bytes: usize) -> Value {
    json!({"experimental": {"padding": {"blob": "x".repeat(bytes)}}})
}

#[tokio::test]
async fn a_handshake_larger_than_the_bound_is_refused_and_never_reaches_redis() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let mut store = Probe::new(&redis).await;
    let before = store.info("memory", "used_memory").await;
    let mut answers = Vec::new();
    for round in 0..20 {
        let replica = if round % 2 == 0 { &a } else { &b };
        answers.push(
            replica
                .initialize_with(None, capabilities_of(3_000_000))
                .await,
        );
    }
    let grown = store
        .info("memory", "used_memory")
        .await
        .saturating_sub(before);
    eprintln!("used_memory grew by {grown} bytes after 20 initializes with 3 MB capabilities");
    assert!(
        grown < 1024 * 1024,
        "20 initializes with 3 MB of capabilities grew Redis by {grown} bytes"
    );
    for answer in &answers {
        assert_eq!(answer.status, 200);
        assert_eq!(answer.session, None, "no session opened");
        let error = &answer.messages()[0]["error"];
        assert_eq!(error["code"], -32602, "{error}");
        assert_eq!(error["data"]["limit"], 16 * 1024, "{error}");
        assert!(
            error["data"]["size"].as_u64().unwrap() > 3_000_000,
            "{error}"
        );
        let message = error["message"].as_str().unwrap();
        assert!(message.contains("16384"), "{message}");
    }
    // Under the bound: kept, and its record in Redis is about as large as the handshake.
    let session = a.open(None, capabilities_of(12 * 1024)).await;
    let [key] = record_keys(&mut store, &session).await.try_into().unwrap();
    let usage = store.memory(&[key]).await;
    eprintln!("MEMORY USAGE of a record with 12 KiB of capabilities: {usage}");
    assert!(usage < 20 * 1024, "the record takes {usage} bytes");
    assert_eq!(
        b.ping(&session, None).await,
        200,
        "served on the other replica"
    );
}

#[tokio::test]
async fn anonymous_sessions_of_one_network_are_capped_across_replicas() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let mut store = Probe::new(&redis).await;
    // The default cap, 100, plus one, opened from 127.0.0.1 on both replicas in turn.
    let mut sessions = Vec::new();
    for round in 0..101 {
        let replica = if round % 2 == 0 { &a } else { &b };
        sessions.push(replica.open(None, json!({})).await);
    }
    let records = store.keys(&format!("{PREFIX}[rs]:-:*")).await;
    eprintln!(
        "{} anonymous records in Redis after 101 initializes",
        records.len()
    );
    assert_eq!(records.len(), 100, "anonymous records in Redis");
    assert!(
        record_keys(&mut store, &sessions[0]).await.is_empty(),
        "the least recently used one went"
    );
    // It ended on every replica; the newest lives on both.
    for replica in [&a, &b] {
        assert_eq!(replica.ping(&sessions[0], None).await, 404);
        assert_eq!(replica.ping(&sessions[100], None).await, 200);
    }
    // Every key of the network's cap expires.
    store.all_expire(PREFIX).await;
}

#[tokio::test]
async fn a_session_evicted_on_one_replica_ends_in_redis_and_on_every_replica() {
    let redis = Redis::start();
    let a = Replica::start_with(&redis, "a", |http| http.max_sessions(1)).await;
    let b = Replica::start(&redis, "b").await;
    let mut store = Probe::new(&redis).await;
    let alice = a.open(Some("alice"), json!({})).await;
    assert_eq!(b.ping(&alice, Some("alice")).await, 200, "b holds a copy");
    // a is full: bob's session evicts alice's (idle).
    let bob = a.open(Some("bob"), json!({})).await;
    eprintln!(
        "record keys of the evicted session: {:?}",
        record_keys(&mut store, &alice).await
    );
    assert!(
        record_keys(&mut store, &alice).await.is_empty(),
        "the evicted session's record is gone from Redis"
    );
    let mut status = 0;
    for _ in 0..100 {
        status = b.ping(&alice, Some("alice")).await;
        if status == 404 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(status, 404, "ended on the other replica too");
    assert_eq!(a.ping(&alice, Some("alice")).await, 404);
    assert_eq!(b.ping(&bob, Some("bob")).await, 200);
}

#[tokio::test]
async fn a_log_level_change_writes_one_field_and_no_replica_reads_the_record_back() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let mut store = Probe::new(&redis).await;
    let session = a.open(None, capabilities_of(12 * 1024)).await;
    let call = json!({"jsonrpc":"2.0","id":2,"method":"tools/call",
        "params":{"name":"chatty","arguments":{}}});
    let logs = |response: &Response| {
        response
            .messages()
            .iter()
            .filter(|m| m["method"] == "notifications/message")
            .count()
    };
    assert_eq!(
        logs(&b.post(Some(&session), None, &call).await),
        1,
        "b holds a copy"
    );
    // That call was a stream: its first and last entries write its owner field (`HSET`, then
    // `HDEL`), behind the answer. Counting starts once both are in.
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while store.calls("hdel").await == 0 {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the stream's end never reached Redis"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (gets, hgetalls, hsets) = (
        store.calls("get").await,
        store.calls("hgetall").await,
        store.calls("hset").await,
    );
    let written = store.info("stats", "total_net_input_bytes").await;
    for round in 0..20 {
        let level = if round % 2 == 0 { "warning" } else { "error" };
        let set = json!({"jsonrpc":"2.0","id":3,"method":"logging/setLevel",
            "params":{"level": level}});
        let answer = a.post(Some(&session), None, &set).await;
        assert_eq!(answer.messages()[0]["result"], json!({}), "{}", answer.text);
    }
    // Counted before the polls below, which stream (and write their owner fields) until b
    // applied the level.
    let hsets = store.calls("hset").await - hsets;
    let written = store.info("stats", "total_net_input_bytes").await - written;
    // b's copy learns the level (`error`: the info message is no longer sent).
    let mut sent = usize::MAX;
    for _ in 0..100 {
        sent = logs(&b.post(Some(&session), None, &call).await);
        if sent == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(sent, 0, "b applies the level set on a");
    eprintln!(
        "20 setLevel: get +{}, hgetall +{}, hset +{}, {written} bytes into Redis",
        store.calls("get").await - gets,
        store.calls("hgetall").await - hgetalls,
        hsets,
    );
    assert_eq!(
        store.calls("get").await - gets,
        0,
        "no replica read a record back"
    );
    assert_eq!(store.calls("hgetall").await - hgetalls, 0);
    assert_eq!(hsets, 20, "one field written a change");
    assert!(
        written < 20 * 4 * 1024,
        "20 level changes sent Redis {written} bytes (the record is over 12 KiB)"
    );
}
