//! `mcpwire-size-server`: the server `scripts/size-bench` measures beside rmcp's
//! `rmcp-bench-server`, with the same tools (`add` with structured content, `order_book` on two
//! resolvers, `confirm_order`, which asks the user once) and mcpwire's default features only.
//!
//!     mcpwire-size-server --http 127.0.0.1:PORT     (or no argument: stdio)

use mcpwire::prelude::*;
use serde::Deserialize;
use std::collections::HashMap;

/// How many copies of a title the shop has.
#[derive(Clone, Debug)]
struct Stock {
    copies: u32,
}

/// The shop's inventory.
struct Inventory(HashMap<&'static str, u32>);

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Stock {
    let copies = ctx.state::<Inventory>().0.get(title.as_str()).copied();
    Stock {
        copies: copies.unwrap_or(0),
    }
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

/// The user's answer to `confirm_order`'s question.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirmation {
    /// Place the order?
    confirm: bool,
}

#[resolver]
async fn ask_confirmation(title: String) -> Elicit<Confirmation> {
    Elicit::ask(format!("Order '{title}'?"))
}

/// Order a book after the user confirms.
#[tool]
async fn confirm_order(
    title: String,
    #[resolve(ask_confirmation)] answer: ElicitationResult<Confirmation>,
) -> String {
    match answer {
        ElicitationResult::Accept(Confirmation { confirm: true }) => format!("Ordered '{title}'."),
        _ => "Not ordered.".to_owned(),
    }
}

/// Add two numbers.
#[tool(read_only)]
async fn add(
    /// The first number.
    a: i64,
    /// The second number.
    b: i64,
) -> i64 {
    a + b
}

#[tokio::main]
async fn main() -> mcpwire::Result<()> {
    mcpwire::transport::log_to_stderr();
    let server = McpServer::new("Bookshop")
        .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
        .tool(add)?
        .tool(order_book)?
        .tool(confirm_order)?;
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [flag, addr] if flag == "--http" => server.serve_http(addr.as_str()).await,
        [] => server.serve_stdio().await,
        _ => Err(mcpwire::Error::Startup(
            "usage: mcpwire-size-server [--http IP:PORT]".into(),
        )),
    }
}
