//! No key the fleet writes is ever without an expiry (issue 26, item 2): a session deleted while
//! one of its requests streams leaves no log behind, even though the stream's end is written
//! after the delete. Driven over HTTP against two real replicas; Redis is asked (`PTTL` over a
//! `SCAN` of the prefix).
#![cfg(feature = "redis")]

use crate::support;
use serde_json::json;
use std::sync::atomic::Ordering;
use support::fleet::*;
use support::redis::{Probe, Redis};

#[tokio::test]
async fn sessions_deleted_mid_stream_leave_no_key_without_an_expiry() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let (client_a, client_b) = (a.client(), b.client());
    let mut probe = Probe::new(&redis).await;
    let streaming = json!({"steps": 1000, "every_ms": 50});
    let mut deleted = Vec::new();
    for id in 0..20 {
        let session = client_a.initialize().await;
        client_a
            .start_stream(&session, id, "pulse", streaming.clone())
            .await;
        // Through the balancer, the DELETE may land on any replica.
        let replica = if id % 2 == 0 { &client_b } else { &client_a };
        assert_eq!(replica.delete(&session).await, 200);
        deleted.push(session);
    }
    let deadline = Deadline::after(20, "every stream was stopped");
    while a.observed.stopped.load(Ordering::SeqCst) < 20 {
        deadline.pause().await;
    }
    // a writes its entries in order: once a later stream's first entry is in Redis, the ends
    // of the stopped streams were written too.
    let sentinel = client_a.initialize().await;
    client_a
        .start_stream(&sentinel, 99, "pulse", streaming.clone())
        .await;
    let deadline = Deadline::after(20, "a later stream's entries are in Redis");
    while !probe.exists(&format!("{PREFIX}e:{sentinel}")).await {
        deadline.pause().await;
    }
    let keys = probe.keys_with_ttl(PREFIX).await;
    let forever: Vec<&String> = keys
        .iter()
        .filter(|(_, ttl)| *ttl == -1)
        .map(|(key, _)| key)
        .collect();
    eprintln!(
        "{} keys under the prefix, {} without an expiry",
        keys.len(),
        forever.len()
    );
    assert!(forever.is_empty(), "keys without an expiry: {forever:?}");
    for session in &deleted {
        for log in ["e", "eb"] {
            let key = format!("{PREFIX}{log}:{session}");
            assert!(!probe.exists(&key).await, "{key} was made again");
        }
    }
}
