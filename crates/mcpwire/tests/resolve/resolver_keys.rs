//! `#[resolver(key = "…")]`: the key a question travels under on 2026-07-28 (`inputRequests`,
//! `inputResponses`) and its answer is recorded under in `requestState`.

use crate::support;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use support::{
    asked_keys, connect, exchange, modern_call, modern_meta, request_state, retry_call, text,
};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Name {
    name: String,
}

#[resolver(key = "user_name")]
async fn ask_name() -> Elicit<Name> {
    Elicit::ask("What is your name?")
}

#[resolver]
async fn ask_nickname() -> Elicit<Name> {
    Elicit::ask("Nickname?")
}

/// Greets by name and nickname.
#[tool]
async fn greet(#[resolve(ask_name)] user: Name, #[resolve(ask_nickname)] nick: Name) -> String {
    format!("Hello, {} ({})!", user.name, nick.name)
}

fn accept(name: &str) -> Value {
    json!({"action": "accept", "content": {"name": name}})
}

#[tokio::test]
async fn a_fixed_key_names_the_question_and_the_default_stays_the_path() {
    let mut client = connect(McpServer::new("keys").tool(greet).unwrap()).await;
    let form = json!({"elicitation": {}});
    let round1 = exchange(
        &mut client,
        modern_call(1, "greet", json!({}), modern_meta(form.clone())),
    )
    .await;
    assert_eq!(
        asked_keys(&round1),
        ["resolve::resolver_keys::ask_nickname", "user_name"]
    );
    assert_eq!(
        round1["result"]["inputRequests"]["user_name"]["params"]["message"],
        "What is your name?"
    );
    let state = request_state(&round1);
    let answers =
        json!({"user_name": accept("Ada"), "resolve::resolver_keys::ask_nickname": accept("A")});
    let done = exchange(
        &mut client,
        retry_call(2, "greet", json!({}), form, answers, &state),
    )
    .await;
    assert_eq!(text(&done), "Hello, Ada (A)!");
}

#[resolver(key = "user_name")]
async fn ask_other_name() -> Elicit<Name> {
    Elicit::ask("Other name?")
}

/// Two questions under one key could not be told apart.
#[tool]
async fn clash(#[resolve(ask_name)] a: Name, #[resolve(ask_other_name)] b: Name) -> String {
    format!("{} {}", a.name, b.name)
}

/// The same resolver, used by two parameters, is one question.
#[tool]
async fn twice(#[resolve(ask_name)] a: Name, #[resolve(ask_name)] b: Name) -> String {
    format!("{} {}", a.name, b.name)
}

#[test]
fn two_resolvers_of_one_tool_may_not_share_a_key() {
    let Err(error) = McpServer::new("keys").tool(clash) else {
        panic!("registered a tool whose resolvers share a key");
    };
    assert!(
        error
            .message()
            .contains("resolvers 'ask_name' and 'ask_other_name' share the key 'user_name'"),
        "{}",
        error.message()
    );
    // Different tools may reuse a key, and one resolver may feed several parameters.
    McpServer::new("keys")
        .tool(greet)
        .unwrap()
        .tool(twice)
        .unwrap();
}
