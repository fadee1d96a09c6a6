//! Two replicas of one fleet sharing a real Redis, raw HTTP to each, and what Redis itself saw
//! (`CLIENT LIST`, `INFO commandstats`, `PTTL` over a `SCAN` of the prefix): the harness of the
//! tests of resumed streams and of the fleet's keys. Each replica runs on a runtime of its own;
//! Redis is a child of the test on a unix socket (`support::redis`).

#![allow(dead_code)]

use super::http::{LEGACY, authenticate, legacy_call};
use super::redis::Redis;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use mcpwire::transport::HttpServer;
use mcpwire::transport::http::RedisFleet;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// The key prefix of the test fleet.
pub const PREFIX: &str = "mcp:fleet-streams:";

/// What the replicas' tools let a test observe.
#[derive(Default)]
pub struct Observed {
    /// Calls stopped before they finished (cancelled).
    pub stopped: AtomicUsize,
}

/// Counts a call dropped before it finished.
struct Unfinished(Arc<Observed>);

impl Drop for Unfinished {
    fn drop(&mut self) {
        self.0.stopped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Reports progress `steps` times, `every_ms` apart, then answers.
#[tool]
async fn pulse(ctx: Context, steps: u32, every_ms: u64) -> String {
    let unfinished = Unfinished(ctx.state::<Arc<Observed>>().clone());
    for step in 1..=steps {
        tokio::time::sleep(Duration::from_millis(every_ms)).await;
        ctx.report_progress(f64::from(step), None, None).await;
    }
    std::mem::forget(unfinished);
    "done".into()
}

/// Reports progress once, then sends nothing for `seconds` (an idle stream), then answers.
#[tool]
async fn hold(ctx: Context, seconds: u64) -> String {
    let unfinished = Unfinished(ctx.state::<Arc<Observed>>().clone());
    ctx.report_progress(1.0, None, None).await;
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    std::mem::forget(unfinished);
    "held".into()
}

fn keys() -> KeyRing {
    KeyRing::new([[7u8; 32]]).unwrap()
}

/// One replica: a server on 127.0.0.1 on a runtime of its own.
pub struct Replica {
    pub url: String,
    runtime: Option<tokio::runtime::Runtime>,
    pub observed: Arc<Observed>,
}

impl Replica {
    pub async fn start(redis: &Redis, id: &str) -> Self {
        Self::start_with(redis, id, |http| http).await
    }

    pub async fn start_with(
        redis: &Redis,
        id: &str,
        configure: impl FnOnce(HttpServer) -> HttpServer + Send + 'static,
    ) -> Self {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .unwrap();
        let observed = Arc::new(Observed::default());
        let (url_sender, url) = tokio::sync::oneshot::channel::<String>();
        let (redis_url, id, state) = (redis.url(), id.to_owned(), observed.clone());
        runtime.spawn(async move {
            let fleet = RedisFleet::connect(&redis_url, PREFIX)
                .await
                .expect("the test's Redis answers")
                .with_replica_id(id);
            let server = McpServer::new("fleet-streams")
                .request_state_keys(keys())
                .state(state)
                .tool(pulse)
                .and_then(|s| s.tool(hold))
                .unwrap();
            let router = configure(server.http().fleet(&fleet).allow_any_host())
                .into_router()
                .await
                .unwrap();
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let url = format!("http://{}/mcp", listener.local_addr().unwrap());
            let _ = url_sender.send(url);
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
            observed,
        }
    }

    /// This replica as a client sees it.
    pub fn client(&self) -> Client {
        Client {
            url: self.url.clone(),
            http: reqwest::Client::new(),
        }
    }
}

impl Drop for Replica {
    fn drop(&mut self) {
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

/// Raw HTTP to one replica.
pub struct Client {
    pub url: String,
    http: reqwest::Client,
}

impl Client {
    pub async fn post(&self, session: Option<&str>, body: &Value) -> reqwest::Response {
        let mut request = self
            .http
            .post(&self.url)
            .header("content-type", "application/json")
            .header("accept", "application/json, text/event-stream")
            .header("mcp-protocol-version", LEGACY)
            .timeout(Duration::from_secs(60))
            .json(body);
        if let Some(session) = session {
            request = request.header("mcp-session-id", session);
        }
        request.send().await.expect("the replica answers")
    }

    pub async fn initialize(&self) -> String {
        let body = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
            "protocolVersion": LEGACY,
            "capabilities": {},
            "clientInfo": {"name": "fleet-streams", "version": "1"}}});
        let response = self.post(None, &body).await;
        assert_eq!(response.status(), 200);
        let session = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let initialized = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
        assert_eq!(self.post(Some(&session), &initialized).await.status(), 202);
        session
    }

    /// Calls `name` and reads its stream up to the first progress notification: the stream
    /// runs on this replica, and the returned event id resumes it.
    pub async fn start_stream(
        &self,
        session: &str,
        id: u64,
        name: &str,
        arguments: Value,
    ) -> String {
        let mut body = legacy_call(id, name, arguments);
        body["params"]["_meta"] = json!({"progressToken": format!("p{id}")});
        let mut stream = self.post(Some(session), &body).await;
        assert_eq!(stream.status(), 200);
        let seen = read_until(&mut stream, |event| {
            event["method"] == "notifications/progress"
        })
        .await;
        let (last, _) = seen.last().expect("a progress notification");
        assert!(!last.is_empty(), "events carry ids");
        last.clone()
    }

    /// `GET` with `Last-Event-ID`: resumes a stream.
    pub async fn resume(&self, session: &str, last_event_id: &str) -> reqwest::Response {
        let response = self
            .http
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-protocol-version", LEGACY)
            .header("mcp-session-id", session)
            .header("last-event-id", last_event_id)
            .timeout(Duration::from_secs(120))
            .send()
            .await
            .expect("the replica answers");
        assert_eq!(response.status(), 200);
        response
    }

    pub async fn delete(&self, session: &str) -> u16 {
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

pub use super::http::read_until;

/// Whether the stream ends (the server closes it) within 20 s, whatever it carries until then.
pub async fn ends(response: &mut reqwest::Response) -> bool {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    loop {
        match tokio::time::timeout_at(deadline, response.chunk()).await {
            Err(_) => return false,
            Ok(Ok(Some(_))) => continue,
            Ok(Ok(None) | Err(_)) => return true,
        }
    }
}

/// Whether the event is a progress notification.
pub fn is_progress(event: &Value) -> bool {
    event["method"] == "notifications/progress"
}

/// Whether the event is the response to request `id`.
pub fn is_response(id: u64) -> impl FnMut(&Value) -> bool {
    move |event| {
        event["id"] == id && (event.get("result").is_some() || event.get("error").is_some())
    }
}

/// A bound on a wait: [`Deadline::pause`] sleeps 50 ms, and fails the test once it passed.
pub struct Deadline {
    at: tokio::time::Instant,
    what: String,
}

impl Deadline {
    /// `seconds` from now, waiting until `what`.
    pub fn after(seconds: u64, what: impl Into<String>) -> Self {
        Self {
            at: tokio::time::Instant::now() + Duration::from_secs(seconds),
            what: what.into(),
        }
    }

    /// Sleeps before the next poll; fails when the deadline passed.
    pub async fn pause(&self) {
        assert!(
            tokio::time::Instant::now() < self.at,
            "timed out waiting until {}",
            self.what
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
