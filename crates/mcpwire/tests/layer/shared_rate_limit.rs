//! The per-principal rate limit shared through Redis (feature `redis`): two replicas (two
//! servers, each over Streamable HTTP) given the same Redis and prefix enforce one limit per
//! principal between them; with Redis gone, each replica falls back to its own buckets. Redis
//! runs as a child of the test, on a unix socket, and is killed when the test ends.
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::layer::RateLimit;
use mcpwire::prelude::*;
use serde_json::{Value, json};
use std::time::Duration;
use support::http::*;
use support::redis::Redis;

/// Adds two numbers.
#[tool]
async fn add(a: i64, b: i64) -> i64 {
    a + b
}

async fn replica(redis: &Redis) -> Running {
    let limit = RateLimit::per_principal(3, Duration::from_secs(3600))
        .shared(&redis.url(), "test:rate")
        .await
        .expect("Redis answers");
    let server = McpServer::new("limited").tool(add).unwrap().layer(limit);
    start_authenticated(server.http()).await
}

async fn call_as(running: &Running, user: &str, id: u64) -> Value {
    let body = modern_body(
        id,
        "tools/call",
        json!({"name": "add", "arguments": {"a": 1, "b": 1}}),
    );
    let mut headers = modern_headers(&body);
    headers.insert("x-user", user.parse().unwrap());
    json_of(running.post_with(&body, headers).await).await
}

fn admitted(answer: &Value) -> bool {
    if answer["result"]["content"][0]["text"] == "2" {
        return true;
    }
    assert_eq!(answer["error"]["code"], -32000, "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.starts_with("Rate limit exceeded"), "{message}");
    assert!(answer["error"]["data"]["retryAfterMs"].as_u64().unwrap() > 0);
    false
}

#[tokio::test]
async fn the_limit_holds_across_replicas_and_falls_back_per_replica_without_redis() {
    let mut redis = Redis::start();
    let (one, two) = (replica(&redis).await, replica(&redis).await);
    // Ada's three tokens, spent on both replicas: the fourth is refused wherever it lands.
    assert!(admitted(&call_as(&one, "ada", 1).await));
    assert!(admitted(&call_as(&two, "ada", 2).await));
    assert!(admitted(&call_as(&one, "ada", 3).await));
    assert!(!admitted(&call_as(&two, "ada", 4).await));
    assert!(!admitted(&call_as(&one, "ada", 5).await));
    // Bob has his own bucket.
    assert!(admitted(&call_as(&two, "bob", 6).await));

    // Redis gone: each replica limits on its own (Ada's local buckets are full), promptly.
    redis.stop();
    let started = std::time::Instant::now();
    assert!(admitted(&call_as(&one, "ada", 7).await));
    assert!(admitted(&call_as(&two, "ada", 8).await));
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "a missing Redis costs at most the command timeout"
    );
    one.shut_down().await.unwrap();
    two.shut_down().await.unwrap();
}

#[tokio::test]
async fn a_url_that_is_not_redis_is_refused_without_repeating_it() {
    let error = RateLimit::per_principal(1, Duration::from_secs(1))
        .shared("http://user:secret@example.invalid", "p")
        .await
        .unwrap_err();
    assert!(!error.to_string().contains("secret"), "{error}");
}
