//! The rmcp peer of `examples/bookshop.rs` for `scripts/load-bench`: the same `add` tool (text and
//! `structuredContent {"result": n}`) and an `order_book` whose two lookups (stock, delivery
//! estimate) are written by hand in the body, served with rmcp's own Streamable HTTP service on
//! `/mcp`, written the way rmcp's documentation shows (`#[tool_router(server_handler)]`,
//! `StreamableHttpService` with `LocalSessionManager` in axum). Both revisions on one endpoint:
//! 2026-07-28 requests are served statelessly, 2025-11-25 clients get sessions.
//! `json_response` is on, so answers that need no stream are plain JSON, as ours are, and
//! `TCP_NODELAY` is set on accepted sockets, as ours sets it.
//!
//! Usage: `rmcp-bench-server --http 127.0.0.1:PORT`

use axum::serve::ListenerExt;
use rmcp::handler::server::wrapper::{Json, Parameters};
use rmcp::schemars::{self, JsonSchema};
use rmcp::tool;
use rmcp::tool_router;
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
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
}

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let addr = match (args.next().as_deref(), args.next()) {
        (Some("--http"), Some(addr)) => addr,
        _ => {
            eprintln!("usage: rmcp-bench-server --http 127.0.0.1:PORT");
            std::process::exit(2);
        }
    };
    let config = StreamableHttpServerConfig::default().with_json_response(true);
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
