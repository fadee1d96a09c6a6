//! The main example: a bookshop whose tools declare their dependencies, its inventory in
//! SQLite.
//!
//! - `reserve_book`: a resolver (`check_stock`) fills a parameter the model never sees; the
//!   reservation takes a copy off the shelf in a transaction.
//! - `order_book`: resolvers depending on resolvers; `check_stock` still runs once per call.
//!   The order is recorded (table `orders`); the shelf is left as it is.
//! - `book_info`: structured output (`structuredContent` + `outputSchema`).
//! - `browse_catalog`: every title (author, year, price, copies) as structured content, and
//!   as text for the model; hosts with MCP Apps show it in the catalog view
//!   (`ui://bookshop/catalog.html`, `catalog.html` beside this file), whose Reserve buttons
//!   call `reserve_book` through the host.
//! - `confirm_order`: a resolver asks the user one question (`Elicit`), and the tool reads the
//!   whole outcome (accepted, declined or cancelled); the same tool as the peers' in
//!   `benches/peers`, for the benchmarks' 2-round call.
//! - `add`: the smallest possible tool, for benchmarks.
//!
//! The inventory (`inventory.rs`) lives in a temporary SQLite database, stocked on start from
//! `catalog.rs` and gone when the server stops; `--db PATH` keeps it in a file across restarts
//! (created and stocked when new; a file that is not a bookshop database is refused at start).
//! The shop keeps the newest 10,000 orders (`--keep-orders N` to change it), deleting older ones
//! as new ones come, so no caller can grow the database without bound.
//!
//! Run: `cargo run --example bookshop` (stdio; connect any MCP client to it, e.g.
//! `npx @modelcontextprotocol/inspector cargo run --example bookshop`), or over Streamable HTTP
//! with `cargo run --example bookshop -- --http 127.0.0.1:8000`: it prints how to try it
//! (`mcpwire-cli`, the MCP Inspector) and the endpoint's URL (`http://127.0.0.1:8000/mcp`).
//!
//! Protected: add `--auth-issuer ISS --auth-audience http://127.0.0.1:8000/mcp --auth-jwks
//! PATH_OR_URL` (all three) and every request needs a bearer token from that issuer for that
//! audience, signed by a key of the JWKS; `order_book` needs the scope `orders:write`.

mod args;
mod browse;
mod catalog;
mod database;
mod inventory;
#[path = "../support/mod.rs"]
mod support;

use browse::Catalog;
use database::Place;
use inventory::Inventory;
use mcpwire::apps::{Apps, Csp, View, Visibility};
use mcpwire::prelude::*;
use mcpwire::skills::Skills;
use support::{ServeFromArgs, Welcome};

/// How many copies of a title the shop has.
#[derive(Clone, Debug, Serialize, JsonSchema)]
struct Stock {
    /// The book's title.
    title: String,
    /// Copies on the shelf.
    copies: u32,
}

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Result<Stock, ToolError> {
    let Some(copies) = ctx.state::<Inventory>().copies(title.clone()).await? else {
        return Err(ToolError::new(format!(
            "'{title}' is not in our catalog (browse_catalog lists every title)"
        )));
    };
    Ok(Stock { title, copies })
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
async fn reserve_book(
    title: String,
    #[resolve(check_stock)] stock: Stock,
    ctx: Context,
) -> Result<String, ToolError> {
    let out_of_stock = format!("'{title}' is out of stock.");
    if stock.copies == 0 {
        return Ok(out_of_stock);
    }
    // The shelf may have emptied since `check_stock` looked: the transaction decides.
    Ok(
        match ctx.state::<Inventory>().reserve(title.clone()).await? {
            Some(left) => format!("Reserved '{title}' ({left} copies left)."),
            None => out_of_stock,
        },
    )
}

/// Order a book from the shop. With authorization (`--auth-*`), only for tokens granting
/// `orders:write`.
#[tool(scopes = ["orders:write"])]
async fn order_book(
    title: String,
    #[resolve(check_stock)] stock: Stock,
    #[resolve(estimate_delivery)] delivery: String,
    ctx: Context,
) -> Result<String, ToolError> {
    let backordered = stock.copies == 0;
    ctx.state::<Inventory>()
        .record_order(title.clone(), backordered, delivery.clone())
        .await?;
    if backordered {
        return Ok(format!(
            "'{title}' is on backorder; it would arrive {delivery}."
        ));
    }
    Ok(format!("Ordered '{title}'; it arrives {delivery}."))
}

/// Look up how many copies of a book are on the shelf.
#[tool(read_only)]
async fn book_info(title: String, #[resolve(check_stock)] stock: Stock) -> Stock {
    debug_assert_eq!(title, stock.title);
    stock
}

/// Every book in the shop: title, author, year, price and copies on the shelf.
#[tool(read_only)]
async fn browse_catalog(ctx: Context) -> Result<Catalog, ToolError> {
    let books = ctx.state::<Inventory>().books().await?;
    Ok(Catalog { books })
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
    let (db, args) = args::take_db(std::env::args().skip(1))?;
    let (keep_orders, args) = args::take_keep_orders(args)?;
    let place = db.map_or(Place::Temporary, Place::File);
    let inventory = Inventory::open(place, keep_orders).await?;
    let welcome = Welcome {
        about: inventory.describe().await.ok(),
        try_calls: &["reserve_book title=Dune", "browse_catalog"],
    };
    let server = McpServer::new("Bookshop")
        .instructions("A bookshop: reserve and order books, look up stock.")
        .state(inventory)
        .tool(reserve_book)?
        .tool(order_book)?
        .tool(book_info)?
        .tool(browse_catalog)?
        .tool(confirm_order)?
        .tool(add)?
        // The catalog as a view for hosts with MCP Apps (the Apps extension).
        .extension(apps())?
        // How to use the shop, for the host's model: an Agent Skill (the Skills extension),
        // embedded in the binary from examples/skills.
        .extension(skills()?)?;
    // For the load benchmark only: one pass-through layer on every request, to measure what a
    // layer costs (docs/benchmarks.md, "Middleware").
    let server = match std::env::var_os("MCP_BENCH_NOOP_LAYER") {
        Some(_) => server.layer(mcpwire::layer::from_fn(
            |request: mcpwire::layer::McpRequest, next: mcpwire::layer::Next| next.run(request),
        )),
        None => server,
    };
    server.serve_from(args, welcome).await
}

/// Where the catalog view is served.
const CATALOG_VIEW: &str = "ui://bookshop/catalog.html";

/// The catalog view, embedded at compile time, shown for `browse_catalog`; its Reserve buttons
/// call `reserve_book` (and `book_info` for the new count), which the model may call too.
fn apps() -> Apps {
    let view = View::html(CATALOG_VIEW, include_str!("catalog.html"))
        .title("Bookshop catalog")
        .description("Every title with its stock, and a button to reserve a copy.")
        // One self-contained file: it loads nothing and connects nowhere.
        .csp(Csp::default())
        .prefers_border(true);
    Apps::new()
        .view(view)
        .tool("browse_catalog", CATALOG_VIEW)
        .visibility("reserve_book", [Visibility::Model, Visibility::App])
        .visibility("book_info", [Visibility::Model, Visibility::App])
}

/// The shop's skill, embedded at compile time from `examples/skills/`.
fn skills() -> Result<Skills, InvalidSignature> {
    const SKILL: &str = "find-and-reserve-a-book";
    Skills::from_files(
        "examples/skills",
        [
            (
                format!("{SKILL}/SKILL.md"),
                &include_bytes!("../skills/find-and-reserve-a-book/SKILL.md")[..],
            ),
            (
                format!("{SKILL}/references/tools.md"),
                &include_bytes!("../skills/find-and-reserve-a-book/references/tools.md")[..],
            ),
        ],
    )
}
