//! Resumed streams cannot hurt the fleet (issue 26, item 1): a replica follows the streams
//! other replicas run on ONE Redis connection, however many resumed GETs it serves; an idle
//! follower never reads the session's log; a stream has one live resumed GET per replica (a
//! new resume ends the old one); and a session holds a bounded number of resumed GETs (the
//! oldest ends). Driven over HTTP against two real replicas; Redis is asked what it saw.
#![cfg(feature = "redis")]

use crate::support;
use serde_json::json;
use support::fleet::*;
use support::redis::{Probe, Redis};

/// A stream that reports progress every 200 ms for minutes.
fn pulsing() -> serde_json::Value {
    json!({"steps": 2000, "every_ms": 200})
}

#[tokio::test]
async fn fifty_resumed_gets_on_a_replica_not_running_them_share_one_redis_connection() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let (a, b) = (a.client(), b.client());
    let mut probe = Probe::new(&redis).await;
    // 50 sessions, each with a stream running on a.
    let mut running = Vec::new();
    for id in 0..50 {
        let session = a.initialize().await;
        let last = a.start_stream(&session, id, "pulse", pulsing()).await;
        running.push((session, last));
    }
    let before = probe.clients().await;
    // Each resumed on b, and followed there: a live event reaches each.
    let mut resumed = Vec::new();
    for (session, last) in &running {
        let mut stream = b.resume(session, last).await;
        let events = read_until(&mut stream, is_progress).await;
        assert!(events.iter().any(|(_, e)| is_progress(e)), "{events:?}");
        resumed.push(stream);
    }
    let after = probe.clients().await;
    eprintln!("Redis clients: {before} before 50 resumed GETs on b, {after} with them");
    assert!(
        after <= before + 1,
        "b follows 50 streams on one connection: {before} clients before, {after} after"
    );
}

#[tokio::test]
async fn idle_followers_never_read_the_log() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let (a, b) = (a.client(), b.client());
    let mut probe = Probe::new(&redis).await;
    // 20 streams running on a, each silent after its first event, followed on b.
    let mut resumed = Vec::new();
    for id in 0..20 {
        let session = a.initialize().await;
        let last = a
            .start_stream(&session, id, "hold", json!({"seconds": 300}))
            .await;
        resumed.push(b.resume(&session, &last).await);
    }
    let (xrange, exists, set) = (
        probe.calls("xrange").await,
        probe.calls("exists").await,
        probe.calls("set").await,
    );
    // The followers idle for three heartbeats of each replica (a `SET` every 2 s): about 6 s.
    let deadline = Deadline::after(30, "each replica said three times it is alive");
    while probe.calls("set").await < set + 6 {
        deadline.pause().await;
    }
    let read = probe.calls("xrange").await - xrange;
    let checked = probe.calls("exists").await - exists;
    eprintln!("20 idle followers over 3 heartbeats: {checked} EXISTS, {read} XRANGE");
    assert_eq!(
        read, 0,
        "idle followers read no log ({checked} liveness checks)"
    );
}

#[tokio::test]
async fn a_second_resume_of_a_stream_ends_the_first_on_either_replica() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let (a, b) = (a.client(), b.client());
    let session = a.initialize().await;
    let last = a.start_stream(&session, 1, "pulse", pulsing()).await;
    // On b, which follows the stream a runs.
    let mut first = b.resume(&session, &last).await;
    read_until(&mut first, is_progress).await;
    let mut second = b.resume(&session, &last).await;
    assert!(ends(&mut first).await, "the first resume on b ended");
    let events = read_until(&mut second, is_progress).await;
    assert!(
        events.iter().any(|(_, e)| is_progress(e)),
        "the second goes on"
    );
    // On a, which runs it.
    let mut third = a.resume(&session, &last).await;
    read_until(&mut third, is_progress).await;
    let mut fourth = a.resume(&session, &last).await;
    assert!(ends(&mut third).await, "the first resume on a ended");
    let events = read_until(&mut fourth, is_progress).await;
    assert!(
        events.iter().any(|(_, e)| is_progress(e)),
        "the second goes on"
    );
}

#[tokio::test]
async fn a_session_holds_eight_resumed_gets_and_a_ninth_ends_the_oldest() {
    let redis = Redis::start();
    let (a, b) = (
        Replica::start(&redis, "a").await,
        Replica::start(&redis, "b").await,
    );
    let (a, b) = (a.client(), b.client());
    let session = a.initialize().await;
    let mut resumed = Vec::new();
    for id in 0..9 {
        let last = a.start_stream(&session, id, "pulse", pulsing()).await;
        let mut stream = b.resume(&session, &last).await;
        read_until(&mut stream, is_progress).await;
        resumed.push(stream);
    }
    assert!(ends(&mut resumed[0]).await, "the oldest resumed GET ended");
    for stream in &mut resumed[1..] {
        let events = read_until(stream, is_progress).await;
        assert!(
            events.iter().any(|(_, e)| is_progress(e)),
            "the others go on"
        );
    }
}

#[tokio::test]
async fn the_cap_is_a_setting_and_holds_on_the_replica_running_the_streams() {
    let redis = Redis::start();
    let a = Replica::start_with(&redis, "a", |http| http.max_resumed_streams(2)).await;
    let a = a.client();
    let session = a.initialize().await;
    let mut resumed = Vec::new();
    for id in 0..3 {
        let last = a.start_stream(&session, id, "pulse", pulsing()).await;
        let mut stream = a.resume(&session, &last).await;
        read_until(&mut stream, is_progress).await;
        resumed.push(stream);
    }
    assert!(ends(&mut resumed[0]).await, "the oldest resumed GET ended");
    for stream in &mut resumed[1..] {
        let events = read_until(stream, is_progress).await;
        assert!(
            events.iter().any(|(_, e)| is_progress(e)),
            "the others go on"
        );
    }
}
