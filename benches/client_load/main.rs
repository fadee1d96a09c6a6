//! `mcpwire-client-load`: the client half of `scripts/client-bench` (docs/benchmarks.md, "The
//! client"). One `mcpwire::client::Client` over Streamable HTTP keeps N calls in flight against
//! one server for a fixed time, and prints one JSON line: calls per second, and the client
//! process's CPU time per call (user + system, from `getrusage`, so every thread counts).
//! `benches/peers/rmcp-client` is the same program written on rmcp's client; the script runs both
//! against the same server in one run.
//!
//! ```text
//! mcpwire-client-load --url URL --era legacy|modern --call add|backorder
//!                     [--in-flight N] [--seconds S] [--warmup S]
//! ```
//!
//! - `add`: `add {a: 2, b: 3}` on `examples/bookshop`, answered `5`.
//! - `backorder`: `order_book {title: "Neuromancer"}` on `examples/backorder`, whose resolver asks
//!   the user to confirm: on 2026-07-28 two rounds (`input_required`, then the answer), on
//!   2025-11-25 a real `elicitation/create` on the call's SSE stream. The form handler accepts.
//!
//! Every answer is checked (its text); a wrong one stops the run with exit status 1. It runs on
//! a current-thread runtime, so `taskset -c 1` gives it exactly one core.

mod harness;

use harness::{Options, main_with, measure};
use mcpwire::client::{Client, EraChoice};
use mcpwire::protocol::{CallToolResult, Content, ElicitAction, ElicitResult};
use serde_json::{Value, json};
use std::process::ExitCode;

fn text(result: &CallToolResult) -> Option<&str> {
    match result.content.as_slice() {
        [Content::Text { text, .. }] if result.is_error != Some(true) => Some(text),
        _ => None,
    }
}

async fn run(options: Options) -> Result<Value, String> {
    let era = match options.era {
        "legacy" => EraChoice::Legacy,
        _ => EraChoice::Modern,
    };
    let client = Client::builder()
        .era(era)
        .on_form_elicitation(|_question| async {
            ElicitResult {
                action: ElicitAction::Accept,
                content: json!({"confirm": true}).as_object().cloned(),
            }
        })
        .connect_http(&options.url)
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let (tool, arguments, expected) = options.workload();
    let caller = client.clone();
    let call = move || {
        let (client, arguments) = (caller.clone(), arguments.clone());
        async move {
            let result = client
                .call_tool(tool, arguments)
                .await
                .map_err(|e| format!("{tool}: {e}"))?;
            match text(&result) {
                Some(text) if text == expected => Ok(()),
                _ => Err(format!("{tool} answered {result:?}")),
            }
        }
    };
    let line = measure("mcpwire", &options, call).await;
    client.close().await;
    line
}

fn main() -> ExitCode {
    main_with("mcpwire-client-load", run)
}
