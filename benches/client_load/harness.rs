//! What the two client benchmarks share, source for source: `benches/client_load` (mcpwire's
//! client) and `benches/peers/rmcp-client` (rmcp's, its own cargo project, which includes this
//! file with `#[path]`). Flags, the workloads and their expected answers, the measured loop
//! (N tasks calling for a fixed time, counting after the warm-up), CPU time, and the JSON line.

use serde_json::{Value, json};
use std::future::Future;
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// The run asked for on the command line.
pub struct Options {
    pub url: String,
    pub era: &'static str,
    pub call: &'static str,
    pub in_flight: usize,
    pub seconds: f64,
    pub warmup: f64,
}

impl Options {
    /// The tool, its arguments, and the one text its answer must be.
    pub fn workload(&self) -> (&'static str, Value, &'static str) {
        match self.call {
            "add" => ("add", json!({"a": 2, "b": 3}), "5"),
            _ => (
                "order_book",
                json!({"title": "Neuromancer"}),
                "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
            ),
        }
    }
}

fn usage(program: &str) -> String {
    format!(
        "usage: {program} --url URL --era legacy|modern --call add|backorder \
         [--in-flight N] [--seconds S] [--warmup S]"
    )
}

fn options(program: &str) -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let mut options = Options {
        url: String::new(),
        era: "modern",
        call: "add",
        in_flight: 1,
        seconds: 5.0,
        warmup: 1.0,
    };
    let bad = || usage(program);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(bad)?;
        match (flag.as_str(), value.as_str()) {
            ("--url", _) => options.url = value,
            ("--era", "legacy") => options.era = "legacy",
            ("--era", "modern") => options.era = "modern",
            ("--call", "add") => options.call = "add",
            ("--call", "backorder") => options.call = "backorder",
            ("--in-flight", n) => options.in_flight = n.parse().map_err(|_| bad())?,
            ("--seconds", s) => options.seconds = s.parse().map_err(|_| bad())?,
            ("--warmup", s) => options.warmup = s.parse().map_err(|_| bad())?,
            _ => return Err(bad()),
        }
    }
    let bounded = (1..=1024).contains(&options.in_flight)
        && (0.1..=300.0).contains(&options.seconds)
        && (0.0..=60.0).contains(&options.warmup);
    if options.url.is_empty() || !bounded {
        return Err(bad());
    }
    Ok(options)
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

/// Keeps `options.in_flight` calls of `call` going until the warm-up and the measured time have
/// passed, and reports the measured window as the JSON line of `client`.
pub async fn measure<F, Fut>(client: &str, options: &Options, call: F) -> Result<Value, String>
where
    F: Fn() -> Fut + Clone + Send + 'static,
    Fut: Future<Output = Result<(), String>> + Send,
{
    let done = Arc::new(AtomicU64::new(0));
    let stop = Instant::now() + Duration::from_secs_f64(options.warmup + options.seconds);
    let mut workers = tokio::task::JoinSet::new();
    for _ in 0..options.in_flight {
        let (call, done) = (call.clone(), done.clone());
        workers.spawn(async move {
            while Instant::now() < stop {
                call().await?;
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
        "client": client,
        "era": options.era,
        "call": options.call,
        "in_flight": options.in_flight,
        "calls": calls,
        "seconds": elapsed.as_secs_f64(),
        "calls_per_s": calls as f64 / elapsed.as_secs_f64(),
        "cpu_us_per_call": cpu.as_secs_f64() * 1e6 / calls as f64,
    }))
}

/// Parses the flags, runs `run` on a current-thread runtime, prints its line or its failure.
pub fn main_with<R, Fut>(program: &str, run: R) -> ExitCode
where
    R: FnOnce(Options) -> Fut,
    Fut: Future<Output = Result<Value, String>>,
{
    let options = match options(program) {
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
            eprintln!("{program}: {error}");
            ExitCode::FAILURE
        }
    }
}
