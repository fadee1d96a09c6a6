//! This repo's own client (`mcpwire::client`) driving the example servers over real transports:
//! the built example binaries over stdio, and over Streamable HTTP (`--http 127.0.0.1:0`), on
//! both protocol revisions. Each scenario runs four times (`stdio_legacy`, `stdio_modern`,
//! `http_legacy`, `http_modern`). Expected texts come from `examples/`.

#[macro_use]
mod common;

use common::client::{Connected, Via, connect, expected_era};
use common::{child_with_env, environment_of, example_bin};
use mcpwire::client::{Client, ClientBuilder, EraChoice, StdioServer};
use mcpwire::protocol::SamplingContent;
use mcpwire::protocol::{
    CallToolResult, Content, CreateMessageResult, ElicitAction, ElicitResult, Era, Role,
};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::{Arc, Mutex};

on_every_transport!(
    backorder_every_outcome,
    recommend_book_samples_the_client,
    bookshop_lists_and_calls,
);

fn text(result: &CallToolResult) -> &str {
    match result.content.as_slice() {
        [Content::Text { text, .. }] => text,
        other => panic!("expected one text block, got {other:?}"),
    }
}

/// A client answering each elicitation with the next of `answers`, recording the questions.
fn answering(answers: Vec<ElicitResult>) -> (ClientBuilder, Arc<Mutex<Vec<String>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let answers = Arc::new(Mutex::new(answers.into_iter()));
    let record = asked.clone();
    let builder = Client::builder().on_form_elicitation(move |question| {
        record.lock().unwrap().push(question.message.clone());
        assert_eq!(
            question.requested_schema["properties"]["confirm"]["type"],
            "boolean"
        );
        let answer = answers.lock().unwrap().next().expect("an answer left");
        async move { answer }
    });
    (builder, asked)
}

fn accept(confirm: bool) -> ElicitResult {
    ElicitResult {
        action: ElicitAction::Accept,
        content: json!({"confirm": confirm}).as_object().cloned(),
    }
}

fn refuse(action: ElicitAction) -> ElicitResult {
    ElicitResult {
        action,
        content: None,
    }
}

async fn backorder_every_outcome(via: Via, era: EraChoice) {
    let answers = vec![
        accept(true),
        accept(false),
        refuse(ElicitAction::Decline),
        refuse(ElicitAction::Cancel),
    ];
    let (builder, asked) = answering(answers);
    let Connected { client, _server } = connect(via, era, "backorder", builder).await;
    assert_eq!(client.era(), expected_era(era));
    let order = |title: &'static str| {
        let client = client.clone();
        async move {
            client
                .call_tool("order_book", json!({"title": title}))
                .await
                .unwrap_or_else(|e| panic!("order_book {title}: {e}"))
        }
    };
    let dune = order("Dune").await;
    assert_eq!(text(&dune), "Ordered 'Dune'.");
    assert!(
        asked.lock().unwrap().is_empty(),
        "an in-stock book asks nothing"
    );

    let yes = order("Neuromancer").await;
    assert_eq!(
        text(&yes),
        "Backordered 'Neuromancer'; it ships in 2-3 weeks."
    );
    let no = order("Neuromancer").await;
    assert_eq!(text(&no), "No order placed.");
    assert_ne!(no.is_error, Some(true));
    for action in ["decline", "cancel"] {
        let refused = order("Neuromancer").await;
        assert_eq!(refused.is_error, Some(true), "{refused:?}");
        assert_eq!(
            text(&refused),
            format!(
                "Error executing tool order_book: Resolver for parameter 'backorder' could not \
                 resolve: elicitation was {action}"
            )
        );
    }
    let question = "'Neuromancer' is out of stock (2-3 weeks). Order anyway?";
    assert_eq!(*asked.lock().unwrap(), [question; 4]);
}

async fn recommend_book_samples_the_client(via: Via, era: EraChoice) {
    let prompts = Arc::new(Mutex::new(Vec::new()));
    let record = prompts.clone();
    let builder = Client::builder().on_sampling(move |request| {
        let prompt = serde_json::to_value(&request.messages).unwrap();
        record.lock().unwrap().push((prompt, request.max_tokens));
        async {
            let content: SamplingContent =
                serde_json::from_value(json!({"type": "text", "text": "Dune"})).unwrap();
            Ok(CreateMessageResult {
                role: Role::Assistant,
                content,
                model: "test-model".into(),
                stop_reason: Some("endTurn".into()),
            })
        }
    });
    let Connected { client, _server } = connect(via, era, "recommend_book", builder).await;
    let pick = client
        .call_tool("recommend_book", json!({"genre": "science fiction"}))
        .await
        .unwrap();
    assert_eq!(text(&pick), "Today's science fiction pick: Dune");
    let prompts = prompts.lock().unwrap();
    assert_eq!(prompts.len(), 1);
    assert_eq!(
        prompts[0].0[0]["content"]["text"],
        "Suggest one science fiction book title. Answer with the title only."
    );
    assert_eq!(prompts[0].1, 50);
}

#[derive(serde::Deserialize, Debug, PartialEq)]
struct Stock {
    title: String,
    copies: u32,
}

async fn bookshop_lists_and_calls(via: Via, era: EraChoice) {
    let Connected { client, _server } = connect(via, era, "bookshop", Client::builder()).await;
    let server = client.server();
    assert_eq!(
        server.info.as_ref().map(|i| i.name.as_str()),
        Some("Bookshop")
    );
    assert_eq!(
        server.instructions.as_deref(),
        Some("A bookshop: reserve and order books, look up stock.")
    );
    let tools = client.list_tools().await.unwrap();
    let names: Vec<_> = tools.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "reserve_book",
            "order_book",
            "book_info",
            "browse_catalog",
            "confirm_order",
            "add"
        ]
    );
    let add = tools.iter().find(|t| t.name == "add").unwrap();
    assert_eq!(add.input_schema["properties"]["a"]["type"], "integer");
    let stock: Stock = client
        .call_tool_as("book_info", json!({"title": "Dune"}))
        .await
        .unwrap();
    assert_eq!(
        stock,
        Stock {
            title: "Dune".into(),
            copies: 7
        }
    );
    let sum: Value = client
        .call_tool_as("add", json!({"a": 2, "b": 3}))
        .await
        .unwrap();
    assert_eq!(sum, json!({"result": 5}));
    let reserved = client
        .call_tool("reserve_book", json!({"title": "Neuromancer"}))
        .await
        .unwrap();
    assert_eq!(text(&reserved), "'Neuromancer' is out of stock.");
    let unknown = client.call_tool("no_such_tool", json!({})).await;
    assert!(unknown.is_err() || unknown.unwrap().is_error == Some(true));
}

/// `Auto` picks 2026-07-28 against this SDK's servers: over stdio after probing a sibling
/// process, over HTTP in place.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_picks_modern_on_both_transports() {
    for via in [Via::Stdio, Via::Http] {
        let Connected { client, _server } =
            connect(via, EraChoice::Auto, "bookshop", Client::builder()).await;
        assert_eq!(client.era(), Era::Modern, "{via:?}");
        assert_eq!(client.server().protocol_version, "2026-07-28");
        let sum: Value = client
            .call_tool_as("add", json!({"a": 1, "b": 1}))
            .await
            .unwrap();
        assert_eq!(sum, json!({"result": 2}));
    }
}

/// Many calls in flight at once on one connection: each answer reaches its own call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_calls_get_their_own_answers() {
    for (via, era) in [
        (Via::Stdio, EraChoice::Legacy),
        (Via::Stdio, EraChoice::Modern),
        (Via::Http, EraChoice::Legacy),
        (Via::Http, EraChoice::Modern),
    ] {
        let Connected { client, _server } = connect(via, era, "bookshop", Client::builder()).await;
        let mut calls = tokio::task::JoinSet::new();
        for i in 0..64 {
            let client = client.clone();
            calls.spawn(async move {
                let sum: Value = client
                    .call_tool_as("add", json!({"a": i, "b": 1000}))
                    .await?;
                Ok::<_, mcpwire::client::ClientError>((i, sum))
            });
        }
        while let Some(outcome) = calls.join_next().await {
            let (i, sum) = outcome.unwrap().unwrap();
            assert_eq!(sum, json!({"result": i + 1000}), "{via:?} {era:?}");
        }
    }
}

/// The `mcp_call` example client against the bookshop example, over stdio and HTTP.
#[test]
fn the_mcp_call_example_lists_and_calls() {
    let bookshop = common::example_bin("bookshop");
    let mcp_call = common::example_bin("mcp_call");
    let run = |args: &[&str]| {
        let mut command = std::process::Command::new(&mcp_call);
        command.args(args);
        common::run_with_deadline(command, common::PEER_TIMEOUT)
    };
    let bookshop = bookshop.to_str().unwrap();
    let listed = run(&["--", bookshop]);
    assert!(listed.status.success(), "{listed:?}");
    assert!(
        listed.stdout.contains("add: Add two numbers."),
        "{}",
        listed.stdout
    );
    let called = run(&[
        "--era",
        "legacy",
        "book_info",
        r#"{"title":"Dune"}"#,
        "--",
        bookshop,
    ]);
    assert!(called.status.success(), "{called:?}");
    assert!(called.stdout.contains(r#""copies":7"#), "{}", called.stdout);
    assert!(
        called.stderr.contains("connected (Legacy, 2025-11-25)"),
        "{}",
        called.stderr
    );
    let server = common::HttpExample::start("bookshop");
    let over_http = run(&["--era", "modern", &server.url, "add", r#"{"a":2,"b":3}"#]);
    assert!(over_http.status.success(), "{over_http:?}");
    assert!(over_http.stdout.contains('5'), "{}", over_http.stdout);
}

/// A server started with `env_inherit_only` sees only the variables named (those this process
/// has) and the ones set for it, none of this process's others (its credentials, say).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stdio_server_sees_only_the_environment_it_is_given() {
    let tag = format!("only-{}", std::process::id());
    let server = StdioServer::new(example_bin("bookshop"))
        .env_inherit_only(&["PATH", "NO_SUCH_VARIABLE_SET_HERE"])
        .env("CLIENT_EXAMPLES_TAG", &tag);
    let client = Client::builder()
        .connect_stdio(server)
        .await
        .expect("the bookshop starts");
    let pid = child_with_env("CLIENT_EXAMPLES_TAG", &tag).expect("the bookshop is our child");
    let names: BTreeSet<String> = (environment_of(pid).expect("its environment"))
        .iter()
        .filter_map(|entry| entry.split_once('=').map(|(name, _)| name.to_owned()))
        .collect();
    let expected: BTreeSet<String> = ["CLIENT_EXAMPLES_TAG", "PATH"].map(String::from).into();
    assert_eq!(names, expected);
    // This process has more than those, so the assertion above can fail.
    assert!(std::env::vars_os().any(|(name, _)| name == "CARGO_MANIFEST_DIR"));
    assert!(client.list_tools().await.is_ok(), "the server still serves");
    client.close().await;
}
