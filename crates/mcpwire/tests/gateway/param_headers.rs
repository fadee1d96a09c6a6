//! A backend tool's header parameters (`x-mcp-header`, SEP-2243) through the gateway: the front
//! lists them as the backend does and checks a 2026-07-28 request's `Mcp-Param-*` headers
//! against its arguments as it checks its own tools' (raw HTTP: a missing, mismatched or stray
//! header is refused with 400 and -32020); the crate's own client, which mirrors them from the
//! listing, gets through on both revisions, to a backend of either revision.

#![cfg(feature = "gateway")]

use crate::serving::{Serving, behind_gateway, front_client};
use crate::support::http::status_and_message;
use mcpwire::client::EraChoice;
use mcpwire::gateway::Backend;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use std::time::Duration;

/// Every wait of these tests is bounded by this.
const BOUND: Duration = Duration::from_secs(20);

/// Runs a query for a tenant (the backend's).
#[tool]
async fn query(
    #[arg(header = "Tenant")] tenant: String,
    #[arg(header = "Limit")] limit: Option<i64>,
    text: String,
) -> String {
    format!("{tenant}:{limit:?}:{text}")
}

/// A backend pinned to `backend` serving `query`, a gateway in front of it (namespace
/// `shop`); both served.
async fn setup(backend: EraChoice) -> (Serving, Serving) {
    let server = McpServer::new("shop").tool(query).unwrap();
    behind_gateway(server, |url| Backend::http("shop", url).era(backend)).await
}

/// A 2026-07-28 `tools/call` of `shop_query` with `arguments`, posted with the headers a
/// correct client sends plus `params`; the status and the JSON answer.
async fn post(url: &str, arguments: Value, params: &[(&str, &str)]) -> (u16, Value) {
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
    "name": "shop_query", "arguments": arguments,
    "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }}});
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "shop_query")
        .timeout(BOUND)
        .body(body.to_string());
    for (name, value) in params {
        request = request.header(*name, *value);
    }
    status_and_message(request.send().await.unwrap()).await
}

#[tokio::test]
async fn the_front_checks_a_backend_tools_header_parameters_as_its_own() {
    for backend_era in [EraChoice::Legacy, EraChoice::Modern] {
        let (_backend, gateway) = setup(backend_era).await;
        let url = &gateway.url;
        let arguments = json!({"tenant": "acme", "limit": 42, "text": "hi"});
        let good = [("mcp-param-tenant", "acme"), ("mcp-param-limit", "42")];
        let (status, answer) = post(url, arguments.clone(), &good).await;
        assert_eq!(status, 200, "{backend_era:?}: {answer}");
        assert_eq!(answer["result"]["content"][0]["text"], "acme:Some(42):hi");
        let refused: [(&[(&str, &str)], &str); 3] = [
            (
                &[("mcp-param-limit", "42")],
                "missing required header Mcp-Param-Tenant",
            ),
            (
                &[("mcp-param-tenant", "other"), ("mcp-param-limit", "42")],
                "header Mcp-Param-Tenant does not match the request body",
            ),
            (
                &[("mcp-param-tenant", "acme"), ("mcp-param-limit", "43")],
                "header Mcp-Param-Limit does not match the request body",
            ),
        ];
        for (params, message) in refused {
            let (status, answer) = post(url, arguments.clone(), params).await;
            assert_eq!(status, 400, "{backend_era:?} {message}: {answer}");
            assert_eq!(
                answer["error"],
                json!({"code": -32020, "message": format!("Header mismatch: {message}")}),
                "{backend_era:?}"
            );
        }
        // A header without its argument in the body is refused too.
        let without_limit = json!({"tenant": "acme", "text": "hi"});
        let (status, answer) = post(url, without_limit, &good).await;
        assert_eq!(status, 400, "{backend_era:?}: {answer}");
        assert_eq!(
            answer["error"]["message"],
            "Header mismatch: header Mcp-Param-Limit has no argument in the body"
        );
    }
}

#[tokio::test]
async fn the_crates_client_calls_a_backend_tool_with_header_parameters_on_both_revisions() {
    for backend_era in [EraChoice::Legacy, EraChoice::Modern] {
        let (_backend, gateway) = setup(backend_era).await;
        for front_era in [EraChoice::Legacy, EraChoice::Modern] {
            let pair = format!("front {front_era:?}, backend {backend_era:?}");
            let client = front_client(front_era, &gateway).await;
            let tools = client.list_tools().await.unwrap();
            let tool = tools.iter().find(|t| t.name == "shop_query").unwrap();
            let properties = &tool.input_schema["properties"];
            assert_eq!(properties["tenant"]["x-mcp-header"], "Tenant", "{pair}");
            assert_eq!(properties["limit"]["x-mcp-header"], "Limit", "{pair}");
            let arguments = json!({"tenant": "acme", "limit": 7, "text": "hi"});
            let called = client.call_tool("shop_query", arguments);
            let result = tokio::time::timeout(BOUND, called).await.unwrap().unwrap();
            let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
            assert_eq!(text, "acme:Some(7):hi", "{pair}: {result:?}");
            client.close().await;
        }
    }
}
