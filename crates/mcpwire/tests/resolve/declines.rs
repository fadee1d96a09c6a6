//! A declined question whose consumer takes only an accepted answer fails the call in the round
//! that carried the decline: no further question on 2026-07-28; on 2025-11-25 the sibling
//! questions still open are cancelled towards the client.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use serde_json::{Value, json};
use support::{
    asked_keys, call, connect, exchange, is_error, modern_call, modern_meta, next, request_state,
    retry_call, text,
};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Yes {
    /// Go on?
    ok: bool,
}

#[resolver(key = "consent")]
async fn consent() -> Elicit<Yes> {
    Elicit::ask("May we store your address?")
}

#[resolver(key = "address")]
async fn address() -> Elicit<Yes> {
    Elicit::ask("Is your address still the same?")
}

#[resolver(key = "gift")]
async fn gift(#[resolve(address)] same: Yes) -> Elicit<Yes> {
    Elicit::ask(format!("Wrap it as a gift (same address: {})?", same.ok))
}

/// Ships an order.
#[tool]
async fn ship(#[resolve(consent)] consent: Yes, #[resolve(gift)] gift: Yes) -> String {
    format!("shipped (consent {}, gift {})", consent.ok, gift.ok)
}

fn server() -> McpServer {
    McpServer::new("shop")
        .request_state_keys(KeyRing::new([[3u8; 32]]).unwrap())
        .tool(ship)
        .unwrap()
}

fn form() -> Value {
    json!({"elicitation": {}})
}

#[tokio::test]
async fn a_decline_fails_the_call_in_its_round_and_asks_nothing_more() {
    let mut client = connect(server()).await;
    let first = exchange(
        &mut client,
        modern_call(1, "ship", json!({}), modern_meta(form())),
    )
    .await;
    assert_eq!(asked_keys(&first), ["address", "consent"]);
    let answers = json!({
        "consent": {"action": "decline"},
        "address": {"action": "accept", "content": {"ok": true}},
    });
    let second = exchange(
        &mut client,
        retry_call(
            2,
            "ship",
            json!({}),
            form(),
            answers,
            &request_state(&first),
        ),
    )
    .await;
    assert!(is_error(&second), "no further question is asked: {second}");
    assert_eq!(
        text(&second),
        "Error executing tool ship: Resolver for parameter 'consent' could not resolve: \
         elicitation was decline"
    );
}

#[tokio::test]
async fn on_a_session_a_decline_cancels_the_sibling_question() {
    let mut client = connect(server()).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},
        "clientInfo":{"name":"c","version":"1"}}});
    exchange(&mut client, init.to_string()).await;
    client.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}).to_string());
    client.send(call(1, "ship", json!({})));
    let (a, b) = (next(&mut client).await, next(&mut client).await);
    let (consent, sibling) = if a["params"]["message"] == "May we store your address?" {
        (a, b)
    } else {
        (b, a)
    };
    assert_eq!(consent["method"], "elicitation/create", "{consent}");
    assert_eq!(sibling["method"], "elicitation/create", "{sibling}");
    client.send(
        json!({"jsonrpc":"2.0","id":consent["id"],"result":{"action":"decline"}}).to_string(),
    );
    let mut seen = Vec::new();
    let response = loop {
        let message = next(&mut client).await;
        if message["id"] == 1 {
            break message;
        }
        seen.push(message);
    };
    assert!(is_error(&response), "{response}");
    assert!(
        text(&response).ends_with("elicitation was decline"),
        "{response}"
    );
    assert_eq!(
        seen,
        [
            json!({"jsonrpc":"2.0","method":"notifications/cancelled","params":{
            "requestId": sibling["id"], "reason": "the server no longer needs the answer"}})
        ],
        "the open sibling question is cancelled, and nothing else is sent"
    );
}
