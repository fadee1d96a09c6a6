//! Questions from resolvers over the in-memory transport: rounds on 2026-07-28 (batching,
//! chains, rewording, the sealed state), requests on 2025-11-25, and the capability gate.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;
use support::{
    asked_keys, call, connect, exchange, is_error, modern_call, modern_meta, request_state,
    retry_call, text,
};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Answer {
    /// The answer.
    value: String,
}

#[resolver]
async fn first_name() -> Elicit<Answer> {
    Elicit::ask("First name?")
}

#[resolver]
async fn last_name() -> Elicit<Answer> {
    Elicit::ask("Last name?")
}

#[derive(Default)]
struct Runs {
    body: AtomicU32,
    wording: AtomicU32,
}

/// Greets someone by full name.
#[tool]
async fn greet(
    #[resolve(first_name)] first: Answer,
    #[resolve(last_name)] last: Answer,
    ctx: Context,
) -> String {
    ctx.state::<Runs>().body.fetch_add(1, Ordering::SeqCst);
    format!("Hello, {} {}!", first.value, last.value)
}

fn accept(value: &str) -> Value {
    json!({"action": "accept", "content": {"value": value}})
}

const FORM: fn() -> Value = || json!({"elicitation": {}});

fn server() -> McpServer {
    McpServer::new("questions")
        .state(Runs::default())
        .request_state_keys(KeyRing::new([[9u8; 32]]).unwrap())
        .tool(greet)
        .unwrap()
        .tool(chain)
        .unwrap()
        .tool(reworded)
        .unwrap()
        .tool(body_runs)
        .unwrap()
}

/// How often tool bodies ran.
#[tool]
async fn body_runs(ctx: Context) -> String {
    ctx.state::<Runs>().body.load(Ordering::SeqCst).to_string()
}

#[tokio::test]
async fn independent_questions_go_out_in_one_round_and_the_body_runs_once() {
    let mut client = connect(server()).await;
    let round1 = exchange(
        &mut client,
        modern_call(1, "greet", json!({}), modern_meta(FORM())),
    )
    .await;
    assert_eq!(
        asked_keys(&round1),
        [
            "resolve::questions::first_name",
            "resolve::questions::last_name"
        ]
    );
    assert_eq!(
        round1["result"]["inputRequests"]["resolve::questions::first_name"],
        json!({"method": "elicitation/create", "params": {"mode": "form", "message": "First name?",
            "requestedSchema": {"type": "object", "required": ["value"],
                "properties": {"value": {"type": "string", "description": "The answer."}}}}})
    );
    let state = request_state(&round1);
    let responses = json!({"resolve::questions::first_name": accept("Ada"), "resolve::questions::last_name": accept("Lovelace"),
                           "unknown::key": accept("ignored")});
    let done = exchange(
        &mut client,
        retry_call(2, "greet", json!({}), FORM(), responses, &state),
    )
    .await;
    assert_eq!(text(&done), "Hello, Ada Lovelace!");
    assert_eq!(
        text(&exchange(&mut client, call(3, "body_runs", json!({}))).await),
        "1"
    );
}

#[tokio::test]
async fn a_missing_answer_is_asked_again_and_a_first_round_answer_counts_only_when_it_fits() {
    let mut client = connect(server()).await;
    let round1 = exchange(
        &mut client,
        modern_call(1, "greet", json!({}), modern_meta(FORM())),
    )
    .await;
    let state = request_state(&round1);
    let partial = json!({"resolve::questions::first_name": accept("Ada")});
    let round2 = exchange(
        &mut client,
        retry_call(2, "greet", json!({}), FORM(), partial, &state),
    )
    .await;
    assert_eq!(
        asked_keys(&round2),
        ["resolve::questions::last_name"],
        "the first answer was recorded"
    );

    // A first round (no requestState) may bring answers to the questions it would ask: one that
    // fits its form counts, one that does not is ignored (its question is asked), and keys of
    // no question are ignored.
    let stateless = |id: u64, responses: Value| {
        json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"greet",
            "arguments":{},"inputResponses":responses,"_meta":modern_meta(FORM())}})
        .to_string()
    };
    let misfit = json!({"resolve::questions::first_name": accept("Eve"), "resolve::questions::last_name": 12345,
        "unknown": accept("?")});
    let round = exchange(&mut client, stateless(3, misfit)).await;
    assert_eq!(asked_keys(&round), ["resolve::questions::last_name"]);
    let fitting = json!({"resolve::questions::first_name": accept("Eve"),
        "resolve::questions::last_name": accept("X"), "unknown": {"junk": true}});
    let done = exchange(&mut client, stateless(4, fitting)).await;
    assert_eq!(
        done["result"]["content"][0]["text"], "Hello, Eve X!",
        "{done}"
    );
}

#[resolver]
async fn step_one() -> Elicit<Answer> {
    Elicit::ask("Step one?")
}

#[resolver]
async fn step_two(#[resolve(step_one)] one: Answer) -> Elicit<Answer> {
    Elicit::ask(format!("Step two, after {}?", one.value))
}

#[resolver]
async fn step_three(#[resolve(step_two)] two: Answer) -> Elicit<Answer> {
    Elicit::ask(format!("Step three, after {}?", two.value))
}

/// A chain of three dependent questions.
#[tool]
async fn chain(#[resolve(step_three)] three: Answer, ctx: Context) -> String {
    ctx.state::<Runs>().body.fetch_add(1, Ordering::SeqCst);
    format!("done after {}", three.value)
}

#[tokio::test]
async fn a_dependent_chain_asks_one_question_per_round_each_once() {
    let mut client = connect(server()).await;
    let mut state = String::new();
    let mut answers = serde_json::Map::new();
    let mut asked = Vec::new();
    for (id, (key, answer)) in [
        ("resolve::questions::step_one", "a"),
        ("resolve::questions::step_two", "b"),
        ("resolve::questions::step_three", "c"),
    ]
    .into_iter()
    .enumerate()
    {
        let request = if id == 0 {
            modern_call(1, "chain", json!({}), modern_meta(FORM()))
        } else {
            retry_call(
                id as u64 + 1,
                "chain",
                json!({}),
                FORM(),
                Value::Object(answers.clone()),
                &state,
            )
        };
        let round = exchange(&mut client, request).await;
        assert_eq!(asked_keys(&round), [key], "round {}", id + 1);
        asked.push(round["result"]["inputRequests"][key]["params"]["message"].clone());
        state = request_state(&round);
        // Only this round's answer is sent: earlier ones must come from the state.
        answers.clear();
        answers.insert(key.into(), accept(answer));
    }
    assert_eq!(
        asked,
        [
            json!("Step one?"),
            json!("Step two, after a?"),
            json!("Step three, after b?")
        ]
    );
    let done = exchange(
        &mut client,
        retry_call(
            9,
            "chain",
            json!({}),
            FORM(),
            Value::Object(answers),
            &state,
        ),
    )
    .await;
    assert_eq!(text(&done), "done after c");
    assert_eq!(
        text(&exchange(&mut client, call(10, "body_runs", json!({}))).await),
        "1"
    );
}

#[resolver]
async fn changing_question(ctx: Context) -> Elicit<Answer> {
    let version = ctx.state::<Runs>().wording.fetch_add(1, Ordering::SeqCst);
    Elicit::ask(if version == 0 {
        "Old wording?"
    } else {
        "New wording?"
    })
}

/// Asks a question whose wording changes after the first round (a redeploy).
#[tool]
async fn reworded(#[resolve(changing_question)] answer: Answer) -> String {
    answer.value
}

#[tokio::test]
async fn a_reworded_question_is_asked_again() {
    let mut client = connect(server()).await;
    let round1 = exchange(
        &mut client,
        modern_call(1, "reworded", json!({}), modern_meta(FORM())),
    )
    .await;
    let state = request_state(&round1);
    let responses =
        json!({"resolve::questions::changing_question": accept("answer to the old wording")});
    let round2 = exchange(
        &mut client,
        retry_call(2, "reworded", json!({}), FORM(), responses, &state),
    )
    .await;
    assert_eq!(
        round2["result"]["inputRequests"]["resolve::questions::changing_question"]["params"]["message"],
        "New wording?"
    );
    let state = request_state(&round2);
    let responses = json!({"resolve::questions::changing_question": accept("fresh")});
    let done = exchange(
        &mut client,
        retry_call(3, "reworded", json!({}), FORM(), responses, &state),
    )
    .await;
    assert_eq!(text(&done), "fresh");
}

#[tokio::test]
async fn every_bad_state_gets_the_same_error_and_the_server_keeps_serving() {
    let mut client = connect(server()).await;
    let round1 = exchange(
        &mut client,
        modern_call(1, "greet", json!({"x": 1}), modern_meta(FORM())),
    )
    .await;
    let state = request_state(&round1);
    let answers = json!({"resolve::questions::first_name": accept("A"), "resolve::questions::last_name": accept("B")});

    let mut tampered = state.clone().into_bytes();
    let at = tampered.len() - 3;
    tampered[at] = if tampered[at] == b'x' { b'y' } else { b'x' };
    let tampered = String::from_utf8(tampered).unwrap();

    let foreign = {
        let other = McpServer::new("questions")
            .request_state_keys(KeyRing::new([[8u8; 32]]).unwrap())
            .tool(greet)
            .unwrap();
        let mut other = connect(other).await;
        request_state(
            &exchange(
                &mut other,
                modern_call(1, "greet", json!({"x": 1}), modern_meta(FORM())),
            )
            .await,
        )
    };
    let cases = [
        (
            "tampered",
            retry_call(
                2,
                "greet",
                json!({"x": 1}),
                FORM(),
                answers.clone(),
                &tampered,
            ),
        ),
        (
            "other arguments",
            retry_call(3, "greet", json!({"x": 2}), FORM(), answers.clone(), &state),
        ),
        (
            "other tool",
            retry_call(4, "chain", json!({"x": 1}), FORM(), answers.clone(), &state),
        ),
        (
            "foreign key",
            retry_call(
                5,
                "greet",
                json!({"x": 1}),
                FORM(),
                answers.clone(),
                &foreign,
            ),
        ),
        (
            "not a token",
            retry_call(
                6,
                "greet",
                json!({"x": 1}),
                FORM(),
                answers.clone(),
                "hello",
            ),
        ),
    ];
    for (case, request) in cases {
        let response = exchange(&mut client, request).await;
        assert_eq!(
            response["error"],
            json!({"code": -32602, "message": "Invalid or expired requestState"}),
            "{case}"
        );
    }
    let done = exchange(
        &mut client,
        retry_call(7, "greet", json!({"x": 1}), FORM(), answers, &state),
    )
    .await;
    assert_eq!(text(&done), "Hello, A B!", "the genuine state still works");
}

/// A TTL of zero expires at once: expiry is counted in milliseconds (not rounded down to whole
/// seconds), and `open` refuses a state at or past its expiry.
#[tokio::test]
async fn an_expired_state_is_refused() {
    let server = McpServer::new("questions")
        .request_state_ttl(Duration::ZERO)
        .tool(greet)
        .unwrap();
    let mut client = connect(server).await;
    let round1 = exchange(
        &mut client,
        modern_call(1, "greet", json!({}), modern_meta(FORM())),
    )
    .await;
    let state = request_state(&round1);
    let answers = json!({"resolve::questions::first_name": accept("A"), "resolve::questions::last_name": accept("B")});
    let response = exchange(
        &mut client,
        retry_call(2, "greet", json!({}), FORM(), answers, &state),
    )
    .await;
    assert_eq!(
        response["error"]["message"],
        "Invalid or expired requestState"
    );
}

#[tokio::test]
async fn a_state_minted_by_one_instance_is_accepted_by_another_sharing_the_key() {
    let replica = || {
        McpServer::new("questions")
            .state(Runs::default())
            .request_state_keys(KeyRing::new([[7u8; 32], [9u8; 32]]).unwrap())
            .tool(greet)
            .unwrap()
    };
    let mut first = connect(replica()).await;
    let mut second = connect(replica()).await;
    let round1 = exchange(
        &mut first,
        modern_call(1, "greet", json!({}), modern_meta(FORM())),
    )
    .await;
    let answers = json!({"resolve::questions::first_name": accept("Grace"), "resolve::questions::last_name": accept("Hopper")});
    let done = exchange(
        &mut second,
        retry_call(
            2,
            "greet",
            json!({}),
            FORM(),
            answers,
            &request_state(&round1),
        ),
    )
    .await;
    assert_eq!(text(&done), "Hello, Grace Hopper!");
}

#[tokio::test]
async fn answers_that_do_not_fit_fail_the_call_without_leaking_internals() {
    let mut client = connect(server()).await;
    let round1 = exchange(
        &mut client,
        modern_call(1, "greet", json!({}), modern_meta(FORM())),
    )
    .await;
    let state = request_state(&round1);
    let cases = [
        (
            json!({"action": "accept", "content": {"value": 42}}),
            "received an accepted elicitation whose content does not match the requested schema",
        ),
        (
            json!({"action": "accept"}),
            "received an accepted elicitation with no content",
        ),
        (json!({"roots": []}), "received a non-elicitation response"),
    ];
    for (id, (answer, why)) in cases.into_iter().enumerate() {
        let answers = json!({"resolve::questions::first_name": answer, "resolve::questions::last_name": accept("B")});
        let response = exchange(
            &mut client,
            retry_call(id as u64 + 2, "greet", json!({}), FORM(), answers, &state),
        )
        .await;
        assert!(is_error(&response));
        assert_eq!(
            text(&response),
            format!("Error executing tool greet: Resolver 'first_name' {why}")
        );
    }
}

#[resolver]
async fn pick_model() -> Sample {
    let mut sample = Sample::prompt("Pick", 10);
    sample.0.tools = Some(vec![
        json!({"name": "search", "inputSchema": {"type": "object"}}),
    ]);
    sample
}

/// Samples with tools.
#[tool]
async fn with_tools(#[resolve(pick_model)] result: CreateMessageResult) -> String {
    result.model
}

#[resolver]
async fn sign_in() -> ElicitUrl {
    ElicitUrl::ask("Sign in to the shop", "https://shop.example/sign-in")
}

/// Needs the user to sign in.
#[tool]
async fn account(#[resolve(sign_in)] consent: mcpwire::resolve::UrlConsent) -> String {
    format!("{consent:?}")
}

#[resolver]
async fn workspace() -> ListRoots {
    ListRoots
}

/// Lists the client's roots.
#[tool]
async fn roots(#[resolve(workspace)] roots: ListRootsResult) -> String {
    roots
        .roots
        .iter()
        .map(|r| r.uri.as_str())
        .collect::<Vec<_>>()
        .join(",")
}

#[resolver]
fn suggest() -> Sample {
    Sample::prompt("Suggest", 10)
}

/// Samples.
#[tool]
async fn suggestion(#[resolve(suggest)] result: CreateMessageResult) -> String {
    result.content.text().unwrap_or_default().to_owned()
}

fn kinds() -> McpServer {
    McpServer::new("kinds")
        .tool(with_tools)
        .and_then(|s| s.tool(account))
        .and_then(|s| s.tool(roots))
        .and_then(|s| s.tool(suggestion))
        .and_then(|s| s.tool(greet))
        .unwrap()
        .state(Runs::default())
}

#[tokio::test]
async fn an_undeclared_capability_is_a_protocol_error_naming_it_on_both_revisions() {
    let cases = [
        (
            "greet",
            json!({"elicitation": {"url": {}}}),
            json!({"elicitation": {"form": {}}}),
        ),
        (
            "account",
            json!({"elicitation": {}}),
            json!({"elicitation": {"url": {}}}),
        ),
        ("suggestion", json!({}), json!({"sampling": {}})),
        (
            "with_tools",
            json!({"sampling": {}}),
            json!({"sampling": {"tools": {}}}),
        ),
        ("roots", json!({"sampling": {}}), json!({"roots": {}})),
    ];
    for (tool, declared, required) in cases {
        let mut client = connect(kinds()).await;
        let modern = exchange(
            &mut client,
            modern_call(1, tool, json!({}), modern_meta(declared.clone())),
        )
        .await;
        assert_eq!(modern["error"]["code"], -32021, "{tool}: {modern}");
        assert_eq!(
            modern["error"]["data"],
            json!({"requiredCapabilities": required}),
            "{tool}"
        );

        let init = json!({"jsonrpc":"2.0","id":2,"method":"initialize","params":{
            "protocolVersion":"2025-11-25","capabilities":declared,"clientInfo":{"name":"c","version":"1"}}});
        exchange(&mut client, init.to_string()).await;
        let legacy = exchange(&mut client, call(3, tool, json!({}))).await;
        assert_eq!(legacy["id"], 3, "{tool}: {legacy}");
        assert_eq!(legacy["error"]["code"], -32021, "{tool}: {legacy}");
        assert_eq!(
            legacy["error"]["data"],
            json!({"requiredCapabilities": required}),
            "{tool}"
        );
        let ping = exchange(
            &mut client,
            r#"{"jsonrpc":"2.0","id":4,"method":"ping"}"#.into(),
        )
        .await;
        assert_eq!(ping["result"], json!({}), "the session stays usable");
    }
}

#[tokio::test]
async fn url_roots_and_sampling_questions_round_trip_on_2026_07_28() {
    let mut client = connect(kinds()).await;
    let caps = json!({"elicitation": {"url": {}}, "roots": {}, "sampling": {}});
    let cases = [
        (
            "account",
            "resolve::questions::sign_in",
            json!({"action": "accept"}),
            "Accepted",
        ),
        (
            "roots",
            "resolve::questions::workspace",
            json!({"roots": [{"uri": "file:///src"}, {"uri": "file:///docs"}]}),
            "file:///src,file:///docs",
        ),
        (
            "suggestion",
            "resolve::questions::suggest",
            json!({"role": "assistant", "content": {"type": "text", "text": "Dune"}, "model": "m"}),
            "Dune",
        ),
    ];
    for (id, (tool, key, answer, expected)) in cases.into_iter().enumerate() {
        let id = id as u64 * 2 + 1;
        let round1 = exchange(
            &mut client,
            modern_call(id, tool, json!({}), modern_meta(caps.clone())),
        )
        .await;
        let key = key.to_owned();
        assert_eq!(asked_keys(&round1), std::slice::from_ref(&key), "{tool}");
        let responses = json!({ key: answer });
        let done = exchange(
            &mut client,
            retry_call(
                id + 1,
                tool,
                json!({}),
                caps.clone(),
                responses,
                &request_state(&round1),
            ),
        )
        .await;
        assert_eq!(text(&done), expected, "{tool}");
    }
}

#[tokio::test]
async fn a_legacy_client_that_never_answers_does_not_hang_the_server() {
    let server = kinds().client_request_timeout(Duration::from_millis(100));
    let mut client = connect(server).await;
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}});
    exchange(&mut client, init.to_string()).await;
    let question = exchange(&mut client, call(1, "greet", json!({}))).await;
    assert_eq!(
        question["method"], "elicitation/create",
        "a real request to the client"
    );
    let second = support::next(&mut client).await;
    assert_eq!(
        second["method"], "elicitation/create",
        "both questions are asked concurrently"
    );
    let mut cancelled = Vec::new();
    let response = loop {
        let message = support::next(&mut client).await;
        if message["method"] == "notifications/cancelled" {
            cancelled.push(message["params"]["requestId"].clone());
            continue;
        }
        break message;
    };
    cancelled.sort_by_key(Value::to_string);
    let mut asked = vec![question["id"].clone(), second["id"].clone()];
    asked.sort_by_key(Value::to_string);
    assert_eq!(
        cancelled, asked,
        "both abandoned questions are cancelled towards the client"
    );
    assert_eq!(response["id"], 1);
    assert!(is_error(&response));
    assert!(
        text(&response).starts_with("Error executing tool greet: Resolver '"),
        "{response}"
    );
    assert!(
        text(&response).ends_with("got no answer: the client did not answer within 100ms"),
        "{response}"
    );
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Nested {
    #[allow(dead_code)]
    inner: Answer,
}

#[resolver]
async fn nested_form() -> Elicit<Nested> {
    Elicit::ask("Nested?")
}

/// Asks with a form that cannot be rendered flat.
#[tool]
async fn nested(#[resolve(nested_form)] value: Nested) -> String {
    format!("{value:?}")
}

#[test]
fn a_form_that_is_not_flat_fails_at_registration() {
    let error = McpServer::new("t")
        .tool(nested)
        .err()
        .expect("registration fails");
    assert!(
        error.message().starts_with("tool 'nested': resolver 'nested_form' cannot ask its question: its form field 'inner' is not"),
        "{error}"
    );
}

#[tokio::test]
async fn a_legacy_client_that_disconnects_mid_question_lets_the_server_stop() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    let serving = tokio::spawn(kinds().serve_streams(server_read, server_write));
    let (client_read, mut client_write) = tokio::io::split(client_end);
    let init = json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{
        "protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"c","version":"1"}}});
    let line = format!("{init}\n{}\n", call(1, "greet", json!({})));
    client_write.write_all(line.as_bytes()).await.unwrap();
    let mut lines = BufReader::new(client_read).lines();
    let _initialized = lines.next_line().await.unwrap().unwrap();
    let question: Value = serde_json::from_str(&lines.next_line().await.unwrap().unwrap()).unwrap();
    assert_eq!(question["method"], "elicitation/create");
    drop(client_write);
    drop(lines);
    let stopped = tokio::time::timeout(Duration::from_secs(3), serving).await;
    assert!(
        stopped.is_ok(),
        "the server stops promptly, well within its shutdown grace"
    );
}
