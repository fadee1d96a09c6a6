//! `dev`: the restart after a source change (and the quiet before it), and the HTTP bridge
//! serving stdio examples to the official Python SDK client (`tests/peers/client.py`) over
//! Streamable HTTP on both eras, questions included.

mod common;

use common::{cli, example_bin, peer, wait_until, workspace_root};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A running `mcpwire-cli dev`, its stderr lines collected; stopped with Ctrl-C (SIGINT) on drop.
struct Dev {
    child: Child,
    lines: Receiver<String>,
    seen: Arc<Mutex<Vec<String>>>,
}

impl Dev {
    fn start(args: &[&str], dir: &std::path::Path) -> Dev {
        let mut child = cli()
            .arg("dev")
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mcpwire-cli dev");
        let (sender, lines) = mpsc::channel();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let record = seen.clone();
        let stderr = BufReader::new(child.stderr.take().unwrap());
        thread::spawn(move || {
            for line in stderr.lines().map_while(Result::ok) {
                record.lock().unwrap().push(line.clone());
                let _ = sender.send(line);
            }
        });
        Dev { child, lines, seen }
    }

    /// The next stderr line that contains `text`.
    fn wait_for(&self, text: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line.contains(text) => return line,
                Ok(_) => {}
                Err(_) => panic!(
                    "dev never printed {text:?}; stderr:\n{}",
                    self.seen.lock().unwrap().join("\n")
                ),
            }
        }
    }

    fn stderr(&self) -> Vec<String> {
        self.seen.lock().unwrap().clone()
    }

    /// The bridge's URL, from its one start-up line.
    fn url(&self) -> String {
        let line = self.wait_for("as Streamable HTTP at ");
        line.rsplit(' ').next().unwrap().to_owned()
    }
}

impl Drop for Dev {
    fn drop(&mut self) {
        let _ = Command::new("kill")
            .args(["-INT", &self.child.id().to_string()])
            .status();
        if wait_until(&mut self.child, Instant::now() + Duration::from_secs(10)).is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

fn process_alive(pid: &str) -> bool {
    Command::new("kill")
        .args(["-0", pid])
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

#[test]
fn dev_restarts_the_server_when_a_source_changes_and_is_quiet_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"watched\"\n",
    )
    .unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/main.rs"), "fn main() {}\n").unwrap();
    // The "server" says who it is, then waits; its child (`sleep`) shares its process group.
    let dev = Dev::start(
        &["--", "sh", "-c", "echo started $$ >&2; sleep 120"],
        dir.path(),
    );
    let first = dev.wait_for("started ");
    let first_pid = first.trim_start_matches("started ").to_owned();
    thread::sleep(Duration::from_millis(800));
    assert_eq!(
        dev.stderr(),
        std::slice::from_ref(&first),
        "dev is quiet while nothing happens"
    );

    // Build output does not count; a source file does.
    std::fs::create_dir_all(dir.path().join("target/debug")).unwrap();
    std::fs::write(dir.path().join("target/debug/out"), "x").unwrap();
    thread::sleep(Duration::from_millis(800));
    assert_eq!(
        dev.stderr(),
        std::slice::from_ref(&first),
        "a change under target/ restarts nothing"
    );
    std::fs::write(
        dir.path().join("src/main.rs"),
        "fn main() { println!(\"hi\"); }\n",
    )
    .unwrap();
    let restart = dev.wait_for("changed; restarting the server");
    assert!(restart.contains("main.rs"), "{restart}");
    let second = dev.wait_for("started ");
    let second_pid = second.trim_start_matches("started ");
    assert_ne!(first_pid, second_pid, "a new process");
    assert!(!process_alive(&first_pid), "the old server was stopped");
    assert_eq!(
        dev.stderr().len(),
        3,
        "one line per restart: {:?}",
        dev.stderr()
    );
}

/// `client.py` (the Python SDK) over HTTP: its stdout lines, and the results it received.
fn python_client(
    mode: &str,
    url: &str,
    options: &[&str],
    steps: &[&str],
) -> (Vec<Value>, Vec<Value>) {
    let wire = tempfile::NamedTempFile::new().unwrap();
    let out = Command::new(peer("MCP_PEER_PYTHON", "venv/bin/python"))
        .arg(workspace_root().join("tests/peers/client.py"))
        .args(["--mode", mode, "--http", url, "--wire-log"])
        .arg(wire.path())
        .args(options)
        .args(steps)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "client.py: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let received = std::fs::read_to_string(wire.path())
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|l| l["dir"] == "recv")
        .filter_map(|l| l["message"].get("result").cloned())
        .collect();
    (lines, received)
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("no text in {result}"))
}

fn the_bridge_serves_stdio_examples_with_questions(mode: &str) {
    let here = workspace_root();
    let backorder = example_bin("backorder").display().to_string();
    let dev = Dev::start(&["--http", "127.0.0.1:0", "--", &backorder], &here);
    let url = dev.url();
    let accept = r#"{"action":"accept","content":{"confirm":true}}"#;
    let steps = ["call", "order_book", r#"{"title":"Neuromancer"}"#];
    let twice: Vec<&str> = steps.iter().chain(&steps).copied().collect();
    let (lines, received) = python_client(
        mode,
        &url,
        &["--elicit", accept, "--elicit", r#"{"action":"decline"}"#],
        &twice,
    );
    assert_eq!(
        text(&lines[0]),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks.",
        "[{mode}]"
    );
    assert_eq!(
        text(&lines[1]),
        "Error executing tool order_book: Resolver for parameter 'backorder' could not resolve: elicitation was decline",
        "[{mode}]"
    );
    assert_eq!(lines[1]["isError"], true);
    let asked = lines[2]["asked"].as_array().unwrap();
    assert_eq!(
        asked.len(),
        2,
        "[{mode}] both questions reached the HTTP client"
    );
    assert_eq!(
        asked[0]["params"]["message"],
        "'Neuromancer' is out of stock (2-3 weeks). Order anyway?"
    );
    let rounds = received
        .iter()
        .filter(|r| r["resultType"] == "input_required")
        .count();
    match mode {
        "legacy" => assert_eq!(
            rounds, 0,
            "legacy questions are requests on the event stream"
        ),
        _ => assert_eq!(
            rounds, 2,
            "[{mode}] each question is an input_required result passed through"
        ),
    }

    let recommend = example_bin("recommend_book").display().to_string();
    let dev = Dev::start(&["--http", "127.0.0.1:0", "--", &recommend], &here);
    let (lines, _) = python_client(
        mode,
        &dev.url(),
        &["--sample", "Dune"],
        &["call", "recommend_book", r#"{"genre":"science fiction"}"#],
    );
    assert_eq!(
        text(&lines[0]),
        "Today's science fiction pick: Dune",
        "[{mode}]"
    );
    assert_eq!(lines[1]["asked"][0]["method"], "sampling/createMessage");
}

#[test]
fn the_bridge_serves_stdio_examples_with_questions_legacy() {
    the_bridge_serves_stdio_examples_with_questions("legacy");
}

#[test]
fn the_bridge_serves_stdio_examples_with_questions_modern() {
    the_bridge_serves_stdio_examples_with_questions("2026-07-28");
}

/// The bridge restarts its servers on a change; a new session works at once.
#[test]
fn the_bridge_restarts_its_servers_when_a_source_changes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"watched\"\n",
    )
    .unwrap();
    let bookshop = example_bin("bookshop").display().to_string();
    let dev = Dev::start(&["--http", "127.0.0.1:0", "--", &bookshop], dir.path());
    let url = dev.url();
    for round in 0..2 {
        for era in ["legacy", "modern"] {
            let sum = common::run(&[
                "call", "--url", &url, "--era", era, "add", "a=2", "b=3", "--json",
            ]);
            assert_eq!(sum.code(), 0, "[round {round} {era}]");
            let sum: Value = serde_json::from_str(&sum.stdout).unwrap();
            assert_eq!(sum["structuredContent"]["result"], 5);
        }
        std::fs::write(dir.path().join("lib.rs"), format!("// {round}\n")).unwrap();
        dev.wait_for("lib.rs changed; restarting the server");
    }
}

/// Without `--http`, `dev` stands in for the server over stdio: a client launches it as its
/// server, and it ends when the client is done.
#[test]
fn dev_serves_over_its_own_stdio() {
    let server = format!(
        "{} dev -- {}",
        env!("CARGO_BIN_EXE_mcpwire-cli"),
        example_bin("bookshop").display()
    );
    for era in ["legacy", "modern"] {
        let sum = common::run(&[
            "call", "--stdio", &server, "--era", era, "add", "a=2", "b=3",
        ]);
        assert_eq!(sum.code(), 0, "[{era}] {}", sum.stderr);
        assert!(sum.stdout.starts_with("5\n"), "[{era}] {}", sum.stdout);
    }
}

/// `dev --http` binds loopback addresses only; `--allow-remote` lets it bind another, and says
/// that anyone who reaches it can use it.
#[test]
fn dev_http_binds_loopback_only_unless_allow_remote() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("Cargo.toml"),
        "[package]\nname = \"watched\"\n",
    )
    .unwrap();
    let marker = dir.path().join("started");
    let server = format!("touch {}; sleep 120", marker.display());
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let refused = cli()
            .args(["dev", "--http", addr, "--", "sh", "-c", &server])
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&refused.stderr);
        assert_eq!(refused.status.code(), Some(1), "{addr}: {said}");
        assert!(
            said.contains("not a loopback address") && said.contains("--allow-remote"),
            "{addr}: {said}"
        );
        assert!(!marker.exists(), "{addr}: no server was started");
    }

    let bookshop = example_bin("bookshop").display().to_string();
    let dev = Dev::start(
        &["--http", "0.0.0.0:0", "--allow-remote", "--", &bookshop],
        dir.path(),
    );
    let warning = dev.wait_for("--allow-remote");
    assert!(warning.contains("anyone who reaches it"), "{warning}");
    // Reached over loopback (0.0.0.0 listens there too), it serves.
    let url = dev.url().replace("0.0.0.0", "127.0.0.1");
    let sum = common::run(&["call", "--url", &url, "add", "a=2", "b=3", "--json"]);
    assert_eq!(sum.code(), 0, "{}", sum.stderr);
}
