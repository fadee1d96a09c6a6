//! The Redis task store's background work: the lease refresher and the subscriber to the
//! signal channel, both stopped when the store is dropped.

use super::shared::{Shared, bounded};
use crate::tasks::store::StoreError;
use futures_util::StreamExt as _;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// The longest pause between two attempts to subscribe again.
const LONGEST_BACKOFF: Duration = Duration::from_secs(2);

/// Refreshes the leases every third of the lease, until `stop`.
pub(super) async fn refresh_leases(shared: Arc<Shared>, stop: CancellationToken) {
    loop {
        let every = Duration::from_millis((shared.lease_ms() / 3).max(1));
        tokio::select! {
            () = stop.cancelled() => return,
            () = shared.lease_changed.notified() => continue,
            () = tokio::time::sleep(every) => {}
        }
        if let Err(error) = shared.refresh().await {
            tracing::warn!(%error, "refreshing the leases of running tasks failed");
        }
    }
}

/// Listens on the signal channel, subscribing again after every disconnection, until `stop`.
pub(super) async fn subscribe(shared: Arc<Shared>, client: redis::Client, stop: CancellationToken) {
    let mut backoff = Duration::from_millis(50);
    loop {
        let listened = tokio::select! {
            () = stop.cancelled() => return,
            listened = listen_once(&shared, &client, &stop) => listened,
        };
        match listened {
            Ok(()) => backoff = Duration::from_millis(50),
            Err(error) => tracing::warn!(%error, "listening for task signals failed"),
        }
        tokio::select! {
            () = stop.cancelled() => return,
            () = tokio::time::sleep(backoff) => {}
        }
        backoff = (backoff * 2).min(LONGEST_BACKOFF);
    }
}

/// One subscription: returns when the connection is lost (or cannot be made).
async fn listen_once(
    shared: &Shared,
    client: &redis::Client,
    stop: &CancellationToken,
) -> Result<(), StoreError> {
    let timeout = shared.timeout();
    let mut pubsub = bounded(timeout, client.get_async_pubsub()).await?;
    bounded(timeout, pubsub.subscribe(shared.channel())).await?;
    // Notes published while no subscription was open: pick up what is waiting.
    shared.refresh().await?;
    let (mut sink, mut notes) = pubsub.split();
    loop {
        let check = Duration::from_millis(shared.lease_ms().max(1_000));
        tokio::select! {
            () = stop.cancelled() => return Ok(()),
            note = notes.next() => match note {
                Some(note) => {
                    if let Ok(payload) = note.get_payload::<String>() {
                        shared.on_note(&payload).await;
                    }
                }
                None => return Ok(()),
            },
            () = tokio::time::sleep(check) => {
                // A silent connection may be a dead one.
                bounded(timeout, sink.ping::<redis::Value>()).await?;
            }
        }
    }
}
