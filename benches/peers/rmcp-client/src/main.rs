//! `rmcp-client-load`: rmcp's client in `scripts/client-bench` (docs/benchmarks.md, "The
//! client"), the same program as `benches/client_load` (mcpwire's client) with the same flags
//! and output: one rmcp client over Streamable HTTP (`StreamableHttpClientTransport`) keeps N
//! calls in flight for a fixed time and prints calls per second and its CPU time per call.
//! Written the way rmcp documents its client: a `ClientHandler` (here answering the form question
//! of `--call backorder`), `serve` for a 2025-11-25 session, `serve_with_lifecycle` with
//! `ClientLifecycleMode::Discover` for 2026-07-28 (its `call_tool` runs the `input_required`
//! rounds through the handler).
//!
//! ```text
//! rmcp-client-load --url URL --era legacy|modern --call add|backorder
//!                  [--in-flight N] [--seconds S] [--warmup S]
//! ```

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: rmcp-client-load --url URL --era legacy|modern --call add|backorder \
                     [--in-flight N] [--seconds S] [--warmup S]";

/// Accepts every form question with `{"confirm": true}`.
#[derive(Clone)]
struct Confirming;

impl ClientHandler for Confirming {
    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true})))
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}}))
                .expect("form elicitation capabilities");
        ClientConfig::new(
            capabilities,
            Implementation::new("rmcp-client-load", "0.0.0"),
        )
    }
}

struct Options {
    url: String,
    era: &'static str,
    call: &'static str,
    in_flight: usize,
    seconds: f64,
    warmup: f64,
}

fn options() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        url: String::new(),
        era: "modern",
        call: "add",
        in_flight: 1,
        seconds: 5.0,
        warmup: 1.0,
    };
    while let Some(flag) = args.next() {
        let value = args.next().ok_or(USAGE)?;
        match flag.as_str() {
            "--url" => options.url = value,
            "--era" if value == "legacy" => options.era = "legacy",
            "--era" if value == "modern" => options.era = "modern",
            "--call" if value == "add" => options.call = "add",
            "--call" if value == "backorder" => options.call = "backorder",
            "--in-flight" => options.in_flight = value.parse().map_err(|_| USAGE)?,
            "--seconds" => options.seconds = value.parse().map_err(|_| USAGE)?,
            "--warmup" => options.warmup = value.parse().map_err(|_| USAGE)?,
            _ => return Err(USAGE.into()),
        }
    }
    let bounded = (1..=1024).contains(&options.in_flight)
        && (0.1..=300.0).contains(&options.seconds)
        && (0.0..=60.0).contains(&options.warmup);
    if options.url.is_empty() || !bounded {
        return Err(USAGE.into());
    }
    Ok(options)
}

/// The tool, its arguments, and the one text its answer must be.
fn workload(call: &str) -> (&'static str, Value, &'static str) {
    match call {
        "add" => ("add", json!({"a": 2, "b": 3}), "5"),
        _ => (
            "order_book",
            json!({"title": "Neuromancer"}),
            "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
        ),
    }
}

/// This process's CPU time so far (user + system, all threads, exited ones included).
fn cpu_time() -> Duration {
    // SAFETY: getrusage writes one `rusage` into the zeroed struct it is given.
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut usage);
        usage
    };
    let micros = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
    Duration::from_micros(micros(usage.ru_utime) + micros(usage.ru_stime))
}

fn text(result: &CallToolResult) -> Option<&str> {
    match result.content.as_slice() {
        [block] if result.is_error != Some(true) => block.as_text().map(|t| t.text.as_str()),
        _ => None,
    }
}

async fn run(options: Options) -> Result<Value, String> {
    let transport = StreamableHttpClientTransport::from_uri(options.url.as_str());
    let client = match options.era {
        "legacy" => Confirming.serve(transport).await,
        _ => {
            let lifecycle = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            Confirming.serve_with_lifecycle(transport, lifecycle).await
        }
    }
    .map_err(|e| format!("connect: {e}"))?;
    let client = Arc::new(client);
    let (tool, arguments, expected) = workload(options.call);
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    let done = Arc::new(AtomicU64::new(0));
    let stop = Instant::now() + Duration::from_secs_f64(options.warmup + options.seconds);
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..options.in_flight {
        let (client, arguments, done) = (client.clone(), arguments.clone(), done.clone());
        workers.spawn(async move {
            while Instant::now() < stop {
                let params = CallToolRequestParams::new(tool).with_arguments(arguments.clone());
                let result = client
                    .call_tool(params)
                    .await
                    .map_err(|e| format!("{tool}: {e}"))?;
                if text(&result) != Some(expected) {
                    return Err(format!("{tool} answered {result:?}"));
                }
                done.fetch_add(1, Ordering::Relaxed);
            }
            Ok::<(), String>(())
        });
    }
    tokio::time::sleep(Duration::from_secs_f64(options.warmup)).await;
    let (calls0, cpu0, t0) = (done.load(Ordering::Relaxed), cpu_time(), Instant::now());
    tokio::time::sleep(Duration::from_secs_f64(options.seconds)).await;
    let (calls1, cpu1, t1) = (done.load(Ordering::Relaxed), cpu_time(), Instant::now());
    while let Some(worker) = workers.join_next().await {
        worker.map_err(|e| e.to_string())??;
    }
    let (calls, cpu, elapsed) = (calls1 - calls0, cpu1 - cpu0, t1 - t0);
    if calls == 0 {
        return Err("no call completed in the measured window".into());
    }
    Ok(json!({
        "client": "rmcp",
        "era": options.era,
        "call": options.call,
        "in_flight": options.in_flight,
        "calls": calls,
        "seconds": elapsed.as_secs_f64(),
        "calls_per_s": calls as f64 / elapsed.as_secs_f64(),
        "cpu_us_per_call": cpu.as_secs_f64() * 1e6 / calls as f64,
    }))
}

fn main() -> ExitCode {
    let options = match options() {
        Ok(options) => options,
        Err(usage) => {
            eprintln!("{usage}");
            return ExitCode::from(2);
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(run(options)) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("rmcp-client-load: {error}");
            ExitCode::FAILURE
        }
    }
}
