//! Running resolvers: once per call, concurrently when independent, never cached across calls,
//! errors and panics reported as `isError` results, overrides for tests.

use crate::support;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use support::{call, connect, exchange, is_error, text};

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
    let server = McpServer::new("t")
        .state(Counters::default())
        .tool(diamond)
        .unwrap();
    let mut client = connect(server).await;
    let first = exchange(&mut client, call(1, "diamond", json!({}))).await;
    assert_eq!(text(&first), "1 2 3");
    let second = exchange(&mut client, call(2, "diamond", json!({}))).await;
    assert_eq!(text(&second), "2 4 6", "nothing is cached across calls");
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
    // finish (and `next` would fail after its timeout).
    let meeting = Meeting(tokio::sync::Barrier::new(2));
    let server = McpServer::new("t").state(meeting).tool(both).unwrap();
    let mut client = connect(server).await;
    assert_eq!(
        text(&exchange(&mut client, call(1, "both", json!({}))).await),
        "left+right"
    );
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
    let rendezvous = Arc::new(Rendezvous(std::sync::Barrier::new(2)));
    let server = McpServer::new("t")
        .state(rendezvous)
        .tool(blocking_pair)
        .unwrap();
    let mut client = connect(server).await;
    assert_eq!(
        text(&exchange(&mut client, call(1, "blocking_pair", json!({}))).await),
        "3"
    );
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
    let server = McpServer::new("t")
        .state(BodyRuns(AtomicU32::new(0)))
        .tool(fragile)
        .unwrap()
        .tool(shaky)
        .unwrap()
        .tool(broken)
        .unwrap();
    let mut client = connect(server).await;

    let failed = exchange(&mut client, call(1, "fragile", json!({"title": "Dune"}))).await;
    assert!(is_error(&failed));
    assert_eq!(
        text(&failed),
        "Error executing tool fragile: no record of 'Dune'"
    );

    let panicked = exchange(&mut client, call(2, "shaky", json!({}))).await;
    assert!(is_error(&panicked));
    assert_eq!(
        text(&panicked),
        "Error executing tool shaky: resolver 'exploding' panicked"
    );

    let tool_panic = exchange(&mut client, call(3, "broken", json!({}))).await;
    assert_eq!(
        text(&tool_panic),
        "Error executing tool broken: the tool panicked"
    );

    let ping = exchange(
        &mut client,
        r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#.into(),
    )
    .await;
    assert_eq!(ping, json!({"jsonrpc":"2.0","id":4,"result":{}}));
}

/// Reports how often `fragile`'s body ran.
#[tool]
async fn body_runs(ctx: Context) -> String {
    ctx.state::<BodyRuns>().0.load(Ordering::SeqCst).to_string()
}

#[tokio::test]
async fn the_body_does_not_run_when_a_resolver_fails_or_the_arguments_are_invalid() {
    let server = McpServer::new("t")
        .state(BodyRuns(AtomicU32::new(0)))
        .tool(fragile)
        .unwrap()
        .tool(body_runs)
        .unwrap();
    let mut client = connect(server).await;
    let failed = exchange(&mut client, call(1, "fragile", json!({"title": "Dune"}))).await;
    assert!(is_error(&failed));
    let bad_args = exchange(&mut client, call(2, "fragile", json!({"title": 3}))).await;
    assert_eq!(
        text(&bad_args),
        "Error executing tool fragile: invalid arguments: title: invalid type: integer `3`, \
         expected a string"
    );
    let missing = exchange(&mut client, call(3, "fragile", json!({}))).await;
    assert_eq!(
        text(&missing),
        "Error executing tool fragile: invalid arguments: missing field `title`"
    );
    let runs = exchange(&mut client, call(4, "body_runs", json!({}))).await;
    assert_eq!(text(&runs), "0");
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
    let mut client = connect(McpServer::new("t").tool(quote).unwrap()).await;
    let response = exchange(
        &mut client,
        call(1, "quote", json!({"title": "Dune", "price": 0})),
    )
    .await;
    assert_eq!(text(&response), "Dune: 12 EUR");
}

#[tokio::test]
async fn an_override_replaces_a_resolver_without_touching_the_tool() {
    let server = McpServer::new("t")
        .tool(quote)
        .unwrap()
        .override_resolver::<price, free>()
        .unwrap();
    let mut client = connect(server).await;
    let response = exchange(&mut client, call(1, "quote", json!({"title": "Dune"}))).await;
    assert_eq!(text(&response), "Dune: 0 EUR");
}

#[tokio::test]
async fn resolved_parameters_are_absent_from_the_input_schema() {
    let mut client = connect(McpServer::new("t").tool(quote).unwrap()).await;
    let list = exchange(
        &mut client,
        r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.into(),
    )
    .await;
    assert_eq!(
        list["result"]["tools"][0]["inputSchema"],
        json!({"type":"object","properties":{"title":{"type":"string"}},"required":["title"]})
    );
}
