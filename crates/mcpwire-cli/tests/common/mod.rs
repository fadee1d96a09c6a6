//! What the CLI's tests share: the built `mcpwire-cli` binary, the workspace's example servers
//! (over stdio, or started on `--http 127.0.0.1:0`), the third-party peers, and running the CLI
//! with a deadline so that a hang fails the test instead of CI.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// The longest one CLI run may take.
pub const RUN_TIMEOUT: Duration = Duration::from_secs(60);

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("the workspace root")
}

/// The CLI binary under test.
pub fn cli() -> Command {
    Command::new(env!("CARGO_BIN_EXE_mcpwire-cli"))
}

/// `target/<profile>`, where this test binary's `deps/` folder is.
fn profile_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary's path");
    exe.parent()
        .and_then(Path::parent)
        .expect("target/<profile>/deps")
        .to_owned()
}

/// The compiled example `name` of the root package, brought up to date once per test binary
/// (`cargo test -p mcpwire-cli` does not build the examples of another package).
pub fn example_bin(name: &str) -> PathBuf {
    static BUILT: OnceLock<()> = OnceLock::new();
    let profile_dir = profile_dir();
    BUILT.get_or_init(|| {
        let Ok(cargo) = std::env::var("CARGO") else {
            return;
        };
        let dir_name = profile_dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("debug");
        let profile = if dir_name == "debug" { "dev" } else { dir_name };
        let status = Command::new(cargo)
            .args([
                "build",
                "--quiet",
                "--examples",
                "-p",
                "mcpwire-examples",
                "--profile",
                profile,
            ])
            .arg("--target-dir")
            .arg(profile_dir.parent().expect("the target dir"))
            .current_dir(workspace_root())
            .status()
            .expect("cargo build --examples");
        assert!(status.success(), "cargo build --examples failed: {status}");
    });
    let path = profile_dir.join("examples").join(name);
    assert!(path.is_file(), "example {} is missing", path.display());
    path
}

/// The `--stdio` value running example `name`.
pub fn stdio_example(name: &str) -> String {
    example_bin(name).display().to_string()
}

/// A third-party peer under `target/peers` (installed by `scripts/setup-peers`): the
/// environment variable, else the default path. A missing peer fails the test.
pub fn peer(var: &str, default: &str) -> PathBuf {
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

/// What one CLI run left behind.
#[derive(Debug)]
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The exit code.
    pub fn code(&self) -> i32 {
        self.status.code().unwrap_or(-1)
    }
}

/// Runs the CLI with `args` (stdin closed: not a terminal) and a deadline.
pub fn run(args: &[&str]) -> Run {
    let mut command = cli();
    command.args(args);
    run_command(command, format!("mcpwire-cli {args:?}"))
}

/// Runs `command` (the CLI with its arguments and environment) as [`run`] does.
pub fn run_command(mut command: Command, description: String) -> Run {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("start mcpwire-cli");
    let stdout = drain(child.stdout.take().expect("stdout"));
    let stderr = drain(child.stderr.take().expect("stderr"));
    let status = wait_until(&mut child, Instant::now() + RUN_TIMEOUT).unwrap_or_else(|| {
        let _ = child.kill();
        panic!(
            "{description} did not finish within {RUN_TIMEOUT:?}; stderr:\n{}",
            stderr.lock().unwrap()
        )
    });
    // The pipes close once the CLI and anything it spawned are gone.
    let done = Instant::now() + Duration::from_secs(10);
    while Arc::strong_count(&stdout) + Arc::strong_count(&stderr) > 2 && Instant::now() < done {
        thread::sleep(Duration::from_millis(10));
    }
    let run = Run {
        status,
        stdout: stdout.lock().unwrap().clone(),
        stderr: stderr.lock().unwrap().clone(),
    };
    eprintln!(
        "{description}: {}\n--- stdout\n{}--- stderr\n{}",
        run.code(),
        run.stdout,
        run.stderr
    );
    run
}

/// Reads a pipe to its end on a thread; the thread holds the other reference until then.
fn drain(mut pipe: impl Read + Send + 'static) -> Arc<Mutex<String>> {
    let text = Arc::new(Mutex::new(String::new()));
    let sink = text.clone();
    thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = pipe.read_to_end(&mut buf);
        *sink.lock().unwrap() = String::from_utf8_lossy(&buf).into_owned();
    });
    text
}

/// Polls `child` until it exits or `deadline` passes.
pub fn wait_until(child: &mut Child, deadline: Instant) -> Option<ExitStatus> {
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return Some(status);
        }
        if Instant::now() >= deadline {
            return None;
        }
        thread::sleep(Duration::from_millis(10));
    }
}

/// A server listening on HTTP, killed on drop.
pub struct HttpServer {
    child: Child,
    /// Its endpoint.
    pub url: String,
    stderr: Arc<Mutex<String>>,
}

impl HttpServer {
    /// Starts `command` (which prints `MCP server listening on URL` on stderr) and waits for the
    /// URL.
    pub fn start(mut command: Command) -> Self {
        let description = format!("{command:?}");
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {description}: {e}"));
        let stderr = Arc::new(Mutex::new(String::new()));
        let (found, url) = mpsc::channel();
        let pipe = BufReader::new(child.stderr.take().expect("stderr"));
        let sink = stderr.clone();
        thread::spawn(move || {
            for line in pipe.lines().map_while(Result::ok) {
                sink.lock().unwrap().push_str(&format!("{line}\n"));
                if let Some(url) = line.split("listening on ").nth(1) {
                    let _ = found.send(url.trim().to_owned());
                }
            }
        });
        let url = url
            .recv_timeout(Duration::from_secs(60))
            .unwrap_or_else(|_| {
                let _ = child.kill();
                panic!(
                    "{description} printed no URL; stderr:\n{}",
                    stderr.lock().unwrap()
                )
            });
        // Some servers print their URL before they bind it: wait until it accepts.
        let authority = url
            .trim_start_matches("http://")
            .split('/')
            .next()
            .unwrap_or("")
            .to_owned();
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(&authority).is_err() {
            assert!(
                Instant::now() < deadline,
                "{description} never accepted on {authority}"
            );
            thread::sleep(Duration::from_millis(20));
        }
        HttpServer { child, url, stderr }
    }

    /// Example `name` on a free port.
    pub fn example(name: &str) -> Self {
        let mut command = Command::new(example_bin(name));
        command.args(["--http", "127.0.0.1:0"]);
        Self::start(command)
    }

    /// What it wrote on stderr so far.
    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A free TCP port on 127.0.0.1 (for servers that cannot report the port they bound).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}
