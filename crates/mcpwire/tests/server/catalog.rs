//! Runtime changes of the registries through a `Catalog`: disabling hides a tool, prompt or
//! resource (absent from its list, unknown when called) until it is enabled again, adding and
//! removing work while the server serves, each change is announced once (to 2025-11-25
//! sessions and to 2026-07-28 listen streams that asked), and `listChanged` is declared only by
//! a server that holds a catalog. Driven by the crate's own client on both revisions; the tag a
//! listen stream's notifications carry is asserted on the wire, in raw JSON-RPC lines.

use crate::support;
use futures_util::FutureExt;
use mcpwire::McpServer;
use mcpwire::client::{Client, EraChoice, Notifications, ServerNotification, Subscription};
use mcpwire::prelude::*;
use mcpwire::protocol::{ChangedList, Era, SubscriptionFilter};
use serde_json::{Value, json};
use std::time::Duration;
use support::{ERAS, as_json, client, connect, exchange, first_text, modern_meta, next, rpc_error};

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

fn server() -> McpServer {
    McpServer::new("shop")
        .tool(add)
        .and_then(|s| s.tool(subtract))
        .and_then(|s| s.prompt(greet))
        .and_then(|s| s.resource(hours))
        .unwrap()
}

/// Where a client hears the changes: its session's notifications (2025-11-25), or a listen
/// stream that asked for every list (2026-07-28).
enum Heard {
    Session(Notifications),
    Listen(Subscription),
}

impl Heard {
    async fn on(client: &Client) -> Heard {
        match client.era() {
            Era::Legacy => Heard::Session(client.notifications()),
            Era::Modern => {
                let every_list = SubscriptionFilter {
                    tools_list_changed: Some(true),
                    prompts_list_changed: Some(true),
                    resources_list_changed: Some(true),
                    ..Default::default()
                };
                Heard::Listen(client.listen(every_list).await.expect("listening"))
            }
        }
    }

    /// The next change heard, if one was already received.
    fn now(&mut self) -> Option<ServerNotification> {
        match self {
            Heard::Session(notes) => notes.next().now_or_never().flatten(),
            Heard::Listen(stream) => stream.next().now_or_never().flatten(),
        }
    }

    /// The next change heard; fails the test after 10 s.
    async fn next(&mut self) -> ServerNotification {
        let next = async {
            match self {
                Heard::Session(notes) => notes.next().await,
                Heard::Listen(stream) => stream.next().await,
            }
        };
        tokio::time::timeout(Duration::from_secs(10), next)
            .await
            .expect("a change heard within 10 s")
            .expect("still connected")
    }

    /// The next change heard is that `list` changed (announced with no other params than a
    /// listen stream's tag).
    async fn changed(&mut self, list: &str) {
        let mut note = self.next().await;
        assert_eq!(note.method, format!("notifications/{list}/list_changed"));
        if let Heard::Listen(_) = self {
            note.params.as_object_mut().unwrap().remove("_meta");
        }
        assert_eq!(note.params, json!({}), "{list}");
    }

    /// Nothing was announced before the answer to a request `client` sends now.
    async fn nothing(&mut self, client: &Client) {
        client.list_prompts().await.unwrap();
        let heard = self.now();
        assert!(heard.is_none(), "unexpected notification: {heard:?}");
    }
}

/// The names of the tools, prompts or resources (their URIs) listed now.
async fn names(client: &Client, list: &str) -> Vec<String> {
    match list {
        "tools" => client
            .list_tools()
            .await
            .unwrap()
            .into_iter()
            .map(|t| t.name)
            .collect(),
        "prompts" => client
            .list_prompts()
            .await
            .unwrap()
            .into_iter()
            .map(|p| p.name)
            .collect(),
        _ => client
            .list_resources()
            .await
            .unwrap()
            .into_iter()
            .map(|r| r.uri)
            .collect(),
    }
}

/// The server's capabilities as the client was told them (`initialize` on 2025-11-25,
/// `server/discover` on 2026-07-28).
fn capabilities(client: &Client) -> Value {
    as_json(&client.server().capabilities)
}

#[tokio::test]
async fn list_changed_is_declared_only_by_a_server_with_a_catalog() {
    for era in ERAS {
        let fixed = server();
        let notifier = fixed.notifier();
        let client = client(fixed, era).await;
        assert_eq!(
            capabilities(&client),
            json!({"tools": {}, "prompts": {}, "resources": {"subscribe": true}, "logging": {}}),
            "{era:?}"
        );
        // Its lists cannot change, so it announces no change, even when asked to.
        let mut heard = Heard::on(&client).await;
        notifier.list_changed(ChangedList::Tools);
        heard.nothing(&client).await;

        let changeable = server();
        let _catalog = changeable.catalog();
        let client = support::client(changeable, era).await;
        assert_eq!(
            capabilities(&client),
            json!({"tools": {"listChanged": true}, "prompts": {"listChanged": true},
                   "resources": {"subscribe": true, "listChanged": true}, "logging": {}}),
            "{era:?}"
        );

        // A catalog may fill an empty list, so every list is declared from the start.
        let empty = McpServer::new("empty");
        let _catalog = empty.catalog();
        let client = support::client(empty, era).await;
        assert_eq!(
            capabilities(&client)["prompts"],
            json!({"listChanged": true}),
            "{era:?}"
        );
        assert!(client.list_prompts().await.unwrap().is_empty(), "{era:?}");
    }
}

#[tokio::test]
async fn a_disabled_tool_is_gone_until_it_is_enabled_again() {
    for era in ERAS {
        let server = server();
        let catalog = server.catalog();
        let client = client(server, era).await;
        let mut heard = Heard::on(&client).await;

        assert!(catalog.disable_tool("subtract"));
        heard.changed("tools").await;
        assert_eq!(names(&client, "tools").await, ["add"], "{era:?}");
        let refused = rpc_error(client.call_tool("subtract", json!({"a": 3, "b": 1})).await);
        assert_eq!(
            as_json(&refused),
            json!({"code": -32602, "message": "Unknown tool: subtract"}),
            "{era:?}"
        );
        assert!(!catalog.disable_tool("subtract"), "already disabled");
        assert!(!catalog.disable_tool("divide"), "never registered");
        heard.nothing(&client).await;

        assert!(catalog.enable_tool("subtract"));
        heard.changed("tools").await;
        assert_eq!(
            names(&client, "tools").await,
            ["add", "subtract"],
            "{era:?}: back in its place"
        );
        let answer = client.call_tool("subtract", json!({"a": 3, "b": 1})).await;
        assert_eq!(first_text(&answer.unwrap()), "2", "{era:?}");
        assert!(!catalog.enable_tool("subtract"), "already enabled");
        heard.nothing(&client).await;
    }
}

#[tokio::test]
async fn a_disabled_prompt_or_resource_is_gone_until_it_is_enabled_again() {
    for era in ERAS {
        let server = server();
        let catalog = server.catalog();
        let client = client(server, era).await;
        let mut heard = Heard::on(&client).await;

        assert!(catalog.disable_prompt("greet"));
        heard.changed("prompts").await;
        assert!(names(&client, "prompts").await.is_empty(), "{era:?}");
        let refused = rpc_error(client.get_prompt("greet", [("name", "Ada")]).await);
        assert_eq!(refused.message, "Unknown prompt: greet", "{era:?}");
        assert!(catalog.enable_prompt("greet"));
        heard.changed("prompts").await;
        let rendered = client.get_prompt("greet", [("name", "Ada")]).await;
        assert_eq!(
            as_json(&rendered.unwrap())["messages"][0]["content"]["text"],
            "Greet Ada.",
            "{era:?}"
        );

        assert!(catalog.disable_resource("shop://hours"));
        heard.changed("resources").await;
        let refused = rpc_error(client.read_resource("shop://hours").await);
        let not_found = if era == EraChoice::Legacy {
            -32002
        } else {
            -32602
        };
        assert_eq!(refused.code, not_found, "{era:?}");
        if era == EraChoice::Legacy {
            let subscribe = rpc_error(client.subscribe_resource("shop://hours").await);
            assert_eq!(subscribe.code, -32002, "nothing serves it now");
        }
        assert!(catalog.enable_resource("shop://hours"));
        heard.changed("resources").await;
        let done = client.read_resource("shop://hours").await;
        assert_eq!(
            as_json(&done.unwrap())["contents"][0]["text"],
            "9-18",
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn tools_prompts_and_resources_are_added_and_removed_while_serving() {
    for era in ERAS {
        let server = server();
        let catalog = server.catalog();
        let client = client(server, era).await;
        let mut heard = Heard::on(&client).await;

        catalog.add_tool(multiply).unwrap();
        heard.changed("tools").await;
        let answer = client.call_tool("multiply", json!({"a": 3, "b": 4})).await;
        assert_eq!(first_text(&answer.unwrap()), "12", "{era:?}");
        let twice = catalog.add_tool(multiply).unwrap_err();
        assert_eq!(twice.message(), "tool 'multiply' is registered twice");
        assert!(catalog.remove_tool("add"));
        heard.changed("tools").await;
        assert_eq!(
            names(&client, "tools").await,
            ["subtract", "multiply"],
            "{era:?}"
        );
        // A protocol error, not an `isError` result.
        let gone = rpc_error(client.call_tool("add", json!({"a": 1, "b": 1})).await);
        assert_eq!(gone.message, "Unknown tool: add", "{era:?}");
        assert!(!catalog.remove_tool("add"), "already removed");
        heard.nothing(&client).await;
        catalog.add_tool(add).unwrap();
        heard.changed("tools").await;
        assert_eq!(
            names(&client, "tools").await,
            ["subtract", "multiply", "add"],
            "{era:?}"
        );

        catalog.add_prompt(farewell).unwrap();
        heard.changed("prompts").await;
        assert!(catalog.remove_prompt("greet"));
        heard.changed("prompts").await;
        assert_eq!(names(&client, "prompts").await, ["farewell"], "{era:?}");

        catalog.add_resource(news).unwrap();
        heard.changed("resources").await;
        assert!(catalog.remove_resource("shop://hours"));
        heard.changed("resources").await;
        assert_eq!(
            names(&client, "resources").await,
            ["shop://news"],
            "{era:?}"
        );
        let read = client.read_resource("shop://news").await;
        assert_eq!(
            as_json(&read.unwrap())["contents"][0]["text"],
            "Nothing happened.",
            "{era:?}"
        );
    }
}

/// A 2026-07-28 request line.
fn modern(id: u64, method: &str, mut params: Value) -> String {
    params["_meta"] = modern_meta(json!({}));
    json!({"jsonrpc":"2.0","id":id,"method":method,"params":params}).to_string()
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
    for era in ERAS {
        let server = server();
        let catalog = server.catalog();
        assert!(catalog.disable_tool("add"));
        catalog.add_tool(multiply).unwrap();
        let client = client(server, era).await;
        Heard::on(&client).await.nothing(&client).await;
        assert_eq!(
            names(&client, "tools").await,
            ["subtract", "multiply"],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_page_of_the_list_reflects_the_change() {
    for era in ERAS {
        let server = server().page_size(1);
        let catalog = server.catalog();
        let client = client(server, era).await;
        let mut heard = Heard::on(&client).await;
        let first = client.request("tools/list", json!({})).await.unwrap();
        assert_eq!(first["nextCursor"], "1", "{era:?}");
        assert!(catalog.disable_tool("subtract"));
        heard.changed("tools").await;
        let first = client.request("tools/list", json!({})).await.unwrap();
        assert_eq!(first.get("nextCursor"), None, "{era:?}: {first}");
        assert_eq!(first["tools"].as_array().unwrap().len(), 1, "{era:?}");
        assert_eq!(first["tools"][0]["name"], "add", "{era:?}");
    }
}
