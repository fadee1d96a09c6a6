//! Dependencies of dependencies: `estimate_delivery` needs `check_stock`, and `order_book` needs
//! both, yet `check_stock` runs once per call.
//!
//! `stock_lookups` reports how many times `check_stock` has run, so a test can see it.
//!
//! Run: `cargo run --example order_book` (stdio), or `cargo run --example order_book -- --http
//! 127.0.0.1:8000` (Streamable HTTP at `http://127.0.0.1:8000/mcp`).

mod support;

use mcpwire::prelude::*;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use support::ServeFromArgs;

/// How many copies of a title the shop has.
#[derive(Clone, Debug)]
struct Stock {
    #[allow(dead_code)]
    title: String,
    copies: u32,
}

/// The shop's inventory, and how often it was consulted.
struct Inventory {
    copies: HashMap<&'static str, u32>,
    lookups: AtomicU64,
}

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Stock {
    let inventory = ctx.state::<Inventory>();
    inventory.lookups.fetch_add(1, Ordering::Relaxed);
    let copies = inventory.copies.get(title.as_str()).copied().unwrap_or(0);
    Stock { title, copies }
}

#[resolver]
async fn estimate_delivery(#[resolve(check_stock)] stock: Stock) -> String {
    if stock.copies > 0 {
        "tomorrow"
    } else {
        "in 2-3 weeks"
    }
    .to_owned()
}

/// Order a book from the shop.
#[tool]
async fn order_book(
    title: String,
    #[resolve(check_stock)] stock: Stock,
    #[resolve(estimate_delivery)] delivery: String,
) -> String {
    if stock.copies == 0 {
        return format!("'{title}' is on backorder; it would arrive {delivery}.");
    }
    format!("Ordered '{title}'; it arrives {delivery}.")
}

/// How many stock lookups the shop has made since it started.
#[tool]
async fn stock_lookups(ctx: Context) -> String {
    ctx.state::<Inventory>()
        .lookups
        .load(Ordering::Relaxed)
        .to_string()
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    let inventory = Inventory {
        copies: HashMap::from([("Dune", 7), ("Neuromancer", 0)]),
        lookups: AtomicU64::new(0),
    };
    McpServer::new("Bookshop")
        .state(inventory)
        .tool(order_book)?
        .tool(stock_lookups)?
        .serve_from_args()
        .await
}

/// The bodies are plain functions: `name::call(..)` runs one with plain arguments, no server
/// and no resolvers involved.
#[cfg(test)]
mod tests {
    use super::*;

    fn shop() -> Context {
        let inventory = Inventory {
            copies: HashMap::from([("Dune", 7)]),
            lookups: AtomicU64::new(0),
        };
        Context::detached().state(inventory).build()
    }

    #[tokio::test]
    async fn check_stock_reads_the_inventory_and_counts_the_lookup() {
        let ctx = shop();
        let stock = check_stock::call("Dune".into(), ctx.clone()).await;
        assert_eq!(stock.copies, 7);
        let missing = check_stock::call("Solaris".into(), ctx.clone()).await;
        assert_eq!(missing.copies, 0);
        assert_eq!(ctx.state::<Inventory>().lookups.load(Ordering::Relaxed), 2);
    }

    #[tokio::test]
    async fn order_book_takes_its_resolved_values_as_plain_arguments() {
        let in_stock = Stock {
            title: "Dune".into(),
            copies: 7,
        };
        let ordered = order_book::call("Dune".into(), in_stock, "tomorrow".into()).await;
        assert_eq!(ordered, "Ordered 'Dune'; it arrives tomorrow.");
        let none = Stock {
            title: "Neuromancer".into(),
            copies: 0,
        };
        let backordered = order_book::call("Neuromancer".into(), none, "in 2-3 weeks".into()).await;
        assert_eq!(
            backordered,
            "'Neuromancer' is on backorder; it would arrive in 2-3 weeks."
        );
    }
}
