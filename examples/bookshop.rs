//! The main example: a small bookshop whose tools declare their dependencies.
//!
//! - `reserve_book`: a resolver (`check_stock`) fills a parameter the model never sees.
//! - `order_book`: resolvers depending on resolvers; `check_stock` still runs once per call.
//! - `book_info`: structured output (`structuredContent` + `outputSchema`).
//! - `confirm_order`: a resolver asks the user one question (`Elicit`), and the tool reads the
//!   whole outcome (accepted, declined or cancelled); the same tool as the peers' in
//!   `benches/peers`, for the benchmarks' 2-round call.
//! - `add`: the smallest possible tool, for benchmarks.
//!
//! Run: `cargo run --example bookshop` (stdio; connect any MCP client to it, e.g.
//! `npx @modelcontextprotocol/inspector cargo run --example bookshop`), or over Streamable HTTP
//! with `cargo run --example bookshop -- --http 127.0.0.1:8000`: it prints the endpoint's URL
//! (`http://127.0.0.1:8000/mcp`) and how to connect the MCP Inspector to it.
//!
//! Protected: add `--auth-issuer ISS --auth-audience http://127.0.0.1:8000/mcp --auth-jwks
//! PATH_OR_URL` (all three) and every request needs a bearer token from that issuer for that
//! audience, signed by a key of the JWKS; `order_book` needs the scope `orders:write`.

mod support;

use mcpwire::prelude::*;
use std::collections::HashMap;
use support::ServeFromArgs;

/// How many copies of a title the shop has.
#[derive(Clone, Debug, Serialize, JsonSchema)]
struct Stock {
    /// The book's title.
    title: String,
    /// Copies on the shelf.
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

#[resolver]
async fn estimate_delivery(#[resolve(check_stock)] stock: Stock) -> String {
    if stock.copies > 0 {
        "tomorrow"
    } else {
        "in 2-3 weeks"
    }
    .to_owned()
}

/// Reserve a copy of a book.
#[tool]
async fn reserve_book(title: String, #[resolve(check_stock)] stock: Stock) -> String {
    if stock.copies == 0 {
        return format!("'{title}' is out of stock.");
    }
    format!("Reserved '{title}' ({} copies left).", stock.copies - 1)
}

/// Order a book from the shop. With authorization (`--auth-*`), only for tokens granting
/// `orders:write`.
#[tool(scopes = ["orders:write"])]
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

/// Look up how many copies of a book are on the shelf.
#[tool(read_only)]
async fn book_info(title: String, #[resolve(check_stock)] stock: Stock) -> Stock {
    debug_assert_eq!(title, stock.title);
    stock
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
        ElicitationResult::Accept(_) => "Not ordered: not confirmed.".to_owned(),
        ElicitationResult::Decline => "Not ordered: decline.".to_owned(),
        ElicitationResult::Cancel => "Not ordered: cancel.".to_owned(),
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
        .instructions("A bookshop: reserve and order books, look up stock.")
        .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
        .tool(reserve_book)?
        .tool(order_book)?
        .tool(book_info)?
        .tool(confirm_order)?
        .tool(add)?;
    // For the load benchmark only: one pass-through layer on every request, to measure what a
    // layer costs (docs/benchmarks.md, "Middleware").
    let server = match std::env::var_os("MCP_BENCH_NOOP_LAYER") {
        Some(_) => server.layer(mcpwire::layer::from_fn(
            |request: mcpwire::layer::McpRequest, next: mcpwire::layer::Next| next.run(request),
        )),
        None => server,
    };
    server.serve_from_args().await
}
