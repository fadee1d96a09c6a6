//! `mcpwire-cli gateway` run as the examples are, with what the SDK gives any server, over real
//! HTTP between real processes:
//!
//! - **authorization** (`--auth-*`): a call without a token gets `401` with a challenge; with a
//!   token of the issuer it is served, and the backend (a server here that reports the
//!   `Authorization` header it receives) never sees the front's token;
//! - **a fleet** (`MCP_REDIS_URL`, `MCP_REQUEST_STATE_KEYS`): two gateway processes on one
//!   `redis-server` (a child on a unix socket, killed by its PID): a 2025-11-25 session opened on
//!   one is served by the other, and a 2026-07-28 `input_required` round begun on one finishes
//!   on the other;
//! - **the built-in layers** (`--rate-limit`, `--max-in-flight`, `--request-timeout`): a rate
//!   limit two replicas share in Redis (whose keys all expire), a busy gateway refusing one
//!   call too many, and a call stopped at its time limit, its backend's work cancelled;
//! - **OpenTelemetry** (`OTEL_EXPORTER_OTLP_ENDPOINT`): a call through the gateway to the
//!   conformance example (which trusts it: `MCP_OTEL_REMOTE_PARENT=true`) is one trace in an OTLP
//!   receiver here: the gateway's SERVER span, its CLIENT span under it, the backend's SERVER
//!   span under that.

mod common;
#[path = "../../mcpwire/tests/support/otel.rs"]
mod otel_support;
#[path = "../../mcpwire/tests/support/redis.rs"]
mod redis_support;

use base64::Engine;
use common::{HttpServer, cli, example_bin, free_port, run};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcpwire::client::{Client, EraChoice};
use mcpwire::prelude::*;
use otel_support::{CLIENT, Receiver, SERVER, Span, dump};
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};
use std::path::Path;
use std::process::Command;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

fn config(dir: &Path, servers: Value) -> std::path::PathBuf {
    let path = dir.join("gateway.json");
    std::fs::write(&path, json!({ "mcpServers": servers }).to_string()).unwrap();
    path
}

/// The gateway on `--http 127.0.0.1:PORT` (0: any) with `config`, `args` and `env` added.
fn gateway(config: &Path, port: u16, args: &[&str], env: &[(&str, &str)]) -> HttpServer {
    let mut command = cli();
    command.args(["gateway", "--config"]).arg(config);
    command.args(["--http", &format!("127.0.0.1:{port}")]);
    command.args(args).env_remove("OTEL_SERVICE_NAME");
    for (name, value) in env {
        command.env(name, value);
    }
    HttpServer::start(command)
}

/// One HTTP answer: status, `WWW-Authenticate`, `Mcp-Session-Id`, the JSON-RPC message.
struct Answer {
    status: u16,
    challenge: Option<String>,
    session: Option<String>,
    body: Value,
}

/// POSTs `body` with `headers` (and the content type, `Accept`, the bearer `token`).
async fn post(url: &str, token: Option<&str>, headers: &[(&str, &str)], body: Value) -> Answer {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request
        .body(body.to_string())
        .send()
        .await
        .expect("an answer");
    let status = response.status().as_u16();
    let header = |name: &str| {
        (response.headers().get(name))
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (challenge, session) = (header("www-authenticate"), header("mcp-session-id"));
    let text = response.text().await.unwrap_or_default();
    let message = (text.lines())
        .filter_map(|line| line.strip_prefix("data: "))
        .find(|data| data.contains("\"id\""))
        .unwrap_or(&text);
    let body = serde_json::from_str(message).unwrap_or(Value::Null);
    Answer {
        status,
        challenge,
        session,
        body,
    }
}

/// A 2026-07-28 `tools/call` of `tool`, with `extra` params (`inputResponses`, `requestState`).
async fn call_modern(url: &str, token: Option<&str>, tool: &str, extra: Value) -> Answer {
    let mut params = json!({"name": tool, "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN,
                  "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
                  "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}});
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let headers = [
        ("mcp-protocol-version", MODERN),
        ("mcp-method", "tools/call"),
        ("mcp-name", tool),
    ];
    post(url, token, &headers, body).await
}

fn text(answer: &Answer) -> &str {
    answer.body["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{} {}", answer.status, answer.body))
}

// --- Authorization -------------------------------------------------------------------------

/// Says which `Authorization` header the request came with.
#[tool]
async fn seen_authorization(ctx: Context) -> String {
    let header = ctx.headers().and_then(|h| h.get("authorization"));
    header.map_or("none".to_owned(), |v| v.to_str().unwrap_or("?").to_owned())
}

/// Serves the header reporter over HTTP on a free port; its URL.
async fn header_reporter() -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = McpServer::new("reporter").tool(seen_authorization).unwrap();
    tokio::spawn(
        server
            .http()
            .serve_listener(listener, std::future::pending()),
    );
    url
}

fn now() -> u64 {
    (SystemTime::now().duration_since(UNIX_EPOCH).unwrap()).as_secs()
}

/// An ES256 key: its JWKS written to `jwks`, and the key to sign with.
fn signing_key(jwks: &Path) -> EncodingKey {
    let secret = loop {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).unwrap();
        if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
            break secret;
        }
    };
    let mut jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string()).unwrap();
    jwk["kid"] = json!("k1");
    jwk["alg"] = json!("ES256");
    std::fs::write(jwks, json!({"keys": [jwk]}).to_string()).unwrap();
    EncodingKey::from_ec_der(secret.to_pkcs8_der().unwrap().as_bytes())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_front_takes_tokens_and_the_backend_never_sees_them() {
    let dir = tempfile::tempdir().unwrap();
    let jwks = dir.path().join("jwks.json");
    let key = signing_key(&jwks);
    let reporter = header_reporter().await;
    let file = config(dir.path(), json!({"reporter": {"url": reporter}}));
    let port = free_port();
    let audience = format!("http://127.0.0.1:{port}/mcp");
    let issuer = "https://auth.example.com";
    let jwks_arg = jwks.display().to_string();
    let auth = [
        "--auth-issuer",
        issuer,
        "--auth-audience",
        &audience,
        "--auth-jwks",
        &jwks_arg,
    ];
    let front = gateway(&file, port, &auth, &[]);
    let tool = "reporter_seen_authorization";

    let refused = call_modern(&front.url, None, tool, json!({})).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
    let challenge = refused.challenge.expect("a WWW-Authenticate challenge");
    assert!(
        challenge.starts_with("Bearer") && challenge.contains("resource_metadata="),
        "{challenge}"
    );

    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("k1".into());
    let claims = json!({"iss": issuer, "aud": audience, "sub": "alice",
                        "iat": now(), "exp": now() + 300});
    let token = encode(&header, &claims, &key).unwrap();
    let served = call_modern(&front.url, Some(&token), tool, json!({})).await;
    assert_eq!(served.status, 200, "{}", served.body);
    assert_eq!(
        text(&served),
        "none",
        "the front's token went to the backend"
    );

    // A token for another audience is refused too.
    let claims = json!({"iss": issuer, "aud": "http://elsewhere/mcp", "sub": "alice",
                        "iat": now(), "exp": now() + 300});
    let elsewhere = encode(&header, &claims, &key).unwrap();
    let refused = call_modern(&front.url, Some(&elsewhere), tool, json!({})).await;
    assert_eq!(refused.status, 401, "{}", refused.body);
}

#[test]
fn auth_options_need_http_and_each_other() {
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), json!({"a": {"url": "http://127.0.0.1:1/mcp"}}));
    let path = file.display().to_string();
    let auth = [
        "--auth-issuer",
        "https://a",
        "--auth-audience",
        "http://127.0.0.1:1/mcp",
        "--auth-jwks",
        "jwks.json",
    ];
    let mut args = vec!["gateway", "--config", &path];
    args.extend(auth);
    let out = run(&args);
    assert_eq!(out.code(), 2, "{}", out.stderr);
    assert!(out.stderr.contains("--http <ADDR>"), "{}", out.stderr);
    let out = run(&[
        "gateway",
        "--config",
        &path,
        "--http",
        "127.0.0.1:0",
        "--auth-issuer",
        "https://a",
    ]);
    assert_eq!(out.code(), 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("--auth-audience <URL>"),
        "{}",
        out.stderr
    );
}

// --- A fleet -------------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_share_sessions_and_rounds_through_redis() {
    let redis = redis_support::Redis::start();
    let backend = HttpServer::example("conformance");
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), json!({"conf": {"url": backend.url}}));
    let mut secret = [0u8; 32];
    getrandom::fill(&mut secret).unwrap();
    let keys = base64::engine::general_purpose::STANDARD.encode(secret);
    let redis_url = redis.url();
    let replica = |id: &str| {
        let env = [
            ("MCP_REDIS_URL", redis_url.as_str()),
            ("MCP_REPLICA_ID", id),
            ("MCP_REQUEST_STATE_KEYS", keys.as_str()),
        ];
        let hosts = [
            "--allowed-host",
            "mcp.example.com",
            "--allowed-host",
            "127.0.0.1",
        ];
        gateway(&file, 0, &hosts, &env)
    };
    let (one, two) = (replica("one"), replica("two"));
    assert!(
        one.stderr()
            .contains("replica one sharing sessions in Redis at ")
            && one.stderr().contains(" under mcp:mcpwire-gateway:"),
        "{}",
        one.stderr()
    );

    // 2025-11-25: a session opened on one, served on two (by the public name a balancer
    // passes on as Host; another name is refused).
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": LEGACY, "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let elsewhere = post(
        &one.url,
        None,
        &[("host", "evil.example")],
        initialize.clone(),
    )
    .await;
    assert_eq!(elsewhere.status, 403, "{}", elsewhere.body);
    let public = [("host", "mcp.example.com")];
    let opened = post(&one.url, None, &public, initialize).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened.session.expect("a session id");
    let on_session = [
        ("host", "mcp.example.com"),
        ("mcp-protocol-version", LEGACY),
        ("mcp-session-id", session.as_str()),
    ];
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let noted = post(&two.url, None, &on_session, initialized).await;
    assert_eq!(noted.status, 202, "{}", noted.body);
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                      "params": {"name": "conf_test_simple_text", "arguments": {}}});
    let served = post(&two.url, None, &on_session, call).await;
    assert_eq!(served.status, 200, "{}", served.body);
    assert_eq!(text(&served), "This is a simple text response for testing.");

    // 2026-07-28: a round begun on one, finished on two.
    let tool = "conf_test_input_required_result_elicitation";
    let first = call_modern(&one.url, None, tool, json!({})).await;
    let result = &first.body["result"];
    assert_eq!(result["resultType"], "input_required", "{}", first.body);
    let asked = result["inputRequests"].as_object().expect("questions");
    let answers: serde_json::Map<String, Value> = (asked.keys())
        .map(|k| {
            (
                k.clone(),
                json!({"action": "accept", "content": {"name": "Ada"}}),
            )
        })
        .collect();
    let retry = json!({"inputResponses": answers, "requestState": result["requestState"]});
    let finished = call_modern(&two.url, None, tool, retry).await;
    assert_eq!(finished.status, 200, "{}", finished.body);
    assert_eq!(text(&finished), "Hello, Ada!", "{}", finished.body);
}

// --- The built-in layers -------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replicas_share_one_rate_limit_in_redis() {
    let redis = redis_support::Redis::start();
    let reporter = header_reporter().await;
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), json!({"reporter": {"url": reporter}}));
    let redis_url = redis.url();
    let replica = |id: &str| {
        let env = [
            ("MCP_REDIS_URL", redis_url.as_str()),
            ("MCP_REPLICA_ID", id),
        ];
        gateway(&file, 0, &["--rate-limit", "3/min"], &env)
    };
    let (one, two) = (replica("one"), replica("two"));
    let tool = "reporter_seen_authorization";
    for url in [&one.url, &two.url, &one.url] {
        let served = call_modern(url, None, tool, json!({})).await;
        assert_eq!(text(&served), "none", "{}", served.body);
    }
    // The fourth call in the minute, on either replica, is one too many.
    let refused = call_modern(&two.url, None, tool, json!({})).await;
    let error = &refused.body["error"];
    assert_eq!(error["code"], -32000, "{}", refused.body);
    assert!(
        (error["message"].as_str().unwrap_or("")).starts_with("Rate limit exceeded"),
        "{}",
        refused.body
    );
    assert!(
        error["data"]["retryAfterMs"].as_u64() > Some(0),
        "{}",
        refused.body
    );

    // What Redis kept: the buckets, every key with an expiry.
    let mut probe = redis_support::Probe::new(&redis).await;
    let keys = probe.keys("mcp:mcpwire-gateway:rate:gateway*").await;
    assert!(!keys.is_empty(), "no shared bucket in Redis");
    probe.all_expire("mcp:mcpwire-gateway:").await;
}

/// Set when `slow` starts, and when its work is dropped (cancelled).
static SLOW_STARTED: tokio::sync::Notify = tokio::sync::Notify::const_new();
static SLOW_DROPPED: tokio::sync::Notify = tokio::sync::Notify::const_new();

/// Runs until cancelled (a minute at most).
#[tool]
async fn slow() -> String {
    struct Dropped;
    impl Drop for Dropped {
        fn drop(&mut self) {
            SLOW_DROPPED.notify_one();
        }
    }
    let _dropped = Dropped;
    SLOW_STARTED.notify_one();
    tokio::time::sleep(Duration::from_secs(60)).await;
    "finished".into()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_busy_gateway_refuses_and_a_slow_call_is_stopped() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let backend = format!("http://{}/mcp", listener.local_addr().unwrap());
    let server = (McpServer::new("slowpoke").tool(slow).unwrap())
        .tool(seen_authorization)
        .unwrap();
    tokio::spawn(
        server
            .http()
            .serve_listener(listener, std::future::pending()),
    );
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), json!({"b": {"url": backend}}));
    let args = [
        "--max-in-flight",
        "1",
        "--request-timeout",
        "1s",
        "--log-requests",
    ];
    let front = gateway(&file, 0, &args, &[]);

    let url = front.url.clone();
    let stopped = tokio::spawn(async move { call_modern(&url, None, "b_slow", json!({})).await });
    tokio::time::timeout(Duration::from_secs(20), SLOW_STARTED.notified())
        .await
        .expect("the slow call reached the backend");
    // One call in flight already: another is refused at once.
    let busy = call_modern(&front.url, None, "b_seen_authorization", json!({})).await;
    assert_eq!(busy.body["error"]["code"], -32000, "{}", busy.body);
    assert!(
        (busy.body["error"]["message"].as_str().unwrap_or("")).contains("busy"),
        "{}",
        busy.body
    );
    // The slow one is stopped at its time limit, and the backend's work with it.
    let stopped = tokio::time::timeout(Duration::from_secs(20), stopped)
        .await
        .expect("the slow call was answered")
        .unwrap();
    assert_eq!(stopped.body["error"]["code"], -32001, "{}", stopped.body);
    tokio::time::timeout(Duration::from_secs(20), SLOW_DROPPED.notified())
        .await
        .expect("the backend's work was cancelled");
    // Its place is free again.
    let served = call_modern(&front.url, None, "b_seen_authorization", json!({})).await;
    assert_eq!(text(&served), "none", "{}", served.body);
    // --log-requests: a line per request, the stopped one with its code.
    let log = front.stderr();
    let lines = |has: &str| {
        log.lines()
            .filter(|l| l.contains("mcpwire::request") && l.contains(has))
            .count()
    };
    assert_eq!(lines("target=\"b_slow\""), 1, "{log}");
    assert!(
        lines("code=-32001") == 1 && lines("code=-32000") == 1,
        "{log}"
    );
}

#[test]
fn limit_options_are_checked_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), json!({"a": {"url": "http://127.0.0.1:1/mcp"}}));
    let path = file.display().to_string();
    let refused = |flags: &[&str], says: &str| {
        let mut args = vec!["gateway", "--config", &path];
        args.extend(flags);
        let out = run(&args);
        assert_eq!(out.code(), 2, "{flags:?}: {}", out.stderr);
        assert!(out.stderr.contains(says), "{flags:?}: {}", out.stderr);
    };
    refused(&["--rate-limit", "600"], "is not N/PERIOD");
    refused(&["--rate-limit", "0/min"], "more than zero");
    refused(&["--request-timeout", "soon"], "--request-timeout");
    refused(&["--rate-burst", "5"], "--rate-limit <N/PERIOD>");
}

// --- OpenTelemetry -------------------------------------------------------------------------

fn otel_env(receiver: &Receiver) -> [(&'static str, String); 2] {
    [
        ("OTEL_EXPORTER_OTLP_ENDPOINT", receiver.url.clone()),
        ("OTEL_BSP_SCHEDULE_DELAY", "50".to_owned()),
    ]
}

fn find<'a>(spans: &'a [Span], kind: i32, name: &str, service: &str) -> Option<&'a Span> {
    spans
        .iter()
        .find(|s| s.kind == kind && s.name == name && s.service == service)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_through_the_gateway_is_one_trace_down_to_the_backend() {
    let receiver = Receiver::start().await;
    let mut command = Command::new(example_bin("conformance"));
    command.args(["--http", "127.0.0.1:0"]);
    command.env("MCP_OTEL_REMOTE_PARENT", "true");
    command.env_remove("OTEL_SERVICE_NAME");
    for (name, value) in otel_env(&receiver) {
        command.env(name, value);
    }
    let backend = HttpServer::start(command);
    let dir = tempfile::tempdir().unwrap();
    let file = config(dir.path(), json!({"conf": {"url": backend.url}}));
    let env = otel_env(&receiver);
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let front = gateway(&file, 0, &["--name", "traced-gateway"], &env);

    let client = Client::builder()
        .era(EraChoice::Modern)
        .connect_http(&front.url)
        .await
        .unwrap();
    let result = client
        .call_tool("conf_test_simple_text", json!({}))
        .await
        .unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    client.close().await;

    let gateway_service = "traced-gateway";
    let spans = receiver
        .wait_for_spans(Duration::from_secs(30), "the three spans", |spans| {
            let front = find(
                spans,
                SERVER,
                "tools/call conf_test_simple_text",
                gateway_service,
            );
            let sent = find(
                spans,
                CLIENT,
                "tools/call test_simple_text",
                gateway_service,
            );
            let served = spans.iter().any(|s| {
                s.kind == SERVER
                    && s.name == "tools/call test_simple_text"
                    && s.service != gateway_service
            });
            front.is_some() && sent.is_some() && served
        })
        .await;
    let front = find(
        &spans,
        SERVER,
        "tools/call conf_test_simple_text",
        gateway_service,
    )
    .unwrap();
    let trace: Vec<&Span> = spans
        .iter()
        .filter(|s| s.trace_id == front.trace_id)
        .collect();
    let sent = (trace.iter())
        .find(|s| s.kind == CLIENT && s.name == "tools/call test_simple_text")
        .unwrap_or_else(|| panic!("no CLIENT span in the front's trace:\n{}", dump(&spans)));
    assert_eq!(sent.service, gateway_service);
    assert_eq!(sent.parent_span_id, front.span_id, "{}", dump(&spans));
    let served = (trace.iter())
        .find(|s| s.kind == SERVER && s.service != gateway_service)
        .unwrap_or_else(|| panic!("the backend's span is not in the trace:\n{}", dump(&spans)));
    assert_eq!(served.name, "tools/call test_simple_text");
    assert_eq!(served.parent_span_id, sent.span_id, "{}", dump(&spans));
    assert!(
        front.parent_span_id.is_empty(),
        "the front client sent no context"
    );
}
