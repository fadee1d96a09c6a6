//! A small MCP client on `mcpwire::client`: lists a server's tools, or calls one.
//!
//! ```text
//! mcp_call [--era auto|legacy|modern] URL [TOOL [JSON]]
//! mcp_call [--era auto|legacy|modern] [TOOL [JSON]] -- PROGRAM [ARGS...]
//! ```
//!
//! e.g. `cargo run --example mcp_call -- add '{"a":2,"b":3}' -- target/debug/examples/bookshop`.
//! Form questions are printed on stderr and answered with the schema's defaults; sampling is
//! not offered. Exits 1 when the tool reports an error.

use mcpwire::client::{Client, EraChoice, StdioServer};
use mcpwire::protocol::{Content, ElicitAction, ElicitResult};
use std::process::ExitCode;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(code) => code,
        Err(error) => {
            eprintln!("mcp_call: {error}");
            ExitCode::from(2)
        }
    }
}

async fn run() -> Result<ExitCode, Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let command = args
        .iter()
        .position(|a| a == "--")
        .map(|at| args.split_off(at).split_off(1));
    let mut era = EraChoice::Auto;
    if let Some(at) = args.iter().position(|a| a == "--era") {
        era = match args.get(at + 1).map(String::as_str) {
            Some("legacy") => EraChoice::Legacy,
            Some("modern") => EraChoice::Modern,
            Some("auto") => EraChoice::Auto,
            other => return Err(format!("--era auto|legacy|modern, not {other:?}").into()),
        };
        args.drain(at..at + 2);
    }
    let builder = Client::builder()
        .info("mcp_call", env!("CARGO_PKG_VERSION"))
        .era(era)
        .on_form_elicitation(|question| async move {
            eprintln!("? {} (answering with the defaults)", question.message);
            ElicitResult {
                action: ElicitAction::Accept,
                content: Some(question.defaults()),
            }
        });
    let client = match command {
        Some(command) => {
            let (program, rest) = command.split_first().ok_or("no program after --")?;
            builder
                .connect_stdio(StdioServer::new(program).args(rest).inherit_stderr())
                .await?
        }
        None if !args.is_empty() => builder.connect_http(&args.remove(0)).await?,
        None => return Err("give a URL, or -- PROGRAM ARGS".into()),
    };
    eprintln!(
        "connected ({:?}, {})",
        client.era(),
        client.server().protocol_version
    );
    let Some(tool) = args.first() else {
        for tool in client.list_tools().await? {
            println!("{}: {}", tool.name, tool.description.unwrap_or_default());
        }
        return Ok(ExitCode::SUCCESS);
    };
    let arguments: serde_json::Value = match args.get(1) {
        Some(json) => serde_json::from_str(json)?,
        None => serde_json::json!({}),
    };
    client.list_tools().await?; // learns the tools' header parameters
    let result = client.call_tool(tool, arguments).await?;
    for block in &result.content {
        match block {
            Content::Text { text, .. } => println!("{text}"),
            other => println!("{}", serde_json::to_string(other)?),
        }
    }
    client.close().await;
    Ok(match result.is_error {
        Some(true) => ExitCode::FAILURE,
        _ => ExitCode::SUCCESS,
    })
}
