//! Tasks (the 2026-07-28 tasks extension) created and completed per second, in process through
//! the in-memory transport: `tools/call` answered with a task, then `tasks/get` polled until the
//! worker recorded the result. Compared in the same run: the same tool as a plain call, a task
//! whose resolver asks once (`input_required`, `tasks/update`, then completed), and the plain
//! task on the SQLite store (feature `sqlite`, a file in the temp directory). One iteration is
//! one task from creation to its result; tasks per second = 1 / the time. Results are recorded
//! in `docs/benchmarks.md`.

use criterion::{Criterion, criterion_group, criterion_main};
use mcpwire::prelude::*;
use mcpwire::tasks::{MemoryTaskStore, SqliteTaskStore};
use mcpwire::transport::MemoryClient;
use serde_json::Value;

/// Adds two numbers.
#[tool(task = "optional")]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Approval {
    approve: bool,
}

#[resolver(key = "approval")]
fn ask_approval() -> Elicit<Approval> {
    Elicit::ask("Go ahead?")
}

/// Adds two numbers once approved.
#[tool(task = "optional")]
async fn approved_add(a: i64, b: i64, #[resolve(ask_approval)] approval: Approval) -> i64 {
    if approval.approve { a + b } else { 0 }
}

const TASKS_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"elicitation":{},"extensions":{"io.modelcontextprotocol/tasks":{}}}}"#;
const PLAIN_META: &str = r#""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#;

fn call(tool: &str, meta: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"{tool}","arguments":{{"a":2,"b":3}},{meta}}}}}"#
    )
}

fn task_request(method: &str, task: &str, extra: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":2,"method":"{method}","params":{{"taskId":"{task}"{extra},{TASKS_META}}}}}"#
    )
}

async fn send(client: &mut MemoryClient, line: &str) -> Value {
    let reply = client.request(line).await.expect("the server answers");
    serde_json::from_str(&reply).expect("JSON")
}

/// Polls `tasks/get` until the task is `status`.
async fn until(client: &mut MemoryClient, task: &str, status: &str) {
    let get = task_request("tasks/get", task, "");
    loop {
        let got = send(client, &get).await;
        if got["result"]["status"] == status {
            return;
        }
        assert!(got.get("error").is_none(), "{got}");
        tokio::task::yield_now().await;
    }
}

/// One task of `tool`, from creation to its result.
async fn one_task(client: &mut MemoryClient, tool: &str) {
    let created = send(client, &call(tool, TASKS_META)).await;
    let task = created["result"]["taskId"]
        .as_str()
        .expect("a task")
        .to_owned();
    if tool == "approved_add" {
        until(client, &task, "input_required").await;
        let answer =
            r#","inputResponses":{"approval":{"action":"accept","content":{"approve":true}}}"#;
        send(client, &task_request("tasks/update", &task, answer)).await;
    }
    until(client, &task, "completed").await;
}

fn server() -> McpServer {
    McpServer::new("bench")
        .tool(add)
        .and_then(|s| s.tool(approved_add))
        .expect("valid tools")
}

fn bench(c: &mut Criterion) {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let path = std::env::temp_dir().join(format!("mcpwire-bench-tasks-{}.db", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let (mut memory, mut sqlite) = runtime.block_on(async {
        let memory = server()
            .task_store(MemoryTaskStore::with_capacity(100_000))
            .serve_memory()
            .await
            .unwrap();
        let store = SqliteTaskStore::open_with_capacity(&path, 100_000)
            .await
            .unwrap();
        let sqlite = server().task_store(store).serve_memory().await.unwrap();
        (memory, sqlite)
    });
    let plain = call("add", PLAIN_META);
    let mut group = c.benchmark_group("tasks_in_memory");
    group.bench_function("plain_call", |b| {
        b.iter(|| runtime.block_on(send(&mut memory, &plain)))
    });
    group.bench_function("task/memory_store", |b| {
        b.iter(|| runtime.block_on(one_task(&mut memory, "add")))
    });
    group.bench_function("task_with_one_question/memory_store", |b| {
        b.iter(|| runtime.block_on(one_task(&mut memory, "approved_add")))
    });
    group.bench_function("task/sqlite_store", |b| {
        b.iter(|| runtime.block_on(one_task(&mut sqlite, "add")))
    });
    group.finish();
    let _ = std::fs::remove_file(&path);
}

criterion_group!(benches, bench);
criterion_main!(benches);
