//! The gateway (`mcpwire::gateway`) in front of servers we did not write and of our own, at
//! once: `@modelcontextprotocol/server-everything` over stdio (TypeScript SDK 1.x), the
//! bookshop over Streamable HTTP, and two small servers of ours that report the
//! `Authorization` header they receive. Driven by our own client over HTTP on both revisions:
//! listing, calls, resources (a template, and the bookshop's `ui://` view), prompts, under
//! namespaces; the caller's token reaches only the backend that opted in; a killed backend
//! answers with an error naming it while the others keep serving.

mod common;

use common::{HttpExample, free_port, peer_everything, peer_node};
use mcpwire::client::{Client, EraChoice, HttpOptions, StdioServer};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::protocol::{Content, ResourceContents};
use serde_json::json;
use std::time::{Duration, Instant};

/// Says which `Authorization` header the request came with.
#[tool]
async fn seen_authorization(ctx: Context) -> String {
    let header = ctx.headers().and_then(|h| h.get("authorization"));
    header.map_or("none".to_owned(), |v| v.to_str().unwrap_or("?").to_owned())
}

/// Serves a header-reporting server over HTTP on a free port; its URL.
async fn header_reporter() -> String {
    let port = free_port();
    let server = McpServer::new("reporter").tool(seen_authorization).unwrap();
    tokio::spawn(server.serve_http(format!("127.0.0.1:{port}")));
    wait_for_port(port).await;
    format!("http://127.0.0.1:{port}/mcp")
}

async fn wait_for_port(port: u16) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while tokio::net::TcpStream::connect(("127.0.0.1", port))
        .await
        .is_err()
    {
        assert!(Instant::now() < deadline, "nothing listens on {port}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn text(content: &[Content]) -> String {
    content
        .iter()
        .filter_map(|c| match c {
            Content::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect()
}

const FRONT_TOKEN: &str = "Bearer front-token";

async fn front_client(url: &str, era: EraChoice) -> Client {
    let options = HttpOptions::new()
        .header("Authorization", FRONT_TOKEN)
        .unwrap();
    Client::builder()
        .era(era)
        .connect_http_with(url, options)
        .await
        .unwrap_or_else(|e| panic!("connect to the gateway ({era:?}): {e}"))
}

/// What must hold through the gateway on `era` while every backend is up.
async fn passes_through(url: &str, era: EraChoice) {
    let client = front_client(url, era).await;
    let tools = client.list_tools().await.unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_str()).collect();
    for expected in [
        "everything_echo",
        "everything_get-sum",
        "shop_add",
        "shop_browse_catalog",
    ] {
        assert!(
            names.contains(&expected),
            "{era:?}: no {expected} in {names:?}"
        );
    }
    assert!(
        !names.contains(&"echo"),
        "everything is namespaced: {names:?}"
    );
    // The bookshop's view keeps its scheme, and the tool's references to it follow.
    let browse = tools
        .iter()
        .find(|t| t.name == "shop_browse_catalog")
        .unwrap();
    let meta = browse.meta.as_ref().expect("the view's _meta");
    assert_eq!(meta["ui"]["resourceUri"], "ui://shop/bookshop/catalog.html");
    if let Some(flat) = meta.get("ui/resourceUri") {
        assert_eq!(flat, "ui://shop/bookshop/catalog.html");
    }

    let echo = client
        .call_tool("everything_echo", json!({"message": "hi"}))
        .await
        .unwrap();
    assert_eq!(text(&echo.content), "Echo: hi");
    let sum = client
        .call_tool("shop_add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(
        sum.structured_content,
        Some(json!({"result": 5})),
        "{era:?}"
    );
    // The backend's own refusal of bad arguments reaches the caller as it answered.
    let wrong = client
        .call_tool("shop_add", json!({"a": "two"}))
        .await
        .unwrap();
    assert_eq!(wrong.is_error, Some(true), "{era:?}: {wrong:?}");

    // Resources: the view (plain) and a template of everything.
    let resources = client.list_resources().await.unwrap();
    assert!(
        resources
            .iter()
            .any(|r| r.uri == "ui://shop/bookshop/catalog.html")
    );
    let view = client
        .read_resource("ui://shop/bookshop/catalog.html")
        .await
        .unwrap();
    let ResourceContents::Text {
        uri, text: html, ..
    } = &view.contents[0]
    else {
        panic!("the view is text")
    };
    assert_eq!(uri, "ui://shop/bookshop/catalog.html");
    assert!(html.contains("<html") || html.contains("<!doctype") || html.contains("<!DOCTYPE"));
    let templates = client.list_resource_templates().await.unwrap();
    let dynamic = templates
        .iter()
        .find(|t| t.uri_template.starts_with("demo://everything/"))
        .unwrap_or_else(|| panic!("no everything template in {templates:?}"));
    let uri = dynamic.uri_template.replace("{resourceId}", "7");
    let read = client.read_resource(&uri).await.unwrap();
    let ResourceContents::Text {
        uri: read_uri,
        text: body,
        ..
    } = &read.contents[0]
    else {
        panic!("text")
    };
    assert_eq!(read_uri, &uri, "{era:?}: the read names the front URI");
    assert!(body.contains('7'), "{body}");

    // Prompts.
    let prompts = client.list_prompts().await.unwrap();
    assert!(prompts.iter().any(|p| p.name == "everything_args-prompt"));
    let prompt = client
        .get_prompt("everything_args-prompt", [("city", "Paris")])
        .await
        .unwrap();
    assert!(serde_json::to_string(&prompt).unwrap().contains("Paris"));

    // The caller's token: never to a backend that did not opt in.
    let plain = client
        .call_tool("plain_seen_authorization", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&plain.content), "none", "{era:?}");
    let trusting = client
        .call_tool("trusting_seen_authorization", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&trusting.content), FRONT_TOKEN, "{era:?}");
    client.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_gateway_fronts_real_servers_on_both_revisions() {
    let shop = HttpExample::start("bookshop");
    let plain = header_reporter().await;
    let trusting = header_reporter().await;
    let everything = StdioServer::new(peer_node()).arg(peer_everything());
    let server = Gateway::new()
        .backend(Backend::stdio("everything", everything))
        .backend(Backend::http("shop", &shop.url).timeout(Duration::from_secs(20)))
        .backend(Backend::http("plain", plain).header("X-Other", "x"))
        .backend(Backend::http("trusting", trusting).forward_authorization(true))
        .start(McpServer::new("gateway"))
        .await
        .unwrap();
    let port = free_port();
    tokio::spawn(server.serve_http(format!("127.0.0.1:{port}")));
    wait_for_port(port).await;
    let url = format!("http://127.0.0.1:{port}/mcp");

    passes_through(&url, EraChoice::Legacy).await;
    passes_through(&url, EraChoice::Modern).await;

    // The bookshop dies: its calls fail naming it, the others keep serving.
    drop(shop);
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = front_client(&url, era).await;
        let down = client
            .call_tool("shop_add", json!({"a": 1, "b": 1}))
            .await
            .unwrap();
        assert_eq!(down.is_error, Some(true), "{era:?}: {down:?}");
        let message = text(&down.content);
        assert!(
            message.contains("backend 'shop' is unavailable"),
            "{era:?}: {message}"
        );
        let echo = client
            .call_tool("everything_echo", json!({"message": "still"}))
            .await
            .unwrap();
        assert_eq!(text(&echo.content), "Echo: still");
    }
}

#[tokio::test]
async fn two_entries_with_one_name_refuse_the_start_naming_both() {
    let a = header_reporter().await;
    let b = header_reporter().await;
    // Two namespaces that still give one tool name: `a` + `__` and `a_` + `_`.
    let error = Gateway::new()
        .backend(Backend::http("a", a.clone()).separator("__"))
        .backend(Backend::http("b", b.clone()).namespace("a_"))
        .start(McpServer::new("gateway"))
        .await
        .err()
        .expect("a collision refuses the start")
        .to_string();
    assert!(error.contains("'a__seen_authorization'"), "{error}");
    assert!(
        error.contains("backend 'a'") && error.contains("backend 'b'"),
        "{error}"
    );
    // Two backends mounted without a namespace are refused before either is listed.
    let error = Gateway::new()
        .backend(Backend::http("a", a).namespace(""))
        .backend(Backend::http("b", b).namespace(""))
        .start(McpServer::new("gateway"))
        .await
        .err()
        .expect("one namespace twice refuses the start")
        .to_string();
    assert!(
        error.contains("'a' and 'b' have the same namespace ''"),
        "{error}"
    );
}
