//! A fleet of replicas sharing 2025-11-25 sessions in Redis (`RedisFleet`, feature `redis`):
//! every replica serves every request of every session, a stream resumes on another replica,
//! an answer or a cancellation posted to another replica reaches the request, changes reach
//! listeners on every replica, and when Redis or a replica goes away clients get clear errors,
//! never a hang. Each replica runs on a runtime of its own, so killing it stops everything it
//! runs; Redis is a child of the test on a unix socket.
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use mcpwire::transport::http::RedisFleet;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use support::http::*;
use support::redis::Redis;

/// What the replicas' tools let the test observe.
#[derive(Default)]
struct Observed {
    /// `slow` calls stopped before they finished (cancelled).
    stopped: AtomicUsize,
}

/// Counts a `slow` call dropped before it finished.
struct Unfinished(Arc<Observed>);

impl Drop for Unfinished {
    fn drop(&mut self) {
        self.0.stopped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Reports progress `steps` times, 150 ms apart, then answers; counts a cancellation.
#[tool]
async fn slow(ctx: Context, steps: u32) -> String {
    let unfinished = Unfinished(ctx.state::<Arc<Observed>>().clone());
    for step in 1..=steps {
        tokio::time::sleep(Duration::from_millis(150)).await;
        ctx.report_progress(f64::from(step), Some(f64::from(steps)), None)
            .await;
    }
    std::mem::forget(unfinished);
    "done".into()
}

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

/// Changes a note.
#[tool]
async fn touch(ctx: Context, name: String) -> String {
    ctx.notify_resource_updated(format!("notes://{name}"));
    "touched".into()
}

/// One note.
#[resource(uri = "notes://{name}")]
async fn note(name: String) -> String {
    name
}

fn keys() -> KeyRing {
    KeyRing::new([[7u8; 32]]).unwrap()
}

/// One replica: a server on 127.0.0.1 on a runtime of its own.
struct Replica {
    url: String,
    runtime: Option<tokio::runtime::Runtime>,
    observed: Arc<Observed>,
    /// Its lists, changeable at run time (so it declares `listChanged`).
    catalog: mcpwire::server::Catalog,
}

impl Replica {
    async fn start(redis: &Redis, id: &str) -> Self {
        Self::start_with(redis, id, |http| http).await
    }

    async fn start_with(
        redis: &Redis,
        id: &str,
        configure: impl FnOnce(mcpwire::transport::HttpServer) -> mcpwire::transport::HttpServer
        + Send
        + 'static,
    ) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let observed = Arc::new(Observed::default());
        let (url_sender, url) =
            tokio::sync::oneshot::channel::<(String, mcpwire::server::Catalog)>();
        let (redis_url, id, state) = (redis.url(), id.to_owned(), observed.clone());
        runtime.spawn(async move {
            let fleet = RedisFleet::connect(&redis_url, "mcp:fleet-test:")
                .await
                .expect("the test's Redis answers")
                .with_replica_id(id);
            let server = McpServer::new("fleet-test")
                .request_state_keys(keys())
                .state(state)
                .tool(slow)
                .and_then(|s| s.tool(greet))
                .and_then(|s| s.tool(touch))
                .and_then(|s| s.resource(note))
                .unwrap();
            let catalog = server.catalog();
            let router = configure(server.http().fleet(&fleet).allow_any_host())
                .into_router()
                .await
                .unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}/mcp", listener.local_addr().unwrap());
            let _ = url_sender.send((url, catalog));
            let router = router.layer(axum::middleware::from_fn(authenticate));
            let app = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
            let _ = axum::serve(listener, app).await;
        });
        let (url, catalog) = tokio::time::timeout(Duration::from_secs(10), url)
            .await
            .expect("the replica started within 10 s")
            .unwrap();
        Replica {
            url,
            runtime: Some(runtime),
            observed,
            catalog,
        }
    }

    /// This replica as a client sees it.
    fn client(&self) -> Client {
        Client {
            url: self.url.clone(),
            http: reqwest::Client::new(),
        }
    }

    /// Stops it at once: its connections, requests, streams and heartbeat end, as when the
    /// process is killed.
    fn kill(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Replicas `a` and `b` of one fleet.
async fn two_replicas(redis: &Redis) -> (Replica, Replica) {
    (
        Replica::start(redis, "a").await,
        Replica::start(redis, "b").await,
    )
}

/// Raw HTTP to one replica.
struct Client {
    url: String,
    http: reqwest::Client,
}

impl Client {
    async fn post(
        &self,
        session: Option<&str>,
        user: Option<&str>,
        body: &Value,
    ) -> reqwest::Response {
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", LEGACY)
            .timeout(Duration::from_secs(20))
            .json(body);
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        if let Some(user) = user {
            request = request.header("x-user", user);
        }
        request.send().await.expect("the replica answers")
    }

    async fn initialize(&self, user: Option<&str>) -> String {
        let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion": LEGACY,
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "fleet-test", "version": "1"}}});
        let response = self.post(None, user, &body).await;
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let initialized = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
        assert_eq!(
            self.post(Some(&session), user, &initialized).await.status(),
            202
        );
        session
    }

    async fn call(
        &self,
        session: &str,
        id: u64,
        name: &str,
        arguments: Value,
    ) -> reqwest::Response {
        self.post(Some(session), None, &legacy_call(id, name, arguments))
            .await
    }

    async fn get(&self, session: &str, last_event_id: Option<&str>) -> reqwest::Response {
        let mut request = self
            .http
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", LEGACY)
            .header("mcp-session-id", session)
            .timeout(Duration::from_secs(30));
        if let Some(last) = last_event_id {
            request = request.header("last-event-id", last);
        }
        request.send().await.expect("the replica answers")
    }

    async fn delete(&self, session: &str) -> u16 {
        let response = self
            .http
            .delete(&self.url)
            .header("mcp-protocol-version", LEGACY)
            .header("mcp-session-id", session)
            .send()
            .await
            .unwrap();
        response.status().as_u16()
    }
}

fn is_response(id: u64) -> impl FnMut(&Value) -> bool {
    move |event| {
        event["id"] == id && (event.get("result").is_some() || event.get("error").is_some())
    }
}

#[tokio::test]
async fn any_replica_serves_any_request_of_a_session_and_delete_ends_it_everywhere() {
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let session = a.initialize(None).await;
    let answer = json_of(b.call(&session, 1, "slow", json!({"steps": 0})).await).await;
    assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
    let level =
        json!({"jsonrpc":"2.0","id":2,"method":"logging/setLevel","params":{"level":"error"}});
    assert_eq!(
        json_of(a.post(Some(&session), None, &level).await).await["result"],
        json!({})
    );
    assert_eq!(b.delete(&session).await, 200);
    let after = b.call(&session, 3, "slow", json!({"steps": 0})).await;
    assert_eq!(after.status(), 404, "ended where it was deleted");
    // The other replica's copy is gone by the time the DELETE is answered: its very next
    // request is refused, not served while the bus is still on its way.
    let after = a.call(&session, 4, "slow", json!({"steps": 0})).await;
    assert_eq!(after.status(), 404, "ended on the other replica, at once");
    // Again, many times, both ways: the DELETE never races the bus.
    for round in 0..20u64 {
        let (first, second) = if round % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let session = first.initialize(None).await;
        let answer = json_of(second.call(&session, 1, "slow", json!({"steps": 0})).await).await;
        assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
        assert_eq!(second.delete(&session).await, 200);
        let after = first.call(&session, 2, "slow", json!({"steps": 0})).await;
        assert_eq!(after.status(), 404, "round {round}: served after DELETE");
    }
}

/// A bus that hands this replica every message `delay` late (a replica whose subscriber lags
/// behind the others), and publishes on `inner` as it is.
struct Late<B> {
    inner: B,
    delay: Duration,
}

impl<B: mcpwire::transport::http::FleetBus> mcpwire::transport::http::FleetBus for Late<B> {
    fn publish(&self, payload: String) -> mcpwire::transport::http::SharedFuture<'_, ()> {
        self.inner.publish(payload)
    }

    fn publish_counted(
        &self,
        payload: String,
    ) -> mcpwire::transport::http::SharedFuture<'_, Option<usize>> {
        self.inner.publish_counted(payload)
    }

    fn subscribe(
        &self,
    ) -> futures_util::stream::BoxStream<'static, mcpwire::transport::http::BusEvent> {
        use futures_util::StreamExt;
        let delay = self.delay;
        self.inner
            .subscribe()
            .then(move |event| async move {
                tokio::time::sleep(delay).await;
                event
            })
            .boxed()
    }
}

#[tokio::test]
async fn a_delete_is_answered_only_once_a_lagging_replica_ended_its_copy() {
    let redis = Redis::start();
    let lagging_bus = RedisFleet::connect(&redis.url(), "mcp:fleet-test:")
        .await
        .unwrap()
        .bus();
    let late = Late {
        inner: lagging_bus,
        delay: Duration::from_millis(100),
    };
    let a = Replica::start_with(&redis, "a", move |http| http.fleet_bus(late)).await;
    let b = Replica::start(&redis, "b").await;
    let (a, b) = (a.client(), b.client());
    for round in 0..3u64 {
        let session = b.initialize(None).await;
        let answer = json_of(a.call(&session, 1, "slow", json!({"steps": 0})).await).await;
        assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
        // `a` hears of the end 100 ms after `b` hears its own echo: the DELETE waits for
        // `a`'s acknowledgement, not for the echo.
        assert_eq!(b.delete(&session).await, 200);
        let after = a.call(&session, 2, "slow", json!({"steps": 0})).await;
        assert_eq!(after.status(), 404, "round {round}: served after DELETE");
    }
}

#[tokio::test]
async fn a_subscriber_that_never_acknowledges_holds_a_delete_only_up_to_its_bound() {
    // A replica of an earlier version (which ignores the `ack` field), or any other program
    // subscribed to the bus, is counted by PUBLISH and never acknowledges: the DELETE waits for
    // it only up to the bound (250 ms), and still ends the session on every replica.
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let mut silent = redis::Client::open(redis.url())
        .unwrap()
        .get_async_pubsub()
        .await
        .unwrap();
    silent.subscribe("mcp:fleet-test:bus").await.unwrap();
    let session = a.initialize(None).await;
    let answer = json_of(b.call(&session, 1, "slow", json!({"steps": 0})).await).await;
    assert_eq!(answer["result"]["content"][0]["text"], "done", "{answer}");
    let asked = std::time::Instant::now();
    assert_eq!(b.delete(&session).await, 200);
    let waited = asked.elapsed();
    assert!(
        waited < Duration::from_secs(5),
        "the DELETE waited {waited:?}"
    );
    let after = a.call(&session, 2, "slow", json!({"steps": 0})).await;
    assert_eq!(after.status(), 404, "ended on the other replica");
    drop(silent);
}

#[tokio::test]
async fn a_session_serves_only_its_principal_on_every_replica() {
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let session = a.initialize(Some("alice")).await;
    let ping = json!({"jsonrpc":"2.0","id":1,"method":"ping"});
    assert_eq!(
        b.post(Some(&session), Some("alice"), &ping).await.status(),
        200
    );
    assert_eq!(
        b.post(Some(&session), Some("mallory"), &ping)
            .await
            .status(),
        404
    );
    assert_eq!(b.post(Some(&session), None, &ping).await.status(), 404);
    let unknown = "0123456789abcdef0123456789abcdef";
    assert_eq!(
        b.post(Some(unknown), Some("alice"), &ping).await.status(),
        404
    );
}

#[tokio::test]
async fn a_principals_cap_of_sessions_holds_across_replicas() {
    let redis = Redis::start();
    let cap = |http: mcpwire::transport::HttpServer| http.max_sessions_per_principal(2);
    let (a, b) = (
        Replica::start_with(&redis, "a", cap).await,
        Replica::start_with(&redis, "b", cap).await,
    );
    let (a, b) = (a.client(), b.client());
    let first = a.initialize(Some("bob")).await;
    let second = b.initialize(Some("bob")).await;
    let third = a.initialize(Some("bob")).await;
    let ping = json!({"jsonrpc":"2.0","id":1,"method":"ping"});
    // The least recently used one (the first) made room, on every replica.
    for client in [&a, &b] {
        assert_eq!(
            client.post(Some(&first), Some("bob"), &ping).await.status(),
            404
        );
        assert_eq!(
            client
                .post(Some(&second), Some("bob"), &ping)
                .await
                .status(),
            200
        );
        assert_eq!(
            client.post(Some(&third), Some("bob"), &ping).await.status(),
            200
        );
    }
}

#[tokio::test]
async fn an_answer_posted_to_another_replica_reaches_the_waiting_resolver() {
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let session = a.initialize(None).await;
    let mut stream = a.call(&session, 1, "greet", json!({})).await;
    let asked = read_until(&mut stream, |event| event["method"] == "elicitation/create").await;
    let question = &asked.last().unwrap().1;
    let answer = json!({"jsonrpc":"2.0","id":question["id"],
        "result":{"action":"accept","content":{"name":"Ada"}}});
    assert_eq!(b.post(Some(&session), None, &answer).await.status(), 202);
    let rest = read_until(&mut stream, is_response(1)).await;
    let result = &rest.last().unwrap().1;
    assert_eq!(
        result["result"]["content"][0]["text"], "Hello, Ada!",
        "{result}"
    );
}

#[tokio::test]
async fn a_cancellation_posted_to_another_replica_stops_the_request() {
    let redis = Redis::start();
    let a = Replica::start(&redis, "a").await;
    let b = Replica::start(&redis, "b").await;
    let (client_a, client_b) = (a.client(), b.client());
    let session = client_a.initialize(None).await;
    let call = json!({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"slow",
        "arguments":{"steps":100},"_meta":{"progressToken":"p"}}});
    let mut stream = client_a.post(Some(&session), None, &call).await;
    read_until(&mut stream, |event| {
        event["method"] == "notifications/progress"
    })
    .await;
    let cancel =
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":9}});
    assert_eq!(
        client_b.post(Some(&session), None, &cancel).await.status(),
        202
    );
    eventually("the call on replica a is cancelled", || {
        a.observed.stopped.load(Ordering::SeqCst) == 1
    })
    .await;
}

#[tokio::test]
async fn a_stream_resumes_on_another_replica_and_follows_it_to_the_response() {
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let session = a.initialize(None).await;
    let call = json!({"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"slow",
        "arguments":{"steps":6},"_meta":{"progressToken":"p"}}});
    let mut stream = a.post(Some(&session), None, &call).await;
    let seen = read_until(&mut stream, |event| event["params"]["progress"] == 1.0).await;
    drop(stream);
    let last = seen.last().unwrap().0.clone();
    assert!(!last.is_empty(), "events carry ids");
    let mut resumed = b.get(&session, Some(&last)).await;
    assert_eq!(resumed.status(), 200);
    let rest = read_until(&mut resumed, is_response(4)).await;
    let progress: Vec<f64> = rest
        .iter()
        .filter_map(|(_, event)| event["params"]["progress"].as_f64())
        .collect();
    assert_eq!(
        progress,
        [2.0, 3.0, 4.0, 5.0, 6.0],
        "the rest, once each, in order"
    );
    assert_eq!(
        rest.last().unwrap().1["result"]["content"][0]["text"],
        "done"
    );
    let mut ids: Vec<&String> = seen.iter().chain(&rest).map(|(id, _)| id).collect();
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count, "event ids are unique");
    // From the priming event (before anything was sent), everything is replayed.
    let priming = format!("{}-0", last.split('-').next().unwrap());
    let mut replayed = a.get(&session, Some(&priming)).await;
    let all = read_until(&mut replayed, is_response(4)).await;
    let progress = all
        .iter()
        .filter(|(_, e)| e["method"] == "notifications/progress");
    assert_eq!(progress.count(), 6, "{all:?}");
}

#[tokio::test]
async fn a_stream_whose_replica_died_ends_with_an_error_on_another() {
    let redis = Redis::start();
    let mut a = Replica::start(&redis, "a").await;
    let b = Replica::start(&redis, "b").await;
    let (client_a, client_b) = (a.client(), b.client());
    let session = client_a.initialize(None).await;
    let call = json!({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"slow",
        "arguments":{"steps":1000},"_meta":{"progressToken":"p"}}});
    let mut stream = client_a.post(Some(&session), None, &call).await;
    let seen = read_until(&mut stream, |event| {
        event["method"] == "notifications/progress"
    })
    .await;
    a.kill();
    let last = seen.last().unwrap().0.clone();
    let mut resumed = client_b.get(&session, Some(&last)).await;
    let rest = read_until(&mut resumed, is_response(5)).await;
    let answer = &rest.last().unwrap().1;
    assert_eq!(answer["error"]["code"], -32603, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("stopped"), "{message}");
    // The session goes on on the replica left.
    let after = json_of(
        client_b
            .call(&session, 6, "slow", json!({"steps": 0}))
            .await,
    )
    .await;
    assert_eq!(after["result"]["content"][0]["text"], "done");
}

#[tokio::test]
async fn changes_reach_listeners_on_every_replica_once() {
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let session = a.initialize(None).await;
    let subscribe = json!({"jsonrpc":"2.0","id":1,"method":"resources/subscribe",
        "params":{"uri":"notes://today"}});
    assert_eq!(
        json_of(a.post(Some(&session), None, &subscribe).await).await["result"],
        json!({})
    );
    // The session's stream is on b, whose copy learns of the subscription made on a.
    let mut listening = b.get(&session, None).await;
    assert_eq!(listening.status(), 200);
    let other = a.initialize(None).await;
    let touched = json_of(a.call(&other, 2, "touch", json!({"name": "today"})).await).await;
    assert_eq!(touched["result"]["content"][0]["text"], "touched");
    let unrelated = json_of(
        a.call(&other, 3, "touch", json!({"name": "tomorrow"}))
            .await,
    )
    .await;
    assert_eq!(unrelated["result"]["content"][0]["text"], "touched");
    let events = tokio::time::timeout(
        Duration::from_secs(1),
        read_until(&mut listening, |event| {
            event["method"] == "notifications/resources/updated"
        }),
    )
    .await
    .expect("the change arrived within 1 s");
    assert_eq!(events.last().unwrap().1["params"]["uri"], "notes://today");
    // Exactly once: nothing else arrives (the other URI is not subscribed).
    let more = tokio::time::timeout(Duration::from_millis(500), listening.chunk()).await;
    if let Ok(Ok(Some(chunk))) = more {
        let text = String::from_utf8_lossy(&chunk);
        assert!(
            !text.contains("resources/updated"),
            "a second delivery: {text}"
        );
    }
}

#[tokio::test]
async fn without_redis_sessions_held_here_go_on_and_the_rest_are_refused_with_503() {
    let mut redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let (a, b) = (a.client(), b.client());
    let session = a.initialize(None).await;
    redis.stop();
    // a holds the session: it goes on.
    let held = json_of(a.call(&session, 1, "slow", json!({"steps": 0})).await).await;
    assert_eq!(held["result"]["content"][0]["text"], "done");
    // b would need Redis to find it, and a new session needs Redis to be shared.
    let started = std::time::Instant::now();
    let elsewhere = b.call(&session, 2, "slow", json!({"steps": 0})).await;
    assert_eq!(elsewhere.status(), 503);
    assert_eq!(elsewhere.headers()["retry-after"], "1");
    let body = json_of(elsewhere).await;
    assert_eq!(body["error"]["code"], -32603, "{body}");
    assert_eq!(body["id"], 2);
    let initialize = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}});
    assert_eq!(b.post(None, None, &initialize).await.status(), 503);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "refused promptly, not hung"
    );
    // 2026-07-28 requests need nothing shared.
    let modern = modern_body(
        3,
        "tools/call",
        json!({"name": "slow", "arguments": {"steps": 0}}),
    );
    let response = reqwest::Client::new()
        .post(&b.url)
        .headers(modern_headers(&modern))
        .json(&modern)
        .send()
        .await
        .unwrap();
    assert_eq!(
        json_of(response).await["result"]["content"][0]["text"],
        "done"
    );
    // Redis is back (empty: its data went with it): new sessions work across replicas again.
    redis.resume();
    let mut again = None;
    for _ in 0..50 {
        let response = b.post(None, None, &initialize).await;
        if response.status() == 200 {
            again = Some(
                response.headers()["mcp-session-id"]
                    .to_str()
                    .unwrap()
                    .to_owned(),
            );
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let again = again.expect("a session within 5 s of Redis coming back");
    // Each replica's first command after the outage finds its connection broken (`503`, try
    // again) and makes a new one.
    let ping = json!({"jsonrpc":"2.0","id":4,"method":"ping"});
    let mut status = 0;
    for _ in 0..50 {
        status = a.post(Some(&again), None, &ping).await.status().as_u16();
        if status != 503 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(status, 200, "served on the other replica");
}

#[tokio::test]
async fn a_catalog_change_on_one_replica_is_announced_on_every_replica() {
    let redis = Redis::start();
    let (a, b) = two_replicas(&redis).await;
    let session = a.client().initialize(None).await;
    let mut listening = b.client().get(&session, None).await;
    assert_eq!(listening.status(), 200);
    assert!(a.catalog.disable_tool("touch"), "a's catalog changed");
    let events = tokio::time::timeout(
        Duration::from_secs(1),
        read_until(&mut listening, |event| {
            event["method"] == "notifications/tools/list_changed"
        }),
    )
    .await
    .expect("announced on b within 1 s");
    assert_eq!(
        events.last().unwrap().1["method"],
        "notifications/tools/list_changed"
    );
    // The catalog itself is per process: b still lists the tool.
    let list = json!({"jsonrpc":"2.0","id":1,"method":"tools/list"});
    let listed = json_of(b.client().post(Some(&session), None, &list).await).await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|tool| tool["name"].as_str())
        .collect();
    assert!(names.contains(&"touch"), "{names:?}");
}

#[tokio::test]
async fn after_the_bus_comes_back_every_list_is_announced_changed() {
    let mut redis = Redis::start();
    let a = Replica::start(&redis, "a").await;
    let session = a.client().initialize(None).await;
    let mut listening = a.client().get(&session, None).await;
    assert_eq!(listening.status(), 200);
    redis.stop();
    redis.resume();
    // Changes made meanwhile may have been missed: each list is announced (within the bus's
    // reconnection backoff, at most 2 s, plus a command timeout).
    let mut seen = std::collections::HashSet::new();
    let wanted = [
        "notifications/tools/list_changed",
        "notifications/prompts/list_changed",
        "notifications/resources/list_changed",
    ];
    tokio::time::timeout(
        Duration::from_secs(10),
        read_until(&mut listening, |event| {
            if let Some(method) = event["method"].as_str() {
                seen.insert(method.to_owned());
            }
            wanted.iter().all(|w| seen.contains(*w))
        }),
    )
    .await
    .expect("every list announced within 10 s of Redis coming back");
}
