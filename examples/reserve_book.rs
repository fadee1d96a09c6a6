//! The first example of the dependencies guide: a resolver fills a hidden parameter.
//!
//! `reserve_book` shows one argument (`title`) to the model; `stock` is filled by `check_stock`
//! before the tool runs, and a `stock` sent by the client is ignored.
//!
//! Run: `cargo run --example reserve_book` (stdio), or `cargo run --example reserve_book -- --http
//! 127.0.0.1:8000` (Streamable HTTP at `http://127.0.0.1:8000/mcp`).

mod support;

use mcpwire::prelude::*;
use std::collections::HashMap;
use support::ServeFromArgs;

/// How many copies of a title the shop has.
#[derive(Clone, Debug)]
struct Stock {
    #[allow(dead_code)]
    title: String,
    copies: u32,
}

/// The shop's inventory, shared by every request.
struct Inventory(HashMap<&'static str, u32>);

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Stock {
    let copies = ctx
        .state::<Inventory>()
        .0
        .get(title.as_str())
        .copied()
        .unwrap_or(0);
    Stock { title, copies }
}

/// Reserve a copy of a book.
#[tool]
async fn reserve_book(title: String, #[resolve(check_stock)] stock: Stock) -> String {
    if stock.copies == 0 {
        return format!("'{title}' is out of stock.");
    }
    format!("Reserved '{title}' ({} copies left).", stock.copies - 1)
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    McpServer::new("Bookshop")
        .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
        .tool(reserve_book)?
        .serve_from_args()
        .await
}
