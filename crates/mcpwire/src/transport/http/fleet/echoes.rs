//! [`Echoes`]: waiting for this replica's own message to come back over the bus. A message is
//! delivered to every subscriber at once, so once it is back here it has reached every other
//! replica too: a DELETE answered after that is seen by the replica that takes the client's
//! next request, instead of racing the bus there.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;
use tokio::sync::oneshot;

/// How long a replica waits for its own message to come back before it goes on anyway (the bus
/// is slow or down; the message may still arrive).
pub(super) const ECHO_WAIT: Duration = Duration::from_millis(250);

/// The most messages waited for at once; past it, a sender does not wait (each waiter is a
/// request being answered, so this is bounded by them already).
const MAX_WAITING: usize = 4096;

/// Senders waiting for their messages' echoes, by payload.
#[derive(Clone, Default)]
pub(super) struct Echoes {
    waiting: Arc<Mutex<HashMap<String, Vec<oneshot::Sender<()>>>>>,
}

impl Echoes {
    fn lock(&self) -> MutexGuard<'_, HashMap<String, Vec<oneshot::Sender<()>>>> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Starts waiting for `payload` to come back; `None` when too many wait already.
    pub(super) fn expect(&self, payload: &str) -> Option<Echo> {
        let (sender, receiver) = oneshot::channel();
        let mut waiting = self.lock();
        if waiting.len() >= MAX_WAITING {
            return None;
        }
        waiting.entry(payload.to_owned()).or_default().push(sender);
        Some(Echo {
            echoes: self.clone(),
            payload: payload.to_owned(),
            receiver,
        })
    }

    /// `payload`, this replica's own message, came back over the bus.
    pub(super) fn heard(&self, payload: &str) {
        let Some(senders) = self.lock().remove(payload) else {
            return;
        };
        for sender in senders {
            let _ = sender.send(());
        }
    }
}

/// One wait for an echo; forgets itself when dropped.
pub(super) struct Echo {
    echoes: Echoes,
    payload: String,
    receiver: oneshot::Receiver<()>,
}

impl Echo {
    /// Waits for the echo, at most `bound`; whether it came.
    pub(super) async fn heard_within(mut self, bound: Duration) -> bool {
        tokio::time::timeout(bound, &mut self.receiver)
            .await
            .is_ok_and(|heard| heard.is_ok())
    }
}

impl Drop for Echo {
    fn drop(&mut self) {
        // Closed first, so that this wait's sender reads as closed below.
        self.receiver.close();
        let mut waiting = self.echoes.lock();
        if let Some(senders) = waiting.get_mut(&self.payload) {
            senders.retain(|sender| !sender.is_closed());
            if senders.is_empty() {
                waiting.remove(&self.payload);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_wait_ends_when_its_message_comes_back_and_is_forgotten_either_way() {
        let echoes = Echoes::default();
        let echo = echoes.expect("m1").unwrap();
        echoes.heard("m1");
        assert!(echo.heard_within(Duration::from_secs(1)).await);
        let late = echoes.expect("m2").unwrap();
        assert!(!late.heard_within(Duration::from_millis(10)).await);
        assert!(echoes.lock().is_empty(), "no waiter is left behind");
    }
}
