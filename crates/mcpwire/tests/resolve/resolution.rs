//! Running resolvers: once per call, concurrently when independent, never cached across calls,
//! errors and panics reported as `isError` results, overrides for tests. Called by the crate's
//! own client on both revisions.

use crate::support;
use mcpwire::client::{Client, EraChoice};
use mcpwire::prelude::*;
use mcpwire::protocol::CallToolResult;
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use support::{ERAS, as_json, client, first_text};

/// Calls `tool` and returns its result (a tool's failure is a result, not an error).
async fn call(client: &Client, tool: &str, arguments: Value) -> CallToolResult {
    let result = client.call_tool(tool, arguments).await;
    result.unwrap_or_else(|error| panic!("{:?}: {tool}: {error}", client.era()))
}

/// The text of `tool`'s result.
async fn text(client: &Client, tool: &str, arguments: Value) -> String {
    first_text(&call(client, tool, arguments).await).to_owned()
}

/// Whether a tool result is an `isError` result.
fn is_error(result: &CallToolResult) -> bool {
    result.is_error == Some(true)
}

#[derive(Default)]
struct Counters {
    base: AtomicU32,
}

#[resolver]
async fn base(ctx: Context) -> u32 {
    ctx.state::<Counters>().base.fetch_add(1, Ordering::SeqCst) + 1
}

#[resolver]
async fn doubled(#[resolve(base)] value: u32) -> u32 {
    value * 2
}

#[resolver]
async fn tripled(#[resolve(base)] value: u32) -> u32 {
    value * 3
}

/// Uses `base` through three paths.
#[tool]
async fn diamond(
    #[resolve(base)] base: u32,
    #[resolve(doubled)] doubled: u32,
    #[resolve(tripled)] tripled: u32,
) -> String {
    format!("{base} {doubled} {tripled}")
}

#[tokio::test]
async fn a_shared_dependency_runs_once_per_call_and_again_on_the_next_call() {
    for era in ERAS {
        let server = McpServer::new("t")
            .state(Counters::default())
            .tool(diamond)
            .unwrap();
        let client = client(server, era).await;
        assert_eq!(text(&client, "diamond", json!({})).await, "1 2 3");
        let second = text(&client, "diamond", json!({})).await;
        assert_eq!(second, "2 4 6", "{era:?}: nothing is cached across calls");
    }
}

struct Meeting(tokio::sync::Barrier);

#[resolver]
async fn left(ctx: Context) -> &'static str {
    ctx.state::<Meeting>().0.wait().await;
    "left"
}

#[resolver]
async fn right(ctx: Context) -> &'static str {
    ctx.state::<Meeting>().0.wait().await;
    "right"
}

/// Needs two independent resolvers that only finish when both run at once.
#[tool]
async fn both(#[resolve(left)] l: &'static str, #[resolve(right)] r: &'static str) -> String {
    format!("{l}+{r}")
}

#[tokio::test(flavor = "current_thread")]
async fn independent_resolvers_run_concurrently() {
    // Each resolver waits at a barrier for the other: run one after the other, they would never
    // finish (and the call would fail after the client's timeout).
    for era in ERAS {
        let meeting = Meeting(tokio::sync::Barrier::new(2));
        let server = McpServer::new("t").state(meeting).tool(both).unwrap();
        let client = client(server, era).await;
        assert_eq!(text(&client, "both", json!({})).await, "left+right");
    }
}

struct Rendezvous(std::sync::Barrier);

#[resolver]
fn blocking_a(ctx: Context) -> u8 {
    ctx.state::<Arc<Rendezvous>>().0.wait();
    1
}

#[resolver]
fn blocking_b(ctx: Context) -> u8 {
    ctx.state::<Arc<Rendezvous>>().0.wait();
    2
}

/// Needs two plain (blocking) resolvers that only finish when both run at once.
#[tool]
async fn blocking_pair(#[resolve(blocking_a)] a: u8, #[resolve(blocking_b)] b: u8) -> String {
    format!("{}", a + b)
}

#[tokio::test(flavor = "current_thread")]
async fn plain_resolvers_run_off_the_async_runtime() {
    // On a single-threaded runtime, a blocking resolver run inline would deadlock the barrier.
    for era in ERAS {
        let rendezvous = Arc::new(Rendezvous(std::sync::Barrier::new(2)));
        let server = McpServer::new("t")
            .state(rendezvous)
            .tool(blocking_pair)
            .unwrap();
        let client = client(server, era).await;
        assert_eq!(text(&client, "blocking_pair", json!({})).await, "3");
    }
}

struct BodyRuns(AtomicU32);

#[resolver]
async fn failing(title: String) -> Result<u32, String> {
    Err(format!("no record of '{title}'"))
}

/// Fails in its resolver; the body must not run.
#[tool]
async fn fragile(title: String, #[resolve(failing)] copies: u32, ctx: Context) -> String {
    ctx.state::<BodyRuns>().0.fetch_add(1, Ordering::SeqCst);
    format!("{title}: {copies}")
}

#[resolver]
async fn exploding() -> u32 {
    panic!("secret connection string leaked in a panic")
}

/// Its resolver panics.
#[tool]
async fn shaky(#[resolve(exploding)] value: u32) -> String {
    value.to_string()
}

/// Panics itself.
#[tool]
async fn broken() -> String {
    panic!("internal detail")
}

#[tokio::test]
async fn resolver_errors_and_panics_are_tool_errors_and_the_server_keeps_serving() {
    for era in ERAS {
        let server = McpServer::new("t")
            .state(BodyRuns(AtomicU32::new(0)))
            .tool(fragile)
            .unwrap()
            .tool(shaky)
            .unwrap()
            .tool(broken)
            .unwrap();
        let client = client(server, era).await;

        let failed = call(&client, "fragile", json!({"title": "Dune"})).await;
        assert!(is_error(&failed), "{era:?}");
        assert_eq!(
            first_text(&failed),
            "Error executing tool fragile: no record of 'Dune'"
        );

        let panicked = call(&client, "shaky", json!({})).await;
        assert!(is_error(&panicked), "{era:?}");
        assert_eq!(
            first_text(&panicked),
            "Error executing tool shaky: resolver 'exploding' panicked"
        );

        let tool_panic = call(&client, "broken", json!({})).await;
        assert_eq!(
            first_text(&tool_panic),
            "Error executing tool broken: the tool panicked"
        );

        // The server keeps serving (2026-07-28 has no ping).
        match era {
            EraChoice::Legacy => client.ping().await.unwrap(),
            _ => drop(client.list_tools().await.unwrap()),
        }
    }
}

/// Reports how often `fragile`'s body ran.
#[tool]
async fn body_runs(ctx: Context) -> String {
    ctx.state::<BodyRuns>().0.load(Ordering::SeqCst).to_string()
}

#[tokio::test]
async fn the_body_does_not_run_when_a_resolver_fails_or_the_arguments_are_invalid() {
    for era in ERAS {
        let server = McpServer::new("t")
            .state(BodyRuns(AtomicU32::new(0)))
            .tool(fragile)
            .unwrap()
            .tool(body_runs)
            .unwrap();
        let client = client(server, era).await;
        let failed = call(&client, "fragile", json!({"title": "Dune"})).await;
        assert!(is_error(&failed), "{era:?}");
        assert_eq!(
            text(&client, "fragile", json!({"title": 3})).await,
            "Error executing tool fragile: invalid arguments: title: invalid type: integer `3`, \
             expected a string"
        );
        assert_eq!(
            text(&client, "fragile", json!({})).await,
            "Error executing tool fragile: invalid arguments: missing field `title`"
        );
        assert_eq!(text(&client, "body_runs", json!({})).await, "0", "{era:?}");
    }
}

#[resolver]
async fn price(title: String) -> u32 {
    if title == "Dune" { 12 } else { 9 }
}

#[resolver]
async fn free(title: String) -> u32 {
    drop(title);
    0
}

/// Quotes a price.
#[tool]
async fn quote(title: String, #[resolve(price)] price: u32) -> String {
    format!("{title}: {price} EUR")
}

#[tokio::test]
async fn a_client_cannot_supply_a_resolved_parameter() {
    for era in ERAS {
        let client = client(McpServer::new("t").tool(quote).unwrap(), era).await;
        let forged = json!({"title": "Dune", "price": 0});
        assert_eq!(
            text(&client, "quote", forged).await,
            "Dune: 12 EUR",
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn an_override_replaces_a_resolver_without_touching_the_tool() {
    for era in ERAS {
        let server = McpServer::new("t")
            .tool(quote)
            .unwrap()
            .override_resolver::<price, free>()
            .unwrap();
        let client = client(server, era).await;
        let quoted = text(&client, "quote", json!({"title": "Dune"})).await;
        assert_eq!(quoted, "Dune: 0 EUR", "{era:?}");
    }
}

#[tokio::test]
async fn resolved_parameters_are_absent_from_the_input_schema() {
    for era in ERAS {
        let client = client(McpServer::new("t").tool(quote).unwrap(), era).await;
        let tools = client.list_tools().await.unwrap();
        assert_eq!(
            as_json(&tools[0])["inputSchema"],
            json!({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]}),
            "{era:?}"
        );
    }
}
