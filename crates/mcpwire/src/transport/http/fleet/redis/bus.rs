//! The bus of a [`RedisBackend`](super::RedisBackend): Redis pub/sub on one channel. Publishing goes
//! through the shared connection; each subscription holds a connection of its own, made again
//! after an outage (then it yields [`BusEvent::Reconnected`]).

use super::super::super::shared::{BusEvent, FleetBus, SharedFuture};
use super::connection::Inner;
use futures_util::StreamExt;
use futures_util::stream::BoxStream;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::mpsc;

/// How many messages may wait for the replica to take them.
const BACKLOG: usize = 1024;

/// The [`FleetBus`] of a [`RedisBackend`](super::RedisBackend).
pub(super) struct RedisBus {
    inner: Arc<Inner>,
}

impl RedisBus {
    pub(super) fn new(inner: Arc<Inner>) -> Self {
        Self { inner }
    }
}

fn channel(inner: &Inner) -> String {
    format!("{}bus", inner.prefix)
}

impl FleetBus for RedisBus {
    fn publish(&self, payload: String) -> SharedFuture<'_, ()> {
        let counted = self.publish_counted(payload);
        Box::pin(async move { counted.await.map(drop) })
    }

    fn publish_counted(&self, payload: String) -> SharedFuture<'_, Option<usize>> {
        Box::pin(async move {
            let mut connection = self.inner.connection.clone();
            let receivers = self
                .inner
                .run(
                    "publish",
                    redis::cmd("PUBLISH")
                        .arg(channel(&self.inner))
                        .arg(payload)
                        .query_async::<usize>(&mut connection),
                )
                .await?;
            Ok(Some(receivers))
        })
    }

    fn subscribe(&self) -> BoxStream<'static, BusEvent> {
        let (sender, mut receiver) = mpsc::channel(BACKLOG);
        tokio::spawn(listen(Arc::downgrade(&self.inner), sender));
        futures_util::stream::poll_fn(move |cx| receiver.poll_recv(cx)).boxed()
    }
}

/// Subscribes, forwards every message, and subscribes again after an outage (waiting longer
/// each time, up to 2 s), until the fleet or the receiver is gone.
async fn listen(inner: Weak<Inner>, sender: mpsc::Sender<BusEvent>) {
    let mut lost = false;
    let mut pause = Duration::from_millis(100);
    loop {
        let Some(fleet) = inner.upgrade() else {
            return;
        };
        let (client, channel, timeout) = (fleet.client.clone(), channel(&fleet), fleet.timeout());
        drop(fleet);
        let subscribed = tokio::time::timeout(timeout * 4, async {
            let mut pubsub = client.get_async_pubsub().await?;
            pubsub.subscribe(&channel).await?;
            Ok::<_, redis::RedisError>(pubsub)
        })
        .await;
        match subscribed {
            Ok(Ok(pubsub)) => {
                pause = Duration::from_millis(100);
                if lost && sender.send(BusEvent::Reconnected).await.is_err() {
                    return;
                }
                // Ends when the replica stops listening too: it unsubscribes (drops the
                // connection) then, not when the next message finds the receiver gone.
                let messages = pubsub.into_on_message().take_until(sender.closed());
                let mut messages = std::pin::pin!(messages);
                while let Some(message) = messages.next().await {
                    let Ok(payload) = message.get_payload::<String>() else {
                        continue;
                    };
                    if sender.try_send(BusEvent::Message(payload)).is_err() {
                        if sender.is_closed() {
                            return;
                        }
                        tracing::warn!(
                            "the fleet bus delivers faster than this replica takes; a message was dropped"
                        );
                    }
                }
                // (`is_stopped` cannot tell: it also reads true once the messages ended.)
                if sender.is_closed() {
                    return;
                }
                tracing::warn!("lost the fleet bus; subscribing again");
            }
            Ok(Err(error)) => {
                tracing::debug!(kind = ?error.kind(), "cannot subscribe to the fleet bus")
            }
            Err(_) => tracing::debug!("subscribing to the fleet bus timed out"),
        }
        lost = true;
        tokio::select! {
            () = sender.closed() => return,
            () = tokio::time::sleep(pause) => {}
        }
        pause = (pause * 2).min(Duration::from_secs(2));
    }
}
