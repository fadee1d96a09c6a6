//! `dev --inspector`: the MCP Inspector web UI, connected to the bridge's URL. It runs from
//! `target/peers` when `scripts/setup-peers` installed it there (`MCP_PEER_NODE`,
//! `MCP_PEER_INSPECTOR`), else with `npx` at the version the tests pin.

use super::child::ServerProcess;
use std::process::Stdio;

/// The Inspector version the tests pin (tests/peers/package.json).
pub const VERSION: &str = "2.12.0";

/// Starts the Inspector on `url`; it prints its own address (with its access token).
pub fn start(url: &str) -> std::io::Result<ServerProcess> {
    let mut command: Vec<String> = match (
        std::env::var("MCP_PEER_NODE"),
        std::env::var("MCP_PEER_INSPECTOR"),
    ) {
        (Ok(node), Ok(inspector)) if !node.is_empty() && !inspector.is_empty() => {
            vec![node, inspector]
        }
        _ => vec![
            "npx".into(),
            "-y".into(),
            format!("@modelcontextprotocol/inspector@{VERSION}"),
        ],
    };
    command.extend([
        "--transport".into(),
        "http".into(),
        "--server-url".into(),
        url.into(),
    ]);
    eprintln!("dev: starting the MCP Inspector: {}", command.join(" "));
    ServerProcess::start(&command, Stdio::null(), Stdio::inherit(), true)
}
