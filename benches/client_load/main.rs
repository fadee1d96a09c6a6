//! `mcpwire-client-load`: the client half of `scripts/client-bench` (docs/benchmarks.md, "The
//! client"). One `mcpwire::client::Client` over Streamable HTTP keeps N calls in flight against
//! one server for a fixed time, and prints one JSON line: calls per second, and the client
//! process's CPU time per call (user + system, from `getrusage`, so every thread counts).
//! `benches/peers/rmcp-client` is the same program written on rmcp's client; the script runs both
//! against the same server in one run.
//!
//! ```text
//! mcpwire-client-load --url URL --era legacy|modern --call add|backorder
//!                     [--in-flight N] [--seconds S] [--warmup S]
//! ```
//!
//! - `add`: `add {a: 2, b: 3}` on `examples/bookshop`, answered `5`.
//! - `backorder`: `order_book {title: "Neuromancer"}` on `examples/backorder`, whose resolver asks
//!   the user to confirm: on 2026-07-28 two rounds (`input_required`, then the answer), on
//!   2025-11-25 a real `elicitation/create` on the call's SSE stream. The form handler accepts.
//!
//! Every answer is checked (its text); a wrong one stops the run with exit status 1. It runs on
//! a current-thread runtime, so `taskset -c 1` gives it exactly one core.

use mcpwire::client::{Client, EraChoice};
use mcpwire::protocol::{CallToolResult, Content, ElicitAction, ElicitResult};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

const USAGE: &str = "usage: mcpwire-client-load --url URL --era legacy|modern --call add|backorder \
                     [--in-flight N] [--seconds S] [--warmup S]";

/// The run asked for on the command line.
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
            "--era" => {
                options.era = match value.as_str() {
                    "legacy" => "legacy",
                    "modern" => "modern",
                    _ => return Err(USAGE.into()),
                }
            }
            "--call" => {
                options.call = match value.as_str() {
                    "add" => "add",
                    "backorder" => "backorder",
                    _ => return Err(USAGE.into()),
                }
            }
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
        [Content::Text { text, .. }] if result.is_error != Some(true) => Some(text),
        _ => None,
    }
}

async fn run(options: Options) -> Result<Value, String> {
    let era = match options.era {
        "legacy" => EraChoice::Legacy,
        _ => EraChoice::Modern,
    };
    let client = Client::builder()
        .era(era)
        .on_form_elicitation(|_question| async {
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"confirm": true}).as_object().cloned(),
            }
        })
        .connect_http(&options.url)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let (tool, arguments, expected) = workload(options.call);
    let done = Arc::new(AtomicU64::new(0));
    let stop = Instant::now() + Duration::from_secs_f64(options.warmup + options.seconds);
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..options.in_flight {
        let (client, arguments, done) = (client.clone(), arguments.clone(), done.clone());
        workers.spawn(async move {
            while Instant::now() < stop {
                let result = client
                    .call_tool(tool, arguments.clone())
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
    client.close().await;
    if calls == 0 {
        return Err("no call completed in the measured window".into());
    }
    Ok(json!({
        "client": "mcpwire",
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
            eprintln!("mcpwire-client-load: {error}");
            ExitCode::FAILURE
        }
    }
}
