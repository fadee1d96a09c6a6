//! A request's outbound queue, made only when the request first sends something.
//!
//! Most requests over HTTP send nothing but their answer: no progress, no log message, no
//! question to the client. A tokio channel costs two allocations (its shared state and its first
//! block of slots, about 1.3 KB) and their release, made and dropped for every such request for
//! nothing. A [`LazyChannel`] and its [`LazyLines`] are the two ends of a channel that does not
//! exist yet: the first send makes it, and the receiving end picks it up from there.
//!
//! The channel's state lives in whatever holds it ([`HoldsChannel`]): the request's own state on
//! the transport, which both ends keep anyway, so that it needs no allocation of its own either.

use futures_util::task::AtomicWaker;
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};
use std::task::{Context, Poll};
use tokio::sync::mpsc::{self, Receiver, Sender};

/// What both ends share: the channel once made, and the hand-over of its receiving end.
#[derive(Debug)]
pub(crate) struct LazyChannel {
    capacity: usize,
    /// The sending end once the first send made it; `None` in it when the receiving end was gone
    /// before that (a send then fails, as on a closed channel).
    sender: OnceLock<Option<Sender<String>>>,
    handover: Mutex<Handover>,
    /// Wakes the receiving end's task when the channel is made (one receiving end: one waker).
    made: AtomicWaker,
}

#[derive(Debug)]
struct Handover {
    /// The receiving end, made and not picked up yet.
    receiver: Option<Receiver<String>>,
    /// Whether [`LazyLines`] was dropped: no channel is made after that.
    gone: bool,
}

/// What holds a request's [`LazyChannel`]: the channel alone, or the request's state on its
/// transport, which then carries it in its own allocation.
pub(crate) trait HoldsChannel: Send + Sync {
    /// The channel held.
    fn lazy_channel(&self) -> &LazyChannel;
}

impl HoldsChannel for LazyChannel {
    fn lazy_channel(&self) -> &LazyChannel {
        self
    }
}

impl std::fmt::Debug for dyn HoldsChannel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.lazy_channel().fmt(f)
    }
}

/// The sending side's state and the receiving end of a channel of at most `capacity` queued
/// lines, neither made until the first line is sent.
#[cfg(test)]
fn lazy(capacity: usize) -> (Arc<LazyChannel>, LazyLines) {
    let channel = Arc::new(LazyChannel::new(capacity));
    let lines = LazyLines::of(channel.clone());
    (channel, lines)
}

impl LazyChannel {
    /// A channel of at most `capacity` queued lines, not made yet.
    pub(crate) fn new(capacity: usize) -> Self {
        LazyChannel {
            capacity: capacity.max(1),
            sender: OnceLock::new(),
            handover: Mutex::new(Handover {
                receiver: None,
                gone: false,
            }),
            made: AtomicWaker::new(),
        }
    }

    /// A channel whose receiving end is gone: every send fails.
    pub(crate) const fn gone() -> Self {
        LazyChannel {
            capacity: 1,
            sender: OnceLock::new(),
            handover: Mutex::new(Handover {
                receiver: None,
                gone: true,
            }),
            made: AtomicWaker::new(),
        }
    }

    /// The sending end, made now if it was not; `None` when the receiving end is gone.
    pub(crate) fn sender(&self) -> Option<&Sender<String>> {
        let mut made_now = false;
        let made = self.sender.get_or_init(|| {
            let mut handover = self.lock();
            if handover.gone {
                return None;
            }
            let (sender, receiver) = mpsc::channel(self.capacity);
            handover.receiver = Some(receiver);
            made_now = true;
            Some(sender)
        });
        // Woken once the sending end is set, not while it is being made: the receiving end
        // looks for it before it takes the hand-over's lock.
        if made_now {
            self.made.wake();
        }
        made.as_ref()
    }

    fn lock(&self) -> MutexGuard<'_, Handover> {
        // Nothing panics while holding it; a poisoned lock still holds a consistent hand-over.
        self.handover
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// The receiving end of a [`lazy`] channel.
#[derive(Debug)]
pub(crate) struct LazyLines {
    channel: Arc<dyn HoldsChannel>,
    receiver: Option<Receiver<String>>,
}

impl LazyLines {
    /// The receiving end of the channel `holder` holds (one receiving end per channel).
    pub(crate) fn of(holder: Arc<dyn HoldsChannel>) -> Self {
        LazyLines {
            channel: holder,
            receiver: None,
        }
    }

    /// The next line, waiting for one. Unlike a channel's `recv`, this does not end when every
    /// [`Outbound`](super::Outbound) is gone (the channel's sending end lives in the state this
    /// end shares): wait on it beside what ends the request (its handler), and drain the queue
    /// with [`try_recv`](LazyLines::try_recv) once that ended.
    pub(crate) async fn recv(&mut self) -> Option<String> {
        std::future::poll_fn(|cx| self.poll_recv(cx)).await
    }

    /// [`recv`](LazyLines::recv) as a poll: the next line when one is queued, else `Pending`
    /// (the task woken when one is, or when the channel is made).
    pub(crate) fn poll_recv(&mut self, cx: &mut Context<'_>) -> Poll<Option<String>> {
        if let Some(receiver) = self.picked_up() {
            return receiver.poll_recv(cx);
        }
        self.channel.lazy_channel().made.register(cx.waker());
        // Looked for again once registered: a channel made in between woke no one.
        match self.picked_up() {
            Some(receiver) => receiver.poll_recv(cx),
            None => Poll::Pending,
        }
    }

    /// The next line if one is queued now.
    pub(crate) fn try_recv(&mut self) -> Option<String> {
        self.picked_up()?.try_recv().ok()
    }

    /// The channel's receiving end, picked up if it was made since.
    fn picked_up(&mut self) -> Option<&mut Receiver<String>> {
        if self.receiver.is_none() {
            // Most requests send nothing: no channel to pick up, and no lock taken to see that.
            self.channel.lazy_channel().sender.get()?;
            self.receiver = self.channel.lazy_channel().lock().receiver.take();
        }
        self.receiver.as_mut()
    }
}

impl Drop for LazyLines {
    fn drop(&mut self) {
        // A channel made and not picked up is dropped with the hand-over's lock held, so that a
        // sender sees it closed; none is made after this.
        let mut handover = self.channel.lazy_channel().lock();
        handover.gone = true;
        handover.receiver = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[tokio::test(start_paused = true)]
    async fn nothing_is_made_until_a_line_is_sent_and_the_receiver_then_gets_it() {
        let (channel, mut lines) = lazy(4);
        assert!(channel.sender.get().is_none(), "no channel yet");
        assert_eq!(lines.try_recv(), None);
        let waiting = tokio::spawn(async move {
            let first = lines.recv().await;
            (first, lines)
        });
        tokio::time::sleep(Duration::from_millis(10)).await;
        assert!(!waiting.is_finished(), "nothing sent: the receiver waits");
        let sender = channel.sender().expect("the receiver is there").clone();
        sender.send("1".into()).await.unwrap();
        let (first, mut lines) = waiting.await.unwrap();
        assert_eq!(first.as_deref(), Some("1"));
        sender.send("2".into()).await.unwrap();
        assert_eq!(lines.try_recv().as_deref(), Some("2"));
        assert_eq!(lines.try_recv(), None, "drained");
        drop((sender, channel));
    }

    #[tokio::test]
    async fn a_line_sent_before_the_receiver_looks_is_not_lost() {
        let (channel, mut lines) = lazy(1);
        channel.sender().unwrap().try_send("early".into()).unwrap();
        assert_eq!(lines.recv().await.as_deref(), Some("early"));
    }

    #[tokio::test]
    async fn sends_fail_once_the_receiver_is_gone_made_or_not() {
        let (never_made, lines) = lazy(1);
        drop(lines);
        assert!(
            never_made.sender().is_none(),
            "no channel made after it left"
        );

        let (made, lines) = lazy(1);
        let sender = made.sender().unwrap().clone();
        drop(lines);
        assert!(
            sender.send("late".into()).await.is_err(),
            "made, never picked up"
        );
    }
}
