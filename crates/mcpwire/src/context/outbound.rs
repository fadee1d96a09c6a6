//! `Outbound`: where a request's notifications (progress, log messages) and the server's own
//! requests to the client go. One per connection on stdio; one per response stream on HTTP.

use tokio::sync::mpsc;

/// What a closable sink carries to ask its transport to end the stream now. Never valid JSON,
/// so it cannot be mistaken for a message.
pub(crate) const CLOSE_STREAM: &str = "\u{0}close-stream";

/// A sink of serialized JSON-RPC lines, cheap to clone.
#[derive(Clone, Debug)]
pub struct Outbound {
    lines: mpsc::UnboundedSender<String>,
    /// Whether the stream behind it can be closed and resumed (a 2025-11-25 HTTP request).
    closable: bool,
}

impl Outbound {
    /// A sink and the receiving end the transport writes out.
    pub fn channel() -> (Outbound, mpsc::UnboundedReceiver<String>) {
        let (lines, rx) = mpsc::unbounded_channel();
        (
            Outbound {
                lines,
                closable: false,
            },
            rx,
        )
    }

    /// A sink whose stream the handler may end early (the client resumes it), and its
    /// receiving end, which then sees [`CLOSE_STREAM`].
    #[cfg(feature = "http")]
    pub(crate) fn closable_channel() -> (Outbound, mpsc::UnboundedReceiver<String>) {
        let (lines, rx) = mpsc::unbounded_channel();
        (
            Outbound {
                lines,
                closable: true,
            },
            rx,
        )
    }

    /// Asks the transport to end the stream now; `false` when this sink's stream cannot be
    /// closed and resumed.
    pub(crate) fn close_stream(&self) -> bool {
        self.closable && self.lines.send(CLOSE_STREAM.to_owned()).is_ok()
    }

    /// Queues one line. Returns `false` when the other end is gone (the client left).
    pub fn send(&self, line: String) -> bool {
        self.lines.send(line).is_ok()
    }

    /// Whether the receiving end is gone (the client left).
    #[cfg(feature = "http")]
    pub fn is_closed(&self) -> bool {
        self.lines.is_closed()
    }
}
