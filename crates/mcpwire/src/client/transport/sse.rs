//! Reading a `text/event-stream` body: each event's `data` lines, joined, are one message.
//! Comments (`:` keep-alives), empty priming events and events of other types are skipped. The
//! last event id and `retry:` delay are kept, so a 2025-11-25 stream that ends before its answer
//! can be resumed.

use bytes::BytesMut;
use futures_util::{Stream, StreamExt};

/// One parsed event.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Event {
    pub(crate) event: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) data: String,
}

/// An incremental event-stream parser.
#[derive(Default)]
pub(crate) struct Parser {
    buffer: BytesMut,
    current: Event,
    has_data: bool,
    /// The id of the last event with one (kept across events).
    pub(crate) last_id: Option<String>,
    /// The last `retry:` delay, in milliseconds.
    pub(crate) retry: Option<u64>,
}

impl Parser {
    /// Feeds bytes; returns the events they complete.
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Vec<Event> {
        self.buffer.extend_from_slice(bytes);
        let mut events = Vec::new();
        while let Some(end) = self.buffer.iter().position(|b| *b == b'\n') {
            let line = self.buffer.split_to(end + 1);
            let mut line = &line[..end];
            if let Some(stripped) = line.strip_suffix(b"\r") {
                line = stripped;
            }
            let line = String::from_utf8_lossy(line);
            if line.is_empty() {
                if self.has_data {
                    events.push(std::mem::take(&mut self.current));
                } else {
                    self.current = Event::default();
                }
                self.has_data = false;
                continue;
            }
            if line.starts_with(':') {
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((field, value)) => (field, value.strip_prefix(' ').unwrap_or(value)),
                None => (line.as_ref(), ""),
            };
            match field {
                "data" => {
                    if self.has_data {
                        self.current.data.push('\n');
                    }
                    self.current.data.push_str(value);
                    self.has_data = true;
                }
                "event" => self.current.event = Some(value.to_owned()),
                "id" => {
                    self.current.id = Some(value.to_owned());
                    self.last_id = Some(value.to_owned());
                }
                "retry" => self.retry = value.trim().parse().ok().or(self.retry),
                _ => {}
            }
        }
        events
    }
}

/// How a forwarded stream ended.
#[derive(Debug, Default)]
pub(crate) struct Ended {
    /// Whether a response (a message with `result` or `error`) went by.
    pub(crate) answered: bool,
    /// How many messages went by.
    pub(crate) messages: usize,
}

/// Forwards every JSON-RPC message of an event stream to `inbox`, until the stream ends.
pub(crate) async fn forward<S, B, E>(
    body: S,
    parser: &mut Parser,
    inbox: &tokio::sync::mpsc::UnboundedSender<String>,
) -> Ended
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    let mut body = body;
    let mut ended = Ended::default();
    while let Some(Ok(chunk)) = body.next().await {
        for event in parser.feed(chunk.as_ref()) {
            let is_message = matches!(event.event.as_deref(), None | Some("message"));
            if !is_message || event.data.trim().is_empty() {
                continue;
            }
            ended.answered |= is_response(&event.data);
            ended.messages += 1;
            if inbox.send(event.data).is_err() {
                return ended;
            }
        }
    }
    ended
}

fn is_response(data: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Probe {
        method: Option<serde::de::IgnoredAny>,
        id: Option<serde::de::IgnoredAny>,
    }
    serde_json::from_str::<Probe>(data).is_ok_and(|p| p.method.is_none() && p.id.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_events_across_chunks_and_skips_comments_and_priming() {
        let mut parser = Parser::default();
        let mut events =
            parser.feed(b"id: e-1\nretry: 500\ndata: \n\n: ping\n\nevent: message\nda");
        events.extend(parser.feed(b"ta: {\"a\":1}\r\n\r\ndata: x\ndata: y\n\n"));
        let data: Vec<_> = events.iter().map(|e| e.data.as_str()).collect();
        assert_eq!(data, ["", "{\"a\":1}", "x\ny"]);
        assert_eq!(events[0].id.as_deref(), Some("e-1"));
        assert_eq!(events[1].event.as_deref(), Some("message"));
        assert_eq!(
            (parser.last_id.as_deref(), parser.retry),
            (Some("e-1"), Some(500))
        );
        assert!(is_response(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
        assert!(!is_response(
            r#"{"jsonrpc":"2.0","id":1,"method":"roots/list"}"#
        ));
    }
}
