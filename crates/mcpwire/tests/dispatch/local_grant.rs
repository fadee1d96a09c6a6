//! Off HTTP, a server given a [`Grant`] for its connections (`McpServer::local_grant`) checks
//! scopes as HTTP does: lists show what the grant allows, and a call, read, subscription or
//! completion of anything else is refused with a JSON-RPC error naming the missing scopes; the
//! connection goes on. The decision comes before the server's middleware. Driven by the crate's
//! own client on both revisions.

use crate::support;
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::context::Grant;
use mcpwire::layer::{self, McpRequest, Next};
use mcpwire::prelude::*;
use mcpwire::protocol::{Completion, CompletionReference, Era, ErrorObject, SubscriptionFilter};
use serde_json::json;
use std::sync::{Arc, Mutex};
use support::{ERAS, as_json, client, first_text, rpc_error};

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

fn assert_refused(error: ErrorObject, missing: &str) {
    let shown = as_json(&error);
    assert_eq!(error.code, -32003, "{shown}");
    assert_eq!(
        error.data.as_ref().map(|data| &data["missingScopes"]),
        Some(&json!([missing])),
        "{shown}"
    );
    assert!(error.message.ends_with(missing), "{shown}");
}

/// Watches `uri`: `resources/subscribe` on 2025-11-25, a listen stream on 2026-07-28.
async fn watch(client: &Client, uri: &str) -> Result<(), ClientError> {
    match client.era() {
        Era::Legacy => client.subscribe_resource(uri).await,
        Era::Modern => {
            let filter = SubscriptionFilter {
                resource_subscriptions: Some(vec![uri.into()]),
                ..Default::default()
            };
            client.listen(filter).await.map(drop)
        }
    }
}

#[tokio::test]
async fn a_local_grant_filters_lists_and_refuses_what_it_does_not_cover() {
    for era in ERAS {
        // A server-wide layer records the methods it sees: the scope decision comes before it.
        let seen = Arc::new(Mutex::new(Vec::<String>::new()));
        let recorded = seen.clone();
        let recording = layer::from_fn(move |request: McpRequest, next: Next| {
            recorded.lock().unwrap().push(request.method().to_owned());
            next.run(request)
        });
        let server = shop(Grant::new(["books:read"])).layer(recording);
        let client = client(server, era).await;
        seen.lock().unwrap().clear(); // what opening the conversation took
        let names: Vec<String> = (client.list_tools().await.unwrap())
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        assert_eq!(names, ["book_info"], "{era:?}");

        let ordered = client.call_tool("order_book", json!({"title": "Dune"}));
        assert_refused(rpc_error(ordered.await), "orders:write");
        let prompt = client.get_prompt("price_list", [("shop", "a")]).await;
        assert_refused(rpc_error(prompt), "prices:read");
        let read = client.read_resource("shop://orders/7").await;
        assert_refused(rpc_error(read), "orders:read");
        assert_refused(
            rpc_error(watch(&client, "shop://orders/7").await),
            "orders:read",
        );
        let template = CompletionReference::Resource {
            uri: "shop://orders/{id}".into(),
        };
        let complete = client.complete(template, "id", "1").await;
        assert_refused(rpc_error(complete), "orders:read");

        // No refused request reached the layer.
        assert_eq!(*seen.lock().unwrap(), ["tools/list"], "{era:?}");

        // The connection goes on, and what the grant covers is served.
        let info = client
            .call_tool("book_info", json!({"title": "Dune"}))
            .await;
        assert_eq!(first_text(&info.unwrap()), "Dune: in stock", "{era:?}");
        assert_eq!(
            *seen.lock().unwrap(),
            ["tools/list", "tools/call"],
            "{era:?}"
        );
    }
}

#[tokio::test]
async fn a_grant_with_the_scopes_is_served_and_no_grant_checks_nothing() {
    for era in ERAS {
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
        let client = client(shop(grant).layer(recording), era).await;
        seen.lock().unwrap().clear(); // what opening the conversation took
        let ordered = client
            .call_tool("order_book", json!({"title": "Dune"}))
            .await;
        assert_eq!(first_text(&ordered.unwrap()), "Ordered Dune", "{era:?}");
        let read = client.read_resource("shop://orders/7").await.unwrap();
        let read = as_json(&read);
        assert_eq!(read["contents"][0]["text"], "order 7", "{read}");
        watch(&client, "shop://orders/7").await.unwrap();
        let prompt = CompletionReference::Prompt {
            name: "price_list".into(),
            title: None,
        };
        let completed = client.complete(prompt, "shop", "a").await.unwrap();
        assert_eq!(completed.completion.values, ["x"], "{era:?}");
        let target = |target: &str| Some(target.to_owned());
        let watched = match era {
            EraChoice::Legacy => ("resources/subscribe".to_owned(), target("shop://orders/7")),
            _ => ("subscriptions/listen".to_owned(), None),
        };
        assert_eq!(
            *seen.lock().unwrap(),
            [
                ("tools/call".to_owned(), target("order_book")),
                ("resources/read".to_owned(), target("shop://orders/7")),
                watched,
                ("completion/complete".to_owned(), None),
            ],
            "{era:?}"
        );

        // A stdio or in-memory server without a local grant is the local user's: nothing checked.
        let server = McpServer::new("shop").tool(order_book).unwrap();
        let client = support::client(server, era).await;
        let ordered = client
            .call_tool("order_book", json!({"title": "Dune"}))
            .await;
        assert_eq!(first_text(&ordered.unwrap()), "Ordered Dune", "{era:?}");
    }
}
