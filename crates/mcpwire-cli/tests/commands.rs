//! The other commands and flags against this workspace's examples: progress lines and log
//! messages on stderr, roots, resources, prompts, the exit codes for a server that wants
//! authorization (3) or cannot be reached (4), and Ctrl-C cancelling the call on the server.

mod common;

use common::{HttpServer, cli, run, stdio_example};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn conformance() -> String {
    stdio_example("conformance")
}

#[test]
fn progress_and_log_messages_go_to_stderr() {
    let server = conformance();
    for era in ["legacy", "modern"] {
        let out = run(&[
            "call",
            "--stdio",
            &server,
            "--era",
            era,
            "test_tool_with_progress",
        ]);
        assert_eq!(out.stdout, "Progress test completed\n", "[{era}]");
        assert!(
            out.stderr
                .contains("progress 0/100\nprogress 50/100\nprogress 100/100\n"),
            "[{era}] {}",
            out.stderr
        );
        let out = run(&[
            "call",
            "--stdio",
            &server,
            "--era",
            era,
            "test_tool_with_logging",
            "--log-level",
            "info",
        ]);
        assert_eq!(out.stdout, "Logging test completed\n", "[{era}]");
        assert!(
            out.stderr.contains("[info] Tool execution started\n"),
            "[{era}] {}",
            out.stderr
        );
        let quiet = run(&[
            "call",
            "--stdio",
            &server,
            "--era",
            era,
            "test_tool_with_logging",
            "--log-level",
            "error",
        ]);
        assert!(
            !quiet.stderr.contains("Tool execution"),
            "[{era}] below the level: {}",
            quiet.stderr
        );
    }
}

#[test]
fn roots_are_declared_with_root() {
    let server = conformance();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().display().to_string();
    for era in ["legacy", "modern"] {
        let out = run(&[
            "call",
            "--stdio",
            &server,
            "--era",
            era,
            "test_input_required_result_list_roots",
            "--root",
            &path,
        ]);
        assert_eq!(
            out.stdout,
            format!("Client roots: file://{path}\n"),
            "[{era}]"
        );
    }
}

#[test]
fn resources_are_listed_and_read() {
    let server = conformance();
    let out = run(&["resources", "--stdio", &server]);
    assert!(
        out.stdout.contains(
            "test://static-text  Static Text Resource (text/plain): A static text resource.\n"
        ),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("test://template/{id}/data  Dynamic Resource (application/json)"),
        "{}",
        out.stdout
    );
    let text = run(&["read", "--stdio", &server, "test://static-text"]);
    assert_eq!(
        text.stdout,
        "This is the content of the static text resource.\n"
    );
    let blob = run(&["read", "--stdio", &server, "test://static-binary"]);
    assert_eq!(blob.stdout, "[test://static-binary image/png, 70 bytes]\n");
    let raw = run(&["read", "--stdio", &server, "test://static-binary", "--json"]);
    let raw: Value = serde_json::from_str(&raw.stdout).unwrap();
    assert_eq!(raw["contents"][0]["mimeType"], "image/png");
}

#[test]
fn skills_are_listed_and_their_files_read() {
    let server = conformance();
    for era in ["legacy", "modern"] {
        let out = run(&["skills", "--stdio", &server, "--era", era]);
        assert!(
            out.stdout.starts_with(
                "skill://find-and-reserve-a-book/SKILL.md  find-and-reserve-a-book: Find a book"
            ),
            "[{era}] {}",
            out.stdout
        );
        assert!(
            out.stdout
                .contains("  skill://find-and-reserve-a-book/references/tools.md  "),
            "[{era}] {}",
            out.stdout
        );
        let raw = run(&["skills", "--stdio", &server, "--era", era, "--json"]);
        let raw: Value = serde_json::from_str(&raw.stdout).unwrap();
        let files = raw["skills"][0]["resources"].as_array().unwrap();
        let tools = (files.iter())
            .find(|file| file["uri"].as_str().unwrap().ends_with("tools.md"))
            .unwrap();
        let read = run(&[
            "read",
            "--stdio",
            &server,
            "--era",
            era,
            tools["uri"].as_str().unwrap(),
        ]);
        assert!(
            read.stdout.starts_with("# The bookshop's tools"),
            "{}",
            read.stdout
        );
        // The size listed is the size served (the read prints the text and a newline).
        assert_eq!(
            read.stdout.len() as u64 - 1,
            tools["size"].as_u64().unwrap()
        );
    }
    let none = run(&["skills", "--stdio", &stdio_example("backorder")]);
    assert_eq!(none.stdout, "", "{}", none.stderr);
    assert!(
        none.stderr.contains("the server publishes no skills"),
        "{}",
        none.stderr
    );
}

#[test]
fn prompts_are_listed_and_got() {
    let server = conformance();
    let out = run(&["prompts", "--stdio", &server]);
    assert!(
        out.stdout
            .contains("test_prompt_with_arguments(arg1, arg2)\n    A prompt with two arguments.\n"),
        "{}",
        out.stdout
    );
    let got = run(&[
        "prompt",
        "--stdio",
        &server,
        "test_prompt_with_arguments",
        "arg1=x y",
        "arg2=2",
    ]);
    assert_eq!(
        got.stdout,
        "user: Prompt with arguments: arg1='x y', arg2='2'\n"
    );
    let image = run(&["call", "--stdio", &server, "test_image_content"]);
    assert_eq!(image.stdout, "[image image/png, 70 bytes]\n");
}

#[test]
fn a_server_that_wants_authorization_exits_3_and_headers_are_sent() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let heads = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let record = heads.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 4096];
            let n = stream.read(&mut buf).unwrap_or(0);
            record
                .lock()
                .unwrap()
                .push(String::from_utf8_lossy(&buf[..n]).to_lowercase());
            let _ = stream.write_all(
                b"HTTP/1.1 401 Unauthorized\r\nWWW-Authenticate: Bearer\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
            );
        }
    });
    let out = run(&[
        "tools",
        "--url",
        &url,
        "--header",
        "Authorization: Bearer expired",
        "--header",
        "X-Team:  books",
    ]);
    assert_eq!(out.code(), 3, "{}", out.stderr);
    assert!(out.stderr.contains("HTTP 401"), "{}", out.stderr);
    let heads = heads.lock().unwrap();
    assert!(!heads.is_empty());
    for head in heads.iter() {
        assert!(
            head.contains("\r\nauthorization: bearer expired\r\n"),
            "{head}"
        );
        assert!(head.contains("\r\nx-team: books\r\n"), "{head}");
    }
    let bad = run(&["tools", "--url", &url, "--header", "no colon"]);
    assert_eq!(bad.code(), 1);
    assert!(
        bad.stderr
            .contains(r#"--header "no colon": expected "K: V""#),
        "{}",
        bad.stderr
    );
}

#[test]
fn an_unreachable_server_or_a_dead_child_exits_4() {
    let port = common::free_port();
    let out = run(&["info", "--url", &format!("http://127.0.0.1:{port}/mcp")]);
    assert_eq!(out.code(), 4, "{}", out.stderr);
    assert!(
        out.stderr.to_lowercase().contains("connection refused"),
        "the cause is named: {}",
        out.stderr
    );
    // (The child's last words on stderr usually follow in the message; the client reads them
    // concurrently with the end of stdout, so not always.)
    let out = run(&["info", "--stdio", "sh -c 'echo bye >&2; exit 3'"]);
    assert_eq!(out.code(), 4, "{}", out.stderr);
    assert!(
        out.stderr.contains("the connection is closed"),
        "{}",
        out.stderr
    );
    let out = run(&["info", "--stdio", "/no/such/server"]);
    assert_eq!(out.code(), 4, "{}", out.stderr);
}

#[test]
fn usage_errors_exit_1() {
    let out = run(&[
        "call",
        "--stdio",
        &stdio_example("bookshop"),
        "add",
        "--args",
        "[1]",
    ]);
    assert_eq!(out.code(), 1);
    assert!(out.stderr.contains("not a JSON object"), "{}", out.stderr);
    let out = run(&["call", "--stdio", "'unclosed", "add"]);
    assert_eq!(out.code(), 1, "{}", out.stderr);
    let out = run(&["tools"]);
    assert_eq!(out.code(), 2, "clap's own usage error: {}", out.stderr);
}

/// Ctrl-C during a long call: the CLI tells the server (`notifications/cancelled` on a
/// 2025-11-25 session, the closed response on 2026-07-28), whose `slow` body then stops before
/// its end.
#[test]
fn ctrl_c_cancels_the_call_on_the_server() {
    for era in ["legacy", "modern"] {
        interrupt_slow(era);
    }
}

fn interrupt_slow(era: &str) {
    let server = HttpServer::example("soak_server");
    let mut child = cli()
        .args([
            "call",
            "--url",
            &server.url,
            "--era",
            era,
            "slow",
            "steps=20",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut line = String::new();
    while !line.starts_with("progress 1/20") {
        line.clear();
        assert!(
            stderr.read_line(&mut line).unwrap() > 0,
            "the call ended before its first progress"
        );
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let exited = common::wait_until(&mut child, Instant::now() + Duration::from_secs(10))
        .expect("the CLI exits");
    assert_eq!(exited.code(), Some(130));
    let mut rest = String::new();
    stderr.read_to_string(&mut rest).unwrap();
    assert!(
        rest.contains("interrupted: the request was cancelled"),
        "{rest}"
    );
    // An uncancelled `slow` of 20 steps finishes within 20 x 40 ms.
    std::thread::sleep(Duration::from_millis(1200));
    let stats = run(&["call", "--url", &server.url, "soak_stats", "--json"]);
    let stats: Value = serde_json::from_str(&stats.stdout).unwrap();
    let stats = &stats["structuredContent"];
    assert_eq!(stats["slow_started"], 1, "[{era}] {stats}");
    assert_eq!(
        stats["slow_finished"], 0,
        "[{era}] the body was cancelled: {stats}"
    );
    assert_eq!(stats["slow_running"], 0, "{stats}");
}

/// The bookshop's first start over HTTP suggests `mcpwire-cli` commands: each one, as printed,
/// works (split like a shell would; no quoting is needed).
#[test]
fn the_bookshop_suggests_commands_that_work() {
    let server = HttpServer::example("bookshop");
    let stderr = server.stderr();
    let suggested: Vec<Vec<&str>> = stderr
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("mcpwire-cli "))
        .map(|command| command.split_whitespace().collect())
        .collect();
    assert_eq!(suggested.len(), 2, "{stderr}");
    let reserve = run(&suggested[0]);
    assert_eq!(reserve.code(), 0, "{stderr}");
    assert_eq!(reserve.stdout, "Reserved 'Dune' (6 copies left).\n");
    let browse = run(&suggested[1]);
    assert_eq!(browse.code(), 0, "{stderr}");
    assert!(
        browse
            .stdout
            .contains("\n- Dune by Frank Herbert (1965): $10.99, 6 in stock\n"),
        "{}",
        browse.stdout
    );
}
