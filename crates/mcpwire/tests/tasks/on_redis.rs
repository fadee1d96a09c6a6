//! Tasks on any replica (feature `redis`): two or three `McpServer`s share one Redis and one
//! key ring, each serving HTTP; a raw HTTP client speaks 2026-07-28 with the tasks extension.
//! A task created on one replica is read, answered and cancelled on another; the quota holds
//! across replicas; a replica that dies leaves `failed` tasks, not `working` ones; Redis going
//! away gives prompt errors, and coming back brings everything back. Redis runs as a child of
//! each test, on a unix socket, and is killed when the test ends.
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::protocol::TaskStatus;
use mcpwire::request_state::KeyRing;
use mcpwire::tasks::{
    Admission, LEASE_LOST, RedisTaskStore, StoreError, TaskChange, TaskRecord, TaskStore,
};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use support::http::*;
use support::redis::Redis;
use support::tasks::*;

/// What one replica's task bodies saw.
struct Replica {
    name: &'static str,
    /// Set when a body observed `ctx.cancelled()`.
    saw_cancel: AtomicBool,
}

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Go ahead?
    ok: bool,
}

#[resolver(key = "confirm")]
async fn ask_confirm() -> Elicit<Confirm> {
    Elicit::ask("Go ahead?")
}

/// Asks first, then says where its body ran.
#[tool(task = "optional")]
async fn confirmed(#[resolve(ask_confirm)] confirm: Confirm, ctx: Context) -> String {
    let replica = ctx.state::<Arc<Replica>>();
    format!("ok={} ran_on={}", confirm.ok, replica.name)
}

/// Runs until cancelled (bounded: a minute), and notes that it saw the cancel.
#[tool(task = "optional")]
async fn endless(ctx: Context) -> String {
    tokio::select! {
        _ = ctx.cancelled() => {
            ctx.state::<Arc<Replica>>().saw_cancel.store(true, Ordering::SeqCst);
            "stopped".into()
        }
        _ = tokio::time::sleep(Duration::from_secs(60)) => "gave up".into(),
    }
}

/// Doubles a number.
#[tool(task = "optional")]
async fn double(n: i64) -> String {
    format!("{}", n * 2)
}

/// Starts a replica on the current runtime: the fleet's key ring and prefix, its own store.
async fn replica(url: &str, name: &'static str, lease: Duration) -> (Running, Arc<Replica>) {
    let store = RedisTaskStore::connect(url, "mcpwire:jobs")
        .await
        .expect("connected to the test's Redis")
        .lease(lease);
    let seen = Arc::new(Replica {
        name,
        saw_cancel: AtomicBool::new(false),
    });
    let server = McpServer::new("jobs")
        .state(seen.clone())
        .request_state_keys(KeyRing::new([[7u8; 32]]).unwrap())
        .task_store(store)
        .task_quota(2)
        .tool(confirmed)
        .and_then(|s| s.tool(endless))
        .and_then(|s| s.tool(double))
        .unwrap();
    (start_authenticated(server.http()).await, seen)
}

/// Waits (10 s at most) until `condition` holds.
async fn until(what: &str, condition: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !condition() {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn a_task_created_on_one_replica_is_read_answered_and_cancelled_on_another() {
    let redis = Redis::start();
    let (a, on_a) = replica(&redis.url(), "a", Duration::from_secs(30)).await;
    let (b, on_b) = replica(&redis.url(), "b", Duration::from_secs(30)).await;
    let alice_a = Caller::new(&a.url).signed_in_as("alice");
    let alice_b = Caller::new(&b.url).signed_in_as("alice");

    // Created on A, read on B.
    let doubled = alice_a.start_task("double", json!({"n": 21})).await;
    let done = alice_b.wait_for(&doubled, "completed").await;
    assert_eq!(text(&done["result"]), "42");

    // Asked on A, answered on B: the answer reaches the body running on A.
    let asked = alice_a.start_task("confirmed", json!({})).await;
    let waiting = alice_b.wait_for(&asked, "input_required").await;
    let questions = waiting["inputRequests"].as_object().expect("questions");
    assert_eq!(questions.len(), 1, "{waiting}");
    let key = questions.keys().next().unwrap().clone();
    let answer = json!({ key: {"action": "accept", "content": {"ok": true}} });
    assert_eq!(
        result(alice_b.update(&asked, answer).await)["resultType"],
        "complete"
    );
    let done = alice_b.wait_for(&asked, "completed").await;
    assert_eq!(text(&done["result"]), "ok=true ran_on=a", "{done}");

    // Cancelled on B: the body on A observes it.
    let running = alice_a.start_task("endless", json!({})).await;
    assert_eq!(result(alice_b.get(&running).await)["status"], "working");
    assert_eq!(
        result(alice_b.cancel(&running).await)["resultType"],
        "complete"
    );
    until("the body on A saw the cancel", || {
        on_a.saw_cancel.load(Ordering::SeqCst)
    })
    .await;
    assert!(!on_b.saw_cancel.load(Ordering::SeqCst));
    assert_eq!(result(alice_a.get(&running).await)["status"], "cancelled");

    // Another principal knows none of them, on any replica.
    for url in [&a.url, &b.url] {
        let bob = Caller::new(url).signed_in_as("bob");
        let anonymous = Caller::new(url);
        for task in [&doubled, &asked, &running] {
            assert_eq!(error(bob.get(task).await)["message"], "Unknown task");
            assert_eq!(error(anonymous.get(task).await)["message"], "Unknown task");
            assert_eq!(error(bob.cancel(task).await)["message"], "Unknown task");
            let answer = json!({"confirm": {"action": "decline"}});
            assert_eq!(error(bob.update(task, answer).await)["code"], -32602);
        }
    }
}

#[tokio::test]
async fn answers_whose_note_was_lost_arrive_with_the_next_lease_refresh() {
    let redis = Redis::start();
    let lease = Duration::from_millis(300);
    let (a, _) = replica(&redis.url(), "a", lease).await;
    let alice = Caller::new(&a.url).signed_in_as("alice");
    let asked = alice.start_task("confirmed", json!({})).await;
    let waiting = alice.wait_for(&asked, "input_required").await;
    let key = waiting["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    // The answer is where `tasks/update` on another replica keeps it, but no note is published
    // (as when pub/sub drops one): the runner finds it when it refreshes its lease.
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let answer = json!({"action": "accept", "content": {"ok": true}}).to_string();
    let _: i64 = redis::cmd("HSET")
        .arg(format!("mcpwire:jobs:answers:{asked}"))
        .arg(&key)
        .arg(answer)
        .query_async(&mut connection)
        .await
        .unwrap();
    let started = Instant::now();
    let done = alice.wait_for(&asked, "completed").await;
    assert_eq!(text(&done["result"]), "ok=true ran_on=a", "{done}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "within a refresh or so"
    );
}

#[tokio::test]
async fn the_quota_of_unfinished_tasks_holds_across_replicas() {
    let redis = Redis::start();
    let (a, _) = replica(&redis.url(), "a", Duration::from_secs(30)).await;
    let (b, _) = replica(&redis.url(), "b", Duration::from_secs(30)).await;
    let alice_a = Caller::new(&a.url).signed_in_as("alice");
    let alice_b = Caller::new(&b.url).signed_in_as("alice");

    let first = alice_a.start_task("endless", json!({})).await;
    let _second = alice_a.start_task("endless", json!({})).await;
    let refused = alice_b
        .send("tools/call", json!({"name": "endless", "arguments": {}}))
        .await;
    assert_eq!(
        error(refused)["code"],
        -32000,
        "the third, on B, is refused"
    );
    // Another principal has a quota of its own.
    let bob_b = Caller::new(&b.url).signed_in_as("bob");
    bob_b.start_task("endless", json!({})).await;
    // A task that ends gives its place back, fleet-wide.
    result(alice_b.cancel(&first).await);
    let third = alice_b.start_task("endless", json!({})).await;
    assert_eq!(result(alice_a.get(&third).await)["status"], "working");
}

#[tokio::test]
async fn the_tasks_of_a_replica_that_died_end_failed_when_its_lease_runs_out() {
    let redis = Redis::start();
    let lease = Duration::from_millis(300);
    // A runs on a runtime of its own, so that it can die: dropping the runtime stops its
    // server, its task bodies and its lease refresher at once.
    let doomed = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let url = redis.url();
    let (a, _) = doomed
        .spawn(async move { replica(&url, "a", lease).await })
        .await
        .unwrap();
    let (b, _) = replica(&redis.url(), "b", lease).await;
    let alice_a = Caller::new(&a.url).signed_in_as("alice");
    let alice_b = Caller::new(&b.url).signed_in_as("alice");

    let orphan = alice_a.start_task("endless", json!({})).await;
    let _also = alice_a.start_task("endless", json!({})).await;
    // Alive, A keeps its lease: still working well past the lease.
    tokio::time::sleep(lease * 3).await;
    assert_eq!(result(alice_b.get(&orphan).await)["status"], "working");

    doomed.shutdown_background();
    drop(a);
    let started = Instant::now();
    let failed = alice_b.wait_for(&orphan, "failed").await;
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "within the lease"
    );
    assert_eq!(failed["error"]["code"], -32603, "{failed}");
    assert_eq!(failed["error"]["message"], LEASE_LOST);
    assert_eq!(failed["statusMessage"], LEASE_LOST);
    // The dead replica's tasks no longer count against the quota (2).
    alice_b.start_task("endless", json!({})).await;
    alice_b.start_task("endless", json!({})).await;
}

#[tokio::test]
async fn without_redis_requests_fail_promptly_and_recover_when_it_is_back() {
    let mut redis = Redis::start();
    let (a, on_a) = replica(&redis.url(), "a", Duration::from_secs(30)).await;
    let (b, _) = replica(&redis.url(), "b", Duration::from_secs(30)).await;
    let alice_a = Caller::new(&a.url).signed_in_as("alice");
    let alice_b = Caller::new(&b.url).signed_in_as("alice");
    let task = alice_a.start_task("double", json!({"n": 1})).await;
    alice_b.wait_for(&task, "completed").await;

    redis.stop();
    let started = Instant::now();
    let failed = error(alice_b.get(&task).await);
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "bounded: {:?}",
        started.elapsed()
    );
    assert_eq!(failed["code"], -32603, "{failed}");
    assert!(
        !failed.to_string().contains("redis.sock") && !failed.to_string().contains("unix:"),
        "the URL does not leak: {failed}"
    );
    let started = Instant::now();
    let refused = alice_a
        .send(
            "tools/call",
            json!({"name": "double", "arguments": {"n": 2}}),
        )
        .await;
    assert_eq!(error(refused)["code"], -32603);
    assert!(started.elapsed() < Duration::from_secs(5), "bounded");

    // Back (empty: no persistence), on the same socket: both replicas reconnect by themselves.
    redis.resume();
    let deadline = Instant::now() + Duration::from_secs(15);
    let running = loop {
        let created = alice_a
            .send("tools/call", json!({"name": "endless", "arguments": {}}))
            .await;
        if created.get("result").is_some() {
            break created["result"]["taskId"].as_str().unwrap().to_owned();
        }
        assert!(Instant::now() < deadline, "never reconnected: {created}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(result(alice_b.get(&running).await)["status"], "working");
    // The signal path is back too: a cancel on B reaches the body on A.
    result(alice_b.cancel(&running).await);
    until("the body on A saw the cancel", || {
        on_a.saw_cancel.load(Ordering::SeqCst)
    })
    .await;
}

// The store alone: the compare-and-set script and the quota script.

async fn store(redis: &Redis) -> RedisTaskStore {
    RedisTaskStore::connect(&redis.url(), "mcpwire:unit")
        .await
        .unwrap()
}

#[tokio::test]
async fn compare_and_set_takes_only_the_next_version_of_an_unfinished_task() {
    let redis = Redis::start();
    let store = store(&redis).await;
    let task = TaskRecord::working("t-1", Some("ada".into()), 1_000, None, 500);
    store.create(&task).await.unwrap();
    assert_eq!(store.create(&task).await, Err(StoreError::Duplicate));
    assert_eq!(store.get("t-1").await.unwrap().as_ref(), Some(&task));
    assert_eq!(store.get("t-2").await.unwrap(), None);

    let message = task.changed(TaskChange::StatusMessage("half".into()), 2_000);
    // Skipping a version, or changing hands, is refused.
    let mut skipped = message.changed(TaskChange::StatusMessage("x".into()), 2_000);
    assert_eq!(
        store.compare_and_set(&skipped).await,
        Err(StoreError::Conflict)
    );
    let mut stolen = message.clone();
    stolen.owner = Some("eve".into());
    assert_eq!(
        store.compare_and_set(&stolen).await,
        Err(StoreError::Conflict)
    );
    store.compare_and_set(&message).await.unwrap();
    assert_eq!(
        store.compare_and_set(&message).await,
        Err(StoreError::Conflict),
        "the same version twice"
    );
    let done = message.changed(TaskChange::Cancelled, 3_000);
    store.compare_and_set(&done).await.unwrap();
    // Terminal: never changes again.
    skipped = done.clone();
    skipped.version += 1;
    skipped.status = TaskStatus::Working;
    assert_eq!(
        store.compare_and_set(&skipped).await,
        Err(StoreError::Conflict)
    );
    let held = store.get("t-1").await.unwrap().unwrap();
    assert_eq!((held.status, held.version), (TaskStatus::Cancelled, 2));
}

#[tokio::test]
async fn each_task_key_expires_with_the_tasks_ttl_and_the_quota_counts_unfinished_tasks() {
    let redis = Redis::start();
    let store = store(&redis).await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;
    let first = TaskRecord::working("q-1", None, now, Some(60_000), 500);
    let second = TaskRecord::working("q-2", None, now, Some(60_000), 500);
    assert_eq!(
        store.create_within_quota(&first, 1).await.unwrap(),
        Admission::Created
    );
    assert_eq!(
        store.create_within_quota(&second, 1).await.unwrap(),
        Admission::QuotaReached
    );
    assert_eq!(store.get("q-2").await.unwrap(), None, "nothing stored");
    store
        .compare_and_set(&first.changed(TaskChange::Completed(Default::default()), now))
        .await
        .unwrap();
    assert_eq!(
        store.create_within_quota(&second, 1).await.unwrap(),
        Admission::Created,
        "an ended task gives its place back"
    );

    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let ttl_ms: i64 = redis::cmd("PTTL")
        .arg("mcpwire:unit:task:q-1")
        .query_async(&mut connection)
        .await
        .unwrap();
    assert!(ttl_ms > 50_000 && ttl_ms <= 60_000, "{ttl_ms}");
    let stored: String = redis::cmd("GET")
        .arg("mcpwire:unit:task:q-2")
        .query_async(&mut connection)
        .await
        .unwrap();
    let stored: Value = serde_json::from_str(&stored).unwrap();
    assert_eq!(stored["status"], "working", "the record is JSON");
    // Released (it stopped running here): the lease is gone, and the next reader fails it.
    store.release("q-2").await.unwrap();
    let failed = store.get("q-2").await.unwrap().unwrap();
    assert_eq!(failed.status, TaskStatus::Failed);
    assert_eq!(failed.status_message.as_deref(), Some(LEASE_LOST));
}
