//! Change notifications: `subscriptions/listen` on 2026-07-28 (acknowledged filter, tagged
//! notifications, nothing unrequested) and session notifications on 2025-11-25 (list changes,
//! updates of subscribed resources), over the in-memory transport.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::protocol::ChangedList;
use serde_json::{Value, json};
use support::{call, connect, exchange, modern_call, modern_meta, next};

/// Changes the tool list and a resource.
#[tool]
async fn reload(ctx: Context) -> String {
    ctx.notify_list_changed(ChangedList::Tools);
    ctx.notify_list_changed(ChangedList::Prompts);
    ctx.notify_resource_updated("shop://books/dune");
    ctx.notify_resource_updated("shop://music/x");
    "reloaded".into()
}

/// The catalogue.
#[resource(uri = "shop://books")]
async fn books() -> String {
    "[]".into()
}

/// A server whose lists may change: it holds a catalog, so it declares `listChanged` (for all
/// three lists) and its list-changed notifications are delivered.
fn server() -> McpServer {
    let server = McpServer::new("shop")
        .tool(reload)
        .unwrap()
        .resource(books)
        .unwrap();
    let _catalog = server.catalog();
    server
}

#[tokio::test]
async fn a_listen_stream_gets_its_acknowledgement_then_only_what_it_asked_for() {
    let mut client = connect(server()).await;
    let listen = json!({"jsonrpc":"2.0","id":"sub-1","method":"subscriptions/listen","params":{
        "_meta": modern_meta(json!({})),
        "notifications": {"toolsListChanged": true, "resourceSubscriptions": ["shop://books"], "taskIds": ["t"]}}});
    client.send(listen.to_string());
    let ack = next(&mut client).await;
    assert_eq!(
        ack,
        json!({"jsonrpc":"2.0","method":"notifications/subscriptions/acknowledged","params":{
            "_meta": {"io.modelcontextprotocol/subscriptionId": "sub-1"},
            "notifications": {"toolsListChanged": true, "resourceSubscriptions": ["shop://books"]}}}),
        "task ids are dropped: this server has no tasks"
    );
    client.send(modern_call(2, "reload", json!({}), modern_meta(json!({}))));
    let mut received: Vec<Value> = Vec::new();
    while received.len() < 3 {
        received.push(next(&mut client).await);
    }
    let tagged = json!({"io.modelcontextprotocol/subscriptionId": "sub-1"});
    assert!(received.contains(&json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{"_meta":tagged}})), "{received:?}");
    assert!(received.contains(&json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"_meta":tagged,"uri":"shop://books/dune"}})), "{received:?}");
    assert!(
        received.iter().any(|m| m["id"] == 2),
        "the call's own response"
    );
    // Nothing else: the prompt change and the unwatched resource were not asked for.
    client.send(r#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#.to_string());
    assert_eq!(next(&mut client).await["id"], 3);

    client.send(
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"sub-1"}})
            .to_string(),
    );
    let after = exchange(
        &mut client,
        r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#.into(),
    )
    .await;
    assert_eq!(
        after["id"], 4,
        "a cancelled listen request gets no response"
    );
}

#[tokio::test]
async fn a_legacy_session_gets_list_changes_and_updates_of_what_it_subscribed_to() {
    let server = server();
    let notifier = server.notifier();
    let mut client = connect(server).await;
    // Before initialize, nothing unsolicited is sent.
    notifier.list_changed(ChangedList::Tools);
    let ping = exchange(
        &mut client,
        r#"{"jsonrpc":"2.0","id":0,"method":"ping"}"#.into(),
    )
    .await;
    assert_eq!(ping["id"], 0);

    let init = json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}});
    let init = exchange(&mut client, init.to_string()).await;
    assert_eq!(
        init["result"]["capabilities"]["resources"],
        json!({"subscribe": true, "listChanged": true})
    );
    let subscribe = json!({"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"shop://books"}});
    assert_eq!(
        exchange(&mut client, subscribe.to_string()).await["result"],
        json!({})
    );

    client.send(call(3, "reload", json!({})));
    let mut received: Vec<Value> = Vec::new();
    while received.len() < 4 {
        received.push(next(&mut client).await);
    }
    assert!(received.contains(
        &json!({"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}})
    ));
    assert!(received.contains(
        &json!({"jsonrpc":"2.0","method":"notifications/prompts/list_changed","params":{}})
    ));
    assert!(received.contains(&json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"shop://books/dune"}})));
    assert!(received.iter().any(|m| m["id"] == 3));

    let unsubscribe = json!({"jsonrpc":"2.0","id":4,"method":"resources/unsubscribe","params":{"uri":"shop://books"}});
    assert_eq!(
        exchange(&mut client, unsubscribe.to_string()).await["result"],
        json!({})
    );
    notifier.resource_updated("shop://books/dune");
    notifier.list_changed(ChangedList::Resources);
    let next_message = next(&mut client).await;
    assert_eq!(
        next_message["method"], "notifications/resources/list_changed",
        "the update was not sent"
    );
}
