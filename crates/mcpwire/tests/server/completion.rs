//! `completion/complete` with `McpServer::completion`: the capability, suggestions for prompt
//! arguments and template variables on both revisions, and `-32602` for references to nothing.

use crate::support;
use mcpwire::prelude::*;
use mcpwire::protocol::{Completion, CompletionReference};
use serde_json::{Value, json};
use support::{connect, exchange, modern_meta};

/// Reviews code in a language.
#[prompt]
async fn review(language: String) -> String {
    format!("Review this {language} code.")
}

/// A file of a repository.
#[resource(uri = "repo://{owner}/{name}")]
async fn repository(owner: String, name: String) -> String {
    format!("{owner}/{name}")
}

const LANGUAGES: &[&str] = &["python", "pytorch", "rust"];

/// Languages the shop adds to the built-in ones, read from shared state through the context.
struct Extra(&'static str);

fn server() -> McpServer {
    McpServer::new("completions")
        .state(Extra("ruby"))
        .prompt(review)
        .unwrap()
        .resource(repository)
        .unwrap()
        .completion(|request, ctx: Context| async move {
            let typed = request.argument.value;
            if typed == "panic" {
                panic!("the completer broke");
            }
            match request.reference {
                CompletionReference::Prompt { .. } => Completion::from_values(
                    LANGUAGES
                        .iter()
                        .copied()
                        .chain([ctx.state::<Extra>().0])
                        .filter(|l| l.starts_with(typed.as_str())),
                ),
                CompletionReference::Resource { .. } => {
                    let owner = request
                        .context
                        .and_then(|c| c.arguments)
                        .and_then(|a| a.get("owner").cloned())
                        .unwrap_or_default();
                    Completion::from_values((0..150).map(|n| format!("{owner}-{typed}{n}")))
                }
            }
        })
}

fn complete(id: u64, reference: Value, argument: Value, meta: Option<Value>) -> String {
    let mut params = json!({"ref": reference, "argument": argument});
    if let Some(meta) = meta {
        params["_meta"] = meta;
    }
    json!({"jsonrpc":"2.0","id":id,"method":"completion/complete","params":params}).to_string()
}

#[tokio::test]
async fn declares_the_capability_and_completes_on_both_revisions() {
    let mut client = connect(server()).await;
    let init = exchange(
        &mut client,
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",
            "capabilities":{},"clientInfo":{"name":"t","version":"1"}}})
        .to_string(),
    )
    .await;
    assert_eq!(init["result"]["capabilities"]["completions"], json!({}));

    let prompt = json!({"type": "ref/prompt", "name": "review"});
    let legacy = exchange(
        &mut client,
        complete(
            1,
            prompt.clone(),
            json!({"name": "language", "value": "py"}),
            None,
        ),
    )
    .await;
    assert_eq!(
        legacy["result"],
        json!({"completion": {"values": ["python", "pytorch"]}})
    );

    let template = json!({"type": "ref/resource", "uri": "repo://{owner}/{name}"});
    let mut request: Value = serde_json::from_str(&complete(
        2,
        template,
        json!({"name": "name", "value": "mc"}),
        Some(modern_meta(json!({}))),
    ))
    .unwrap();
    request["params"]["context"] = json!({"arguments": {"owner": "acme"}});
    let modern = exchange(&mut client, request.to_string()).await;
    let result = &modern["result"];
    assert_eq!(result["resultType"], "complete");
    assert_eq!(result["completion"]["values"][0], "acme-mc0");
    assert_eq!(
        result["completion"]["values"].as_array().unwrap().len(),
        100
    );
    assert_eq!(result["completion"]["total"], 150);
    assert_eq!(result["completion"]["hasMore"], true);
}

#[tokio::test]
async fn references_to_nothing_are_invalid_params() {
    let mut client = connect(server()).await;
    let cases = [
        (
            json!({"type": "ref/prompt", "name": "nope"}),
            "language",
            "Unknown prompt: nope",
        ),
        (
            json!({"type": "ref/prompt", "name": "review"}),
            "nope",
            "Prompt review has no argument nope",
        ),
        (
            json!({"type": "ref/resource", "uri": "repo://x/y"}),
            "name",
            "Unknown resource template: repo://x/y",
        ),
        (
            json!({"type": "ref/resource", "uri": "repo://{owner}/{name}"}),
            "branch",
            "Resource template repo://{owner}/{name} has no variable branch",
        ),
    ];
    for (id, (reference, argument, message)) in cases.into_iter().enumerate() {
        let response = exchange(
            &mut client,
            complete(
                id as u64,
                reference,
                json!({"name": argument, "value": ""}),
                None,
            ),
        )
        .await;
        assert_eq!(response["error"]["code"], -32602, "{response}");
        assert_eq!(response["error"]["message"], message);
    }
}

#[tokio::test]
async fn without_a_completer_there_is_no_capability_and_no_method() {
    let mut client = connect(McpServer::new("plain").prompt(review).unwrap()).await;
    let init = exchange(
        &mut client,
        json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25",
            "capabilities":{},"clientInfo":{"name":"t","version":"1"}}})
        .to_string(),
    )
    .await;
    assert!(init["result"]["capabilities"].get("completions").is_none());
    let response = exchange(
        &mut client,
        complete(
            1,
            json!({"type": "ref/prompt", "name": "review"}),
            json!({"name": "language", "value": ""}),
            None,
        ),
    )
    .await;
    assert_eq!(response["error"]["code"], -32601);
}

#[tokio::test]
async fn the_completer_reads_the_context_and_a_panic_in_it_is_an_internal_error() {
    let mut client = connect(server()).await;
    let meta = || Some(modern_meta(json!({})));
    let prompt = json!({"type": "ref/prompt", "name": "review"});
    let from_state = exchange(
        &mut client,
        complete(
            1,
            prompt.clone(),
            json!({"name": "language", "value": "ru"}),
            meta(),
        ),
    )
    .await;
    assert_eq!(
        from_state["result"]["completion"]["values"],
        json!(["rust", "ruby"]),
        "{from_state}"
    );
    let broken = exchange(
        &mut client,
        complete(
            2,
            prompt.clone(),
            json!({"name": "language", "value": "panic"}),
            meta(),
        ),
    )
    .await;
    assert_eq!(broken["error"]["code"], -32603, "{broken}");
    assert!(
        !broken.to_string().contains("broke"),
        "the panic message stays in the log"
    );
    let again = exchange(
        &mut client,
        complete(
            3,
            prompt,
            json!({"name": "language", "value": "py"}),
            meta(),
        ),
    )
    .await;
    assert_eq!(
        again["result"]["completion"]["values"],
        json!(["python", "pytorch"])
    );
}
