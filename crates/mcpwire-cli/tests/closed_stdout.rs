//! A reader that stops early (`mcpwire-cli resources --stdio … | head -1`) closes the CLI's
//! stdout: every command then ends quietly with exit 0, no panic. Here stdout is closed before
//! the CLI writes anything, so every command meets the broken pipe on its first line.

mod common;

use common::{cli, stdio_example, wait_until};
use std::io::Read;
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Runs the CLI with `args` and its stdout already closed; returns the exit code and stderr.
fn with_stdout_closed(args: &[&str]) -> (Option<i32>, String) {
    let mut child = cli()
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start mcpwire-cli");
    drop(child.stdout.take()); // the reader is gone
    let mut stderr = child.stderr.take().expect("stderr");
    let status =
        wait_until(&mut child, Instant::now() + Duration::from_secs(60)).unwrap_or_else(|| {
            let _ = child.kill();
            panic!("mcpwire-cli {args:?} did not finish");
        });
    let mut text = String::new();
    let _ = stderr.read_to_string(&mut text);
    (status.code(), text)
}

#[test]
fn every_command_ends_quietly_when_stdout_is_closed() {
    let server = stdio_example("conformance");
    let commands: &[&[&str]] = &[
        &["info"],
        &["info", "--json"],
        &["tools"],
        &["tools", "--json"],
        &["resources"],
        &["resources", "--json"],
        &["read", "test://static-text"],
        &["prompts"],
        &["prompts", "--json"],
        &["prompt", "test_simple_prompt"],
        &["call", "test_simple_text"],
        &["call", "test_simple_text", "--json"],
    ];
    for command in commands {
        let mut args = command.to_vec();
        args.extend(["--stdio", &server, "--era", "legacy"]);
        let (code, stderr) = with_stdout_closed(&args);
        assert!(
            !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
            "{command:?}: {stderr}"
        );
        assert_eq!(code, Some(0), "{command:?}: {stderr}");
    }
}
