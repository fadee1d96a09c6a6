//! This repo's client (`mcpwire::client`) driving servers we did not write: the Python SDK's,
//! the TypeScript SDK's and rmcp's servers of `benches/peers` (installed by `scripts/setup-peers`),
//! over stdio and Streamable HTTP, on both protocol revisions. Each run lists the tools, calls
//! `add`, and calls `confirm_order`, which asks one form question the way that SDK documents
//! (Python: a resolver returning `Elicit`; TypeScript: `inputRequired(...)` with its legacy shim;
//! rmcp: `peer.elicit` on 2025-11-25 and an `InputRequiredResult` on 2026-07-28), answered by the
//! client's one form handler: accepted, then declined. The same scenario runs against this
//! repo's `bookshop` example (`ours`), whose `confirm_order` is the same tool on a resolver.

mod common;

use common::{HttpExample, example_bin, free_port, peer_node, peer_python, peer_python_server};
use common::{peer_rmcp_server, peer_ts_server};
use mcpwire::client::{Client, EraChoice, StdioServer};
use mcpwire::protocol::{CallToolResult, Content, ElicitAction, ElicitResult, Era};
use serde_json::json;
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Arc, Mutex};

#[derive(Clone, Copy, Debug)]
enum Peer {
    Ours,
    Python,
    TypeScript,
    Rmcp,
}

#[derive(Clone, Copy, Debug)]
enum Via {
    Stdio,
    Http,
}

impl Peer {
    /// The program and the arguments before the transport flag.
    fn program(self) -> (PathBuf, Vec<PathBuf>) {
        match self {
            Peer::Ours => (example_bin("bookshop"), vec![]),
            Peer::Python => (peer_python(), vec![peer_python_server()]),
            Peer::TypeScript => (peer_node(), vec![peer_ts_server()]),
            Peer::Rmcp => (peer_rmcp_server(), vec![]),
        }
    }
}

/// The answers the form handler gives, in order, and the questions it was asked.
#[derive(Default)]
struct Answers {
    next: Vec<ElicitResult>,
    asked: Vec<String>,
}

/// Connects to `peer` over `via` on `era`, with a form handler answering from `answers`; the
/// HTTP server process (if any) lives as long as the returned guard.
async fn connect(
    peer: Peer,
    via: Via,
    era: EraChoice,
    answers: Arc<Mutex<Answers>>,
) -> (Client, Option<HttpExample>) {
    let builder = Client::builder()
        .era(era)
        .on_form_elicitation(move |question| {
            let mut answers = answers.lock().unwrap();
            answers.asked.push(question.message.clone());
            assert_eq!(
                question.requested_schema["properties"]["confirm"]["type"], "boolean",
                "{:?}",
                question.requested_schema
            );
            let answer = answers.next.remove(0);
            async move { answer }
        });
    let (program, args) = peer.program();
    match via {
        Via::Stdio => {
            let mut server = StdioServer::new(program).args(args);
            if !matches!(peer, Peer::Ours) {
                server = server.arg("--stdio"); // the examples serve stdio by default
            }
            let client = builder
                .connect_stdio(server)
                .await
                .unwrap_or_else(|e| panic!("connect to {peer:?} over stdio on {era:?}: {e}"));
            (client, None)
        }
        Via::Http => {
            let mut command = Command::new(program);
            command
                .args(args)
                .args(["--http", &format!("127.0.0.1:{}", free_port())]);
            let server = HttpExample::spawn(command, &format!("the {peer:?} peer server"));
            let client = builder
                .connect_http(&server.url)
                .await
                .unwrap_or_else(|e| panic!("connect to {peer:?} over HTTP on {era:?}: {e}"));
            (client, Some(server))
        }
    }
}

fn text(result: &CallToolResult) -> &str {
    assert_ne!(result.is_error, Some(true), "{result:?}");
    match result.content.as_slice() {
        [Content::Text { text, .. }] => text,
        other => panic!("expected one text block, got {other:?}"),
    }
}

fn accept(confirm: bool) -> ElicitResult {
    ElicitResult {
        action: ElicitAction::Accept,
        content: json!({"confirm": confirm}).as_object().cloned(),
    }
}

fn decline() -> ElicitResult {
    ElicitResult {
        action: ElicitAction::Decline,
        content: None,
    }
}

async fn lists_calls_and_answers(peer: Peer, via: Via, era: EraChoice) {
    let answers = Arc::new(Mutex::new(Answers {
        next: vec![accept(true), decline()],
        asked: vec![],
    }));
    let (client, _server) = connect(peer, via, era, answers.clone()).await;
    let expected = match era {
        EraChoice::Legacy => Era::Legacy,
        _ => Era::Modern,
    };
    assert_eq!(client.era(), expected, "{peer:?} over {via:?}");

    let tools = client.list_tools().await.expect("tools/list");
    let mut names: Vec<&str> = tools.iter().map(|tool| tool.name.as_str()).collect();
    names.sort_unstable();
    let expected_names: &[&str] = match peer {
        Peer::Ours => &[
            "add",
            "book_info",
            "browse_catalog",
            "confirm_order",
            "order_book",
            "reserve_book",
        ],
        _ => &["add", "confirm_order", "order_book"],
    };
    assert_eq!(names, expected_names, "{peer:?}");

    let sum = client
        .call_tool("add", json!({"a": 2, "b": 3}))
        .await
        .expect("add");
    // rmcp's `Json` wrapper writes the structured value as the text block too.
    let sum_text = match peer {
        Peer::Rmcp => r#"{"result":5}"#,
        Peer::Ours | Peer::Python | Peer::TypeScript => "5",
    };
    assert_eq!(text(&sum), sum_text, "{peer:?}");
    assert_eq!(
        sum.structured_content,
        Some(json!({"result": 5})),
        "{peer:?}"
    );

    let ordered = client
        .call_tool("confirm_order", json!({"title": "Dune"}))
        .await
        .expect("confirm_order, accepted");
    assert_eq!(text(&ordered), "Ordered 'Dune'.", "{peer:?}");
    let refused = client
        .call_tool("confirm_order", json!({"title": "Neuromancer"}))
        .await
        .expect("confirm_order, declined");
    assert_eq!(text(&refused), "Not ordered: decline.", "{peer:?}");

    let asked = answers.lock().unwrap().asked.clone();
    assert_eq!(
        asked,
        ["Order 'Dune'?", "Order 'Neuromancer'?"],
        "{peer:?}: each call asks its one question once"
    );
    client.close().await;
}

/// Runs the scenario for each peer on both transports and both revisions, one test each.
macro_rules! every_peer {
    ($($peer:ident => $variant:ident),* $(,)?) => {$(
        mod $peer {
            use super::*;
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn stdio_legacy() {
                lists_calls_and_answers(Peer::$variant, Via::Stdio, EraChoice::Legacy).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn stdio_modern() {
                lists_calls_and_answers(Peer::$variant, Via::Stdio, EraChoice::Modern).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn http_legacy() {
                lists_calls_and_answers(Peer::$variant, Via::Http, EraChoice::Legacy).await
            }
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn http_modern() {
                lists_calls_and_answers(Peer::$variant, Via::Http, EraChoice::Modern).await
            }
        }
    )*};
}

every_peer!(ours => Ours, python => Python, typescript => TypeScript, rmcp => Rmcp);
