//! The authenticated principal: set by the application's own middleware, visible to handlers,
//! and bound into every `requestState`, so a round started by one caller cannot be finished by
//! another.

mod http_support;

use axum::serve::ListenerExt;
use http_support::*;
use mcpwire::context::Principal;
use mcpwire::prelude::*;
use serde_json::{Value, json};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Go ahead?
    ok: bool,
}

#[resolver]
async fn confirm() -> Elicit<Confirm> {
    Elicit::ask("Transfer the money?")
}

/// Transfers money for the caller.
#[tool]
async fn transfer(#[resolve(confirm)] answer: Confirm, ctx: Context) -> String {
    format!(
        "{} confirmed: {}",
        ctx.principal().unwrap_or("nobody"),
        answer.ok
    )
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

async fn post(client: &reqwest::Client, url: &str, user: &str, body: &Value) -> Value {
    let response = client
        .post(url)
        .header("x-user", user)
        .header("accept", "application/json, text/event-stream")
        .headers(modern_headers(body))
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    json_of(response).await
}

#[tokio::test]
async fn a_round_started_by_one_principal_is_refused_for_another() {
    let server = McpServer::new("bank").tool(transfer).unwrap();
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

    let mut meta = meta();
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({"elicitation": {}});
    let first = modern_body(
        1,
        "tools/call",
        json!({"name": "transfer", "_meta": meta.clone()}),
    );
    let round1 = post(&client, &url, "alice", &first).await;
    let state = round1["result"]["requestState"]
        .as_str()
        .unwrap()
        .to_owned();

    let retry = |id: u64| {
        modern_body(
            id,
            "tools/call",
            json!({"name": "transfer", "_meta": meta.clone(),
            "requestState": state,
            "inputResponses": {"http_principal::confirm": {"action": "accept", "content": {"ok": true}}}}),
        )
    };
    let as_bob = post(&client, &url, "bob", &retry(2)).await;
    assert_eq!(
        as_bob["error"],
        json!({"code": -32602, "message": "Invalid or expired requestState"})
    );
    let as_alice = post(&client, &url, "alice", &retry(3)).await;
    assert_eq!(
        as_alice["result"]["content"][0]["text"],
        "alice confirmed: true"
    );
    task.abort();
}
