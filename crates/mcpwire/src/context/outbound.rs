//! `Outbound`: where a request's notifications (progress, log messages) and the server's own
//! requests to the client go. One per connection on stdio; one per request over HTTP, whose
//! queue is made only when the request first sends something ([`super::lazy_lines`]).
//!
//! The queue is bounded: when the client reads slower than the server writes, a sender waits
//! for room rather than the queue growing without end.

#[cfg(feature = "http")]
use super::lazy_lines::HoldsChannel;
#[cfg(feature = "http")]
use std::sync::Arc;
use tokio::sync::mpsc;
use tokio::sync::mpsc::error::TrySendError;

/// What a closable sink carries to ask its transport to end the stream now. Never valid JSON,
/// so it cannot be mistaken for a message.
pub(crate) const CLOSE_STREAM: &str = "\u{0}close-stream";

/// A sink of serialized JSON-RPC lines, cheap to clone.
#[derive(Clone, Debug)]
pub struct Outbound {
    lines: Lines,
    /// Whether the stream behind it can be closed and resumed (a 2025-11-25 HTTP request).
    closable: bool,
}

/// Where the lines go.
#[derive(Clone, Debug)]
enum Lines {
    /// A channel made up front (a connection's, read by its writer).
    Made(mpsc::Sender<String>),
    /// A request's channel, made by its first line.
    #[cfg(feature = "http")]
    Lazy(Arc<dyn HoldsChannel>),
    /// Nobody reads them: every send fails, as when the client left.
    Nowhere,
}

impl Outbound {
    /// A sink holding at most `capacity` lines the transport has not written yet, and the
    /// receiving end the transport writes out.
    pub(crate) fn channel(capacity: usize) -> (Outbound, mpsc::Receiver<String>) {
        let (lines, rx) = mpsc::channel(capacity.max(1));
        (Outbound::new(Lines::Made(lines)), rx)
    }

    /// A request's sink: its lines go to the [`LazyChannel`](super::LazyChannel) `holder` holds
    /// (the queue made by the first line), which the transport reads with a
    /// [`LazyLines`](super::LazyLines) of the same holder. When `closable`, the handler may end
    /// the stream early (the client resumes it), and the receiving end then sees
    /// [`CLOSE_STREAM`].
    #[cfg(feature = "http")]
    pub(crate) fn held(holder: Arc<dyn HoldsChannel>, closable: bool) -> Outbound {
        Outbound {
            lines: Lines::Lazy(holder),
            closable,
        }
    }

    /// A sink nobody reads (a request that may send nothing but its answer, a detached
    /// context): every send fails.
    pub(crate) fn nowhere() -> Outbound {
        Outbound::new(Lines::Nowhere)
    }

    fn new(lines: Lines) -> Outbound {
        Outbound {
            lines,
            closable: false,
        }
    }

    /// The channel's sending end, made now for a request's first line; `None` when nobody
    /// reads (any more).
    fn sender(&self) -> Option<&mpsc::Sender<String>> {
        match &self.lines {
            Lines::Made(sender) => Some(sender),
            #[cfg(feature = "http")]
            Lines::Lazy(holder) => holder.lazy_channel().sender(),
            Lines::Nowhere => None,
        }
    }

    /// Asks the transport to end the stream now; `false` when this sink's stream cannot be
    /// closed and resumed. With the queue full, the stream ends once the client has read what
    /// is queued.
    pub(crate) fn close_stream(&self) -> bool {
        self.closable && self.send_soon(CLOSE_STREAM.to_owned())
    }

    /// Queues one line, waiting while the queue is full. Returns `false` when the other end is
    /// gone (the client left).
    pub(crate) async fn send(&self, line: String) -> bool {
        match self.sender() {
            Some(sender) => sender.send(line).await.is_ok(),
            None => false,
        }
    }

    /// Queues one line from code that cannot wait (a drop guard): when the queue is full, the
    /// line is sent as soon as there is room, by a task of its own. Returns `false` when the
    /// other end is gone.
    pub(crate) fn send_soon(&self, line: String) -> bool {
        let Some(sender) = self.sender() else {
            return false;
        };
        match sender.try_send(line) {
            Ok(()) => true,
            Err(TrySendError::Closed(_)) => false,
            Err(TrySendError::Full(line)) => {
                let lines = sender.clone();
                match tokio::runtime::Handle::try_current() {
                    Ok(runtime) => {
                        runtime.spawn(async move { lines.send(line).await });
                        true
                    }
                    Err(_) => false,
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn a_full_queue_makes_the_sender_wait() {
        let (sink, mut lines) = Outbound::channel(2);
        assert!(sink.send("1".into()).await);
        assert!(sink.send("2".into()).await);
        let third = tokio::spawn({
            let sink = sink.clone();
            async move { sink.send("3".into()).await }
        });
        tokio::task::yield_now().await;
        assert!(!third.is_finished(), "no room for a third line");
        assert_eq!(lines.recv().await.as_deref(), Some("1"));
        assert!(third.await.unwrap(), "room made, the line is queued");
        drop(lines);
        assert!(!sink.send("4".into()).await, "the client left");
    }
}
