//! Asking the user when nothing else will do: `confirm_backorder` returns `Elicit<Backorder>`
//! only when the book is out of stock; the SDK asks, checks the answer, and the tool reads
//! `backorder.confirm` like any other argument.
//!
//! On a 2025-11-25 session the question is a real `elicitation/create` request; on 2026-07-28 it
//! is an `input_required` round with a sealed `requestState`. The code is the same.
//!
//! Run: `cargo run --example backorder` (stdio), or `-- --http 127.0.0.1:8000` for HTTP.

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

/// The user's answer.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Backorder {
    /// Order anyway and wait?
    confirm: bool,
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

#[resolver]
async fn confirm_backorder(
    title: String,
    #[resolve(check_stock)] stock: Stock,
) -> Elicit<Backorder> {
    if stock.copies > 0 {
        return Elicit::Ready(Backorder { confirm: true }); // in stock: nothing to ask
    }
    Elicit::ask(format!(
        "'{title}' is out of stock (2-3 weeks). Order anyway?"
    ))
}

/// Order a book from the shop.
#[tool]
async fn order_book(
    title: String,
    #[resolve(check_stock)] stock: Stock,
    #[resolve(confirm_backorder)] backorder: Backorder,
) -> String {
    if !backorder.confirm {
        return "No order placed.".to_owned();
    }
    if stock.copies == 0 {
        return format!("Backordered '{title}'; it ships in 2-3 weeks.");
    }
    format!("Ordered '{title}'.")
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    McpServer::new("Bookshop")
        .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
        .tool(order_book)?
        .serve_from_args()
        .await
}
