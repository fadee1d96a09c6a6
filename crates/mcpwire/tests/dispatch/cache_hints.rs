//! Cache hints (2026-07-28 `ttlMs`, `cacheScope`): each resource declares its own, a resource
//! that declares none is not cached, and neither an `input_required` result nor the answer to a
//! retried round is ever cacheable. Lists and `server/discover` are public for the list TTL.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use std::time::Duration;
use support::{connect, exchange, modern_meta, request_state};

fn modern(id: u64, method: &str, mut params: Value, capabilities: Value) -> String {
    params["_meta"] = modern_meta(capabilities);
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}).to_string()
}

fn hints(response: &Value) -> (Value, Value) {
    let result = &response["result"];
    (result["ttlMs"].clone(), result["cacheScope"].clone())
}

/// Says nothing about caching.
#[resource(uri = "shop://stock")]
async fn stock() -> String {
    "12".into()
}

/// The same for everyone, for an hour.
#[resource(uri = "shop://hours", ttl_ms = 3600000, cache = "public")]
async fn hours() -> String {
    "9-18".into()
}

/// Each caller's own, for a minute.
#[resource(uri = "shop://basket", ttl_ms = 60000, cache = "private")]
async fn basket() -> String {
    "[]".into()
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Pin {
    /// The PIN.
    pin: String,
}

#[resolver]
async fn ask_pin() -> Elicit<Pin> {
    Elicit::ask("Your PIN?")
}

/// Asks first; would be public for an hour otherwise.
#[resource(uri = "shop://vault", ttl_ms = 3600000, cache = "public")]
async fn vault(#[resolve(ask_pin)] pin: Pin) -> String {
    format!("opened with {}", pin.pin)
}

/// Lists the shop.
#[tool]
async fn browse() -> String {
    "books".into()
}

fn server() -> McpServer {
    McpServer::new("shop")
        .resource(stock)
        .and_then(|s| s.resource(hours))
        .and_then(|s| s.resource(basket))
        .and_then(|s| s.resource(vault))
        .and_then(|s| s.tool(browse))
        .unwrap()
}

fn read(id: u64, uri: &str) -> String {
    modern(id, "resources/read", json!({"uri": uri}), json!({}))
}

#[tokio::test]
async fn a_resource_without_hints_is_not_cached() {
    let mut client = connect(server()).await;
    let response = exchange(&mut client, read(1, "shop://stock")).await;
    assert_eq!(hints(&response), (json!(0), json!("private")), "{response}");
}

#[tokio::test]
async fn a_resource_s_own_hints_are_honoured() {
    let mut client = connect(server()).await;
    let hours = exchange(&mut client, read(1, "shop://hours")).await;
    assert_eq!(hints(&hours), (json!(3600000), json!("public")));
    let basket = exchange(&mut client, read(2, "shop://basket")).await;
    assert_eq!(hints(&basket), (json!(60000), json!("private")));
}

#[tokio::test]
async fn an_input_required_read_and_the_answer_to_its_retry_are_not_cacheable() {
    let mut client = connect(server()).await;
    let form = json!({"elicitation": {}});
    let params = json!({"uri": "shop://vault"});
    let round1 = exchange(
        &mut client,
        modern(1, "resources/read", params.clone(), form.clone()),
    )
    .await;
    assert_eq!(round1["result"]["resultType"], "input_required");
    assert_eq!(hints(&round1), (Value::Null, Value::Null), "{round1}");

    let mut retry = params;
    retry["requestState"] = json!(request_state(&round1));
    retry["inputResponses"] =
        json!({"dispatch::cache_hints::ask_pin": {"action": "accept", "content": {"pin": "1234"}}});
    let done = exchange(&mut client, modern(2, "resources/read", retry, form)).await;
    assert_eq!(done["result"]["contents"][0]["text"], "opened with 1234");
    assert_eq!(
        hints(&done),
        (json!(0), json!("private")),
        "the answer to a retried round must not be cached: {done}"
    );
}

#[tokio::test]
async fn lists_and_discovery_are_public_for_the_configured_list_ttl() {
    let mut client = connect(server().list_ttl(Duration::from_secs(5))).await;
    for (id, method) in [
        (1, "tools/list"),
        (2, "resources/list"),
        (3, "resources/templates/list"),
        (4, "server/discover"),
    ] {
        let response = exchange(&mut client, modern(id, method, json!({}), json!({}))).await;
        assert_eq!(
            hints(&response),
            (json!(5000), json!("public")),
            "{method}: {response}"
        );
    }
}
