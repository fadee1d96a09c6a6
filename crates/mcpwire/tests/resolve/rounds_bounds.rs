//! The bounds of 2026-07-28 rounds: a state too big to mint is refused in the round that made
//! it so (never minted and then refused), and a `#[tool(once)]` call completes once however
//! its rounds are replayed.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU32, Ordering};
use support::{
    asked_keys, connect, exchange, modern_call, modern_meta, request_state, retry_call, text,
};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Note {
    /// A note for the order.
    text: String,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Place the order?
    ok: bool,
}

#[resolver(key = "note")]
async fn ask_note() -> Elicit<Note> {
    Elicit::ask("A note for the order?")
}

#[resolver(key = "confirm")]
async fn ask_confirm(#[resolve(ask_note)] note: Note) -> Elicit<Confirm> {
    Elicit::ask(format!("Order with the note of {} bytes?", note.text.len()))
}

#[derive(Default)]
struct Orders(AtomicU32);

/// Places an order, once per call.
#[tool(once)]
async fn place_order(#[resolve(ask_confirm)] confirm: Confirm, ctx: Context) -> String {
    let placed = ctx.state::<Orders>().0.fetch_add(1, Ordering::SeqCst) + 1;
    format!("confirmed={} orders={placed}", confirm.ok)
}

/// The same tool without `once`.
#[tool]
async fn place_order_again(#[resolve(ask_confirm)] confirm: Confirm, ctx: Context) -> String {
    let placed = ctx.state::<Orders>().0.fetch_add(1, Ordering::SeqCst) + 1;
    format!("confirmed={} orders={placed}", confirm.ok)
}

fn server() -> McpServer {
    McpServer::new("orders")
        .state(Orders::default())
        .request_state_keys(KeyRing::new([[4u8; 32]]).unwrap())
        .tool(place_order)
        .unwrap()
        .tool(place_order_again)
        .unwrap()
}

fn form() -> Value {
    json!({"elicitation": {}})
}

fn note(text: &str) -> Value {
    json!({"note": {"action": "accept", "content": {"text": text}}})
}

fn confirmed() -> Value {
    json!({"confirm": {"action": "accept", "content": {"ok": true}}})
}

#[tokio::test]
async fn an_answer_too_big_for_the_state_is_refused_in_the_round_that_carried_it() {
    let mut client = connect(server()).await;
    let first = exchange(
        &mut client,
        modern_call(1, "place_order", json!({}), modern_meta(form())),
    )
    .await;
    let state = request_state(&first);
    let big = "x".repeat(100 * 1024);
    let answered = exchange(
        &mut client,
        retry_call(2, "place_order", json!({}), form(), note(&big), &state),
    )
    .await;
    let error = &answered["error"];
    assert_eq!(error["code"], -32602, "{answered}");
    let message = error["message"].as_str().unwrap();
    assert!(
        message.contains("do not fit in a requestState"),
        "{message}"
    );
    assert!(
        message.contains("65536"),
        "the message names the limit: {message}"
    );
}

#[tokio::test]
async fn a_raised_limit_lets_the_big_answer_through_to_the_end() {
    let mut client = connect(server().request_state_max_bytes(512 * 1024)).await;
    let first = exchange(
        &mut client,
        modern_call(1, "place_order", json!({}), modern_meta(form())),
    )
    .await;
    let big = "x".repeat(100 * 1024);
    let second = exchange(
        &mut client,
        retry_call(
            2,
            "place_order",
            json!({}),
            form(),
            note(&big),
            &request_state(&first),
        ),
    )
    .await;
    assert_eq!(asked_keys(&second), ["confirm"], "{second}");
    let done = exchange(
        &mut client,
        retry_call(
            3,
            "place_order",
            json!({}),
            form(),
            confirmed(),
            &request_state(&second),
        ),
    )
    .await;
    assert_eq!(text(&done), "confirmed=true orders=1", "{done}");
}

/// Runs `tool` to completion; returns the states of rounds 1 and 2 and the final answer.
async fn complete(
    client: &mut mcpwire::transport::MemoryClient,
    tool: &str,
) -> (String, String, Value) {
    let first = exchange(client, modern_call(1, tool, json!({}), modern_meta(form()))).await;
    let state1 = request_state(&first);
    let second = exchange(
        client,
        retry_call(2, tool, json!({}), form(), note("hi"), &state1),
    )
    .await;
    let state2 = request_state(&second);
    let done = exchange(
        client,
        retry_call(3, tool, json!({}), form(), confirmed(), &state2),
    )
    .await;
    (state1, state2, done)
}

#[tokio::test]
async fn a_once_only_call_refuses_a_replayed_final_round() {
    let mut client = connect(server()).await;
    let (_, state2, done) = complete(&mut client, "place_order").await;
    assert_eq!(text(&done), "confirmed=true orders=1", "{done}");
    let replay = exchange(
        &mut client,
        retry_call(4, "place_order", json!({}), form(), confirmed(), &state2),
    )
    .await;
    assert_eq!(replay["error"]["code"], -32602, "{replay}");
    assert_eq!(
        replay["error"]["message"],
        "Invalid or expired requestState"
    );
    // A new call (no state) is a new order.
    let (_, _, again) = complete(&mut client, "place_order").await;
    assert_eq!(text(&again), "confirmed=true orders=2", "{again}");
}

#[tokio::test]
async fn replaying_an_earlier_round_of_a_once_only_call_cannot_complete_it_again() {
    let mut client = connect(server()).await;
    let (state1, _, done) = complete(&mut client, "place_order").await;
    assert_eq!(text(&done), "confirmed=true orders=1", "{done}");
    // From the first round's state the call goes on to a fresh second round…
    let second = exchange(
        &mut client,
        retry_call(5, "place_order", json!({}), form(), note("hi"), &state1),
    )
    .await;
    // …but it is still the same call, which already completed.
    let replay = exchange(
        &mut client,
        retry_call(
            6,
            "place_order",
            json!({}),
            form(),
            confirmed(),
            &request_state(&second),
        ),
    )
    .await;
    assert_eq!(
        replay["error"]["message"], "Invalid or expired requestState",
        "{replay}"
    );
}

#[tokio::test]
async fn without_once_a_replayed_final_round_runs_the_body_again() {
    let mut client = connect(server()).await;
    let (_, state2, done) = complete(&mut client, "place_order_again").await;
    assert_eq!(text(&done), "confirmed=true orders=1", "{done}");
    let replay = exchange(
        &mut client,
        retry_call(
            4,
            "place_order_again",
            json!({}),
            form(),
            confirmed(),
            &state2,
        ),
    )
    .await;
    assert_eq!(text(&replay), "confirmed=true orders=2", "{replay}");
}
