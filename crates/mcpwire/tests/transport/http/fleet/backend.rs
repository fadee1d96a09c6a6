//! One `RedisBackend` for every shared store (issue 27, part 3): a replica with sessions, streams,
//! the bus, tasks, the `#[tool(once)]` record and a shared rate limit, all from one backend,
//! holds ONE Redis connection manager (plus the subscribers pub/sub needs), where connecting each
//! store on its own opened one per store; and every key it writes is under its one prefix.
//! Redis runs as a child of the test, on a unix socket; it is asked what it saw (`CLIENT LIST`).
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::layer::RateLimit;
use mcpwire::prelude::*;
use mcpwire::request_state::RedisReplayGuard;
use mcpwire::tasks::RedisTaskStore;
use mcpwire::transport::http::{RedisBackend, RedisFleet};
use serde_json::{Value, json};
use std::time::Duration;
use support::http::*;
use support::redis::Redis;

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

/// The clients Redis has, but `probe`: (ordinary connections, pub/sub subscribers).
async fn clients(probe: &mut redis::aio::MultiplexedConnection) -> (usize, usize) {
    let list: String = redis::cmd("CLIENT")
        .arg("LIST")
        .query_async(probe)
        .await
        .unwrap();
    let me: i64 = redis::cmd("CLIENT")
        .arg("ID")
        .query_async(probe)
        .await
        .unwrap();
    let field = |line: &str, name: &str| -> Option<String> {
        line.split_whitespace()
            .find_map(|f| f.strip_prefix(&format!("{name}=")))
            .map(str::to_owned)
    };
    let (mut plain, mut subscribers) = (0, 0);
    for line in list.lines().filter(|line| !line.trim().is_empty()) {
        if field(line, "id").as_deref() == Some(&me.to_string()) {
            continue;
        }
        let subscribed = ["sub", "psub", "ssub"]
            .iter()
            .any(|name| field(line, name).is_some_and(|n| n != "0"));
        if subscribed {
            subscribers += 1;
        } else {
            plain += 1;
        }
    }
    (plain, subscribers)
}

/// Waits until the replica's subscribers have subscribed (they do so in the background).
async fn settled(
    probe: &mut redis::aio::MultiplexedConnection,
    subscribers: usize,
) -> (usize, usize) {
    for _ in 0..100 {
        let seen = clients(probe).await;
        if seen.1 >= subscribers {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    clients(probe).await
}

async fn call(running: &Running, id: u64) -> Value {
    let body = modern_body(
        id,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 1, "b": 1}}),
    );
    let mut headers = modern_headers(&body);
    headers.insert("x-user", "ada".parse().unwrap());
    json_of(running.post_with(&body, headers).await).await
}

async fn probe(redis: &Redis) -> redis::aio::MultiplexedConnection {
    redis::Client::open(redis.url())
        .unwrap()
        .get_multiplexed_async_connection()
        .await
        .unwrap()
}

#[tokio::test]
async fn one_backend_holds_one_connection_manager_for_every_store() {
    let redis = Redis::start();
    let mut probe = probe(&redis).await;
    assert_eq!(clients(&mut probe).await, (0, 0));

    let backend = RedisBackend::connect(&redis.url(), "mcp:count")
        .await
        .expect("the test's Redis answers");
    let limit = RateLimit::per_principal(100, Duration::from_secs(60))
        .buckets(backend.rate_limit_buckets("requests"));
    let server = McpServer::new("count").tool(add).unwrap().layer(limit);
    let running = start_authenticated(server.http().fleet(&backend)).await;
    assert_eq!(call(&running, 1).await["result"]["content"][0]["text"], "2");

    let (plain, subscribers) = settled(&mut probe, 2).await;
    eprintln!("one backend: {plain} connection(s), {subscribers} subscriber(s)");
    assert_eq!(
        plain, 1,
        "one connection manager for sessions, events, tasks, once, rate"
    );
    assert_eq!(subscribers, 2, "the bus and the task signals");

    let mut db = probe.clone();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("*")
        .query_async(&mut db)
        .await
        .unwrap();
    assert!(!keys.is_empty());
    for key in &keys {
        assert!(
            key.starts_with("mcp:count:"),
            "{key} is under the one prefix"
        );
    }
    assert!(
        keys.iter()
            .any(|key| key.starts_with("mcp:count:rate:requests:")),
        "{keys:?}"
    );
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn the_command_timeout_is_set_after_connecting() {
    let redis = Redis::start();
    let backend = RedisBackend::connect(&redis.url(), "mcp:timeout")
        .await
        .unwrap()
        .command_timeout(Duration::from_millis(250));
    let described = format!("{backend:?}");
    assert!(described.contains("command_timeout: 250ms"), "{described}");
    assert_eq!(backend.prefix(), "mcp:timeout:");
}

#[tokio::test]
async fn each_store_connected_on_its_own_held_a_connection_each() {
    // The reference the backend is measured against: the calls of the earlier fleet example.
    let redis = Redis::start();
    let mut probe = probe(&redis).await;
    let url = redis.url();
    let fleet = RedisFleet::connect(&url, "mcp:apart:").await.unwrap();
    let tasks = RedisTaskStore::connect(&url, "mcp:apart").await.unwrap();
    let guard = RedisReplayGuard::connect(&url, "mcp:apart").await.unwrap();
    let limit = RateLimit::per_principal(100, Duration::from_secs(60))
        .shared(&url, "mcp:apart:rate")
        .await
        .unwrap();
    let server = McpServer::new("apart")
        .tool(add)
        .unwrap()
        .layer(limit)
        .task_store(tasks)
        .replay_guard(guard);
    let running = start_authenticated(server.http().fleet(&fleet)).await;
    assert_eq!(call(&running, 1).await["result"]["content"][0]["text"], "2");
    let (plain, subscribers) = settled(&mut probe, 2).await;
    eprintln!("each store on its own: {plain} connection(s), {subscribers} subscriber(s)");
    assert_eq!(
        plain, 4,
        "the fleet's, the tasks', the guard's and the rate limit's"
    );
    assert_eq!(subscribers, 2);
    running.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_server_that_stopped_leaves_no_subscriber_behind_on_a_quiet_bus() {
    let redis = Redis::start();
    let mut probe = probe(&redis).await;
    // The backend outlives the server, as a program's would: its subscribers must still go.
    let backend = RedisBackend::connect(&redis.url(), "mcp:gone")
        .await
        .expect("the test's Redis answers");
    let server = McpServer::new("gone").tool(add).unwrap();
    let running = start_authenticated(server.http().fleet(&backend)).await;
    assert_eq!(call(&running, 1).await["result"]["content"][0]["text"], "2");
    let (_, subscribers) = settled(&mut probe, 2).await;
    assert_eq!(subscribers, 2, "the bus and the task signals");
    running.shut_down().await.unwrap();
    // Nothing is published from here on: the subscribers must notice on their own.
    let mut left = clients(&mut probe).await.1;
    for _ in 0..100 {
        if left == 0 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
        left = clients(&mut probe).await.1;
    }
    assert_eq!(left, 0, "subscribers left behind by a stopped server");
    drop(backend);
}
