//! Layers and tool calls that become tasks (tasks extension, 2026-07-28), over HTTP: the
//! built-in `ConcurrencyLimit` holds its place until the task's body ends, so a per-tool limit
//! bounds the bodies running in the background, not only the requests that start them.

use crate::support;
use mcpwire::layer::ConcurrencyLimit;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;
use support::http::*;
use support::tasks::*;
use tokio::sync::Semaphore;

/// Where the test lets task bodies finish: each body takes one permit.
struct Gate(Arc<Semaphore>);

/// Runs until the test opens the gate for it (10 s at most).
#[tool(task = "optional")]
async fn render(ctx: Context) -> String {
    let gate = ctx.state::<Gate>().0.clone();
    match tokio::time::timeout(Duration::from_secs(10), gate.acquire_owned()).await {
        Ok(Ok(permit)) => {
            permit.forget();
            "rendered".into()
        }
        _ => "gave up".into(),
    }
}

/// Calls `render` until the limit lets the call through (10 s at most: the place is freed just
/// after the task is recorded completed); the result.
async fn once_free(caller: &Caller) -> serde_json::Value {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let answer = caller
            .send("tools/call", json!({"name": "render", "arguments": {}}))
            .await;
        if answer.get("result").is_some() {
            return result(answer);
        }
        assert_eq!(answer["error"]["code"], -32000, "{answer}");
        assert!(tokio::time::Instant::now() < deadline, "never freed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_concurrency_limit_on_a_tool_holds_until_its_tasks_body_ends() {
    let gate = Arc::new(Semaphore::new(0));
    let server = McpServer::new("render")
        .state(Gate(gate.clone()))
        .tool(render)
        .unwrap()
        .tool_layer("render", ConcurrencyLimit::new(1))
        .unwrap();
    let running = start(server).await;
    let caller = Caller::new(&running.url);

    let first = caller.start_task("render", json!({})).await;
    assert_eq!(result(caller.get(&first).await)["status"], "working");
    // The first body still runs: its place is taken.
    let refused = caller
        .send("tools/call", json!({"name": "render", "arguments": {}}))
        .await;
    let refused = error(refused);
    assert_eq!(refused["code"], -32000, "{refused}");
    assert_eq!(refused["data"]["limit"], 1, "{refused}");

    // Once it ended, the place is free again.
    gate.add_permits(1);
    let done = caller.wait_for(&first, "completed").await;
    assert_eq!(text(&done["result"]), "rendered");
    let second = once_free(&caller).await;
    assert_eq!(second["resultType"], "task", "{second}");
    gate.add_permits(1);
    caller
        .wait_for(second["taskId"].as_str().unwrap(), "completed")
        .await;

    // A plain call (no tasks extension) takes and frees the place as before.
    let plain = Caller::new(&running.url).without_tasks();
    gate.add_permits(1);
    assert_eq!(text(&once_free(&plain).await), "rendered");
}
