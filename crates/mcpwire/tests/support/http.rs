//! Helpers for the HTTP tests: a server on an ephemeral port, and requests of both revisions.

#![allow(dead_code)]

use mcpwire::McpServer;
use mcpwire::transport::HttpServer;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub const MODERN: &str = "2026-07-28";
pub const LEGACY: &str = "2025-11-25";

/// What a handler that never answers lets a test observe: that it started, and that its
/// future was dropped (cancelled or aborted).
#[derive(Default)]
pub struct Hang {
    pub started: AtomicBool,
    pub dropped: AtomicBool,
}

/// Sets [`Hang::dropped`] when the handler holding it is dropped.
pub struct SetOnDrop(pub Arc<Hang>);

impl Drop for SetOnDrop {
    fn drop(&mut self) {
        self.0.dropped.store(true, Ordering::SeqCst);
    }
}

/// A server running on 127.0.0.1 (ephemeral port) until dropped or shut down.
pub struct Running {
    pub url: String,
    pub client: reqwest::Client,
    stop: Option<oneshot::Sender<()>>,
    task: Option<JoinHandle<mcpwire::Result<()>>>,
}

impl Running {
    /// Asks for a graceful shutdown and waits for `serve` to return.
    pub async fn shut_down(mut self) -> mcpwire::Result<()> {
        let _ = self.stop.take().unwrap().send(());
        let task = self.task.take().unwrap();
        tokio::time::timeout(Duration::from_secs(10), task)
            .await
            .expect("the server stopped within 10 s")
            .expect("the server task did not panic")
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if let Some(task) = &self.task {
            task.abort();
        }
    }
}

/// Serves `router` (with peer addresses known to it) until dropped or shut down.
pub async fn start_router(router: axum::Router) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    let app = router.into_make_service_with_connect_info::<std::net::SocketAddr>();
    let task = tokio::spawn(async move {
        axum::serve(listener, app)
            .with_graceful_shutdown(async {
                let _ = stopped.await;
            })
            .await
            .map_err(Into::into)
    });
    Running {
        url,
        client: reqwest::Client::new(),
        stop: Some(stop),
        task: Some(task),
    }
}

/// Serves `server` behind a middleware that takes the caller's principal from the `x-user`
/// header (a stand-in for real authentication).
pub async fn start_authenticated(server: HttpServer) -> Running {
    let router = server.into_router().await.unwrap();
    start_router(router.layer(axum::middleware::from_fn(authenticate))).await
}

/// The test's authentication: `x-user: NAME` is the principal `NAME`.
pub async fn authenticate(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if let Some(user) = request
        .headers()
        .get("x-user")
        .and_then(|v| v.to_str().ok())
    {
        let principal = mcpwire::context::Principal(user.to_owned());
        request.extensions_mut().insert(principal);
    }
    next.run(request).await
}

/// Serves `server` with default settings.
pub async fn start(server: McpServer) -> Running {
    start_http(server.http()).await
}

/// Serves an already configured `HttpServer` (its path must be `/mcp`).
pub async fn start_http(server: HttpServer) -> Running {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(server.serve_listener(listener, async {
        let _ = stopped.await;
    }));
    Running {
        url,
        client: reqwest::Client::new(),
        stop: Some(stop),
        task: Some(task),
    }
}

/// `_meta` of a 2026-07-28 request declaring no client capabilities.
pub fn meta() -> Value {
    json!({
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    })
}

/// A 2026-07-28 request body.
pub fn modern_body(id: u64, method: &str, mut params: Value) -> Value {
    if params.get("_meta").is_none() {
        params["_meta"] = meta();
    }
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":params})
}

/// The headers a correct 2026-07-28 client sends for `body`.
pub fn modern_headers(body: &Value) -> HeaderMap {
    let mut headers = HeaderMap::new();
    let version = body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"]
        .as_str()
        .unwrap_or(MODERN);
    headers.insert(
        "mcp-protocol-version",
        HeaderValue::from_str(version).unwrap(),
    );
    let method = body["method"].as_str().unwrap();
    headers.insert("mcp-method", HeaderValue::from_str(method).unwrap());
    let name = match method {
        "tools/call" | "prompts/get" => body["params"]["name"].as_str(),
        "resources/read" => body["params"]["uri"].as_str(),
        "tasks/get" | "tasks/update" | "tasks/cancel" => body["params"]["taskId"].as_str(),
        _ => None,
    };
    if let Some(name) = name {
        headers.insert("mcp-name", HeaderValue::from_str(name).unwrap());
    }
    headers
}

impl Running {
    /// The same server, reached from the local address `ip` (any of 127.0.0.0/8 on Linux).
    pub fn reached_from(&self, ip: [u8; 4]) -> Running {
        let client = reqwest::Client::builder()
            .local_address(std::net::IpAddr::from(ip))
            .build()
            .unwrap();
        Running {
            url: self.url.clone(),
            client,
            stop: None,
            task: None,
        }
    }

    /// POSTs `body` with the given headers (plus `Accept` and `Content-Type`).
    pub async fn post_with(&self, body: &Value, headers: HeaderMap) -> reqwest::Response {
        self.client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json")
            .headers(headers)
            .body(body.to_string())
            .send()
            .await
            .expect("the server answered")
    }

    /// POSTs a 2026-07-28 request with correct headers.
    pub async fn modern(&self, body: &Value) -> reqwest::Response {
        self.post_with(body, modern_headers(body)).await
    }

    /// POSTs a raw body with the given extra headers.
    pub async fn post_raw(
        &self,
        body: impl Into<reqwest::Body>,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = self
            .client
            .post(&self.url)
            .header("accept", "application/json, text/event-stream")
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(HeaderName::from_bytes(name.as_bytes()).unwrap(), *value);
        }
        request
            .body(body)
            .send()
            .await
            .expect("the server answered")
    }

    /// Opens a 2025-11-25 session; returns its id.
    pub async fn initialize(&self) -> String {
        self.initialize_with(&[]).await
    }

    /// Opens a 2025-11-25 session, sending `headers` with every message; returns its id.
    pub async fn initialize_with(&self, headers: &[(&str, &str)]) -> String {
        let response = self.post_raw(initialize_body().to_string(), headers).await;
        assert_eq!(response.status(), 200);
        let id = response.headers()["mcp-session-id"]
            .to_str()
            .unwrap()
            .to_owned();
        let initialized = json!({"jsonrpc":"2.0","method":"notifications/initialized"});
        let accepted = self.legacy_with(&id, &initialized, headers).await;
        assert_eq!(accepted.status(), 202);
        id
    }

    /// POSTs a message of the session `session`.
    pub async fn legacy(&self, session: &str, body: &Value) -> reqwest::Response {
        self.legacy_with(session, body, &[]).await
    }

    /// POSTs a message of the session `session` with extra `headers`.
    pub async fn legacy_with(
        &self,
        session: &str,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut all = vec![
            ("mcp-session-id", session),
            ("mcp-protocol-version", LEGACY),
        ];
        all.extend_from_slice(headers);
        self.post_raw(body.to_string(), &all).await
    }

    /// Opens the GET stream of the session `session`, with extra `headers`.
    pub async fn get_stream(&self, session: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self
            .client
            .get(&self.url)
            .header("accept", "text/event-stream")
            .header("mcp-session-id", session)
            .header("mcp-protocol-version", LEGACY);
        for (name, value) in headers {
            request = request.header(HeaderName::from_bytes(name.as_bytes()).unwrap(), *value);
        }
        request.send().await.expect("the server answered")
    }
}

/// A 2025-11-25 `initialize` request.
pub fn initialize_body() -> Value {
    json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":LEGACY,"capabilities":{"roots":{}},
        "clientInfo":{"name":"test","version":"1"}}})
}

/// A 2025-11-25 `tools/call` request.
pub fn legacy_call(id: u64, name: &str, arguments: Value) -> Value {
    json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":name,"arguments":arguments}})
}

/// A response's status and its JSON-RPC message: the body when it is JSON, or the one message
/// of an event stream; `Value::Null` when it is neither.
pub async fn status_and_message(response: reqwest::Response) -> (u16, Value) {
    let status = response.status().as_u16();
    let text = response.text().await.unwrap();
    let json = text
        .lines()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap_or(&text);
    (status, serde_json::from_str(json).unwrap_or(Value::Null))
}

/// The body as JSON.
pub async fn json_of(response: reqwest::Response) -> Value {
    let text = response.text().await.unwrap();
    serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text:?}"))
}

/// The `data:` payloads of a complete SSE body, parsed.
pub async fn events_of(response: reqwest::Response) -> Vec<Value> {
    let text = response.text().await.unwrap();
    parse_events(&text)
}

/// The `data:` payloads in `text`.
pub fn parse_events(text: &str) -> Vec<Value> {
    let complete = text.rfind("\n\n").map_or("", |end| &text[..end]);
    complete
        .split("\n\n")
        .filter_map(|event| {
            let data: Vec<&str> = event
                .lines()
                .filter_map(|line| line.strip_prefix("data:"))
                .map(str::trim_start)
                .collect();
            let data = data.join("\n");
            // Priming events (an id and empty data) carry no message.
            (!data.is_empty()).then(|| serde_json::from_str(&data).unwrap())
        })
        .collect()
}

/// Reads SSE chunks from `response` until one event has arrived; returns it and the response.
pub async fn first_event(response: &mut reqwest::Response) -> Value {
    let mut text = String::new();
    loop {
        let chunk = tokio::time::timeout(Duration::from_secs(10), response.chunk())
            .await
            .expect("an event within 10 s")
            .unwrap()
            .expect("the stream is still open");
        text.push_str(std::str::from_utf8(&chunk).unwrap());
        if let Some(event) = parse_events(&text).into_iter().next() {
            return event;
        }
    }
}

/// Waits until `condition` holds (polling), failing after 10 s.
pub async fn eventually(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "timed out waiting until {what}"
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// The content type of a response.
pub fn content_type(response: &reqwest::Response) -> String {
    response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned()
}

/// SSE events as `(id, data)` until `until` accepts one (or the stream ends); each read waits
/// at most 20 s.
pub async fn read_until(
    response: &mut reqwest::Response,
    mut until: impl FnMut(&Value) -> bool,
) -> Vec<(String, Value)> {
    let mut text = String::new();
    let mut events = Vec::new();
    loop {
        while let Some(end) = text.find("\n\n") {
            let block: String = text.drain(..end + 2).collect();
            let id = block
                .lines()
                .find_map(|l| l.strip_prefix("id: "))
                .unwrap_or_default()
                .to_owned();
            let data: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("data: "))
                .collect();
            let Ok(value) = serde_json::from_str::<Value>(&data) else {
                continue;
            };
            let done = until(&value);
            events.push((id, value));
            if done {
                return events;
            }
        }
        let chunk = tokio::time::timeout(Duration::from_secs(20), response.chunk())
            .await
            .expect("an event within 20 s")
            .expect("the stream reads");
        match chunk {
            Some(chunk) => text.push_str(std::str::from_utf8(&chunk).unwrap()),
            None => return events,
        }
    }
}
