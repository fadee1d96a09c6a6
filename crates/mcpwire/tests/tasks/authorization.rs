//! Tasks and authorization: a task of a scoped tool is seen, answered, cancelled and watched
//! only with a grant holding the tool's scopes (decided before the server's middleware sees the
//! request), and one principal holds at most its quota of unfinished tasks, so it cannot fill
//! the store.

use crate::support;
use mcpwire::prelude::*;
use serde_json::json;
use std::sync::{Arc, Mutex};
use support::http::*;
use support::tasks::*;

/// Runs until cancelled.
#[tool(task = "optional", scopes = ["jobs:run"])]
async fn export(ctx: Context) -> String {
    ctx.cancelled().await;
    "stopped".into()
}

/// Runs until cancelled; needs nothing.
#[tool(task = "optional")]
async fn idle(ctx: Context) -> String {
    ctx.cancelled().await;
    "stopped".into()
}

/// The tests' authentication: `x-user` is the principal, `x-scopes` its grant.
async fn authenticate(
    mut request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let header = |request: &axum::extract::Request, name: &str| {
        request
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (user, scopes) = (header(&request, "x-user"), header(&request, "x-scopes"));
    if let Some(user) = user {
        request
            .extensions_mut()
            .insert(mcpwire::context::Principal(user));
    }
    if let Some(scopes) = scopes {
        let grant = mcpwire::context::Grant::new(scopes.split_whitespace());
        request.extensions_mut().insert(grant);
    }
    next.run(request).await
}

async fn serve(server: McpServer) -> Running {
    let router = server.http().into_router().await.unwrap();
    start_router(router.layer(axum::middleware::from_fn(authenticate))).await
}

fn server() -> McpServer {
    McpServer::new("jobs")
        .tool(export)
        .and_then(|s| s.tool(idle))
        .unwrap()
}

/// What a server-wide layer saw: each request's method, and whether its grant held `jobs:run`.
type Seen = Arc<Mutex<Vec<(String, bool)>>>;

fn seeing(seen: &Seen) -> impl mcpwire::layer::McpLayer {
    let seen = seen.clone();
    mcpwire::layer::from_fn(
        move |request: mcpwire::layer::McpRequest, next: mcpwire::layer::Next| {
            let scoped = request.grant().is_some_and(|g| g.has_scope("jobs:run"));
            seen.lock()
                .unwrap()
                .push((request.method().to_owned(), scoped));
            next.run(request)
        },
    )
}

#[tokio::test]
async fn a_task_of_a_scoped_tool_needs_the_scopes_at_every_step() {
    let seen = Seen::default();
    let running = serve(server().layer(seeing(&seen))).await;
    let runner = Caller::new(&running.url)
        .signed_in_as("alice")
        .granted("jobs:run");
    let downgraded = Caller::new(&running.url).signed_in_as("alice").granted("");
    // Without the scope the task is never created.
    let refused = downgraded
        .post("tools/call", json!({"name": "export"}))
        .await;
    assert_eq!(refused.status(), 403);

    let task = runner.start_task("export", json!({})).await;
    for refused in [
        downgraded.post("tasks/get", json!({"taskId": task})).await,
        downgraded
            .post("tasks/cancel", json!({"taskId": task}))
            .await,
        downgraded
            .post(
                "tasks/update",
                json!({"taskId": task, "inputResponses": {"k": {"action": "accept"}}}),
            )
            .await,
        downgraded
            .post(
                "subscriptions/listen",
                json!({"notifications": {"taskIds": [task]}}),
            )
            .await,
    ] {
        assert_eq!(refused.status(), 403);
        let challenge = refused.headers()["www-authenticate"].to_str().unwrap();
        assert!(challenge.contains(r#"scope="jobs:run""#), "{challenge}");
        let body: serde_json::Value = refused.json().await.unwrap();
        assert_eq!(body["error"]["code"], -32003, "{body}");
    }
    // Every refusal was decided before the server's layer: it saw none of them.
    let unscoped: Vec<_> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(_, scoped)| !scoped)
        .cloned()
        .collect();
    assert!(
        unscoped.is_empty(),
        "the layer saw refused requests: {unscoped:?}"
    );
    // The refused cancel changed nothing; with the scope it works.
    assert_eq!(result(runner.get(&task).await)["status"], "working");
    assert!(
        seen.lock()
            .unwrap()
            .contains(&("tasks/get".to_owned(), true))
    );
    result(runner.cancel(&task).await);
    assert_eq!(result(runner.get(&task).await)["status"], "cancelled");
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn one_principal_holds_at_most_its_quota_of_unfinished_tasks() {
    let running = serve(server().task_quota(2)).await;
    let alice = Caller::new(&running.url).signed_in_as("alice");
    let bob = Caller::new(&running.url).signed_in_as("bob");
    let first = alice.start_task("idle", json!({})).await;
    alice.start_task("idle", json!({})).await;
    let over = alice
        .send("tools/call", json!({"name": "idle", "arguments": {}}))
        .await;
    assert_eq!(error(over.clone())["code"], -32000, "{over}");
    assert!(
        error(over)["message"]
            .as_str()
            .unwrap()
            .contains("at most 2 unfinished tasks"),
    );
    // Others are not held back by Alice's tasks.
    bob.start_task("idle", json!({})).await;
    // A finished task frees its place.
    result(alice.cancel(&first).await);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    loop {
        let again = alice
            .send("tools/call", json!({"name": "idle", "arguments": {}}))
            .await;
        if again.get("result").is_some() {
            assert_eq!(again["result"]["resultType"], "task");
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{again}");
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    running.shut_down().await.unwrap();
}
