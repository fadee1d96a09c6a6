//! `mcp-load`: a loopback load generator for MCP Streamable HTTP servers (ours and the peers), used by
//! `scripts/load-bench`. Results are recorded in `docs/benchmarks.md`.
//!
//! - `run`: N keep-alive HTTP/1.1 connections, each sending one `tools/call` at a time (a closed
//!   loop) for a fixed time after a warm-up; prints one JSON line with calls/s and p50/p99
//!   latency. Every answer is checked: HTTP 200, a JSON-RPC response (plain JSON or the one
//!   carried by an SSE stream) with the request's id, no `error`, no `isError`, and the expected
//!   text. Any failed check makes the exit status 1. `--server-pid` reports that process's CPU
//!   time per call over the measured window; `--backend-pid` also a second process's, apart
//!   (the backend behind a gateway or proxy: `scripts/gateway-bench`).
//!   - `--era modern`: stateless 2026-07-28 requests (`_meta` with the protocol version and client
//!     capabilities, and the mirrored `MCP-Protocol-Version`, `Mcp-Method`, `Mcp-Name` headers).
//!   - `--meta client`: each 2026-07-28 request's `_meta` carries what an SDK client sends with
//!     every request (form elicitation, sampling and roots declared, and its `clientInfo`),
//!     where the default (`--meta bare`) declares no capability (`{}`) and no `clientInfo`.
//!   - `--era legacy`: each connection opens its own 2025-11-25 session (`initialize`,
//!     `notifications/initialized`), then sends `Mcp-Session-Id` with every call.
//!   - `--tool confirm_order`: the call whose resolver asks one question. On 2026-07-28, two
//!     rounds: the first must answer `input_required` with its questions; the second accepts
//!     each (`{"confirm": true}`), echoes `requestState` when there is one, and must answer
//!     `Ordered 'Dune'.`. On 2025-11-25, one call: its stream must carry `elicitation/create`,
//!     accepted by a POST on a second connection, then the result. One call is the whole
//!     exchange.
//! - `stdio`: starts the server command itself and keeps N calls in flight on its stdin/stdout
//!   (ids matched to answers), with the same checks and report (`connections` is the number in
//!   flight); on 2025-11-25 after `initialize`, on 2026-07-28 each request carries `_meta`.
//! - `wait`: polls until the server answers one modern `tools/call` (or the timeout passes).
//! - `first-call`: starts the server command itself and measures the time from spawning it to the
//!   first answered `tools/call` (and the CPU time the server used until then), then its
//!   resident memory after an idle second; kills it.
//!
//! Bounded: loopback addresses only, at most 300 s per run, 1024 connections and `--max-calls`
//! calls (default 5,000,000); it stops by itself.
//!
//! It runs on one thread (a current-thread runtime), so `taskset -c 1` gives it exactly one core.
//!
//! Build: `cargo build --release --bin mcp-load` (then `target/release/mcp-load`).

use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::client::conn::http1::{self, SendRequest};
use hyper::header::{self, HeaderName, HeaderValue};
use hyper_util::rt::TokioIo;
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Value, json};
use std::borrow::Cow;
use std::net::{IpAddr, SocketAddr};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpStream;

mod confirm;
mod legacy_question;
mod stdio;

const USAGE: &str = "\
usage:
  mcp-load run --url http://127.0.0.1:PORT/mcp [--era modern|legacy]
           [--tool add|order_book|confirm_order] [--meta bare|client] [--connections N]
           [--duration SECS] [--warmup SECS] [--max-calls N] [--server-pid PID]
           [--backend-pid PID] [--bearer TOKEN]
  mcp-load stdio [--era modern|legacy] [--tool add|order_book|confirm_order] [--meta bare|client]
           [--connections N] [--duration SECS] [--warmup SECS] [--max-calls N] -- SERVER_COMMAND [ARGS...]
  mcp-load wait --url URL [--timeout SECS]
  mcp-load first-call --url URL [--timeout SECS] [--idle SECS] -- SERVER_COMMAND [ARGS...]";

const MAX_DURATION: f64 = 300.0;
const MAX_CONNECTIONS: usize = 1024;
const MODERN: &str = "2026-07-28";
const LEGACY: &str = "2025-11-25";

#[derive(Clone, Copy, PartialEq)]
enum Era {
    Modern,
    Legacy,
}

/// What a 2026-07-28 request's `_meta` carries beside the revision (`--meta`).
#[derive(Clone, Copy, PartialEq)]
enum Meta {
    /// No capability declared (`{}`) and no `clientInfo`.
    Bare,
    /// What an SDK client sends with every request: form elicitation, sampling and roots
    /// declared, and its `clientInfo`.
    Client,
}

#[derive(Clone, Copy, PartialEq)]
enum Tool {
    Add,
    OrderBook,
    /// `confirm_order`, whose resolver asks the user once: two rounds on 2026-07-28 (see
    /// [`confirm::second_round`]).
    ConfirmOrder,
}

impl Tool {
    fn name(self) -> &'static str {
        match self {
            Tool::Add => "add",
            Tool::OrderBook => "order_book",
            Tool::ConfirmOrder => "confirm_order",
        }
    }
    fn arguments(self) -> &'static str {
        match self {
            Tool::Add => r#"{"a":2,"b":3}"#,
            Tool::OrderBook | Tool::ConfirmOrder => r#"{"title":"Dune"}"#,
        }
    }
    /// The text of the first content block every server must answer with (for `add`, rmcp's
    /// `{"result":5}` passes too: see [`check`]).
    fn expected(self) -> &'static str {
        match self {
            Tool::Add => "5",
            Tool::OrderBook => "Ordered 'Dune'; it arrives tomorrow.",
            Tool::ConfirmOrder => "Ordered 'Dune'.",
        }
    }
}

/// Where to send requests: a loopback socket address and the endpoint's path.
struct Target {
    addr: SocketAddr,
    authority: String,
    path: String,
    /// `Authorization: Bearer …` sent with every request (`--bearer`), for protected servers.
    authorization: Option<HeaderValue>,
    /// What each 2026-07-28 call's `_meta` carries.
    meta: Meta,
}

impl Target {
    fn parse(url: &str) -> Result<Self, String> {
        let rest = url
            .strip_prefix("http://")
            .ok_or("the URL must start with http://")?;
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, "/"),
        };
        let addr: SocketAddr = authority
            .replace("localhost", "127.0.0.1")
            .parse()
            .map_err(|_| format!("{authority:?} is not IP:PORT"))?;
        let loopback = match addr.ip() {
            IpAddr::V4(ip) => ip.is_loopback(),
            IpAddr::V6(ip) => ip.is_loopback(),
        };
        if !loopback {
            return Err(format!("{addr} is not a loopback address; refusing"));
        }
        Ok(Self {
            addr,
            authority: authority.to_owned(),
            path: path.to_owned(),
            authorization: None,
            meta: Meta::Bare,
        })
    }
}

struct Options {
    target: Arc<Target>,
    era: Era,
    tool: Tool,
    connections: usize,
    duration: Duration,
    warmup: Duration,
    max_calls: u64,
    /// The server's process: its peak RSS and CPU time during the measured window are reported.
    server_pid: Option<u32>,
    /// A process behind the server (a gateway's or proxy's backend): its CPU time during the
    /// measured window is reported too, apart from the server's.
    backend_pid: Option<u32>,
}

/// A keep-alive HTTP/1.1 connection to `addr` (`TCP_NODELAY`), driven in the background.
async fn open(addr: SocketAddr) -> Result<SendRequest<Full<Bytes>>, String> {
    let stream = TcpStream::connect(addr)
        .await
        .map_err(|e| format!("connect {addr}: {e}"))?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let (sender, connection) = http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| format!("handshake: {e}"))?;
    tokio::spawn(async move {
        let _ = connection.await;
    });
    Ok(sender)
}

/// One keep-alive connection, with its session when it speaks 2025-11-25.
struct Client {
    sender: SendRequest<Full<Bytes>>,
    era: Era,
    meta: Meta,
    uri: hyper::Uri,
    host: HeaderValue,
    authorization: Option<HeaderValue>,
    session: Option<HeaderValue>,
    next_id: u64,
    /// Where the connection goes (a second one answers questions asked on a stream).
    addr: SocketAddr,
    /// The connection that POSTs answers while a call's stream is open (2025-11-25
    /// `confirm_order`), made on first use.
    answerer: Option<SendRequest<Full<Bytes>>>,
}

/// An answer as received: HTTP status, session id header, and the JSON-RPC response (the body,
/// or the `data:` of the SSE event carrying it).
struct Answer {
    status: u16,
    session: Option<HeaderValue>,
    message: Option<Bytes>,
}

impl Client {
    async fn connect(target: Arc<Target>, era: Era) -> Result<Self, String> {
        let sender = open(target.addr).await?;
        let mut client = Self {
            sender,
            era,
            meta: target.meta,
            uri: target.path.parse().map_err(|_| "bad path")?,
            host: HeaderValue::from_str(&target.authority).map_err(|_| "bad host")?,
            authorization: target.authorization.clone(),
            session: None,
            next_id: 1,
            addr: target.addr,
            answerer: None,
        };
        if era == Era::Legacy {
            client.open_session().await?;
        }
        Ok(client)
    }

    async fn open_session(&mut self) -> Result<(), String> {
        let body = format!(
            r#"{{"jsonrpc":"2.0","id":0,"method":"initialize","params":{{"protocolVersion":"{LEGACY}","capabilities":{{"elicitation":{{}}}},"clientInfo":{{"name":"mcp-load","version":"0.1.0"}}}}}}"#
        );
        let answer = self.post(body, None, 0).await?;
        let message = answer.message.ok_or("initialize: no JSON-RPC response")?;
        let message: Value = serde_json::from_slice(&message).map_err(|e| e.to_string())?;
        if answer.status != 200 || message.get("result").is_none() {
            return Err(format!("initialize failed ({}): {message}", answer.status));
        }
        self.session = Some(answer.session.ok_or("initialize: no Mcp-Session-Id")?);
        let note = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.to_owned();
        let answer = self.post(note, None, u64::MAX).await?;
        if answer.status != 202 {
            return Err(format!(
                "notifications/initialized answered {}",
                answer.status
            ));
        }
        Ok(())
    }

    /// Sends one `tools/call` (both rounds of `confirm_order`) and checks the answer; returns
    /// nothing but the verdict.
    async fn call(&mut self, tool: Tool) -> Result<(), String> {
        let id = self.next_id;
        self.next_id += 1;
        if tool == Tool::ConfirmOrder && self.era == Era::Legacy {
            let message = self.confirm_on_session(id).await?;
            return check(200, &message, id, tool);
        }
        let body = call_body(id, tool, self.era, self.meta);
        let answer = self.post(body, Some(tool), id).await?;
        let message = answer
            .message
            .ok_or_else(|| format!("HTTP {}: no JSON-RPC response", answer.status))?;
        if tool != Tool::ConfirmOrder {
            return check(answer.status, &message, id, tool);
        }
        let id = self.next_id;
        self.next_id += 1;
        let body = confirm::second_round(&message, id)?;
        let answer = self.post(body, Some(tool), id).await?;
        let message = answer
            .message
            .ok_or_else(|| format!("HTTP {}: no JSON-RPC response", answer.status))?;
        check(answer.status, &message, id, tool)
    }

    /// POSTs `body` (a `tools/call` of `tool` when given) and reads the whole answer. `id` picks
    /// the response out of an SSE stream.
    async fn post(&mut self, body: String, tool: Option<Tool>, id: u64) -> Result<Answer, String> {
        let response = self.send(body, tool).await?;
        let status = response.status().as_u16();
        let session = response.headers().get("mcp-session-id").cloned();
        let sse = response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_some_and(|t| t.as_bytes().starts_with(b"text/event-stream"));
        let bytes = response
            .into_body()
            .collect()
            .await
            .map_err(|e| format!("body: {e}"))?
            .to_bytes();
        let message = match () {
            () if bytes.is_empty() => None,
            () if sse => response_in_stream(&bytes, id).map(Bytes::from),
            () => Some(bytes),
        };
        Ok(Answer {
            status,
            session,
            message,
        })
    }

    /// POSTs `body` on the connection and returns the response as it starts (headers only).
    async fn send(
        &mut self,
        body: String,
        tool: Option<Tool>,
    ) -> Result<hyper::Response<hyper::body::Incoming>, String> {
        let request = self.request(body, tool);
        self.sender
            .ready()
            .await
            .map_err(|e| format!("connection: {e}"))?;
        self.sender
            .send_request(request)
            .await
            .map_err(|e| format!("request: {e}"))
    }

    /// The POST of `body` (a `tools/call` of `tool` when given) with this client's headers.
    fn request(&self, body: String, tool: Option<Tool>) -> hyper::Request<Full<Bytes>> {
        let mut request = hyper::Request::new(Full::new(Bytes::from(body)));
        *request.method_mut() = hyper::Method::POST;
        *request.uri_mut() = self.uri.clone();
        let headers = request.headers_mut();
        headers.insert(header::HOST, self.host.clone());
        if let Some(authorization) = &self.authorization {
            headers.insert(header::AUTHORIZATION, authorization.clone());
        }
        headers.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
        headers.insert(
            header::ACCEPT,
            HeaderValue::from_static("application/json, text/event-stream"),
        );
        let version = HeaderName::from_static("mcp-protocol-version");
        match (self.era, &self.session) {
            (Era::Modern, _) => {
                headers.insert(version, HeaderValue::from_static(MODERN));
                let method = HeaderName::from_static("mcp-method");
                headers.insert(method, HeaderValue::from_static("tools/call"));
                if let Some(tool) = tool {
                    let name = HeaderName::from_static("mcp-name");
                    headers.insert(name, HeaderValue::from_static(tool.name()));
                }
            }
            (Era::Legacy, Some(session)) => {
                headers.insert(version, HeaderValue::from_static(LEGACY));
                headers.insert(HeaderName::from_static("mcp-session-id"), session.clone());
            }
            (Era::Legacy, None) => {}
        }
        request
    }
}

const MODERN_META: &str = r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

/// `_meta` as an SDK client sends it with every 2026-07-28 request (`--meta client`).
const CLIENT_META: &str = r#","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{"form":{}},"sampling":{},"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"mcp-load","version":"0.1.0"}}"#;

/// The first (or only) `tools/call` request of `tool`, as sent on `era` with `meta`.
fn call_body(id: u64, tool: Tool, era: Era, meta: Meta) -> String {
    let meta = match (era, tool, meta) {
        (Era::Modern, Tool::ConfirmOrder, _) => confirm::META,
        (Era::Modern, _, Meta::Bare) => MODERN_META,
        (Era::Modern, _, Meta::Client) => CLIENT_META,
        (Era::Legacy, _, _) => "",
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{}","arguments":{}{meta}}}}}"#,
        tool.name(),
        tool.arguments()
    )
}

/// The JSON-RPC response with `id` among an SSE stream's `data:` events.
fn response_in_stream(bytes: &[u8], id: u64) -> Option<String> {
    let text = std::str::from_utf8(bytes).ok()?;
    let mut data = String::new();
    let mut found = None;
    let mut flush = |data: &mut String| {
        if let Ok(message) = serde_json::from_str::<Value>(data)
            && message.get("id").and_then(Value::as_u64) == Some(id)
        {
            found = Some(std::mem::take(data));
        }
        data.clear();
    };
    for line in text.lines() {
        if line.is_empty() {
            flush(&mut data);
        } else if let Some(value) = line.strip_prefix("data:") {
            if !data.is_empty() {
                data.push('\n');
            }
            data.push_str(value.strip_prefix(' ').unwrap_or(value));
        }
    }
    flush(&mut data);
    found
}

/// The parts of a `tools/call` response that are checked (parsed without building a tree).
#[derive(Deserialize)]
struct Reply<'a> {
    id: Option<u64>,
    #[serde(borrow)]
    result: Option<CallResult<'a>>,
    #[serde(borrow)]
    error: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct CallResult<'a> {
    #[serde(rename = "isError", default)]
    is_error: bool,
    #[serde(borrow, default)]
    content: Vec<Block<'a>>,
    #[serde(rename = "structuredContent", borrow)]
    structured: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Block<'a> {
    #[serde(borrow)]
    text: Option<Cow<'a, str>>,
}

/// A successful `tools/call` answer to request `id`: 200, a result that is not an error, and the
/// expected text.
fn check(status: u16, message: &[u8], id: u64, tool: Tool) -> Result<(), String> {
    let fail = || format!("HTTP {status}: {}", String::from_utf8_lossy(message));
    let reply: Reply = serde_json::from_slice(message).map_err(|_| fail())?;
    let result = match reply {
        Reply {
            id: Some(answered),
            result: Some(result),
            error: None,
        } if status == 200 && answered == id && !result.is_error => result,
        _ => return Err(fail()),
    };
    let text = result.content.first().and_then(|b| b.text.as_deref());
    // rmcp's `Json<T>` puts the structured result's JSON in the text block instead.
    let structured = || result.structured.map(RawValue::get) == Some(r#"{"result":5}"#);
    match tool {
        _ if text == Some(tool.expected()) => Ok(()),
        Tool::Add if structured() && text == Some(r#"{"result":5}"#) => Ok(()),
        _ => Err(fail()),
    }
}

/// What one connection measured.
#[derive(Default)]
struct Tally {
    latencies_ns: Vec<u64>,
    errors: u64,
    first_error: Option<String>,
}

async fn connection(
    options: Arc<Options>,
    target: Arc<Target>,
    measure_from: Instant,
    until: Instant,
    started: Arc<AtomicU64>,
) -> Tally {
    let mut tally = Tally::default();
    let mut client = match Client::connect(target, options.era).await {
        Ok(client) => client,
        Err(error) => {
            tally.errors += 1;
            tally.first_error = Some(error);
            return tally;
        }
    };
    loop {
        let sent = Instant::now();
        if sent >= until || started.fetch_add(1, Ordering::Relaxed) >= options.max_calls {
            return tally;
        }
        let verdict = client.call(options.tool).await;
        let done = Instant::now();
        match verdict {
            Ok(()) if sent >= measure_from && done <= until => {
                tally.latencies_ns.push((done - sent).as_nanos() as u64);
            }
            Ok(()) => {}
            Err(error) => {
                tally.errors += 1;
                tally.first_error.get_or_insert(error);
                if tally.errors >= 10 {
                    return tally;
                }
                // A broken connection is not retried: the run is failed anyway.
                if client.sender.is_closed() {
                    return tally;
                }
            }
        }
    }
}

/// CPU time (user + system) of every thread of process `pid` (`self` for this one), in ns,
/// from the scheduler's own accounting (`/proc/PID/task/*/schedstat`).
fn cpu_ns(pid: &str) -> Option<u64> {
    let mut total = 0;
    for task in std::fs::read_dir(format!("/proc/{pid}/task")).ok()? {
        let path = task.ok()?.path().join("schedstat");
        // A thread that ended since the listing no longer counts.
        let Ok(stat) = std::fs::read_to_string(path) else {
            continue;
        };
        total += stat.split_whitespace().next()?.parse::<u64>().ok()?;
    }
    Some(total)
}

/// Resident memory of `pid`, in KiB.
fn rss_kib(pid: &str) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn percentile(sorted: &[u64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1] as f64 / 1e6
}

async fn run(options: Options) -> Result<Value, String> {
    let options = Arc::new(options);
    let target = options.target.clone();
    let start = Instant::now();
    let measure_from = start + options.warmup;
    let until = measure_from + options.duration;
    let started = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..options.connections)
        .map(|_| {
            tokio::spawn(connection(
                options.clone(),
                target.clone(),
                measure_from,
                until,
                started.clone(),
            ))
        })
        .collect();
    let server_pid = options.server_pid.map(|pid| pid.to_string());
    let backend_pid = options.backend_pid.map(|pid| pid.to_string());
    // Set when every connection has stopped (early when --max-calls is reached).
    let finished = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let done = finished.clone();
    let sampler = tokio::spawn(async move {
        tokio::time::sleep_until(measure_from.into()).await;
        let cpu = |pid: Option<&str>| pid.and_then(cpu_ns);
        let (server_before, client_before) = (cpu(server_pid.as_deref()), cpu(Some("self")));
        let backend_before = cpu(backend_pid.as_deref());
        let mut peak = 0;
        while Instant::now() < until && !done.load(Ordering::Relaxed) {
            if let Some(pid) = &server_pid {
                peak = peak.max(rss_kib(pid).unwrap_or(0));
            }
            tokio::time::sleep_until(
                (until.min(Instant::now() + Duration::from_millis(100))).into(),
            )
            .await;
        }
        let used = |before: Option<u64>, after: Option<u64>| Some(after? - before?);
        let server = used(server_before, cpu(server_pid.as_deref()));
        let client = used(client_before, cpu(Some("self")));
        let backend = used(backend_before, cpu(backend_pid.as_deref()));
        (server_pid.map(|_| peak), server, client, backend)
    });
    let mut latencies = Vec::new();
    let mut errors = 0;
    let mut first_error = None;
    for worker in workers {
        let tally = worker.await.map_err(|e| e.to_string())?;
        latencies.extend(tally.latencies_ns);
        errors += tally.errors;
        first_error = first_error.or(tally.first_error);
    }
    let stopped = Instant::now();
    finished.store(true, Ordering::Relaxed);
    let (peak_rss, server_cpu, client_cpu, backend_cpu) =
        sampler.await.map_err(|e| e.to_string())?;
    latencies.sort_unstable();
    // The measured window: shorter than --duration when --max-calls ended the run.
    let window = stopped.min(until).saturating_duration_since(measure_from);
    let seconds = window.as_secs_f64().max(1e-9);
    let measured = Measured {
        era: options.era,
        tool: options.tool,
        connections: options.connections,
        seconds,
        latencies: &latencies,
        peak_rss_kib: peak_rss,
        server_cpu,
        client_cpu,
        backend_cpu,
    };
    let mut report = measured.report();
    report["errors"] = json!(errors);
    report["first_error"] = json!(first_error);
    if errors > 0 {
        return Err(report.to_string());
    }
    Ok(report)
}

/// What one run measured (latencies sorted), and its JSON line.
struct Measured<'a> {
    era: Era,
    tool: Tool,
    connections: usize,
    seconds: f64,
    latencies: &'a [u64],
    peak_rss_kib: Option<u64>,
    server_cpu: Option<u64>,
    client_cpu: Option<u64>,
    backend_cpu: Option<u64>,
}

impl Measured<'_> {
    fn report(&self) -> Value {
        let (latencies, seconds) = (self.latencies, self.seconds);
        let calls = latencies.len().max(1) as f64;
        json!({
            "era": if self.era == Era::Modern { "modern" } else { "legacy" },
            "tool": self.tool.name(),
            "connections": self.connections,
            "seconds": seconds,
            "calls": latencies.len(),
            "calls_per_s": latencies.len() as f64 / seconds,
            "p50_ms": percentile(latencies, 50.0),
            "p90_ms": percentile(latencies, 90.0),
            "p99_ms": percentile(latencies, 99.0),
            "p999_ms": percentile(latencies, 99.9),
            "max_ms": latencies.last().map(|&ns| ns as f64 / 1e6),
            "mean_ms": latencies.iter().sum::<u64>() as f64 / calls / 1e6,
            "errors": 0,
            "peak_rss_kib": self.peak_rss_kib,
            // The server's CPU time per answered call, and how busy each side was (1.0 = one
            // core).
            "server_cpu_us_per_call": self.server_cpu.map(|ns| ns as f64 / 1e3 / calls),
            "server_cpu_busy": self.server_cpu.map(|ns| ns as f64 / 1e9 / seconds),
            "client_cpu_busy": self.client_cpu.map(|ns| ns as f64 / 1e9 / seconds),
            // The same for the process behind the server (--backend-pid), when one was named.
            "backend_cpu_us_per_call": self.backend_cpu.map(|ns| ns as f64 / 1e3 / calls),
            "backend_cpu_busy": self.backend_cpu.map(|ns| ns as f64 / 1e9 / seconds),
        })
    }
}

/// One modern `tools/call` of `add`, over a fresh connection.
async fn probe(target: &Arc<Target>) -> Result<(), String> {
    let mut client = Client::connect(target.clone(), Era::Modern).await?;
    client.call(Tool::Add).await
}

async fn wait(target: Arc<Target>, timeout: Duration) -> Result<Duration, String> {
    let start = Instant::now();
    loop {
        match probe(&target).await {
            Ok(()) => return Ok(start.elapsed()),
            Err(error) if start.elapsed() > timeout => {
                return Err(format!("no answer within {timeout:?}: {error}"));
            }
            Err(_) => tokio::time::sleep(Duration::from_micros(200)).await,
        }
    }
}

async fn first_call(
    target: Arc<Target>,
    timeout: Duration,
    idle: Duration,
    command: &[String],
) -> Result<Value, String> {
    let start = Instant::now();
    let mut child = Command::new(&command[0])
        .args(&command[1..])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("spawning {:?}: {e}", command[0]))?;
    let outcome = async {
        wait(target, timeout).await?;
        let elapsed = start.elapsed();
        let pid = child.id().to_string();
        // CPU the server used up to its first answer: start-up work without the waiting.
        let cpu = cpu_ns(&pid).ok_or("the server is gone")?;
        tokio::time::sleep(idle).await;
        let idle_rss = rss_kib(&pid).ok_or("the server is gone")?;
        Ok::<_, String>(json!({
            "first_call_ms": elapsed.as_secs_f64() * 1e3,
            "first_call_cpu_ms": cpu as f64 / 1e6,
            "idle_rss_kib": idle_rss,
        }))
    }
    .await;
    let _ = child.kill();
    let _ = child.wait();
    outcome
}

fn value<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, flag: &str) -> T {
    let Some(text) = args.next() else {
        fail(&format!("{flag} needs a value"));
    };
    text.parse()
        .unwrap_or_else(|_| fail(&format!("{flag}: bad value {text:?}")))
}

fn seconds(args: &mut impl Iterator<Item = String>, flag: &str) -> Duration {
    let s: f64 = value(args, flag);
    if !(0.0..=MAX_DURATION).contains(&s) {
        fail(&format!("{flag} must be between 0 and {MAX_DURATION} s"));
    }
    Duration::from_secs_f64(s)
}

fn fail(why: &str) -> ! {
    eprintln!("mcp-load: {why}\n{USAGE}");
    std::process::exit(2);
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let Some(command) = args.next() else {
        fail("a command is required");
    };
    let mut url = None;
    let mut era = Era::Modern;
    let mut tool = Tool::Add;
    let mut connections = 1;
    let mut duration = Duration::from_secs(5);
    let mut warmup = Duration::from_secs(1);
    let mut timeout = Duration::from_secs(30);
    let mut idle = Duration::from_secs(1);
    let mut max_calls = 5_000_000;
    let mut server_pid = None;
    let mut backend_pid = None;
    let mut bearer: Option<String> = None;
    let mut meta = Meta::Bare;
    let mut server = Vec::new();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--url" => url = Some(value::<String>(&mut args, "--url")),
            "--era" => {
                era = match value::<String>(&mut args, "--era").as_str() {
                    "modern" => Era::Modern,
                    "legacy" => Era::Legacy,
                    other => fail(&format!("unknown era {other:?}")),
                }
            }
            "--tool" => {
                tool = match value::<String>(&mut args, "--tool").as_str() {
                    "add" => Tool::Add,
                    "order_book" => Tool::OrderBook,
                    "confirm_order" => Tool::ConfirmOrder,
                    other => fail(&format!("unknown tool {other:?}")),
                }
            }
            "--meta" => {
                meta = match value::<String>(&mut args, "--meta").as_str() {
                    "bare" => Meta::Bare,
                    "client" => Meta::Client,
                    other => fail(&format!("unknown meta {other:?}")),
                }
            }
            "--connections" => connections = value(&mut args, "--connections"),
            "--duration" => duration = seconds(&mut args, "--duration"),
            "--warmup" => warmup = seconds(&mut args, "--warmup"),
            "--timeout" => timeout = seconds(&mut args, "--timeout"),
            "--idle" => idle = seconds(&mut args, "--idle"),
            "--max-calls" => max_calls = value(&mut args, "--max-calls"),
            "--server-pid" => server_pid = Some(value(&mut args, "--server-pid")),
            "--backend-pid" => backend_pid = Some(value(&mut args, "--backend-pid")),
            "--bearer" => bearer = Some(value(&mut args, "--bearer")),
            "--" => server.extend(args.by_ref()),
            other => fail(&format!("unknown argument {other:?}")),
        }
    }
    if !(1..=MAX_CONNECTIONS).contains(&connections) {
        fail(&format!("--connections must be 1..={MAX_CONNECTIONS}"));
    }
    if command == "stdio" {
        if server.is_empty() {
            fail("stdio needs -- SERVER_COMMAND");
        }
        let options = stdio::Options {
            era,
            tool,
            meta,
            in_flight: connections,
            duration,
            warmup,
            max_calls,
            server,
        };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("a tokio runtime");
        return report(runtime.block_on(stdio::run(options)));
    }
    let Some(url) = url else {
        fail("--url is required")
    };
    let mut target = Target::parse(&url).unwrap_or_else(|e| fail(&e));
    target.meta = meta;
    if let Some(token) = bearer {
        let value = HeaderValue::from_str(&format!("Bearer {token}"));
        target.authorization = Some(value.unwrap_or_else(|_| fail("--bearer: not a header value")));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let outcome = runtime.block_on(async {
        match command.as_str() {
            "run" => {
                run(Options {
                    target: Arc::new(target),
                    era,
                    tool,
                    connections,
                    duration,
                    warmup,
                    max_calls,
                    server_pid,
                    backend_pid,
                })
                .await
            }
            "wait" => wait(Arc::new(target), timeout)
                .await
                .map(|t| json!({"ready_ms": t.as_secs_f64() * 1e3})),
            "first-call" if !server.is_empty() => {
                first_call(Arc::new(target), timeout, idle, &server).await
            }
            "first-call" => fail("first-call needs -- SERVER_COMMAND"),
            other => fail(&format!("unknown command {other:?}")),
        }
    });
    report(outcome)
}

/// Prints the run's JSON line (or its failure) and picks the exit status.
fn report(outcome: Result<Value, String>) -> ExitCode {
    match outcome {
        Ok(report) => {
            println!("{report}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("mcp-load: {error}");
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_response_in_an_event_stream() {
        let stream = b"id: 0\nretry: 3000\ndata: \n\n\
            data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}\n\n\
            event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}\n\n";
        let found = response_in_stream(stream, 7).unwrap();
        assert_eq!(found, r#"{"jsonrpc":"2.0","id":7,"result":{}}"#);
        assert!(response_in_stream(stream, 8).is_none());
    }

    #[test]
    fn checks_answers() {
        let ok = br#"{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"5"}]}}"#;
        assert!(check(200, ok, 1, Tool::Add).is_ok());
        assert!(check(200, ok, 2, Tool::Add).is_err());
        assert!(check(400, ok, 1, Tool::Add).is_err());
        assert!(check(200, ok, 1, Tool::OrderBook).is_err());
        let rmcp = br#"{"id":1,"result":{"content":[{"type":"text","text":"{\"result\":5}"}],"structuredContent":{"result":5}}}"#;
        assert!(check(200, rmcp, 1, Tool::Add).is_ok());
        let tool_error =
            br#"{"id":1,"result":{"isError":true,"content":[{"type":"text","text":"5"}]}}"#;
        assert!(check(200, tool_error, 1, Tool::Add).is_err());
        let error = br#"{"id":1,"error":{"code":-32602,"message":"no"}}"#;
        assert!(check(200, error, 1, Tool::Add).is_err());
        assert!(check(200, b"not json", 1, Tool::Add).is_err());
    }

    #[test]
    fn only_loopback_targets() {
        assert!(Target::parse("http://127.0.0.1:8000/mcp").is_ok());
        assert!(Target::parse("http://localhost:8000/mcp").is_ok());
        assert!(Target::parse("http://[::1]:8000/mcp").is_ok());
        assert!(Target::parse("http://10.0.0.1:8000/mcp").is_err());
        assert!(Target::parse("http://example.com/mcp").is_err());
        assert!(Target::parse("https://127.0.0.1:8000/mcp").is_err());
    }
}
