//! Reading a `text/event-stream` body: each event's `data` lines, joined, are one message.
//! Comments (`:` keep-alives), empty priming events and events of other types are skipped. The
//! last event id and `retry:` delay are kept, so a 2025-11-25 stream that ends before its answer
//! can be resumed.
//!
//! The parser is incremental: each byte is looked at once, whatever the chunks. A line, and an
//! event's data, are bounded by the client's `max_message_bytes`: past it the stream is refused
//! ([`TooLarge`]) and the caller drops it, closing the connection.

use super::{InboxSender, Received};
use futures_util::{Stream, StreamExt};

/// One parsed event.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct Event {
    pub(crate) event: Option<String>,
    pub(crate) id: Option<String>,
    pub(crate) data: String,
}

/// A line or an event longer than the limit: the stream must be dropped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooLarge(pub(crate) usize);

/// An incremental event-stream parser.
pub(crate) struct Parser {
    /// The bytes of the line not ended yet (never more than `max`).
    line: Vec<u8>,
    current: Event,
    has_data: bool,
    /// The most bytes of a line, and of an event's data.
    max: usize,
    /// The id of the last event with one (kept across events).
    pub(crate) last_id: Option<String>,
    /// The last `retry:` delay, in milliseconds.
    pub(crate) retry: Option<u64>,
}

impl Parser {
    /// A parser refusing lines and events of more than `max` bytes.
    pub(crate) fn new(max: usize) -> Parser {
        Parser {
            line: Vec::new(),
            current: Event::default(),
            has_data: false,
            max,
            last_id: None,
            retry: None,
        }
    }

    /// Feeds bytes; returns the events they complete, or [`TooLarge`] once a line or an event
    /// is over the limit (the parser is then unusable).
    pub(crate) fn feed(&mut self, bytes: &[u8]) -> Result<Vec<Event>, TooLarge> {
        let mut events = Vec::new();
        let mut rest = bytes;
        while let Some(end) = rest.iter().position(|b| *b == b'\n') {
            let (head, tail) = rest.split_at(end);
            rest = &tail[1..];
            if self.line.is_empty() {
                self.check(head.len())?;
                self.line_ended(head, &mut events)?;
            } else {
                self.check(self.line.len() + head.len())?;
                let mut line = std::mem::take(&mut self.line);
                line.extend_from_slice(head);
                self.line_ended(&line, &mut events)?;
                line.clear();
                self.line = line; // keeps its allocation
            }
        }
        self.check(self.line.len() + rest.len())?;
        self.line.extend_from_slice(rest);
        Ok(events)
    }

    fn check(&self, len: usize) -> Result<(), TooLarge> {
        match len > self.max {
            true => Err(TooLarge(self.max)),
            false => Ok(()),
        }
    }

    /// One complete line (without its `\n`).
    fn line_ended(&mut self, line: &[u8], events: &mut Vec<Event>) -> Result<(), TooLarge> {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.is_empty() {
            if self.has_data {
                events.push(std::mem::take(&mut self.current));
            } else {
                self.current = Event::default();
            }
            self.has_data = false;
            return Ok(());
        }
        if line.starts_with(b":") {
            return Ok(());
        }
        let (field, value) = match line.iter().position(|b| *b == b':') {
            Some(colon) => {
                let value = &line[colon + 1..];
                (&line[..colon], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &b""[..]),
        };
        let value = String::from_utf8_lossy(value);
        match field {
            b"data" => {
                let separator = usize::from(self.has_data);
                self.check(self.current.data.len() + separator + value.len())?;
                if self.has_data {
                    self.current.data.push('\n');
                }
                self.current.data.push_str(&value);
                self.has_data = true;
            }
            b"event" => self.current.event = Some(value.into_owned()),
            b"id" => {
                self.current.id = Some(value.clone().into_owned());
                self.last_id = Some(value.into_owned());
            }
            b"retry" => self.retry = value.trim().parse().ok().or(self.retry),
            _ => {}
        }
        Ok(())
    }
}

/// How a forwarded stream ended.
#[derive(Debug, Default)]
pub(crate) struct Ended {
    /// Whether a response (a message with `result` or `error`) went by.
    pub(crate) answered: bool,
    /// How many messages went by.
    pub(crate) messages: usize,
    /// Set when the stream was dropped for a line or an event over the limit.
    pub(crate) too_large: Option<TooLarge>,
}

/// Forwards every JSON-RPC message of an event stream to `inbox` (as come on the stream of the
/// client's request `during`, when it is one's answer stream), until the stream ends, a line
/// or an event is over the parser's limit (the body is then dropped, which closes the
/// connection), or the inbox is gone. A full inbox holds the reading back.
pub(crate) async fn forward<S, B, E>(
    body: S,
    parser: &mut Parser,
    inbox: &InboxSender,
    during: Option<i64>,
) -> Ended
where
    S: Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    let mut body = body;
    let mut ended = Ended::default();
    while let Some(Ok(chunk)) = body.next().await {
        let events = match parser.feed(chunk.as_ref()) {
            Ok(events) => events,
            Err(too_large) => {
                ended.too_large = Some(too_large);
                return ended;
            }
        };
        for event in events {
            let is_message = matches!(event.event.as_deref(), None | Some("message"));
            if !is_message || event.data.trim().is_empty() {
                continue;
            }
            ended.answered |= is_response(&event.data);
            ended.messages += 1;
            let text = event.data;
            if inbox.send(Received { text, during }).await.is_err() {
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
        let mut parser = Parser::new(1024);
        let mut events = parser
            .feed(b"id: e-1\nretry: 500\ndata: \n\n: ping\n\nevent: message\nda")
            .unwrap();
        events.extend(
            parser
                .feed(b"ta: {\"a\":1}\r\n\r\ndata: x\ndata: y\n\n")
                .unwrap(),
        );
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

    #[test]
    fn an_event_split_into_single_bytes_parses_the_same() {
        let mut parser = Parser::new(64);
        let mut events = Vec::new();
        for byte in b"event: message\r\ndata: {\"a\":1}\r\n\r\n" {
            events.extend(parser.feed(&[*byte]).unwrap());
        }
        assert_eq!(events.len(), 1);
        assert_eq!(events[0].data, "{\"a\":1}");
    }

    #[test]
    fn a_line_without_end_is_refused_once_over_the_limit() {
        let mut parser = Parser::new(16);
        assert_eq!(parser.feed(b"data: 0123456789").unwrap(), []);
        assert_eq!(parser.feed(b"x"), Err(TooLarge(16)));
        // One chunk holding a whole over-long line.
        let mut parser = Parser::new(16);
        assert_eq!(parser.feed(b"data: 0123456789abcdef\n"), Err(TooLarge(16)));
        // At the limit exactly, it is fine.
        let mut parser = Parser::new(16);
        assert_eq!(parser.feed(b"data: 0123456789\n\n").unwrap().len(), 1);
    }

    #[test]
    fn an_event_of_many_short_lines_is_refused_once_over_the_limit() {
        let mut parser = Parser::new(16);
        assert_eq!(parser.feed(b"data: 01234\ndata: 5678\n").unwrap(), []);
        assert_eq!(parser.feed(b"data: 9abcdef\n"), Err(TooLarge(16)));
        // Comments and other fields do not add up.
        let mut parser = Parser::new(16);
        for _ in 0..100 {
            assert_eq!(parser.feed(b": keep-alive\nevent: x\n").unwrap(), []);
        }
    }
}
