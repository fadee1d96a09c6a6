//! MCP Apps views under a namespace. A view calls its server's tools by the names it was written
//! with (the bookshop's catalog calls `reserve_book`), and the gateway cannot rewrite names in a
//! view's script. So the tools of a backend that has views keep their own names as aliases
//! under its prefix: never listed, and found only while no front tool has that name and no other
//! backend's tool has that alias.

#![cfg(feature = "gateway")]

use crate::serving::{Serving, front_client, serve};
use mcpwire::apps::{Apps, View};
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use serde_json::json;
use std::time::Duration;

/// Every wait of these tests is bounded by this.
const BOUND: Duration = Duration::from_secs(20);

/// Shows the shop's catalog (in its view).
#[tool]
async fn browse() -> String {
    "the shop's catalog".to_owned()
}

/// Reserves a copy at the shop.
#[tool]
async fn reserve(title: String) -> String {
    format!("{title} reserved at the shop")
}

/// Shows the library's shelf (in its view).
#[tool]
async fn shelf() -> String {
    "the library's shelf".to_owned()
}

/// Reserves a copy at the library.
#[tool(name = "reserve")]
async fn reserve_at_library(title: String) -> String {
    format!("{title} reserved at the library")
}

/// Renews a loan at the library.
#[tool]
async fn renew(title: String) -> String {
    format!("{title} renewed")
}

/// The gateway's own tool, of the same name as the shop's.
#[tool(name = "browse")]
async fn front_browse() -> String {
    "the gateway's own browse".to_owned()
}

/// Counts to one; a backend without views.
#[tool]
async fn count() -> u32 {
    1
}

fn with_view(server: McpServer, uri: &str, tool: &str) -> McpServer {
    let apps = Apps::new()
        .view(View::html(uri, "<!doctype html><p>view</p>"))
        .tool(tool, uri);
    server.extension(apps).unwrap()
}

/// Three backends (a shop and a library with views, a counter without) behind one gateway
/// with a tool of its own, each under its namespace.
async fn setup() -> (Vec<Serving>, Serving) {
    let shop = McpServer::new("shop")
        .tool(browse)
        .unwrap()
        .tool(reserve)
        .unwrap();
    let shop = serve(with_view(shop, "ui://shop/catalog.html", "browse")).await;
    let library = (McpServer::new("library").tool(shelf))
        .and_then(|s| s.tool(reserve_at_library))
        .and_then(|s| s.tool(renew))
        .unwrap();
    let library = serve(with_view(library, "ui://library/shelf.html", "shelf")).await;
    let counter = serve(McpServer::new("counter").tool(count).unwrap()).await;
    let gateway = Gateway::new()
        .backend(Backend::http("shop", &shop.url).namespace("shop"))
        .backend(Backend::http("library", &library.url).namespace("library"))
        .backend(Backend::http("counter", &counter.url).namespace("counter"))
        .start(McpServer::new("gateway").tool(front_browse).unwrap())
        .await
        .expect("the gateway starts");
    (vec![shop, library, counter], serve(gateway).await)
}

async fn text_of(client: &Client, name: &str) -> Result<String, ClientError> {
    let called = client.call_tool(name, json!({"title": "Dune"}));
    let result = tokio::time::timeout(BOUND, called)
        .await
        .expect("bounded")?;
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
    Ok(text.as_str().unwrap_or_default().to_owned())
}

#[tokio::test]
async fn a_views_own_tool_names_reach_its_backend_under_a_prefix_when_unambiguous() {
    let (_backends, gateway) = setup().await;
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = front_client(era, &gateway).await;
        let mut listed: Vec<String> = (client.list_tools().await.unwrap())
            .into_iter()
            .map(|tool| tool.name)
            .collect();
        listed.sort();
        let expected = [
            "browse",
            "counter_count",
            "library_renew",
            "library_reserve",
            "library_shelf",
            "shop_browse",
            "shop_reserve",
        ];
        assert_eq!(listed, expected, "{era:?}: aliases are never listed");

        // The library's view calls `renew` and `shelf`: only the library has them.
        assert_eq!(text_of(&client, "renew").await.unwrap(), "Dune renewed");
        assert_eq!(
            text_of(&client, "shelf").await.unwrap(),
            "the library's shelf"
        );
        // The prefixed names work as before.
        let reserved = text_of(&client, "shop_reserve").await.unwrap();
        assert_eq!(reserved, "Dune reserved at the shop", "{era:?}");
        // The gateway's own tool keeps its name.
        let own = text_of(&client, "browse").await.unwrap();
        assert_eq!(own, "the gateway's own browse", "{era:?}");
        // Two backends' views would call `reserve`: neither is guessed.
        let ambiguous = text_of(&client, "reserve").await.unwrap_err();
        assert_eq!(ambiguous.rpc_code(), Some(-32602), "{era:?}: {ambiguous}");
        // A backend without views has no aliases.
        let plain = text_of(&client, "count").await.unwrap_err();
        assert_eq!(plain.rpc_code(), Some(-32602), "{era:?}: {plain}");
        client.close().await;
    }
}
