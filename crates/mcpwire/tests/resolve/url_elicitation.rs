//! URL-mode elicitation on both revisions: on 2025-11-25 the question carries an
//! `elicitationId` and the client is sent `notifications/elicitation/complete` for it (by the
//! tool, or when the call ends); 2026-07-28 has neither.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{call, connect, exchange, modern_call, modern_meta, next, text};

#[resolver]
async fn sign_in() -> ElicitUrl {
    ElicitUrl::ask("Sign in to the shop", "https://shop.example/sign-in")
}

/// Needs the user to sign in.
#[tool]
async fn account(#[resolve(sign_in)] consent: UrlConsent) -> String {
    format!("{consent:?}")
}

#[resolver]
async fn link() -> ElicitUrl {
    ElicitUrl::ask("Link your account", "https://shop.example/link?e=e-42").with_id("e-42")
}

/// Links an account, and says so as soon as the link is made.
#[tool]
async fn linked(#[resolve(link)] consent: UrlConsent, ctx: Context) -> String {
    let first = ctx.complete_elicitation("e-42");
    let again = ctx.complete_elicitation("e-42");
    format!("{consent:?} {first} {again}")
}

async fn session() -> mcpwire::transport::MemoryClient {
    let server = McpServer::new("shop")
        .tool(account)
        .unwrap()
        .tool(linked)
        .unwrap();
    let mut client = connect(server).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"elicitation":{"url":{}}},
        "clientInfo":{"name":"c","version":"1"}}});
    exchange(&mut client, init.to_string()).await;
    client.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}).to_string());
    client
}

/// Answers the URL question of call `id` with `action`; returns what came before the response,
/// and the response.
async fn answer(
    client: &mut mcpwire::transport::MemoryClient,
    question: &Value,
    action: &str,
    id: u64,
) -> (Vec<Value>, Value) {
    client
        .send(json!({"jsonrpc":"2.0","id":question["id"],"result":{"action":action}}).to_string());
    let mut before = Vec::new();
    loop {
        let message = next(client).await;
        if message["id"] == id {
            return (before, message);
        }
        before.push(message);
    }
}

#[tokio::test]
async fn a_session_question_carries_an_id_and_is_completed_when_the_call_ends() {
    let mut client = session().await;
    let question = exchange(&mut client, call(1, "account", json!({}))).await;
    assert_eq!(question["method"], "elicitation/create");
    let params = &question["params"];
    assert_eq!(params["mode"], "url");
    let id = params["elicitationId"]
        .as_str()
        .expect("an elicitationId")
        .to_owned();
    assert!(id.len() >= 16, "a random id: {id}");
    let (before, response) = answer(&mut client, &question, "accept", 1).await;
    assert_eq!(text(&response), "Accepted");
    assert_eq!(
        before,
        [
            json!({"jsonrpc":"2.0","method":"notifications/elicitation/complete",
                "params":{"elicitationId": id}})
        ]
    );
}

#[tokio::test]
async fn a_tool_completes_its_own_elicitation_once() {
    let mut client = session().await;
    let question = exchange(&mut client, call(1, "linked", json!({}))).await;
    assert_eq!(question["params"]["elicitationId"], "e-42");
    let (before, response) = answer(&mut client, &question, "accept", 1).await;
    assert_eq!(text(&response), "Accepted true false");
    assert_eq!(
        before,
        [
            json!({"jsonrpc":"2.0","method":"notifications/elicitation/complete",
                "params":{"elicitationId": "e-42"}})
        ],
        "one notice, from the tool; none left to send when the call ends"
    );
}

#[tokio::test]
async fn a_declined_url_question_owes_no_completion() {
    let mut client = session().await;
    let question = exchange(&mut client, call(1, "account", json!({}))).await;
    let (before, response) = answer(&mut client, &question, "decline", 1).await;
    assert_eq!(text(&response), "Declined");
    assert!(before.is_empty(), "{before:?}");
}

#[tokio::test]
async fn a_stateless_question_has_no_elicitation_id() {
    let server = McpServer::new("shop").tool(account).unwrap();
    let mut client = connect(server).await;
    let meta = modern_meta(json!({"elicitation": {"url": {}}}));
    let round = exchange(&mut client, modern_call(1, "account", json!({}), meta)).await;
    let requests = round["result"]["inputRequests"].as_object().unwrap();
    let (_, request) = requests.iter().next().unwrap();
    assert_eq!(
        request["params"],
        json!({"mode": "url", "message": "Sign in to the shop", "url": "https://shop.example/sign-in"})
    );
}
