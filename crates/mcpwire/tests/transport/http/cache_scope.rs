//! A result served to a request that carries a principal is cached privately at most: a public
//! resource, the lists and `server/discover` all become `cacheScope: "private"` for an
//! authenticated caller, and stay public for an anonymous one.

use crate::support;
use axum::serve::ListenerExt;
use mcpwire::context::Principal;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::http::*;

/// The same for everyone, for an hour.
#[resource(uri = "shop://hours", ttl_ms = 3600000, cache = "public")]
async fn hours() -> String {
    "9-18".into()
}

/// Lists the shop.
#[tool]
async fn browse() -> String {
    "books".into()
}

async fn authenticate(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    if let Some(user) = request
        .headers()
        .get("x-user")
        .and_then(|v| v.to_str().ok())
    {
        let principal = Principal(user.to_owned());
        request.extensions_mut().insert(principal);
    }
    next.run(request).await
}

async fn post(client: &reqwest::Client, url: &str, user: Option<&str>, body: &Value) -> Value {
    let mut request = client
        .post(url)
        .header("accept", "application/json, text/event-stream")
        .headers(modern_headers(body));
    if let Some(user) = user {
        request = request.header("x-user", user);
    }
    json_of(request.body(body.to_string()).send().await.unwrap()).await
}

#[tokio::test]
async fn a_principal_makes_every_cacheable_result_private() {
    let server = McpServer::new("shop")
        .resource(hours)
        .and_then(|s| s.tool(browse))
        .unwrap();
    let app = server
        .into_router()
        .await
        .unwrap()
        .layer(axum::middleware::from_fn(authenticate));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let task = tokio::spawn(async move { axum::serve(listener, app).await });
    let client = reqwest::Client::new();

    let requests = [
        modern_body(1, "resources/read", json!({"uri": "shop://hours"})),
        modern_body(2, "tools/list", json!({})),
        modern_body(3, "resources/list", json!({})),
        modern_body(4, "server/discover", json!({})),
    ];
    for body in &requests {
        let anonymous = post(&client, &url, None, body).await;
        assert_eq!(
            anonymous["result"]["cacheScope"], "public",
            "{body}: {anonymous}"
        );
        let alice = post(&client, &url, Some("alice"), body).await;
        assert_eq!(alice["result"]["cacheScope"], "private", "{body}: {alice}");
        assert_eq!(
            alice["result"]["ttlMs"], anonymous["result"]["ttlMs"],
            "only the scope changes"
        );
    }
    task.abort();
}
