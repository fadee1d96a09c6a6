//! In-process cost of one `tools/call` through the in-memory transport: parse the request,
//! route it, run resolvers and the tool, serialize the response, and hand the line back.
//!
//! Compares, in the same run: the `add` tool on both revisions, the dependencies guide's
//! `order_book` (two resolvers, one shared) against the same tool written by hand, and a tool
//! of six arguments with constraints (checked against its input schema on every call) against
//! the same tool without them (its schema says no more than the types: no check).
//! Results are recorded in `docs/benchmarks.md`.

use criterion::{Criterion, criterion_group, criterion_main};
use mcpwire::prelude::*;
use mcpwire::transport::MemoryClient;
use std::collections::HashMap;
use std::hint::black_box;

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(Clone, Debug)]
struct Stock {
    copies: u32,
}

struct Inventory(HashMap<&'static str, u32>);

impl Inventory {
    fn lookup(&self, title: &str) -> Stock {
        Stock {
            copies: self.0.get(title).copied().unwrap_or(0),
        }
    }
}

#[resolver]
async fn check_stock(title: String, ctx: Context) -> Stock {
    ctx.state::<Inventory>().lookup(&title)
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

/// Order a book from the shop (the lookups written by hand).
#[tool]
async fn order_book_by_hand(title: String, ctx: Context) -> String {
    let stock = ctx.state::<Inventory>().lookup(&title);
    let delivery = if stock.copies > 0 {
        "tomorrow"
    } else {
        "in 2-3 weeks"
    }
    .to_owned();
    if stock.copies == 0 {
        return format!("'{title}' is on backorder; it would arrive {delivery}.");
    }
    format!("Ordered '{title}'; it arrives {delivery}.")
}

/// Reserve copies of a book (no constraints: the parse checks the types, nothing more).
#[tool]
async fn reserve_plain(
    title: String,
    copies: u32,
    shop: String,
    binding: String,
    email: String,
    day: Option<String>,
) -> String {
    format!("{copies} {binding} of {title} at {shop} for {email} ({day:?})")
}

/// Reserve copies of a book (every argument constrained, and checked).
#[tool]
async fn reserve_checked(
    #[schemars(length(min = 1, max = 200))] title: String,
    #[schemars(range(min = 1, max = 5))] copies: u32,
    #[schemars(regex(pattern = r"^[A-Z]{3}-[0-9]{3}$"))] shop: String,
    #[schemars(extend("enum" = ["hardback", "paperback"]))] binding: String,
    #[schemars(email)] email: String,
    #[schemars(extend("format" = "date"))] day: Option<String>,
) -> String {
    format!("{copies} {binding} of {title} at {shop} for {email} ({day:?})")
}

const RESERVE: &str = r#"{"title":"Dune","copies":2,"shop":"LON-001","binding":"paperback","email":"ada@example.com","day":"2026-07-28"}"#;

const MODERN_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn request(tool: &str, arguments: &str, modern: bool) -> String {
    let meta = if modern {
        format!(",{MODERN_META}")
    } else {
        String::new()
    };
    format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"{tool}","arguments":{arguments}{meta}}}}}"#
    )
}

fn server() -> McpServer {
    McpServer::new("bench")
        .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
        .tool(add)
        .and_then(|s| s.tool(order_book))
        .and_then(|s| s.tool(order_book_by_hand))
        .and_then(|s| s.tool(reserve_plain))
        .and_then(|s| s.tool(reserve_checked))
        .expect("valid tools")
}

async fn roundtrip(client: &mut MemoryClient, line: &str) -> String {
    client.request(line).await.expect("the server answers")
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let mut client = runtime.block_on(async { server().serve_memory().await.unwrap() });
    let cases = [
        ("add/legacy", request("add", r#"{"a":2,"b":3}"#, false)),
        ("add/modern", request("add", r#"{"a":2,"b":3}"#, true)),
        (
            "order_book/resolvers",
            request("order_book", r#"{"title":"Dune"}"#, true),
        ),
        (
            "order_book/by_hand",
            request("order_book_by_hand", r#"{"title":"Dune"}"#, true),
        ),
        (
            "reserve/no_constraints",
            request("reserve_plain", RESERVE, true),
        ),
        (
            "reserve/constraints_checked",
            request("reserve_checked", RESERVE, true),
        ),
    ];
    let mut group = c.benchmark_group("tools_call_in_memory");
    for (name, line) in &cases {
        let reply = runtime.block_on(roundtrip(&mut client, line));
        assert!(!reply.contains("isError"), "{name}: {reply}");
        group.bench_function(*name, |b| {
            b.iter(|| runtime.block_on(roundtrip(&mut client, black_box(line))))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
