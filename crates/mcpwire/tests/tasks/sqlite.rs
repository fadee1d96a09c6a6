//! The SQLite task store (feature `sqlite`) from a raw HTTP client: completed results survive a
//! restart of the server, tasks that were running end `failed` with a clear error, and the
//! owner binding survives too.
#![cfg(feature = "sqlite")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::tasks::{RESTARTED, SqliteTaskStore};
use serde_json::json;
use std::path::Path;
use support::http::*;
use support::tasks::*;

/// Doubles a number.
#[tool(task = "optional")]
async fn double(n: i64) -> String {
    format!("{}", n * 2)
}

/// Runs until cancelled.
#[tool(task = "optional")]
async fn endless(ctx: Context) -> String {
    ctx.cancelled().await;
    "stopped".into()
}

async fn serve(path: &Path) -> Running {
    let store = SqliteTaskStore::open(path).await.unwrap();
    let server = McpServer::new("durable")
        .task_store(store)
        .tool(double)
        .and_then(|s| s.tool(endless))
        .unwrap();
    start_authenticated(server.http()).await
}

#[tokio::test]
async fn completed_results_survive_a_restart_and_running_tasks_end_failed() {
    let dir = std::env::temp_dir().join(format!("mcpwire-tasks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tasks.db");
    let _ = std::fs::remove_file(&path);

    let first = serve(&path).await;
    let alice = Caller::new(&first.url).signed_in_as("alice");
    let done = alice.start_task("double", json!({"n": 21})).await;
    alice.wait_for(&done, "completed").await;
    let interrupted = alice.start_task("endless", json!({})).await;
    assert_eq!(result(alice.get(&interrupted).await)["status"], "working");
    first.shut_down().await.unwrap();

    let second = serve(&path).await;
    let alice = Caller::new(&second.url).signed_in_as("alice");
    let kept = result(alice.get(&done).await);
    assert_eq!(kept["status"], "completed");
    assert_eq!(text(&kept["result"]), "42");
    let failed = result(alice.get(&interrupted).await);
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"]["code"], -32603);
    assert_eq!(failed["error"]["message"], RESTARTED);
    // Cancelling it now is the empty ack of a terminal task.
    assert_eq!(
        result(alice.cancel(&interrupted).await)["resultType"],
        "complete"
    );
    // Still Alice's alone.
    let bob = Caller::new(&second.url).signed_in_as("bob");
    assert_eq!(error(bob.get(&done).await)["message"], "Unknown task");
    second.shut_down().await.unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[tokio::test]
async fn the_database_file_is_created_owner_only() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = std::env::temp_dir().join(format!("mcpwire-tasks-mode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("tasks.db");
    let _ = std::fs::remove_file(&path);
    let store = SqliteTaskStore::open(&path).await.unwrap();
    drop(store);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "{mode:o}");
    let _ = std::fs::remove_dir_all(&dir);
}
