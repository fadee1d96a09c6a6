//! What one caller can make a fleet's Redis hold or do through tasks (feature `redis`): finished
//! tasks are bounded per principal and per store, and a `subscriptions/listen` naming many
//! `taskIds` is refused over its bound, or looked up in one round trip. Driven over HTTP against
//! real replicas; what Redis holds and did is read from Redis itself (`SCAN`, `MEMORY USAGE`,
//! `PTTL`, `INFO commandstats`). Redis runs as a child of each test, on a unix socket.
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::KeyRing;
use mcpwire::tasks::RedisTaskStore;
use serde_json::json;
use std::time::Duration;
use support::http::*;
use support::redis::{Probe, Redis};
use support::tasks::*;

/// The prefix every replica keeps its tasks under.
const PREFIX: &str = "mcpwire:bounds";

/// Answers with `size` bytes of text: a large result kept with the task.
#[tool(task = "optional")]
async fn label(size: usize) -> String {
    "x".repeat(size.min(4 * 1024 * 1024))
}

/// Runs until cancelled (a minute at most).
#[tool(task = "optional")]
async fn endless(ctx: Context) -> String {
    tokio::select! {
        _ = ctx.cancelled() => "stopped".into(),
        _ = tokio::time::sleep(Duration::from_secs(60)) => "gave up".into(),
    }
}

/// A replica sharing the test's Redis, with a quota of 2 unfinished tasks per principal;
/// `configure` sets its store up further.
async fn replica(
    redis: &Redis,
    configure: impl FnOnce(RedisTaskStore) -> RedisTaskStore,
) -> support::http::Running {
    let store = RedisTaskStore::connect(&redis.url(), PREFIX)
        .await
        .expect("connected to the test's Redis");
    let server = McpServer::new("bounds")
        .request_state_keys(KeyRing::new([[9u8; 32]]).unwrap())
        .task_store(configure(store))
        .task_quota(2)
        .tool(label)
        .and_then(|s| s.tool(endless))
        .unwrap();
    start_authenticated(server.http()).await
}

/// Starts `tool` as a task and waits until it completed; its id.
async fn finished(caller: &Caller, tool: &str, arguments: serde_json::Value) -> String {
    let task = caller.start_task(tool, arguments).await;
    caller.wait_for(&task, "completed").await;
    task
}

#[tokio::test]
async fn one_principal_keeps_as_many_finished_tasks_as_its_quota_across_replicas() {
    let redis = Redis::start();
    let a = replica(&redis, |store| store).await;
    let b = replica(&redis, |store| store).await;
    let mut db = Probe::new(&redis).await;
    let bob = Caller::new(&a.url).signed_in_as("bob");
    let bobs = finished(&bob, "label", json!({"size": 1000})).await;

    // Alice finishes 25 tasks with a 200 kB result each, alternating replicas.
    let size = 200_000;
    let mut alices = Vec::new();
    for n in 0..25 {
        let url = if n % 2 == 0 { &a.url } else { &b.url };
        let alice = Caller::new(url).signed_in_as("alice");
        alices.push(finished(&alice, "label", json!({"size": size})).await);
    }
    let tasks = db.keys(&format!("{PREFIX}:task:*")).await;
    let used = db.memory(&tasks).await;
    println!("task keys: {}, MEMORY USAGE: {used} bytes", tasks.len());
    // Her quota is 2: she keeps her 2 latest, and Bob keeps his one.
    assert_eq!(tasks.len(), 3, "{tasks:?}");
    assert!(used < 3 * size as u64, "{used} bytes");
    let alice = Caller::new(&b.url).signed_in_as("alice");
    for old in &alices[..23] {
        assert_eq!(error(alice.get(old).await)["message"], "Unknown task");
    }
    for kept in &alices[23..] {
        assert_eq!(result(alice.get(kept).await)["status"], "completed");
    }
    assert_eq!(result(bob.get(&bobs).await)["status"], "completed");
    db.all_expire(&format!("{PREFIX}:")).await;
}

#[tokio::test]
async fn the_store_keeps_at_most_its_capacity_evicting_the_oldest_finished_first() {
    let redis = Redis::start();
    let a = replica(&redis, |store| store.capacity(4)).await;
    let b = replica(&redis, |store| store.capacity(4)).await;
    let mut db = Probe::new(&redis).await;
    let alice = Caller::new(&a.url).signed_in_as("alice");
    let bob = Caller::new(&b.url).signed_in_as("bob");
    let carol = Caller::new(&a.url).signed_in_as("carol");
    let first = finished(&alice, "label", json!({"size": 10})).await;
    let mut bobs = Vec::new();
    for _ in 0..2 {
        bobs.push(finished(&bob, "label", json!({"size": 10})).await);
    }
    let carols = finished(&carol, "label", json!({"size": 10})).await;
    assert_eq!(db.keys(&format!("{PREFIX}:task:*")).await.len(), 4);
    // A fifth evicts the oldest finished task (Alice's); a sixth of Bob's, his own oldest.
    let second = finished(&alice, "label", json!({"size": 10})).await;
    assert_eq!(error(alice.get(&first).await)["message"], "Unknown task");
    let third = finished(&bob, "label", json!({"size": 10})).await;
    assert_eq!(error(bob.get(&bobs[0]).await)["message"], "Unknown task");
    for (caller, task) in [(&alice, &second), (&bob, &bobs[1]), (&bob, &third)] {
        assert_eq!(result(caller.get(task).await)["status"], "completed");
    }
    assert_eq!(result(carol.get(&carols).await)["status"], "completed");
    assert_eq!(db.keys(&format!("{PREFIX}:task:*")).await.len(), 4);
    db.all_expire(&format!("{PREFIX}:")).await;

    // Full of unfinished tasks: nothing is evicted, the next is refused.
    for caller in [&alice, &bob] {
        for _ in 0..2 {
            caller.start_task("endless", json!({})).await;
        }
    }
    let refused = carol
        .send("tools/call", json!({"name": "endless", "arguments": {}}))
        .await;
    assert_eq!(error(refused)["code"], -32603);
    assert_eq!(db.keys(&format!("{PREFIX}:task:*")).await.len(), 4);
    db.all_expire(&format!("{PREFIX}:")).await;
}

#[tokio::test]
async fn a_listen_naming_thousands_of_task_ids_is_refused_before_any_lookup() {
    let redis = Redis::start();
    let a = replica(&redis, |store| store).await;
    let mut db = Probe::new(&redis).await;
    let alice = Caller::new(&a.url).signed_in_as("alice");
    let own = finished(&alice, "label", json!({"size": 10})).await;

    let many: Vec<String> = (0..5_000).map(|n| format!("{n:032x}")).collect();
    db.reset_stats().await;
    let mut answer = alice
        .post(
            "subscriptions/listen",
            json!({"notifications": {"taskIds": many}}),
        )
        .await;
    // Admitted, it would be a stream opening with the acknowledgement (read within 10 s).
    let answer = match content_type(&answer).starts_with("text/event-stream") {
        true => first_event(&mut answer).await,
        false => json_of(answer).await,
    };
    let lookups = db.calls("mget").await + db.calls("get").await;
    println!("lookups for 5,000 taskIds: {lookups}");
    let refused = error(answer);
    assert_eq!(refused["code"], -32602, "{refused}");
    assert_eq!(refused["data"]["limit"], 100, "{refused}");
    assert_eq!(lookups, 0, "refused before any lookup");

    // At the bound: one round trip for all of them, and the caller's own task is honoured.
    let mut hundred: Vec<String> = many[..99].to_vec();
    hundred.push(own.clone());
    db.reset_stats().await;
    let mut stream = alice
        .post(
            "subscriptions/listen",
            json!({"notifications": {"taskIds": hundred}}),
        )
        .await;
    let ack = first_event(&mut stream).await;
    assert_eq!(ack["params"]["notifications"]["taskIds"], json!([own]));
    let lookups = db.calls("mget").await + db.calls("get").await;
    println!("lookups for 100 taskIds: {lookups}");
    assert_eq!(lookups, 1, "one MGET");
}

#[tokio::test]
async fn tasks_without_a_ttl_still_expire_in_redis_after_the_retention() {
    let redis = Redis::start();
    let store = RedisTaskStore::connect(&redis.url(), PREFIX)
        .await
        .expect("connected to the test's Redis")
        .retention(Duration::from_secs(600));
    let server = McpServer::new("bounds")
        .request_state_keys(KeyRing::new([[9u8; 32]]).unwrap())
        .task_store(store)
        .task_ttl(None)
        .tool(label)
        .unwrap();
    let running = start_authenticated(server.http()).await;
    let mut db = Probe::new(&redis).await;
    let alice = Caller::new(&running.url).signed_in_as("alice");
    finished(&alice, "label", json!({"size": 10})).await;
    let tasks = db.keys(&format!("{PREFIX}:task:*")).await;
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    let ttl: i64 = redis::cmd("PTTL")
        .arg(&tasks[0])
        .query_async(db.connection())
        .await
        .unwrap();
    assert!(
        ttl > 0 && ttl <= 600_000,
        "the task's key expires within the retention: {ttl}"
    );
    db.all_expire(&format!("{PREFIX}:")).await;
}
