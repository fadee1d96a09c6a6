//! The authenticated principal: set by the application's own middleware, visible to handlers,
//! bound into every `requestState`, so a round started by one caller cannot be finished by
//! another, and bound to every 2025-11-25 session, so a session id is worth nothing to anyone
//! but the caller who opened it.

use crate::support;
use axum::serve::ListenerExt;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::http::*;

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
        ctx.principal().map_or("nobody", |who| who.subject()),
        answer.ok
    )
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
            "inputResponses": {"transport::http::principal::confirm": {"action": "accept", "content": {"ok": true}}}}),
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

/// Add two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

fn calculator() -> McpServer {
    McpServer::new("calculator").tool(add).unwrap()
}

const ALICE: &[(&str, &str)] = &[("x-user", "alice")];
const BOB: &[(&str, &str)] = &[("x-user", "bob")];
const NOBODY: &[(&str, &str)] = &[];

/// Every way `headers` can use the session `session`: each must be `404` for an intruder.
async fn statuses(server: &Running, session: &str, headers: &[(&str, &str)]) -> Vec<u16> {
    let add = legacy_call(1, "add", json!({"a": 1, "b": 2}));
    let cancel =
        json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}});
    let answer = json!({"jsonrpc":"2.0","id":"s-0","result":{}});
    let mut delete = server
        .client
        .delete(&server.url)
        .header("mcp-session-id", session);
    for (name, value) in headers {
        delete = delete.header(*name, *value);
    }
    vec![
        server
            .legacy_with(session, &add, headers)
            .await
            .status()
            .as_u16(),
        server
            .legacy_with(session, &cancel, headers)
            .await
            .status()
            .as_u16(),
        server
            .legacy_with(session, &answer, headers)
            .await
            .status()
            .as_u16(),
        server.get_stream(session, headers).await.status().as_u16(),
        delete.send().await.unwrap().status().as_u16(),
    ]
}

#[tokio::test]
async fn a_session_serves_only_the_principal_that_opened_it() {
    let server = start_authenticated(calculator().http()).await;
    let session = server.initialize_with(ALICE).await;
    assert_eq!(
        statuses(&server, &session, BOB).await,
        [404; 5],
        "another principal"
    );
    assert_eq!(
        statuses(&server, &session, NOBODY).await,
        [404; 5],
        "no principal"
    );
    let response = server
        .legacy_with(
            &session,
            &legacy_call(2, "add", json!({"a": 2, "b": 2})),
            BOB,
        )
        .await;
    assert_eq!(
        json_of(response).await,
        json!({"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"Session not found: initialize again"}}),
        "exactly as if the session did not exist"
    );
    let own = server
        .legacy_with(
            &session,
            &legacy_call(3, "add", json!({"a": 2, "b": 2})),
            ALICE,
        )
        .await;
    assert_eq!(
        json_of(own).await["result"]["structuredContent"]["result"],
        4,
        "the intruders ended nothing"
    );
}

#[tokio::test]
async fn an_anonymous_session_refuses_an_authenticated_caller() {
    let server = start_authenticated(calculator().http()).await;
    let session = server.initialize_with(NOBODY).await;
    assert_eq!(statuses(&server, &session, ALICE).await, [404; 5]);
    let own = server
        .legacy_with(
            &session,
            &legacy_call(2, "add", json!({"a": 1, "b": 1})),
            NOBODY,
        )
        .await;
    assert_eq!(own.status(), 200);
}

#[tokio::test]
async fn an_initialize_flood_by_one_principal_leaves_other_principals_sessions_alone() {
    let server = start_authenticated(calculator().http().max_sessions(4)).await;
    let alice = server.initialize_with(ALICE).await;
    let mallory = [("x-user", "mallory")];
    for _ in 0..20 {
        server.initialize_with(&mallory).await;
    }
    let add = legacy_call(1, "add", json!({"a": 1, "b": 1}));
    assert_eq!(server.legacy_with(&alice, &add, ALICE).await.status(), 200);
}

#[tokio::test]
async fn a_principal_at_its_cap_replaces_its_own_idlest_session() {
    let server = start_authenticated(calculator().http().max_sessions_per_principal(2)).await;
    let first = server.initialize_with(BOB).await;
    let second = server.initialize_with(BOB).await;
    let add = legacy_call(1, "add", json!({"a": 1, "b": 1}));
    // `first` is used again: `second` is now the idlest.
    assert_eq!(server.legacy_with(&first, &add, BOB).await.status(), 200);
    let third = server.initialize_with(BOB).await;
    assert_eq!(server.legacy_with(&second, &add, BOB).await.status(), 404);
    assert_eq!(server.legacy_with(&first, &add, BOB).await.status(), 200);
    assert_eq!(server.legacy_with(&third, &add, BOB).await.status(), 200);
}

#[tokio::test]
async fn anonymous_callers_cannot_evict_authenticated_sessions() {
    let server = start_authenticated(calculator().http().max_sessions(2)).await;
    let alice = server.initialize_with(ALICE).await;
    for _ in 0..10 {
        server.initialize_with(NOBODY).await;
    }
    let add = legacy_call(1, "add", json!({"a": 1, "b": 1}));
    assert_eq!(server.legacy_with(&alice, &add, ALICE).await.status(), 200);
}
