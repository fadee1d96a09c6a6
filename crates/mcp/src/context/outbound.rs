//! `Outbound`: where a request's notifications (progress, log messages) and the server's own
//! requests to the client go. One per connection on stdio; one per response stream on HTTP.

use tokio::sync::mpsc;

/// A sink of serialized JSON-RPC lines, cheap to clone.
#[derive(Clone, Debug)]
pub struct Outbound {
    lines: mpsc::UnboundedSender<String>,
}

impl Outbound {
    /// A sink and the receiving end the transport writes out.
    pub fn channel() -> (Outbound, mpsc::UnboundedReceiver<String>) {
        let (lines, rx) = mpsc::unbounded_channel();
        (Outbound { lines }, rx)
    }

    /// Queues one line. Returns `false` when the other end is gone (the client left).
    pub fn send(&self, line: String) -> bool {
        self.lines.send(line).is_ok()
    }

    /// Whether the receiving end is gone (the client left).
    pub fn is_closed(&self) -> bool {
        self.lines.is_closed()
    }
}
