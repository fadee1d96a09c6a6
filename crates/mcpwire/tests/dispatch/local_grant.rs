//! Off HTTP, a server given a [`Grant`] for its connections (`McpServer::local_grant`) checks
//! scopes as HTTP does: lists show what the grant allows, and a call, read, subscription or
//! completion of anything else is refused with a JSON-RPC error naming the missing scopes; the
//! connection goes on. The decision comes before the server's middleware.

use crate::support;
use mcpwire::context::Grant;
use mcpwire::layer::{self, McpRequest, Next};
use mcpwire::prelude::*;
use mcpwire::protocol::Completion;
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use support::*;

/// Looks a book up.
#[tool]
async fn book_info(title: String) -> String {
    format!("{title}: in stock")
}

/// Orders a book.
#[tool(scopes = ["orders:write"])]
async fn order_book(title: String) -> String {
    format!("Ordered {title}")
}

/// The price list.
#[prompt(scopes = ["prices:read"])]
async fn price_list(shop: String) -> String {
    format!("{shop}: Dune 9.99")
}

/// An order's receipt.
#[resource(uri = "shop://orders/{id}", scopes = ["orders:read"])]
async fn receipt(id: String) -> String {
    format!("order {id}")
}

fn shop(grant: Grant) -> McpServer {
    McpServer::new("shop")
        .local_grant(grant)
        .tool(book_info)
        .unwrap()
        .tool(order_book)
        .unwrap()
        .prompt(price_list)
        .unwrap()
        .resource(receipt)
        .unwrap()
        .completion(|_request, _ctx| async { Completion::from_values(["x"]) })
}

fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn assert_refused(answer: &Value, missing: &str) {
    assert_eq!(answer["error"]["code"], -32003, "{answer}");
    assert_eq!(
        answer["error"]["data"]["missingScopes"],
        json!([missing]),
        "{answer}"
    );
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .ends_with(missing),
        "{answer}"
    );
}

#[tokio::test]
async fn a_local_grant_filters_lists_and_refuses_what_it_does_not_cover() {
    // A server-wide layer records the methods it sees: the scope decision comes before it.
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let recorded = seen.clone();
    let recording = layer::from_fn(move |request: McpRequest, next: Next| {
        recorded.lock().unwrap().push(request.method().to_owned());
        next.run(request)
    });
    let server = shop(Grant::new(["books:read"])).layer(recording);
    let mut client = connect(server).await;
    let listed = exchange(&mut client, request(1, "tools/list", json!({}))).await;
    let names: Vec<&str> = listed["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["book_info"]);

    let ordered = exchange(&mut client, call(2, "order_book", json!({"title": "Dune"}))).await;
    assert_refused(&ordered, "orders:write");
    let prompt = request(
        3,
        "prompts/get",
        json!({"name": "price_list", "arguments": {"shop": "a"}}),
    );
    assert_refused(&exchange(&mut client, prompt).await, "prices:read");
    let read = request(4, "resources/read", json!({"uri": "shop://orders/7"}));
    assert_refused(&exchange(&mut client, read).await, "orders:read");
    let subscribe = request(5, "resources/subscribe", json!({"uri": "shop://orders/7"}));
    assert_refused(&exchange(&mut client, subscribe).await, "orders:read");
    let complete = request(
        6,
        "completion/complete",
        json!({"ref": {"type": "ref/resource", "uri": "shop://orders/{id}"},
               "argument": {"name": "id", "value": "1"}}),
    );
    assert_refused(&exchange(&mut client, complete).await, "orders:read");
    let listen = request(
        7,
        "subscriptions/listen",
        json!({"notifications": {"resourceSubscriptions": ["shop://orders/7"]},
               "_meta": modern_meta(json!({}))}),
    );
    assert_refused(&exchange(&mut client, listen).await, "orders:read");

    // No refused request reached the layer.
    assert_eq!(*seen.lock().unwrap(), ["tools/list"]);

    // The connection goes on, and what the grant covers is served.
    let info = exchange(&mut client, call(8, "book_info", json!({"title": "Dune"}))).await;
    assert_eq!(text(&info), "Dune: in stock");
    assert_eq!(*seen.lock().unwrap(), ["tools/list", "tools/call"]);
}

#[tokio::test]
async fn a_grant_with_the_scopes_is_served_and_no_grant_checks_nothing() {
    let grant = Grant::new(["orders:write", "prices:read", "orders:read"]);
    // The admitted requests reach the layers, each with its target.
    let seen = Arc::new(Mutex::new(Vec::<(String, Option<String>)>::new()));
    let recorded = seen.clone();
    let recording = layer::from_fn(move |request: McpRequest, next: Next| {
        let target = request.target().map(str::to_owned);
        recorded
            .lock()
            .unwrap()
            .push((request.method().to_owned(), target));
        next.run(request)
    });
    let mut client = connect(shop(grant).layer(recording)).await;
    let ordered = exchange(&mut client, call(1, "order_book", json!({"title": "Dune"}))).await;
    assert_eq!(text(&ordered), "Ordered Dune");
    let read = request(2, "resources/read", json!({"uri": "shop://orders/7"}));
    let read = exchange(&mut client, read).await;
    assert_eq!(read["result"]["contents"][0]["text"], "order 7", "{read}");
    let subscribe = request(3, "resources/subscribe", json!({"uri": "shop://orders/7"}));
    let subscribed = exchange(&mut client, subscribe).await;
    assert_eq!(subscribed["result"], json!({}), "{subscribed}");
    let complete = request(
        4,
        "completion/complete",
        json!({"ref": {"type": "ref/prompt", "name": "price_list"},
               "argument": {"name": "shop", "value": "a"}}),
    );
    let completed = exchange(&mut client, complete).await;
    assert_eq!(completed["result"]["completion"]["values"], json!(["x"]));
    let target = |target: &str| Some(target.to_owned());
    assert_eq!(
        *seen.lock().unwrap(),
        [
            ("tools/call".to_owned(), target("order_book")),
            ("resources/read".to_owned(), target("shop://orders/7")),
            ("resources/subscribe".to_owned(), target("shop://orders/7")),
            ("completion/complete".to_owned(), None),
        ]
    );

    // A stdio or in-memory server without a local grant is the local user's: nothing checked.
    let server = McpServer::new("shop").tool(order_book).unwrap();
    let mut client = connect(server).await;
    let ordered = exchange(&mut client, call(1, "order_book", json!({"title": "Dune"}))).await;
    assert_eq!(text(&ordered), "Ordered Dune");
}
