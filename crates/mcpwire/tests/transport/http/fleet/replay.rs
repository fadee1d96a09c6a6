//! The `#[tool(once)]` record in Redis (feature `redis`): a call completed on one replica is
//! refused when a round of it is replayed on another, and a guard that cannot reach Redis
//! refuses the call rather than let it run twice. Redis runs as a child of the test, on a unix
//! socket, and is killed when the test ends.
#![cfg(feature = "redis")]

use crate::support;
use mcpwire::prelude::*;
use mcpwire::request_state::{KeyRing, RedisReplayGuard};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use support::redis::Redis;
use support::{connect, exchange, modern_call, modern_meta, request_state, retry_call, text};

#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirm {
    /// Place the order?
    ok: bool,
}

#[resolver(key = "confirm")]
async fn ask_confirm() -> Elicit<Confirm> {
    Elicit::ask("Place the order?")
}

/// How many orders this replica placed.
#[derive(Default)]
struct Orders(AtomicU32);

/// Places an order, once per call, whichever replica finishes it.
#[tool(once)]
async fn place_order(#[resolve(ask_confirm)] confirm: Confirm, ctx: Context) -> String {
    let placed = ctx.state::<Arc<Orders>>().0.fetch_add(1, Ordering::SeqCst) + 1;
    format!("confirmed={} orders={placed}", confirm.ok)
}

/// A replica: the fleet's key ring, this replica's order counter, the shared guard.
async fn replica(redis: &Redis, orders: Arc<Orders>) -> mcpwire::transport::MemoryClient {
    let guard = RedisReplayGuard::connect(&redis.url(), "mcpwire:orders")
        .await
        .expect("connected to the test's Redis");
    let server = McpServer::new("orders")
        .state(orders)
        .request_state_keys(KeyRing::new([[9u8; 32]]).unwrap())
        .replay_guard(guard)
        .tool(place_order)
        .unwrap();
    connect(server).await
}

fn form() -> Value {
    json!({"elicitation": {}})
}

fn confirmed() -> Value {
    json!({"confirm": {"action": "accept", "content": {"ok": true}}})
}

/// Runs a call's first round on `client`; returns the final round's request (the answer and
/// the state), not yet sent.
async fn final_round(client: &mut mcpwire::transport::MemoryClient, id: u64) -> String {
    let first = exchange(
        client,
        modern_call(id, "place_order", json!({}), modern_meta(form())),
    )
    .await;
    assert_eq!(first["result"]["resultType"], "input_required", "{first}");
    retry_call(
        id + 1,
        "place_order",
        json!({}),
        form(),
        confirmed(),
        &request_state(&first),
    )
}

#[tokio::test]
async fn a_call_completed_on_one_replica_is_refused_on_another() {
    let redis = Redis::start();
    let (orders_a, orders_b) = (Arc::<Orders>::default(), Arc::<Orders>::default());
    let mut a = replica(&redis, orders_a.clone()).await;
    let mut b = replica(&redis, orders_b.clone()).await;

    let last = final_round(&mut a, 1).await;
    let done = exchange(&mut a, last.clone()).await;
    assert_eq!(text(&done), "confirmed=true orders=1", "{done}");
    let replayed = exchange(&mut b, last).await;
    assert_eq!(replayed["error"]["code"], -32602, "{replayed}");
    assert_eq!(
        orders_b.0.load(Ordering::SeqCst),
        0,
        "the body did not run on b"
    );

    // Another call finishes on b, once.
    let last = final_round(&mut a, 10).await;
    let done = exchange(&mut b, last.clone()).await;
    assert_eq!(text(&done), "confirmed=true orders=1", "{done}");
    assert_eq!(exchange(&mut a, last).await["error"]["code"], -32602);
    assert_eq!(orders_a.0.load(Ordering::SeqCst), 1);
}

#[tokio::test]
async fn each_record_expires_with_the_calls_states() {
    let redis = Redis::start();
    let mut a = replica(&redis, Arc::default()).await;
    let last = final_round(&mut a, 1).await;
    exchange(&mut a, last).await;
    let client = redis::Client::open(redis.url()).unwrap();
    let mut connection = client.get_multiplexed_async_connection().await.unwrap();
    let keys: Vec<String> = redis::cmd("KEYS")
        .arg("mcpwire:orders:once:*")
        .query_async(&mut connection)
        .await
        .unwrap();
    assert_eq!(keys.len(), 1, "{keys:?}");
    let ttl_ms: i64 = redis::cmd("PTTL")
        .arg(&keys[0])
        .query_async(&mut connection)
        .await
        .unwrap();
    // States live 10 minutes by default: the record goes with them.
    assert!(ttl_ms > 0 && ttl_ms <= 10 * 60 * 1000, "{ttl_ms}");
}

#[tokio::test]
async fn without_redis_a_once_only_call_is_refused_not_run() {
    let mut redis = Redis::start();
    let orders = Arc::<Orders>::default();
    let mut a = replica(&redis, orders.clone()).await;
    let last = final_round(&mut a, 1).await;
    redis.stop();
    let started = Instant::now();
    let refused = exchange(&mut a, last).await;
    assert_eq!(refused["error"]["code"], -32000, "{refused}");
    assert!(
        !refused.to_string().contains("redis.sock"),
        "no internal detail leaks: {refused}"
    );
    assert_eq!(orders.0.load(Ordering::SeqCst), 0);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "the wait is bounded"
    );
}
