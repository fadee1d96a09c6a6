//! This repo's client against the conformance example server (`examples/conformance.rs`), over
//! stdio and HTTP on both eras: multi-round and multi-input questions (elicitation, sampling,
//! roots in one round), an input-required prompt, progress extending the timeout, log and
//! list-change notifications, resources and prompts; over 2026-07-28 HTTP, `Mcp-Param-*`
//! headers mirrored from the listing (and their absence refused); over 2025-11-25 HTTP, a lost
//! session re-initialized.

#[macro_use]
mod common;

use common::client::{Connected, Via, connect};
use common::example_bin;
use mcpwire::client::{CallOptions, Client, ClientBuilder, ClientError, EraChoice};
use mcpwire::protocol::SamplingContent;
use mcpwire::protocol::SubscriptionFilter;
use mcpwire::protocol::{
    CallToolResult, Content, CreateMessageResult, ElicitAction, ElicitResult, Era, ListRootsResult,
    LoggingLevel, ResourceContents, Role, Root,
};
use serde_json::json;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const EXAMPLE: &str = "conformance";

fn text(result: &CallToolResult) -> &str {
    match result.content.as_slice() {
        [Content::Text { text, .. }] => text,
        other => panic!("expected one text block, got {other:?}"),
    }
}

/// A client answering every kind of question.
fn answering_everything() -> ClientBuilder {
    Client::builder()
        .on_form_elicitation(|question| async move {
            let content = match question.message.as_str() {
                "Step 2: What is your favorite color?" => json!({"color": "blue"}),
                "What context should the prompt use?" => json!({"context": "tests"}),
                _ => json!({"name": "Ada"}),
            };
            ElicitResult {
                action: ElicitAction::Accept,
                content: content.as_object().cloned(),
            }
        })
        .on_sampling(|_| async {
            let content: SamplingContent =
                serde_json::from_value(json!({"type": "text", "text": "Hello"})).unwrap();
            Ok(CreateMessageResult {
                role: Role::Assistant,
                content,
                model: "test-model".into(),
                stop_reason: None,
            })
        })
        .on_roots(|| async {
            let roots = ["file:///a", "file:///b"]
                .map(|uri| serde_json::from_value::<Root>(json!({"uri": uri})).unwrap());
            ListRootsResult {
                roots: roots.to_vec(),
            }
        })
}

on_every_transport!(
    questions_over_rounds_and_in_one_round,
    progress_extends_the_timeout,
    notifications_reach_the_stream,
    resources_and_prompts,
);

async fn questions_over_rounds_and_in_one_round(via: Via, era: EraChoice) {
    let Connected { client, _server } = connect(via, era, EXAMPLE, answering_everything()).await;
    let call = |name: &'static str| {
        let client = client.clone();
        async move { client.call_tool(name, json!({})).await.unwrap() }
    };
    let multi_round = call("test_input_required_result_multi_round").await;
    assert_eq!(text(&multi_round), "Ada likes blue");
    let multiple = call("test_input_required_result_multiple_inputs").await;
    assert_eq!(text(&multiple), "Hello Ada (2 roots)");
    let roots = call("test_input_required_result_list_roots").await;
    assert_eq!(text(&roots), "Client roots: file:///a, file:///b");
    let prompt = client
        .get_prompt(
            "test_input_required_result_prompt",
            [("x", "y")].into_iter().take(0),
        )
        .await
        .unwrap();
    let first = serde_json::to_value(&prompt.messages[0]).unwrap();
    assert_eq!(
        first["content"]["text"],
        "Answer with this context in mind: tests"
    );
}

async fn progress_extends_the_timeout(via: Via, era: EraChoice) {
    let Connected { client, _server } = connect(via, era, EXAMPLE, Client::builder()).await;
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    // Each wait is shorter than the call (about 100 ms), but never than the gap between two
    // progress notifications (50 ms).
    let options = CallOptions::new()
        .timeout(Duration::from_millis(90))
        .on_progress(move |p| record.lock().unwrap().push(p.progress));
    let started = Instant::now();
    let done = client
        .call_tool_with("test_tool_with_progress", json!({}), options)
        .await
        .unwrap();
    assert!(started.elapsed() >= Duration::from_millis(90));
    assert_eq!(text(&done), "Progress test completed");
    assert_eq!(*seen.lock().unwrap(), [0.0, 50.0, 100.0]);
}

async fn notifications_reach_the_stream(via: Via, era: EraChoice) {
    let Connected { client, _server } = connect(via, era, EXAMPLE, Client::builder()).await;
    let mut notes = client.notifications();
    client.set_logging_level(LoggingLevel::Info).await.unwrap();
    let done = client
        .call_tool("test_tool_with_logging", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&done), "Logging test completed");
    let mut logged = Vec::new();
    while logged.len() < 3 {
        let note = tokio::time::timeout(Duration::from_secs(5), notes.next())
            .await
            .expect("a log message")
            .expect("an open stream");
        if note.method == "notifications/message" {
            logged.push(note.params["data"].clone());
        }
    }
    assert_eq!(
        logged,
        [
            "Tool execution started",
            "Tool processing data",
            "Tool execution completed"
        ]
    );
    if client.era() == Era::Legacy {
        client
            .call_tool("test_trigger_tool_change", json!({}))
            .await
            .unwrap();
        let changed = async {
            loop {
                let note = notes.next().await.expect("an open stream");
                if note.method == "notifications/tools/list_changed" {
                    return note;
                }
            }
        };
        tokio::time::timeout(Duration::from_secs(5), changed)
            .await
            .expect("the list change");
    }
}

async fn resources_and_prompts(via: Via, era: EraChoice) {
    let Connected { client, _server } = connect(via, era, EXAMPLE, Client::builder()).await;
    let resources = client.list_resources().await.unwrap();
    assert!(
        resources.iter().any(|r| r.uri == "test://static-text"),
        "{resources:?}"
    );
    let read = client.read_resource("test://static-text").await.unwrap();
    match read.contents.as_slice() {
        [ResourceContents::Text { text, .. }] => {
            assert_eq!(text, "This is the content of the static text resource.")
        }
        other => panic!("{other:?}"),
    }
    let templates = client.list_resource_templates().await.unwrap();
    assert!(!templates.is_empty());
    let prompts = client.list_prompts().await.unwrap();
    assert!(
        prompts
            .iter()
            .any(|p| p.name == "test_input_required_result_prompt")
    );
    if client.era() == Era::Legacy {
        client
            .subscribe_resource("test://static-text")
            .await
            .unwrap();
        client
            .unsubscribe_resource("test://static-text")
            .await
            .unwrap();
        client.ping().await.unwrap();
    }
}

/// 2026-07-28 HTTP: after `tools/list` the client mirrors `region` into `Mcp-Param-Region`
/// (plain, or Base64 when not visible ASCII), which the server checks against the body; a
/// client that never listed the tools is refused with `-32020` at first, lists them, and retries.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn param_headers_follow_the_listing() {
    let Connected { client, _server } =
        connect(Via::Http, EraChoice::Modern, EXAMPLE, Client::builder()).await;
    let arguments = json!({"name": "test_header_parameter", "arguments": {"region": "north"}});
    let raw = client.request("tools/call", arguments).await;
    assert_eq!(raw.unwrap_err().rpc_code(), Some(-32020));
    let blind = client
        .call_tool("test_header_parameter", json!({"region": "north"}))
        .await
        .unwrap();
    assert_eq!(text(&blind), "Sunny in north.");
    for region in ["us west 1", "Zürich", " padded ", ""] {
        let result = client
            .call_tool("test_header_parameter", json!({"region": region}))
            .await
            .unwrap_or_else(|e| panic!("{region:?}: {e}"));
        assert_eq!(text(&result), format!("Sunny in {region}."));
    }
}

/// 2025-11-25 HTTP: when the server forgets the session (here: it restarts on the same port) and
/// answers `404`, the client opens a new session and the call goes through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lost_session_is_reopened() {
    let Connected { client, _server } =
        connect(Via::Http, EraChoice::Legacy, "bookshop", Client::builder()).await;
    let url = _server.as_ref().unwrap().url.clone();
    let sum: serde_json::Value = client
        .call_tool_as("add", json!({"a": 1, "b": 2}))
        .await
        .unwrap();
    assert_eq!(sum, json!({"result": 3}));
    drop(_server);
    let address = url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .to_owned();
    let mut restarted = Command::new(example_bin("bookshop"))
        .args(["--http", &address])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(10);
    let outcome = loop {
        match client
            .call_tool_as::<serde_json::Value>("add", json!({"a": 2, "b": 2}))
            .await
        {
            Err(ClientError::Transport(_)) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            outcome => break outcome,
        }
    };
    let _ = restarted.kill();
    let _ = restarted.wait();
    assert_eq!(outcome.unwrap(), json!({"result": 4}));
    assert_eq!(client.era(), Era::Legacy);
}

/// 2025-11-25 HTTP: the server ends the call's event stream before the answer (after an event
/// id and a `retry:` delay); the client resumes with `GET` + `Last-Event-ID` and gets the answer
/// there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_closed_stream_is_resumed_with_last_event_id() {
    let Connected { client, _server } =
        connect(Via::Http, EraChoice::Legacy, EXAMPLE, Client::builder()).await;
    let done = client
        .call_tool("test_reconnection", json!({}))
        .await
        .unwrap();
    assert_eq!(text(&done), "Reconnection test completed successfully");
}

/// 2026-07-28: `subscriptions/listen` is acknowledged with the honored filter, and a tool's
/// list change reaches the subscription (stdio and HTTP).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_subscription_carries_list_changes() {
    for via in [Via::Stdio, Via::Http] {
        let Connected { client, _server } =
            connect(via, EraChoice::Modern, EXAMPLE, Client::builder()).await;
        let filter = SubscriptionFilter {
            tools_list_changed: Some(true),
            ..Default::default()
        };
        let mut subscription = client.listen(filter).await.unwrap();
        assert_eq!(
            subscription.honored().tools_list_changed,
            Some(true),
            "{via:?}"
        );
        client
            .call_tool("test_trigger_tool_change", json!({}))
            .await
            .unwrap();
        let note = tokio::time::timeout(Duration::from_secs(5), subscription.next())
            .await
            .expect("a notification within 5 s")
            .expect("an open subscription");
        assert_eq!(note.method, "notifications/tools/list_changed", "{via:?}");
        drop(subscription);
        // The connection goes on after the subscription ends.
        let after = client
            .call_tool("test_simple_text", json!({}))
            .await
            .unwrap();
        assert_ne!(after.is_error, Some(true));
    }
}

/// Progress extends the wait, but never past `max_total`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_total_caps_a_call_however_much_progress() {
    let Connected { client, _server } =
        connect(Via::Stdio, EraChoice::Modern, EXAMPLE, Client::builder()).await;
    let options = CallOptions::new()
        .timeout(Duration::from_millis(90))
        .max_total(Duration::from_millis(60))
        .on_progress(|_| {});
    let outcome = client
        .call_tool_with("test_tool_with_progress", json!({}), options)
        .await;
    assert!(
        matches!(outcome, Err(ClientError::Timeout(t)) if t == Duration::from_millis(60)),
        "{outcome:?}"
    );
}
