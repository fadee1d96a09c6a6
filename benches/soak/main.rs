//! `mcpwire-soak`: keeps a server (`examples/soak_server.rs`) under mixed traffic on both
//! protocol revisions, then checks that it let go of everything. Run by `scripts/soak`; see
//! `docs/soak.md`.
//!
//! 1. Starts `SERVER_BINARY --http 127.0.0.1:0` and reads its URL from stderr.
//! 2. Warm-up: `--clients` virtual clients play the mix for `--warmup` seconds; traffic stops,
//!    the server is left alone until everything a vanished client left behind has timed out
//!    (the server reports its timeouts), and the baseline is read: `soak_stats` (alive tasks,
//!    open file descriptors, …) and the server's RSS (`/proc/PID/status`).
//! 3. The soak: the same mix for `--duration` seconds, sampling the RSS every `--sample-every`
//!    seconds; traffic stops, the same quiet period, and the final reading. Then the latest
//!    sessions the clients left behind (to expire, or vanished from) are probed: each must be
//!    gone (`404`).
//! 4. Prints one JSON line (the summary) on stdout, a report and every check on stderr, and last
//!    a line `soak: N passed, M failed`; exits 1 when a check failed.
//!
//! The mix (see `client.rs`, `modern.rs`, `legacy.rs`): 2026-07-28 `add`, `ask` answered over
//! two rounds, `ask` abandoned after round one, `slow` dropped mid-stream; 2025-11-25 sessions
//! doing `add`, `ask` answered through `elicitation/create`, `slow` dropped mid-stream and
//! resumed with `Last-Event-ID`, then `DELETE`, leaving the session to expire, or vanishing
//! while a question is pending.
//!
//! Bounded: loopback only, at most 3600 s of traffic, 256 clients (two connections each), every
//! answer within 15 s; it stops by itself and kills the server.

mod checks;
mod client;
mod legacy;
mod modern;
mod report;
mod server;
mod tally;
mod wire;

use client::Client;
use serde_json::{Value, json};
use server::Server;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tally::Tally;
use wire::Target;

const USAGE: &str = "\
usage: mcpwire-soak [--duration SECS] [--warmup SECS] [--clients N] [--pace-ms MS]
                    [--sample-every SECS] [--seed N] SERVER_BINARY";

const MAX_SECONDS: u64 = 3600;
const MAX_CLIENTS: usize = 256;

/// What the command line asks for.
pub struct Options {
    pub binary: String,
    pub duration: Duration,
    pub warmup: Duration,
    pub clients: usize,
    /// The mean pause of a client between two scenarios.
    pub pace: Duration,
    pub sample_every: Duration,
    pub seed: u64,
}

/// One reading of the server: its `soak_stats` and its RSS.
pub struct Reading {
    pub stats: Value,
    pub rss_kib: u64,
}

/// The RSS samples of the soak phase: `(seconds since it began, KiB)`.
pub type Samples = Vec<(u64, u64)>;

/// `clients` virtual clients playing the mix until `length` has passed (and each has finished
/// the scenario it was playing); the RSS is sampled meanwhile.
async fn traffic(
    options: &Options,
    server: &Server,
    target: &Arc<Target>,
    phase: u64,
    length: Duration,
) -> (Tally, Samples) {
    let tally = Tally::default();
    let start = Instant::now();
    let until = start + length;
    let mut clients: Vec<_> = (0..options.clients as u64)
        .map(|i| {
            let seed = options.seed ^ (phase << 32) ^ i;
            let client = Client::new(target.clone(), tally.clone(), seed);
            tokio::spawn(client.run(until, options.pace))
        })
        .collect();
    let mut samples = Vec::new();
    let mut next_sample = start;
    let mut next_report = start + Duration::from_secs(60);
    while let Some(client) = clients.last_mut() {
        let wake = next_sample.min(next_report);
        tokio::select! {
            _ = client => { clients.pop(); }
            () = tokio::time::sleep_until(wake.into()) => {
                let now = Instant::now();
                if now >= next_sample && now < until {
                    samples.push((now.duration_since(start).as_secs(), server.rss_kib().unwrap_or(0)));
                    next_sample += options.sample_every;
                }
                if now >= next_report {
                    let total = tally.total();
                    eprintln!("mcpwire-soak: {} s: {} requests sent, {} lost, {} wrong, RSS {} KiB",
                        now.duration_since(start).as_secs(), total.sent, total.lost, total.wrong,
                        server.rss_kib().unwrap_or(0));
                    next_report += Duration::from_secs(60);
                }
                if now >= until {
                    next_sample = now + Duration::from_secs(MAX_SECONDS);
                }
            }
        }
    }
    (tally, samples)
}

/// Waits `quiet`, then reads the server.
async fn settle_and_read(
    server: &Server,
    target: &Target,
    quiet: Duration,
) -> Result<Reading, String> {
    tokio::time::sleep(quiet).await;
    let stats = server::stats(target).await?;
    let rss_kib = server.rss_kib().ok_or("the server is gone")?;
    Ok(Reading { stats, rss_kib })
}

/// How long to leave the server alone after traffic: a pending question times out, the idle
/// session expires and is reaped (the reaper runs every half idle timeout), plus a margin.
fn quiet_period(stats: &Value) -> Duration {
    let ms = |key: &str| stats[key].as_u64().unwrap_or(30_000);
    let idle = ms("session_idle_timeout_ms");
    Duration::from_millis(ms("question_timeout_ms") + idle + idle / 2 + 1500)
}

/// What a finished soak has to say: the JSON summary, the checks, and the same for people.
struct Finished {
    summary: Value,
    checks: Vec<checks::Check>,
    human: String,
}

async fn soak(options: Options) -> Result<Finished, String> {
    let mut server = Server::start(&options.binary, Duration::from_secs(60)).await?;
    let target = Arc::new(Target::parse(&server.url)?);
    let cold = server::stats(&target).await?;
    let cold_rss = server.rss_kib();
    let quiet = quiet_period(&cold);
    eprintln!(
        "mcpwire-soak: server {} (pid {}); warm-up {} s, soak {} s, {} clients, quiet {} ms",
        server.url,
        server.pid,
        options.warmup.as_secs(),
        options.duration.as_secs(),
        options.clients,
        quiet.as_millis()
    );
    let started = Instant::now();
    let (warmup, _) = traffic(&options, &server, &target, 1, options.warmup).await;
    let warm = settle_and_read(&server, &target, quiet).await?;
    let soak_start = Instant::now();
    let cpu_before = (server.cpu_ns(), server::cpu_ns("self"));
    let (tally, samples) = traffic(&options, &server, &target, 2, options.duration).await;
    let traffic_seconds = soak_start.elapsed().as_secs_f64();
    let cpu_after = (server.cpu_ns(), server::cpu_ns("self"));
    // Cores kept busy during the soak's traffic (1.0 = one core), server and clients.
    let busy = |before: Option<u64>, after: Option<u64>| {
        Some((after? - before?) as f64 / 1e9 / traffic_seconds.max(1e-9))
    };
    let end = settle_and_read(&server, &target, quiet).await?;
    // After the readings, so the probes change nothing they saw.
    let left = tally.left_sessions();
    let ended = legacy::sessions_ended(&target, &left).await?;
    let alive = server.alive();
    let stderr = server.stderr.lock().map(|l| l.clone()).unwrap_or_default();
    server.stop().await;
    let outcome = checks::Outcome {
        warmup: &warmup,
        tally: &tally,
        warm: &warm,
        end: &end,
        alive,
        left: (ended, left.len()),
    };
    let checks = checks::run(&outcome);
    let total = tally.total();
    let human = report::human(&tally, &samples, &warm, &end);
    let max_rss = samples.iter().map(|s| s.1).chain([end.rss_kib]).max();
    let summary = json!({
        "options": {"duration_s": options.duration.as_secs(), "warmup_s": options.warmup.as_secs(),
            "clients": options.clients, "pace_ms": options.pace.as_millis() as u64,
            "seed": options.seed, "quiet_ms": quiet.as_millis() as u64},
        "seconds": started.elapsed().as_secs(),
        "soak": tally.report(),
        "soak_totals": {"sent": total.sent, "answered": total.answered, "abandoned": total.abandoned,
            "wrong": total.wrong, "lost": total.lost,
            "per_second": total.sent as f64 / traffic_seconds.max(1e-9)},
        "cpu_busy": {"server": busy(cpu_before.0, cpu_after.0),
            "clients": busy(cpu_before.1, cpu_after.1)},
        "warmup": warmup.report(),
        "rss_kib": {"cold": cold_rss, "warm": warm.rss_kib, "max": max_rss,
            "final": end.rss_kib, "samples": samples},
        "stats": {"cold": cold, "warm": warm.stats, "final": end.stats},
        "checks": checks.iter().map(checks::Check::to_json).collect::<Vec<_>>(),
        "server_stderr_tail": stderr,
    });
    Ok(Finished {
        summary,
        checks,
        human,
    })
}

fn fail(why: &str) -> ! {
    eprintln!("mcpwire-soak: {why}\n{USAGE}");
    std::process::exit(2);
}

fn number<T: std::str::FromStr>(args: &mut impl Iterator<Item = String>, flag: &str) -> T {
    let text = args
        .next()
        .unwrap_or_else(|| fail(&format!("{flag} needs a value")));
    text.parse()
        .unwrap_or_else(|_| fail(&format!("{flag}: bad value {text:?}")))
}

fn seconds(args: &mut impl Iterator<Item = String>, flag: &str) -> Duration {
    let s: u64 = number(args, flag);
    if !(1..=MAX_SECONDS).contains(&s) {
        fail(&format!("{flag} must be 1..={MAX_SECONDS} s"));
    }
    Duration::from_secs(s)
}

fn options() -> Options {
    let mut options = Options {
        binary: String::new(),
        duration: Duration::from_secs(600),
        warmup: Duration::from_secs(30),
        clients: 16,
        pace: Duration::from_millis(5),
        sample_every: Duration::from_secs(5),
        seed: 1,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--duration" => options.duration = seconds(&mut args, "--duration"),
            "--warmup" => options.warmup = seconds(&mut args, "--warmup"),
            "--clients" => options.clients = number(&mut args, "--clients"),
            "--pace-ms" => options.pace = Duration::from_millis(number(&mut args, "--pace-ms")),
            "--sample-every" => options.sample_every = seconds(&mut args, "--sample-every"),
            "--seed" => options.seed = number(&mut args, "--seed"),
            flag if flag.starts_with("--") => fail(&format!("unknown argument {flag:?}")),
            _ if options.binary.is_empty() => options.binary = arg,
            _ => fail("one SERVER_BINARY only"),
        }
    }
    if options.binary.is_empty() {
        fail("SERVER_BINARY is required");
    }
    if !(1..=MAX_CLIENTS).contains(&options.clients) {
        fail(&format!("--clients must be 1..={MAX_CLIENTS}"));
    }
    if options.pace > Duration::from_secs(10) {
        fail("--pace-ms must be at most 10000");
    }
    options
}

fn main() -> ExitCode {
    let options = options();
    // One thread: the clients are light, and the server keeps the other core.
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime");
    match runtime.block_on(soak(options)) {
        Ok(Finished {
            summary,
            checks,
            human,
        }) => {
            println!("{summary}");
            eprint!("{human}");
            for check in &checks {
                eprintln!("{check}");
            }
            let failed = checks.iter().filter(|c| !c.passed).count();
            eprintln!("soak: {} passed, {failed} failed", checks.len() - failed);
            if failed == 0 {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error) => {
            eprintln!("mcpwire-soak: {error}");
            eprintln!("soak: 0 passed, 1 failed");
            ExitCode::FAILURE
        }
    }
}
