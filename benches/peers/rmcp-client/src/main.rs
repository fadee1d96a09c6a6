//! `rmcp-client-load`: rmcp's client in `scripts/client-bench` (docs/benchmarks.md, "The
//! client"), the same program as `benches/client_load` (mcpwire's client) with the same flags
//! and output: one rmcp client over Streamable HTTP (`StreamableHttpClientTransport`) keeps N
//! calls in flight for a fixed time and prints calls per second and its CPU time per call.
//! Written the way rmcp documents its client: a `ClientHandler` (here answering the form question
//! of `--call backorder`), `serve` for a 2025-11-25 session, `serve_with_lifecycle` with
//! `ClientLifecycleMode::Discover` for 2026-07-28 (its `call_tool` runs the `input_required`
//! rounds through the handler).
//!
//! ```text
//! rmcp-client-load --url URL --era legacy|modern --call add|backorder
//!                  [--in-flight N] [--seconds S] [--warmup S]
//! ```

#[path = "../../../client_load/harness.rs"]
mod harness;

use harness::{Options, main_with, measure};
use rmcp::model::{
    CallToolRequestParams, CallToolResult, ClientCapabilities, ClientConfig, ElicitRequestParams,
    ElicitResult, ElicitationAction, Implementation, ProtocolVersion,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RequestContext, RoleClient};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::{ClientHandler, ErrorData, ServiceExt};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;

/// Accepts every form question with `{"confirm": true}`.
#[derive(Clone)]
struct Confirming;

impl ClientHandler for Confirming {
    async fn create_elicitation(
        &self,
        _request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        Ok(ElicitResult::new(ElicitationAction::Accept).with_content(json!({"confirm": true})))
    }

    fn get_info(&self) -> ClientConfig {
        let capabilities: ClientCapabilities =
            serde_json::from_value(json!({"elicitation": {"form": {}}}))
                .expect("form elicitation capabilities");
        ClientConfig::new(
            capabilities,
            Implementation::new("rmcp-client-load", "0.0.0"),
        )
    }
}

fn text(result: &CallToolResult) -> Option<&str> {
    match result.content.as_slice() {
        [block] if result.is_error != Some(true) => block.as_text().map(|t| t.text.as_str()),
        _ => None,
    }
}

async fn run(options: Options) -> Result<Value, String> {
    let transport = StreamableHttpClientTransport::from_uri(options.url.as_str());
    let client = match options.era {
        "legacy" => Confirming.serve(transport).await,
        _ => {
            let lifecycle = ClientLifecycleMode::Discover {
                preferred_versions: vec![ProtocolVersion::V_2026_07_28],
            };
            Confirming.serve_with_lifecycle(transport, lifecycle).await
        }
    }
    .map_err(|e| format!("connect: {e}"))?;
    let client = Arc::new(client);
    let (tool, arguments, expected) = options.workload();
    let arguments = arguments.as_object().cloned().unwrap_or_default();
    let call = move || {
        let (client, arguments) = (client.clone(), arguments.clone());
        async move {
            let params = CallToolRequestParams::new(tool).with_arguments(arguments);
            let result = client
                .call_tool(params)
                .await
                .map_err(|e| format!("{tool}: {e}"))?;
            match text(&result) {
                Some(text) if text == expected => Ok(()),
                _ => Err(format!("{tool} answered {result:?}")),
            }
        }
    };
    measure("rmcp", &options, call).await
}

fn main() -> ExitCode {
    main_with("rmcp-client-load", run)
}
