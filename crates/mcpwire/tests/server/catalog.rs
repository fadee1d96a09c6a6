//! Runtime changes of the registries through a `Catalog`: disabling hides a tool, prompt or
//! resource (absent from its list, unknown when called) until it is enabled again, adding and
//! removing work while the server serves, each change is announced once (to 2025-11-25
//! sessions and to 2026-07-28 listen streams that asked), and `listChanged` is declared only by
//! a server that holds a catalog.

use crate::support;
use mcpwire::McpServer;
use mcpwire::prelude::*;
use mcpwire::protocol::ChangedList;
use mcpwire::transport::MemoryClient;
use serde_json::{Value, json};
use support::{call, connect, exchange, is_error, modern_meta, next, text};

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// Subtracts two numbers.
#[tool]
async fn subtract(a: i64, b: i64) -> i64 {
    a - b
}

/// Multiplies two numbers.
#[tool]
async fn multiply(a: i64, b: i64) -> i64 {
    a * b
}

/// Greets someone.
#[prompt]
async fn greet(name: String) -> String {
    format!("Greet {name}.")
}

/// Says goodbye.
#[prompt]
async fn farewell(name: String) -> String {
    format!("Say goodbye to {name}.")
}

/// The opening hours.
#[resource(uri = "shop://hours")]
async fn hours() -> String {
    "9-18".into()
}

/// Today's news.
#[resource(uri = "shop://news")]
async fn news() -> String {
    "Nothing happened.".into()
}

fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}).to_string()
}

fn modern(id: u64, method: &str, mut params: Value) -> String {
    params["_meta"] = modern_meta(json!({}));
    request(id, method, params)
}

fn server() -> McpServer {
    McpServer::new("shop")
        .tool(add)
        .and_then(|s| s.tool(subtract))
        .and_then(|s| s.prompt(greet))
        .and_then(|s| s.resource(hours))
        .unwrap()
}

async fn initialized(server: McpServer) -> (MemoryClient, Value) {
    let mut client = connect(server).await;
    let init = json!({"protocolVersion":"2025-11-25","capabilities":{},
                      "clientInfo":{"name":"c","version":"1"}});
    let init = exchange(&mut client, request(0, "initialize", init)).await;
    (client, init["result"]["capabilities"].clone())
}

async fn names(client: &mut MemoryClient, id: u64, method: &str, key: &str) -> Vec<String> {
    let list = exchange(client, request(id, method, json!({}))).await;
    let field = if key == "resources" { "uri" } else { "name" };
    list["result"][key]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .map(|item| item[field].as_str().unwrap().to_owned())
        .collect()
}

fn changed(list: &str) -> Value {
    json!({"jsonrpc":"2.0","method":format!("notifications/{list}/list_changed"),"params":{}})
}

/// Nothing was sent before the answer to this ping.
async fn nothing_pending(client: &mut MemoryClient, id: u64) {
    let answer = exchange(client, request(id, "ping", json!({}))).await;
    assert_eq!(answer["id"], id, "unexpected message: {answer}");
}

#[tokio::test]
async fn list_changed_is_declared_only_by_a_server_with_a_catalog() {
    let fixed = server();
    let notifier = fixed.notifier();
    let (mut client, capabilities) = initialized(fixed).await;
    assert_eq!(
        capabilities,
        json!({"tools": {}, "prompts": {}, "resources": {"subscribe": true}, "logging": {}})
    );
    let discover = exchange(&mut client, modern(1, "server/discover", json!({}))).await;
    assert_eq!(discover["result"]["capabilities"], capabilities);
    // Its lists cannot change, so it announces no change, even when asked to.
    notifier.list_changed(ChangedList::Tools);
    nothing_pending(&mut client, 2).await;

    let changeable = server();
    let _catalog = changeable.catalog();
    let (mut client, capabilities) = initialized(changeable).await;
    assert_eq!(
        capabilities,
        json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true},
               "resources": {"subscribe": true, "listChanged": true}, "logging": {}})
    );
    let discover = exchange(&mut client, modern(1, "server/discover", json!({}))).await;
    assert_eq!(discover["result"]["capabilities"], capabilities);

    // A catalog may fill an empty list, so every list is declared from the start.
    let empty = McpServer::new("empty");
    let _catalog = empty.catalog();
    let (mut client, capabilities) = initialized(empty).await;
    assert_eq!(capabilities["prompts"], json!({"listChanged": true}));
    let list = exchange(&mut client, request(1, "prompts/list", json!({}))).await;
    assert_eq!(list["result"], json!({"prompts": []}));
}

#[tokio::test]
async fn a_disabled_tool_is_gone_until_it_is_enabled_again() {
    let server = server();
    let catalog = server.catalog();
    let (mut client, _) = initialized(server).await;

    assert!(catalog.disable_tool("subtract"));
    assert_eq!(next(&mut client).await, changed("tools"));
    assert_eq!(names(&mut client, 1, "tools/list", "tools").await, ["add"]);
    let refused = exchange(&mut client, call(2, "subtract", json!({"a": 3, "b": 1}))).await;
    assert_eq!(
        refused["error"],
        json!({"code": -32602, "message": "Unknown tool: subtract"})
    );
    assert!(!catalog.disable_tool("subtract"), "already disabled");
    assert!(!catalog.disable_tool("divide"), "never registered");
    nothing_pending(&mut client, 3).await;

    assert!(catalog.enable_tool("subtract"));
    assert_eq!(next(&mut client).await, changed("tools"));
    assert_eq!(
        names(&mut client, 4, "tools/list", "tools").await,
        ["add", "subtract"],
        "back in its place"
    );
    let answer = exchange(&mut client, call(5, "subtract", json!({"a": 3, "b": 1}))).await;
    assert_eq!(text(&answer), "2");
    assert!(!catalog.enable_tool("subtract"), "already enabled");
    nothing_pending(&mut client, 6).await;
}

#[tokio::test]
async fn a_disabled_prompt_or_resource_is_gone_until_it_is_enabled_again() {
    let server = server();
    let catalog = server.catalog();
    let (mut client, _) = initialized(server).await;

    assert!(catalog.disable_prompt("greet"));
    assert_eq!(next(&mut client).await, changed("prompts"));
    assert!(
        names(&mut client, 1, "prompts/list", "prompts")
            .await
            .is_empty()
    );
    let get = json!({"name": "greet", "arguments": {"name": "Ada"}});
    let refused = exchange(&mut client, request(2, "prompts/get", get.clone())).await;
    assert_eq!(refused["error"]["message"], "Unknown prompt: greet");
    assert!(catalog.enable_prompt("greet"));
    assert_eq!(next(&mut client).await, changed("prompts"));
    let rendered = exchange(&mut client, request(3, "prompts/get", get)).await;
    assert_eq!(
        rendered["result"]["messages"][0]["content"]["text"],
        "Greet Ada."
    );

    assert!(catalog.disable_resource("shop://hours"));
    assert_eq!(next(&mut client).await, changed("resources"));
    let read = json!({"uri": "shop://hours"});
    let refused = exchange(&mut client, request(4, "resources/read", read.clone())).await;
    assert_eq!(refused["error"]["code"], -32002);
    let subscribe = exchange(&mut client, request(5, "resources/subscribe", read.clone())).await;
    assert_eq!(subscribe["error"]["code"], -32002, "nothing serves it now");
    assert!(catalog.enable_resource("shop://hours"));
    assert_eq!(next(&mut client).await, changed("resources"));
    let done = exchange(&mut client, request(6, "resources/read", read)).await;
    assert_eq!(done["result"]["contents"][0]["text"], "9-18");
}

#[tokio::test]
async fn tools_prompts_and_resources_are_added_and_removed_while_serving() {
    let server = server();
    let catalog = server.catalog();
    let (mut client, _) = initialized(server).await;

    catalog.add_tool(multiply).unwrap();
    assert_eq!(next(&mut client).await, changed("tools"));
    let answer = exchange(&mut client, call(1, "multiply", json!({"a": 3, "b": 4}))).await;
    assert_eq!(text(&answer), "12");
    let twice = catalog.add_tool(multiply).unwrap_err();
    assert_eq!(twice.message(), "tool 'multiply' is registered twice");
    assert!(catalog.remove_tool("add"));
    assert_eq!(next(&mut client).await, changed("tools"));
    assert_eq!(
        names(&mut client, 2, "tools/list", "tools").await,
        ["subtract", "multiply"]
    );
    let gone = exchange(&mut client, call(3, "add", json!({"a": 1, "b": 1}))).await;
    assert_eq!(gone["error"]["message"], "Unknown tool: add");
    assert!(!is_error(&gone));
    assert!(!catalog.remove_tool("add"), "already removed");
    nothing_pending(&mut client, 4).await;
    catalog.add_tool(add).unwrap();
    assert_eq!(next(&mut client).await, changed("tools"));
    assert_eq!(
        names(&mut client, 5, "tools/list", "tools").await,
        ["subtract", "multiply", "add"]
    );

    catalog.add_prompt(farewell).unwrap();
    assert_eq!(next(&mut client).await, changed("prompts"));
    assert!(catalog.remove_prompt("greet"));
    assert_eq!(next(&mut client).await, changed("prompts"));
    assert_eq!(
        names(&mut client, 6, "prompts/list", "prompts").await,
        ["farewell"]
    );

    catalog.add_resource(news).unwrap();
    assert_eq!(next(&mut client).await, changed("resources"));
    assert!(catalog.remove_resource("shop://hours"));
    assert_eq!(next(&mut client).await, changed("resources"));
    assert_eq!(
        names(&mut client, 7, "resources/list", "resources").await,
        ["shop://news"]
    );
    let read = exchange(
        &mut client,
        request(8, "resources/read", json!({"uri": "shop://news"})),
    )
    .await;
    assert_eq!(read["result"]["contents"][0]["text"], "Nothing happened.");
}

#[tokio::test]
async fn a_listen_stream_hears_the_changes_it_asked_for() {
    let server = server();
    let catalog = server.catalog();
    let mut client = connect(server).await;
    let listen = json!({"jsonrpc":"2.0","id":"sub-1","method":"subscriptions/listen","params":{
        "_meta": modern_meta(json!({})),
        "notifications": {"toolsListChanged": true, "resourcesListChanged": true}}});
    client.send(listen.to_string());
    let ack = next(&mut client).await;
    assert_eq!(
        ack["params"]["notifications"],
        json!({"toolsListChanged": true, "resourcesListChanged": true})
    );

    assert!(catalog.disable_prompt("greet"), "not asked for");
    assert!(catalog.disable_tool("add"));
    let tag = json!({"io.modelcontextprotocol/subscriptionId": "sub-1"});
    assert_eq!(
        next(&mut client).await,
        json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta": tag}})
    );
    let list = exchange(&mut client, modern(1, "tools/list", json!({}))).await;
    let listed: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|tool| tool["name"].as_str().unwrap())
        .collect();
    assert_eq!(listed, ["subtract"]);
    let refused = exchange(
        &mut client,
        support::modern_call(2, "add", json!({"a": 1, "b": 2}), modern_meta(json!({}))),
    )
    .await;
    assert_eq!(refused["error"]["message"], "Unknown tool: add");
    assert!(catalog.enable_tool("add"));
    assert_eq!(
        next(&mut client).await["method"],
        "notifications/tools/list_changed"
    );
}

#[tokio::test]
async fn changes_before_serving_shape_the_first_lists_and_announce_nothing() {
    let server = server();
    let catalog = server.catalog();
    assert!(catalog.disable_tool("add"));
    catalog.add_tool(multiply).unwrap();
    let (mut client, _) = initialized(server).await;
    nothing_pending(&mut client, 1).await;
    assert_eq!(
        names(&mut client, 2, "tools/list", "tools").await,
        ["subtract", "multiply"]
    );
}

#[tokio::test]
async fn a_page_of_the_list_reflects_the_change() {
    let server = server().page_size(1);
    let catalog = server.catalog();
    let (mut client, _) = initialized(server).await;
    let first = exchange(&mut client, request(1, "tools/list", json!({}))).await;
    assert_eq!(first["result"]["nextCursor"], "1");
    assert!(catalog.disable_tool("subtract"));
    next(&mut client).await;
    let first = exchange(&mut client, request(2, "tools/list", json!({}))).await;
    assert_eq!(
        first["result"],
        json!({"tools": [first["result"]["tools"][0]]})
    );
    assert_eq!(first["result"]["tools"][0]["name"], "add");
}
