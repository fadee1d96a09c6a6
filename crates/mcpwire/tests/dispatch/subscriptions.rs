//! Resource subscriptions are bounded: `resources/subscribe` (2025-11-25) and the
//! `resourceSubscriptions` of `subscriptions/listen` (2026-07-28) accept only URIs a resource or
//! template serves, no longer than the limit, and no more of them than the cap; a change reaches
//! the watchers of its URI (or of a parent path of it) and nobody else.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{connect, exchange, modern_meta, next};

/// The catalogue.
#[resource(uri = "shop://books")]
async fn books() -> String {
    "[]".into()
}

/// One book.
#[resource(uri = "shop://books/{id}")]
async fn book(id: String) -> String {
    id
}

/// Any file.
#[resource(uri = "shop://files/{+path}")]
async fn file(path: String) -> String {
    path
}

fn server() -> McpServer {
    McpServer::new("shop")
        .resource(books)
        .and_then(|s| s.resource(book))
        .and_then(|s| s.resource(file))
        .unwrap()
}

fn subscribe(id: u64, uri: &str) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"resources/subscribe","params":{"uri":uri}}).to_string()
}

fn listen(id: &str, uris: &[String]) -> String {
    json!({"jsonrpc":"2.0","id":id,"method":"subscriptions/listen","params":{
        "_meta": modern_meta(json!({})),
        "notifications": {"resourceSubscriptions": uris}}})
    .to_string()
}

async fn initialized(server: McpServer) -> mcpwire::transport::MemoryClient {
    let mut client = connect(server).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}});
    exchange(&mut client, init.to_string()).await;
    client
}

async fn ping(client: &mut mcpwire::transport::MemoryClient, id: u64) -> Value {
    exchange(
        client,
        json!({"jsonrpc":"2.0","id":id,"method":"ping"}).to_string(),
    )
    .await
}

#[tokio::test]
async fn a_uri_no_resource_serves_is_refused_on_both_revisions() {
    let mut client = initialized(server()).await;
    let refused = exchange(&mut client, subscribe(1, "shop://music")).await;
    assert_eq!(
        refused["error"],
        json!({"code": -32002, "message": "Resource not found", "data": {"uri": "shop://music"}})
    );
    let served = exchange(&mut client, subscribe(2, "shop://books/7")).await;
    assert_eq!(served["result"], json!({}), "a template serves it");

    let refused = exchange(
        &mut client,
        listen("sub-1", &["shop://books".into(), "shop://music".into()]),
    )
    .await;
    assert_eq!(refused["id"], "sub-1", "no acknowledgement: {refused}");
    assert_eq!(
        refused["error"],
        json!({"code": -32602, "message": "Resource not found", "data": {"uri": "shop://music"}})
    );
}

#[tokio::test]
async fn an_over_long_uri_is_refused() {
    let mut client = initialized(server()).await;
    // A template serves it: only its length is wrong.
    let long = format!("shop://files/{}", "a".repeat(4096));
    let refused = exchange(&mut client, subscribe(1, &long)).await;
    assert_eq!(
        refused["error"],
        json!({"code": -32602, "message": "Invalid params: a subscribed URI may be at most 2048 bytes long",
               "data": {"limit": 2048}})
    );
    let refused = exchange(&mut client, listen("sub-1", &[long])).await;
    assert_eq!(refused["error"]["code"], -32602, "{refused}");
    assert_eq!(refused["error"]["data"], json!({"limit": 2048}));

    let mut client = initialized(server().max_subscription_uri_bytes(8192)).await;
    let long = format!("shop://files/{}", "a".repeat(4096));
    assert_eq!(
        exchange(&mut client, subscribe(1, &long)).await["result"],
        json!({})
    );
}

#[tokio::test]
async fn a_session_holds_at_most_the_capped_number_of_subscriptions() {
    let mut client = initialized(server()).await;
    for n in 0..1000u64 {
        client.send(subscribe(n + 1, &format!("shop://books/{n}")));
    }
    for _ in 0..1000 {
        let answer = next(&mut client).await;
        assert_eq!(answer["result"], json!({}), "{answer}");
    }
    let over = exchange(&mut client, subscribe(2000, "shop://books/1000")).await;
    assert_eq!(
        over["error"],
        json!({"code": -32602,
               "message": "Invalid params: at most 1000 subscriptions per session; unsubscribe first",
               "data": {"limit": 1000}})
    );
    let again = exchange(&mut client, subscribe(2001, "shop://books/5")).await;
    assert_eq!(
        again["result"],
        json!({}),
        "subscribing twice takes no room"
    );
    let unsubscribe = json!({"jsonrpc":"2.0","id":2002,"method":"resources/unsubscribe",
                             "params":{"uri":"shop://books/5"}});
    exchange(&mut client, unsubscribe.to_string()).await;
    let room = exchange(&mut client, subscribe(2003, "shop://books/1000")).await;
    assert_eq!(room["result"], json!({}));

    // The cap is configurable, and a listen request is held to it too.
    let mut client = initialized(server().max_subscriptions(2)).await;
    exchange(&mut client, subscribe(1, "shop://books/1")).await;
    exchange(&mut client, subscribe(2, "shop://books/2")).await;
    let over = exchange(&mut client, subscribe(3, "shop://books/3")).await;
    assert_eq!(over["error"]["data"], json!({"limit": 2}));
    let uris: Vec<String> = (0..3).map(|n| format!("shop://books/{n}")).collect();
    let over = exchange(&mut client, listen("sub-1", &uris)).await;
    assert_eq!(
        over["error"],
        json!({"code": -32602,
               "message": "Invalid params: at most 2 resource subscriptions per listen request",
               "data": {"limit": 2}})
    );
}

#[tokio::test]
async fn a_change_reaches_the_session_that_subscribed_to_its_uri_or_a_parent_and_no_other() {
    let server = server();
    let notifier = server.notifier();
    let mut client = initialized(server).await;
    exchange(&mut client, subscribe(1, "shop://books/1")).await;
    exchange(&mut client, subscribe(2, "shop://files/a")).await;

    for uri in [
        "shop://books/2",
        "shop://books/10",
        "shop://files/ab",
        "shop://files/b/a",
        "shop://books/1",
        "shop://files/a/b/c.txt",
    ] {
        notifier.resource_updated(uri);
    }
    let updated = |uri: &str| json!({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":uri}});
    assert_eq!(next(&mut client).await, updated("shop://books/1"));
    assert_eq!(
        next(&mut client).await,
        updated("shop://files/a/b/c.txt"),
        "a sub-resource of a subscribed URI"
    );
    assert_eq!(ping(&mut client, 3).await["id"], 3, "nothing else was sent");
}

#[tokio::test]
async fn a_change_reaches_the_listen_stream_that_watches_its_uri_and_no_other() {
    let server = server();
    let notifier = server.notifier();
    let mut client = connect(server).await;
    client.send(listen(
        "sub-1",
        &["shop://books/1".into(), "shop://files/a/".into()],
    ));
    let ack = next(&mut client).await;
    assert_eq!(
        ack["params"]["notifications"]["resourceSubscriptions"],
        json!(["shop://books/1", "shop://files/a/"])
    );
    for uri in [
        "shop://books/10",
        "shop://files/ab",
        "shop://books/1",
        "shop://files/a/b",
    ] {
        notifier.resource_updated(uri);
    }
    let tag = json!({"io.modelcontextprotocol/subscriptionId": "sub-1"});
    let updated = |uri: &str| {
        json!({"jsonrpc":"2.0","method":"notifications/resources/updated",
               "params":{"_meta": tag, "uri": uri}})
    };
    assert_eq!(next(&mut client).await, updated("shop://books/1"));
    assert_eq!(next(&mut client).await, updated("shop://files/a/b"));
    assert_eq!(ping(&mut client, 3).await["id"], 3, "nothing else was sent");
}
