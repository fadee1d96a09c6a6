//! `mcp-load stdio`: the server as a child process, N calls in flight on its stdin/stdout.
//!
//! One writer task owns stdin (it flushes when nothing more is queued, so calls sent together
//! share a write); one reader task owns stdout and hands each response to the call waiting for
//! its id. Requests the server sends the client, and notifications, are ignored: none of the
//! measured calls needs one answered (`confirm_order` asks through `input_required`).
//!
//! The run ends at `--duration`, or once `--max-calls` calls were made; then the server's stdin
//! is closed and it is given 120 s to exit on its own (a server under valgrind writes its
//! profile then), else it is killed.

use super::{Era, LEGACY, Measured, Meta, Tool, call_body, check, confirm, cpu_ns, rss_kib};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::process::Stdio;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, BufWriter};
use tokio::sync::{mpsc, oneshot};

/// How long one answer may take before the run fails.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(30);

/// What `mcp-load stdio` was asked to run.
pub struct Options {
    pub era: Era,
    pub tool: Tool,
    /// What each 2026-07-28 call's `_meta` carries.
    pub meta: Meta,
    pub in_flight: usize,
    pub duration: Duration,
    pub warmup: Duration,
    /// At most this many calls are made (`--max-calls`).
    pub max_calls: u64,
    /// The server's command line.
    pub server: Vec<String>,
}

type Waiting = Arc<Mutex<HashMap<u64, oneshot::Sender<Vec<u8>>>>>;

/// The child's stdin and the calls waiting for answers.
#[derive(Clone)]
struct Connection {
    outbox: mpsc::UnboundedSender<String>,
    waiting: Waiting,
    next_id: Arc<AtomicU64>,
}

impl Connection {
    fn id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    /// Sends one request line and waits for the response with `id`.
    async fn request(&self, id: u64, line: String) -> Result<Vec<u8>, String> {
        let (tell, answer) = oneshot::channel();
        self.waiting.lock().unwrap().insert(id, tell);
        self.outbox
            .send(line)
            .map_err(|_| "the server's stdin is closed")?;
        match tokio::time::timeout(ANSWER_TIMEOUT, answer).await {
            Ok(Ok(message)) => Ok(message),
            Ok(Err(_)) => Err(format!("the server closed stdout before answering {id}")),
            Err(_) => Err(format!(
                "no answer to request {id} within {ANSWER_TIMEOUT:?}"
            )),
        }
    }

    fn notify(&self, line: String) -> Result<(), String> {
        self.outbox
            .send(line)
            .map_err(|_| "the server's stdin is closed".into())
    }

    /// One call of `tool` (both rounds of `confirm_order`), checked.
    async fn call(&self, tool: Tool, era: Era, meta: Meta) -> Result<(), String> {
        let id = self.id();
        let message = self.request(id, call_body(id, tool, era, meta)).await?;
        if tool != Tool::ConfirmOrder {
            return check(200, &message, id, tool);
        }
        let id = self.id();
        let message = self
            .request(id, confirm::second_round(&message, id)?)
            .await?;
        check(200, &message, id, tool)
    }
}

/// Starts the server and the two pipe tasks.
fn spawn(server: &[String]) -> Result<(tokio::process::Child, Connection), String> {
    let mut child = tokio::process::Command::new(&server[0])
        .args(&server[1..])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", server[0]))?;
    let stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let (outbox, mut queued) = mpsc::unbounded_channel::<String>();
    tokio::spawn(async move {
        let mut stdin = BufWriter::new(stdin);
        while let Some(line) = queued.recv().await {
            let mut next = Some(line);
            while let Some(line) = next {
                if stdin.write_all(line.as_bytes()).await.is_err()
                    || stdin.write_all(b"\n").await.is_err()
                {
                    return;
                }
                next = queued.try_recv().ok();
            }
            if stdin.flush().await.is_err() {
                return;
            }
        }
    });
    let waiting: Waiting = Arc::default();
    let routes = waiting.clone();
    tokio::spawn(async move {
        let mut lines = BufReader::new(stdout).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            let is_response = message.get("method").is_none();
            if let (true, Some(id)) = (is_response, message.get("id").and_then(Value::as_u64))
                && let Some(tell) = routes.lock().unwrap().remove(&id)
            {
                let _ = tell.send(line.into_bytes());
            }
        }
        routes.lock().unwrap().clear(); // every waiting call learns the server is gone
    });
    let next_id = Arc::new(AtomicU64::new(1));
    Ok((
        child,
        Connection {
            outbox,
            waiting,
            next_id,
        },
    ))
}

/// `initialize` + `notifications/initialized` (2025-11-25), or `server/discover` (2026-07-28).
async fn handshake(connection: &Connection, era: Era) -> Result<(), String> {
    let id = connection.id();
    let request = match era {
        Era::Legacy => json!({"jsonrpc": "2.0", "id": id, "method": "initialize", "params": {
            "protocolVersion": LEGACY, "capabilities": {},
            "clientInfo": {"name": "mcp-load", "version": "0.1.0"}}}),
        Era::Modern => json!({"jsonrpc": "2.0", "id": id, "method": "server/discover", "params": {
            "_meta": {"io.modelcontextprotocol/protocolVersion": super::MODERN,
                      "io.modelcontextprotocol/clientCapabilities": {},
                      "io.modelcontextprotocol/clientInfo": {"name": "mcp-load", "version": "0.1.0"}}}}),
    };
    let answer = connection.request(id, request.to_string()).await?;
    let answer: Value = serde_json::from_slice(&answer).map_err(|e| e.to_string())?;
    if answer.get("result").is_none() {
        return Err(format!("handshake failed: {answer}"));
    }
    if era == Era::Legacy {
        connection.notify(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into())?;
    }
    Ok(())
}

/// Runs the measurement and reports it as `mcp-load run` does.
pub async fn run(options: Options) -> Result<Value, String> {
    let (child, connection) = spawn(&options.server)?;
    let pid = child.id().ok_or("the server exited at once")?.to_string();
    handshake(&connection, options.era).await?;
    let start = Instant::now();
    let measure_from = start + options.warmup;
    let until = measure_from + options.duration;
    let started = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (0..options.in_flight)
        .map(|_| {
            let connection = connection.clone();
            let (tool, era, meta) = (options.tool, options.era, options.meta);
            let (started, max_calls) = (started.clone(), options.max_calls);
            tokio::spawn(async move {
                let mut latencies = Vec::new();
                loop {
                    let sent = Instant::now();
                    if sent >= until || started.fetch_add(1, Ordering::Relaxed) >= max_calls {
                        return Ok(latencies);
                    }
                    connection.call(tool, era, meta).await?;
                    let done = Instant::now();
                    if sent >= measure_from && done <= until {
                        latencies.push((done - sent).as_nanos() as u64);
                    }
                }
            })
        })
        .collect();
    tokio::time::sleep_until(measure_from.into()).await;
    let (server_before, client_before) = (cpu_ns(&pid), cpu_ns("self"));
    let mut peak = 0;
    while Instant::now() < until && !workers.iter().all(|w| w.is_finished()) {
        peak = peak.max(rss_kib(&pid).unwrap_or(0));
        let tick = until.min(Instant::now() + Duration::from_millis(100));
        tokio::time::sleep_until(tick.into()).await;
    }
    let used = |before: Option<u64>, after: Option<u64>| Some(after? - before?);
    let server_cpu = used(server_before, cpu_ns(&pid));
    let client_cpu = used(client_before, cpu_ns("self"));
    let seconds = (Instant::now().min(until) - measure_from).as_secs_f64();
    let mut latencies = Vec::new();
    for worker in workers {
        let measured: Result<Vec<u64>, String> = worker.await.map_err(|e| e.to_string())?;
        latencies.extend(measured?);
    }
    end(child, connection).await;
    latencies.sort_unstable();
    let measured = Measured {
        era: options.era,
        tool: options.tool,
        connections: options.in_flight,
        seconds,
        latencies: &latencies,
        peak_rss_kib: Some(peak),
        server_cpu,
        client_cpu,
        backend_cpu: None,
    };
    let mut report = measured.report();
    report["transport"] = json!("stdio");
    Ok(report)
}

/// Closes the server's stdin (the writer task ends with the last sender) and waits, at most
/// 120 s, for it to exit on its own; then kills it.
async fn end(mut child: tokio::process::Child, connection: Connection) {
    drop(connection);
    let exited = tokio::time::timeout(Duration::from_secs(120), child.wait()).await;
    if !matches!(exited, Ok(Ok(_))) {
        let _ = child.kill().await;
    }
}
