//! A backend's log messages through the gateway, on every pair of revisions: a backend tool
//! logs with `ctx.log`; the front client gets each message of its own call (the crate's own
//! `Client` over HTTP, `CallOptions::on_log`), at the level it asked the gateway for, as the
//! gateway's own tools would give it: on 2025-11-25 the session's (`logging/setLevel`, every
//! level until set), on 2026-07-28 the request's `_meta` level (none without it). A Python SDK
//! 1.x server over stdio is a backend nobody here wrote.

#![cfg(feature = "gateway")]

use crate::serving::{PAIRS, Serving, behind_gateway, front_client, serve};
use mcpwire::client::{CallOptions, Client, EraChoice};
use mcpwire::gateway::{Backend, Gateway};
use mcpwire::prelude::*;
use mcpwire::protocol::{LoggingLevel, LoggingMessageParams};
use serde_json::json;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::Barrier;

/// Every wait of these tests is bounded by this.
const BOUND: Duration = Duration::from_secs(20);

/// Where two calls of `chatty` meet, so that both are in flight when each logs.
struct Meeting(Barrier);

/// Logs once at each of four levels, tagged with `tag`.
#[tool]
async fn chatty(tag: String, ctx: Context) -> String {
    let levels = [
        LoggingLevel::Debug,
        LoggingLevel::Info,
        LoggingLevel::Warning,
        LoggingLevel::Error,
    ];
    for level in levels {
        ctx.log(level, Some("db"), json!({"tag": tag, "level": level}))
            .await;
    }
    "logged".to_owned()
}

/// Logs `tag`-1, waits until another call of it has logged too, then logs `tag`-2.
#[tool]
async fn meet(tag: String, ctx: Context) -> String {
    ctx.log(LoggingLevel::Info, None, json!(format!("{tag}-1")))
        .await;
    let meeting = ctx.state::<Arc<Meeting>>();
    if tokio::time::timeout(BOUND, meeting.0.wait()).await.is_err() {
        return "nobody came".to_owned();
    }
    ctx.log(LoggingLevel::Info, None, json!(format!("{tag}-2")))
        .await;
    "met".to_owned()
}

/// A backend pinned to `backend`, a gateway in front of it (no prefix); both served.
async fn setup(backend: EraChoice) -> (Serving, Serving) {
    let server = McpServer::new("logger")
        .state(Arc::new(Meeting(Barrier::new(2))))
        .tool(chatty)
        .and_then(|s| s.tool(meet))
        .unwrap();
    behind_gateway(server, |url| {
        Backend::http("b", url).namespace("").era(backend)
    })
    .await
}

/// Calls `tool` with `tag`, returning the log messages the call got.
async fn call(client: &Client, tool: &str, tag: &str) -> Vec<LoggingMessageParams> {
    let (text, messages) = call_with(client, tool, json!({"tag": tag})).await;
    assert!(text == "logged" || text == "met", "{text}");
    messages
}

/// Calls `tool` with `arguments`: its text, and the log messages the call got.
async fn call_with(
    client: &Client,
    tool: &str,
    arguments: serde_json::Value,
) -> (String, Vec<LoggingMessageParams>) {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let record = seen.clone();
    let options = CallOptions::new().on_log(move |m| record.lock().unwrap().push(m));
    let called = client.call_tool_with(tool, arguments, options);
    let result = tokio::time::timeout(BOUND, called).await.unwrap().unwrap();
    assert_ne!(result.is_error, Some(true), "{result:?}");
    let text = serde_json::to_value(&result.content).unwrap()[0]["text"].clone();
    let text = text.as_str().unwrap_or_default().to_owned();
    (text, std::mem::take(&mut *seen.lock().unwrap()))
}

/// A gateway in front of the stdio server `server` (namespace `py`), served.
async fn in_front_of(server: mcpwire::client::StdioServer) -> Serving {
    let gateway = Gateway::new()
        .backend(Backend::stdio("py", server).timeout(BOUND))
        .start(McpServer::new("gateway"))
        .await
        .expect("the gateway starts");
    serve(gateway).await
}

fn levels(messages: &[LoggingMessageParams]) -> Vec<LoggingLevel> {
    messages.iter().map(|m| m.level).collect()
}

#[tokio::test]
async fn a_backends_log_messages_reach_the_caller_at_the_level_it_asked_for() {
    use LoggingLevel::{Debug, Error, Info, Warning};
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let (_backend, gateway) = setup(backend_era).await;
        let client = front_client(front_era, &gateway).await;
        // Before a level is asked for: every level on 2025-11-25 (the session's default), none
        // on 2026-07-28 (a request that did not opt in).
        let got = call(&client, "chatty", "first").await;
        let expected = match front_era {
            EraChoice::Legacy => vec![Debug, Info, Warning, Error],
            _ => vec![],
        };
        assert_eq!(levels(&got), expected, "{pair}");
        if let Some(message) = got.first() {
            assert_eq!(message.logger.as_deref(), Some("db"), "{pair}");
            assert_eq!(message.data, json!({"tag": "first", "level": "debug"}));
        }
        client.set_logging_level(Warning).await.unwrap();
        let got = call(&client, "chatty", "second").await;
        assert_eq!(levels(&got), [Warning, Error], "{pair}");
        assert_eq!(got[1].data, json!({"tag": "second", "level": "error"}));
        assert_eq!(got[1].logger.as_deref(), Some("db"), "{pair}");
        client.close().await;
    }
}

#[tokio::test]
async fn each_of_two_concurrent_calls_gets_its_own_log_messages() {
    // Both calls are in flight when each logs, on the front and on the backend connection: a
    // message is tied to its call by the stream it came on, not by being the only call.
    for (front_era, backend_era) in PAIRS {
        let pair = format!("front {front_era:?}, backend {backend_era:?}");
        let (_backend, gateway) = setup(backend_era).await;
        let client = front_client(front_era, &gateway).await;
        client.set_logging_level(LoggingLevel::Info).await.unwrap();
        let (a, b) = tokio::join!(call(&client, "meet", "a"), call(&client, "meet", "b"));
        let data = |messages: Vec<LoggingMessageParams>| -> Vec<serde_json::Value> {
            messages.into_iter().map(|m| m.data).collect()
        };
        assert_eq!(data(a), [json!("a-1"), json!("a-2")], "{pair}");
        assert_eq!(data(b), [json!("b-1"), json!("b-2")], "{pair}");
        client.close().await;
    }
}

#[tokio::test]
async fn a_python_sdk_1_stdio_backends_log_messages_reach_the_caller_on_both_revisions() {
    // A server nobody here wrote, speaking only 2025-11-25, over stdio: its log messages name
    // no call, and are tied to the one call in flight on the gateway's connection to it; it
    // sends every level, and the gateway passes on those the caller asked for.
    let gateway = in_front_of(super::questions::python1_stdio()).await;
    for front_era in [EraChoice::Legacy, EraChoice::Modern] {
        let client = front_client(front_era, &gateway).await;
        client
            .set_logging_level(LoggingLevel::Warning)
            .await
            .unwrap();
        let (text, got) = call_with(&client, "py_chatter", json!({})).await;
        assert_eq!(text, "chattered", "{front_era:?}");
        let data: Vec<serde_json::Value> = got.iter().map(|m| m.data.clone()).collect();
        assert_eq!(
            data,
            [json!("warning line"), json!("error line")],
            "{front_era:?}"
        );
        assert_eq!(
            levels(&got),
            [LoggingLevel::Warning, LoggingLevel::Error],
            "{front_era:?}"
        );
        client.close().await;
    }
}

#[tokio::test]
async fn a_2025_11_25_backend_is_asked_for_the_lowest_level_a_caller_wants() {
    // A Python SDK 1.x server over stdio that sends only `error` until it is sent
    // `logging/setLevel`. Its session is shared by every caller of the gateway, so the gateway
    // asks it for the lowest level a caller wants, and never for a higher one; each caller
    // still gets only the levels it asked for.
    use LoggingLevel::{Error, Info, Warning};
    let server = super::questions::python1_stdio().arg("--quiet-until-set-level");
    let gateway = in_front_of(server).await;
    let legacy = front_client(EraChoice::Legacy, &gateway).await;
    legacy.set_logging_level(Warning).await.unwrap();
    let (_, got) = call_with(&legacy, "py_chatter", json!({})).await;
    assert_eq!(
        levels(&got),
        [Warning, Error],
        "the backend was asked for warning"
    );
    let modern = front_client(EraChoice::Modern, &gateway).await;
    modern.set_logging_level(Error).await.unwrap();
    let (_, got) = call_with(&modern, "py_chatter", json!({})).await;
    assert_eq!(levels(&got), [Error], "a higher level is the caller's own");
    modern.set_logging_level(Info).await.unwrap();
    let (_, got) = call_with(&modern, "py_chatter", json!({})).await;
    assert_eq!(
        levels(&got),
        [Info, Warning, Error],
        "the backend was asked for info"
    );
    let (_, got) = call_with(&legacy, "py_chatter", json!({})).await;
    assert_eq!(
        levels(&got),
        [Warning, Error],
        "each caller keeps its own level"
    );
    let (asked, _) = call_with(&legacy, "py_levels_asked", json!({})).await;
    assert_eq!(asked, "warning,info", "sent only when lower than before");
    legacy.close().await;
    modern.close().await;
}
