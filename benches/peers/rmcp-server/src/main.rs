//! The rmcp peer of `examples/bookshop` for `scripts/load-bench`: the same `add` tool (text and
//! `structuredContent {"result": n}`) and an `order_book` whose two lookups (stock, delivery
//! estimate) are written by hand in the body, and a `confirm_order` that asks the user one form
//! question (`confirm`, a boolean) the two ways rmcp documents: `peer.elicit::<T>()` on 2025-11-25
//! sessions, and an `InputRequiredResult` read back through the `InputResponses` extractor on
//! 2026-07-28 (rmcp refuses server-to-client requests there); tests/client_peers.rs answers it
//! from mcpwire's client on both revisions. Served with rmcp's own Streamable HTTP service on
//! `/mcp`, written the way rmcp's documentation shows (`#[tool_router(server_handler)]`,
//! `StreamableHttpService` with `LocalSessionManager` in axum). Both revisions on one endpoint:
//! 2026-07-28 requests are served statelessly, 2025-11-25 clients get sessions.
//! With `--json-response` (scripts/load-bench) `json_response` is on, so answers that need no
//! stream are plain JSON, as ours are; without it, rmcp's default (SSE answers). `TCP_NODELAY` is
//! set on accepted sockets, as ours sets it.
//!
//! `--stdio` serves the same tools over stdio instead (`Bookshop.serve(rmcp::transport::stdio())`).
//!
//! Usage: `rmcp-bench-server --http 127.0.0.1:PORT [--json-response] | --stdio`

use axum::serve::ListenerExt;
use rmcp::handler::server::tool::InputResponses;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::model::{
    CallToolResponse, CallToolResult, ContentBlock, ElicitRequest, ElicitRequestParams,
    InputRequest, InputRequests, InputRequiredResult, ProtocolVersion,
};
use rmcp::schemars::{self, JsonSchema};
use rmcp::service::{ElicitationError, RequestContext, RoleServer};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use rmcp::{ErrorData, ServiceExt, tool, tool_router};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::{Arc, LazyLock};

static INVENTORY: LazyLock<HashMap<&'static str, u32>> =
    LazyLock::new(|| HashMap::from([("Dune", 7), ("Neuromancer", 0)]));

#[derive(Clone, Default)]
struct Bookshop;

#[derive(Deserialize, JsonSchema)]
struct AddArgs {
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
}

#[derive(Serialize, JsonSchema)]
struct Sum {
    result: i64,
}

#[derive(Deserialize, JsonSchema)]
struct OrderArgs {
    /// The book's title.
    title: String,
}

/// The user's answer to `confirm_order`'s question.
#[derive(Serialize, Deserialize, JsonSchema)]
struct Confirmation {
    confirm: bool,
}
rmcp::elicit_safe!(Confirmation);

fn text(text: String) -> CallToolResponse {
    CallToolResult::success(vec![ContentBlock::text(text)]).into()
}

/// What `confirm_order` answers once the user has: accepted (with `confirm`), declined or
/// cancelled.
fn confirmed(title: &str, action: &str, confirm: Option<bool>) -> CallToolResponse {
    match (action, confirm) {
        ("accept", Some(true)) => text(format!("Ordered '{title}'.")),
        ("accept", _) => text("Not ordered: not confirmed.".into()),
        (other, _) => text(format!("Not ordered: {other}.")),
    }
}

#[tool_router(server_handler)]
impl Bookshop {
    /// Add two numbers.
    #[tool(annotations(read_only_hint = true))]
    async fn add(&self, Parameters(AddArgs { a, b }): Parameters<AddArgs>) -> Json<Sum> {
        Json(Sum { result: a + b })
    }

    /// Order a book from the shop.
    #[tool]
    async fn order_book(&self, Parameters(OrderArgs { title }): Parameters<OrderArgs>) -> String {
        let copies = INVENTORY.get(title.as_str()).copied().unwrap_or(0);
        let delivery = if copies > 0 {
            "tomorrow"
        } else {
            "in 2-3 weeks"
        };
        if copies == 0 {
            return format!("'{title}' is on backorder; it would arrive {delivery}.");
        }
        format!("Ordered '{title}'; it arrives {delivery}.")
    }

    /// Order a book after the user confirms.
    #[tool]
    async fn confirm_order(
        &self,
        Parameters(OrderArgs { title }): Parameters<OrderArgs>,
        InputResponses(responses): InputResponses,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let message = format!("Order '{title}'?");
        if context.protocol_version() < Some(ProtocolVersion::V_2026_07_28) {
            return Ok(match context.peer.elicit::<Confirmation>(message).await {
                Ok(answer) => confirmed(&title, "accept", answer.map(|a| a.confirm)),
                Err(ElicitationError::UserDeclined) => confirmed(&title, "decline", None),
                Err(ElicitationError::UserCancelled) => confirmed(&title, "cancel", None),
                Err(error) => return Err(ErrorData::internal_error(error.to_string(), None)),
            });
        }
        let Some(answer) = responses.as_ref().and_then(|r| r.get("confirm")) else {
            let schema = serde_json::json!({
                "type": "object",
                "properties": {"confirm": {"type": "boolean"}},
                "required": ["confirm"],
            });
            let question = ElicitRequestParams::FormElicitationParams {
                meta: None,
                message,
                requested_schema: serde_json::from_value(schema)
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?,
            };
            let requests = InputRequests::from([(
                "confirm".to_string(),
                InputRequest::Elicitation(ElicitRequest::new(question)),
            )]);
            return Ok(InputRequiredResult::new(Some(requests), None).into());
        };
        let action = answer["action"].as_str().unwrap_or("cancel");
        Ok(confirmed(
            &title,
            action,
            answer["content"]["confirm"].as_bool(),
        ))
    }
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let (addr, json_response) = match (args.next().as_deref(), args.next(), args.next()) {
        (Some("--http"), Some(addr), None) => (addr, false),
        (Some("--http"), Some(addr), Some(flag)) if flag == "--json-response" => (addr, true),
        (Some("--stdio"), None, None) => {
            let running = Bookshop
                .serve(rmcp::transport::stdio())
                .await
                .map_err(std::io::Error::other)?;
            running.waiting().await.map_err(std::io::Error::other)?;
            return Ok(());
        }
        _ => {
            eprintln!("usage: rmcp-bench-server --http 127.0.0.1:PORT [--json-response] | --stdio");
            std::process::exit(2);
        }
    };
    let config = StreamableHttpServerConfig::default().with_json_response(json_response);
    let service = StreamableHttpService::new(
        || Ok(Bookshop),
        Arc::new(LocalSessionManager::default()),
        config,
    );
    let app = axum::Router::new().nest_service("/mcp", service);
    let listener = tokio::net::TcpListener::bind(&addr).await?;
    eprintln!(
        "MCP server listening on http://{}/mcp",
        listener.local_addr()?
    );
    // TCP_NODELAY, as ours sets it: without it the session's SSE answers (several small writes)
    // wait ~40 ms for a delayed ACK.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
}
