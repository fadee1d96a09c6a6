//! `completion/complete` with `McpServer::completion`: the capability, suggestions for prompt
//! arguments and template variables, and `-32602` for references to nothing, each on both
//! revisions through the crate's own client.

use crate::support;
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::prelude::*;
use mcpwire::protocol::{CompleteResult, Completion, CompletionReference};
use serde_json::json;
use support::{ERAS, client, rpc_error};

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

fn prompt(name: &str) -> CompletionReference {
    CompletionReference::Prompt {
        name: name.into(),
        title: None,
    }
}

fn template(uri: &str) -> CompletionReference {
    CompletionReference::Resource { uri: uri.into() }
}

/// Completes `argument` of the `review` prompt from `value`.
async fn language(client: &Client, value: &str) -> Result<CompleteResult, ClientError> {
    client.complete(prompt("review"), "language", value).await
}

#[tokio::test]
async fn declares_the_capability_and_completes_on_both_revisions() {
    for era in ERAS {
        let client = client(server(), era).await;
        let declared = client.server().capabilities.completions;
        assert_eq!(declared, Some(serde_json::Map::new()), "{era:?}");

        let suggested = language(&client, "py").await.unwrap();
        let expected = Completion {
            values: vec!["python".into(), "pytorch".into()],
            total: None,
            has_more: None,
        };
        assert_eq!(suggested.completion, expected, "{era:?}");

        let repository = template("repo://{owner}/{name}");
        let chosen = [("owner", "acme")];
        let many = client
            .complete_in_context(repository, "name", "mc", chosen)
            .await
            .unwrap()
            .completion;
        assert_eq!(many.values[0], "acme-mc0", "{era:?}");
        assert_eq!(many.values.len(), 100, "{era:?}");
        assert_eq!(many.total, Some(150), "{era:?}");
        assert_eq!(many.has_more, Some(true), "{era:?}");
    }
    // On 2026-07-28 the result says it is complete.
    let client = client(server(), EraChoice::Modern).await;
    let params = json!({"ref": {"type": "ref/prompt", "name": "review"},
                        "argument": {"name": "language", "value": "py"}});
    let raw = client.request("completion/complete", params).await.unwrap();
    assert_eq!(raw["resultType"], "complete");
}

#[tokio::test]
async fn references_to_nothing_are_invalid_params() {
    let cases = [
        (prompt("nope"), "language", "Unknown prompt: nope"),
        (
            prompt("review"),
            "nope",
            "Prompt review has no argument nope",
        ),
        (
            template("repo://x/y"),
            "name",
            "Unknown resource template: repo://x/y",
        ),
        (
            template("repo://{owner}/{name}"),
            "branch",
            "Resource template repo://{owner}/{name} has no variable branch",
        ),
    ];
    for era in ERAS {
        let client = client(server(), era).await;
        for (reference, argument, message) in cases.clone() {
            let error = rpc_error(client.complete(reference, argument, "").await);
            assert_eq!(error.code, -32602, "{era:?}: {error:?}");
            assert_eq!(error.message, message, "{era:?}");
        }
    }
}

#[tokio::test]
async fn without_a_completer_there_is_no_capability_and_no_method() {
    for era in ERAS {
        let plain = McpServer::new("plain").prompt(review).unwrap();
        let client = client(plain, era).await;
        let declared = client.server().capabilities.completions;
        assert!(declared.is_none(), "{era:?}: {declared:?}");
        let error = rpc_error(language(&client, "").await);
        assert_eq!(error.code, -32601, "{era:?}");
    }
}

#[tokio::test]
async fn the_completer_reads_the_context_and_a_panic_in_it_is_an_internal_error() {
    for era in ERAS {
        let client = client(server(), era).await;
        let from_state = language(&client, "ru").await.unwrap().completion;
        assert_eq!(from_state.values, ["rust", "ruby"], "{era:?}");
        let broken = rpc_error(language(&client, "panic").await);
        assert_eq!(broken.code, -32603, "{era:?}: {broken:?}");
        assert!(
            !serde_json::to_string(&broken).unwrap().contains("broke"),
            "the panic message stays in the log"
        );
        let again = language(&client, "py").await.unwrap().completion;
        assert_eq!(again.values, ["python", "pytorch"], "{era:?}");
    }
}
