//! The server `scripts/soak` (the `mcpwire-soak` binary, `benches/soak/`) keeps under mixed
//! traffic on both protocol revisions. See `docs/soak.md`.
//!
//! - `add`: plain.
//! - `ask`: a resolver returning `Elicit<Said>` (a one-field form); the tool returns the answer.
//! - `slow`: sleeps a little between steps and reports progress after each.
//! - `soak_stats`: the server's own view, as structured content: the tokio runtime's alive
//!   tasks (and workers, global queue depth), the open file descriptors of the process, the tool
//!   calls it served, the `slow` bodies still running, and the timeouts below.
//!
//! Timeouts are short, so what a vanished client leaves behind is released within a soak run:
//! a 2025-11-25 question nobody answers fails after [`QUESTION_TIMEOUT`], and an idle session is
//! reaped after [`SESSION_IDLE_TIMEOUT`].
//!
//! Run: `cargo run --example soak_server -- --http 127.0.0.1:0` (HTTP only); it prints
//! `MCP server listening on URL` on stderr.

use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How long a question sent to a 2025-11-25 client waits for its answer.
const QUESTION_TIMEOUT: Duration = Duration::from_secs(2);
/// How long a 2025-11-25 session may stay idle before it is reaped.
const SESSION_IDLE_TIMEOUT: Duration = Duration::from_secs(2);
/// How long `slow` sleeps after each progress report.
const SLOW_STEP: Duration = Duration::from_millis(40);
/// The most steps one `slow` call may take (two seconds of sleep: room for a client to give a
/// call up and tell the server, in `tests/http_peers.rs`).
const MAX_STEPS: u32 = 50;

/// What the tools served, counted by their bodies.
#[derive(Default)]
struct Counters {
    started: Option<Instant>,
    add: AtomicU64,
    ask: AtomicU64,
    slow_started: AtomicU64,
    slow_finished: AtomicU64,
    /// `slow` bodies alive right now (a dropped body counts down too).
    slow_running: AtomicI64,
}

/// Counts a `slow` body as running until it is dropped, finished or not.
struct Running<'a>(&'a AtomicI64);

impl Drop for Running<'_> {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

/// The one-field form `ask` asks for.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Said {
    /// What to say.
    answer: String,
}

/// Asks the user what to say about `word`.
#[resolver]
async fn question(word: String) -> Elicit<Said> {
    Elicit::ask(format!("What do you say to {word:?}?"))
}

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64, ctx: Context) -> i64 {
    ctx.state::<Counters>().add.fetch_add(1, Ordering::Relaxed);
    a + b
}

/// Asks the user about `word` and returns the answer.
#[tool]
async fn ask(word: String, #[resolve(question)] said: Said, ctx: Context) -> String {
    ctx.state::<Counters>().ask.fetch_add(1, Ordering::Relaxed);
    format!("{word}: {}", said.answer)
}

/// Takes `steps` short steps (at most 20), reporting progress after each.
#[tool]
async fn slow(steps: u32, ctx: Context) -> String {
    let counters = ctx.state::<Counters>();
    counters.slow_started.fetch_add(1, Ordering::Relaxed);
    counters.slow_running.fetch_add(1, Ordering::Relaxed);
    let _running = Running(&counters.slow_running);
    let steps = steps.clamp(1, MAX_STEPS);
    for step in 1..=steps {
        let message = Some(format!("step {step}"));
        ctx.report_progress(step as f64, Some(steps as f64), message)
            .await;
        tokio::time::sleep(SLOW_STEP).await;
    }
    counters.slow_finished.fetch_add(1, Ordering::Relaxed);
    format!("slept {steps} steps")
}

/// What `soak_stats` reports.
#[derive(Serialize, JsonSchema)]
struct SoakStats {
    /// Tasks alive on the tokio runtime (spawned and not yet finished).
    alive_tasks: usize,
    /// Worker threads of the runtime.
    workers: usize,
    /// Tasks waiting in the runtime's global queue.
    global_queue_depth: usize,
    /// Open file descriptors of the process (sockets included), from `/proc/self/fd`.
    open_fds: Option<usize>,
    /// Milliseconds since start-up.
    uptime_ms: u64,
    /// Completed `add` bodies.
    add_calls: u64,
    /// Completed `ask` bodies (the question was answered).
    ask_calls: u64,
    /// `slow` bodies started.
    slow_started: u64,
    /// `slow` bodies that ran to the end.
    slow_finished: u64,
    /// `slow` bodies alive now.
    slow_running: i64,
    /// How long a 2025-11-25 question waits for its answer, in ms.
    question_timeout_ms: u64,
    /// How long a 2025-11-25 session may idle, in ms.
    session_idle_timeout_ms: u64,
}

/// The server's own view of itself, for the soak.
#[tool]
async fn soak_stats(ctx: Context) -> SoakStats {
    let counters = ctx.state::<Counters>();
    let metrics = tokio::runtime::Handle::current().metrics();
    let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
    SoakStats {
        alive_tasks: metrics.num_alive_tasks(),
        workers: metrics.num_workers(),
        global_queue_depth: metrics.global_queue_depth(),
        open_fds: std::fs::read_dir("/proc/self/fd").ok().map(Iterator::count),
        uptime_ms: counters
            .started
            .map_or(0, |t| t.elapsed().as_millis() as u64),
        add_calls: load(&counters.add),
        ask_calls: load(&counters.ask),
        slow_started: load(&counters.slow_started),
        slow_finished: load(&counters.slow_finished),
        slow_running: counters.slow_running.load(Ordering::Relaxed),
        question_timeout_ms: QUESTION_TIMEOUT.as_millis() as u64,
        session_idle_timeout_ms: SESSION_IDLE_TIMEOUT.as_millis() as u64,
    }
}

/// The address of `--http ADDR`.
fn http_address() -> Result<String, String> {
    let mut args = std::env::args().skip(1);
    match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => Ok(addr),
        _ => Err("usage: soak_server --http 127.0.0.1:PORT (port 0 picks a free one)".into()),
    }
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    let addr = http_address().unwrap_or_else(|usage| {
        eprintln!("{usage}");
        std::process::exit(2);
    });
    let counters = Counters {
        started: Some(Instant::now()),
        ..Counters::default()
    };
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "MCP server listening on http://{}/mcp",
        listener.local_addr()?
    );
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    McpServer::new("soak")
        .state(counters)
        // One process: a random key of its own is all requestState needs.
        .request_state_keys(KeyRing::ephemeral())
        .client_request_timeout(QUESTION_TIMEOUT)
        .tool(add)?
        .tool(ask)?
        .tool(slow)?
        .tool(soak_stats)?
        .http()
        .session_idle_timeout(SESSION_IDLE_TIMEOUT)
        .serve_listener(listener, ctrl_c)
        .await
}
