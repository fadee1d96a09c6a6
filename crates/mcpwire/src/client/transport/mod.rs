//! The client's bottom floor: what a connection must do (send one message, and deliver what
//! comes back to an inbox: responses, notifications, and on 2025-11-25 the server's own
//! requests, each with the request on whose stream it came, where it came on one), and the
//! connections themselves. Nothing here knows JSON-RPC ids, eras beyond what HTTP must put in
//! headers, or the client above.
//!
//! - `streams`: newline-delimited messages over any pair of byte streams;
//! - `stdio`: a child process on `streams`, its stderr tail, `first_output` (the `Auto` probe's
//!   clock starts at the child's first output);
//! - `http`: Streamable HTTP (`sse` reads event streams, `body` whole bodies, both bounded;
//!   `refusal` reads non-2xx answers; `direct` sends a plain `http://` endpoint's POSTs on
//!   hyper's connections, which `idle` keeps for the next, `answer` reads an answer from either
//!   client); it alone knows
//!   sessions, event streams and resumption, and asks `auth` for bearer tokens;
//! - `memory` (feature `server`): an `McpServer` in the same process.

mod answer;
mod body;
mod direct;
mod first_output;
pub(crate) mod http;
mod idle;
#[cfg(feature = "server")]
pub(crate) mod memory;
mod refusal;
mod sse;
pub(crate) mod stdio;
pub(crate) mod streams;

use crate::client::error::ClientError;
use crate::protocol::Era;
use std::future::Future;
use std::pin::Pin;
use std::time::Duration;

/// One message from the server, and the client's request (its [`Outgoing::call`] number) on
/// whose answer stream it came: on HTTP a server sends what it sends while handling a request
/// (progress, log messages, on 2025-11-25 its own requests) on that request's stream, though
/// the message may name no request. `None` where messages do not come per request (stdio, in
/// memory, the 2025-11-25 GET stream).
#[derive(Debug)]
pub(crate) struct Received {
    /// The serialized JSON-RPC message.
    pub(crate) text: String,
    /// The request whose stream it came on.
    pub(crate) during: Option<i64>,
}

impl From<String> for Received {
    /// A message that came on no request's stream.
    fn from(text: String) -> Self {
        Self { text, during: None }
    }
}

/// What the server sends, one message per item, in order.
pub(crate) type Inbox = tokio::sync::mpsc::Receiver<Received>;

/// The sending half of an [`Inbox`].
pub(crate) type InboxSender = tokio::sync::mpsc::Sender<Received>;

/// How many of the server's messages wait for the client's reader at most. Past it, whatever
/// reads from the server waits (back-pressure, down to TCP): nothing is dropped. The reader
/// routes each message without waiting, so the inbox is full only while it is starved of CPU.
pub(crate) const INBOX_CAPACITY: usize = 64;

/// A new inbox.
pub(crate) fn inbox() -> (InboxSender, Inbox) {
    tokio::sync::mpsc::channel(INBOX_CAPACITY)
}

/// A boxed, sendable future.
pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What kind of message is going out; HTTP treats them differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A request: a response is expected (on HTTP, in the POST's answer).
    Request,
    /// A notification.
    Notification,
    /// The client's answer to a server request (2025-11-25).
    Response,
}

/// One message for the server, with what an HTTP transport puts in headers.
#[derive(Debug)]
pub(crate) struct Outgoing {
    /// The serialized JSON-RPC message.
    pub(crate) body: String,
    /// What kind of message it is.
    pub(crate) kind: Kind,
    /// `MCP-Protocol-Version`, once known.
    pub(crate) protocol_version: Option<String>,
    /// Extra headers (2026-07-28: `Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`), values encoded.
    pub(crate) headers: Vec<(String, String)>,
    /// A request's number (the peer's), which what the server sends on its stream is
    /// delivered with ([`Received::during`]); `None` for other messages.
    pub(crate) call: Option<i64>,
}

/// Keeps a request's answer stream open; dropping it closes the stream (on 2026-07-28 HTTP,
/// that is how a request is cancelled). The task ends with whether the answer went by, or why
/// the stream was refused (e.g. an event over `max_message_bytes`).
pub(crate) struct StreamGuard(pub(crate) tokio::task::JoinHandle<Result<bool, ClientError>>);

impl StreamGuard {
    /// Waits for the stream to end: `Ok(true)` when the answer went by (or the task was lost),
    /// `Ok(false)` when it ended without it, the error when it was refused.
    pub(crate) async fn ended(&mut self) -> Result<bool, ClientError> {
        (&mut self.0).await.unwrap_or(Ok(true))
    }
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// What sending one message left its sender with.
pub(crate) enum Sent {
    /// Nothing to wait on here: whatever answers comes to the inbox.
    Nothing,
    /// The request's answer stream (HTTP), kept open while the guard lives; what comes on it is
    /// delivered to the inbox.
    Stream(StreamGuard),
    /// The answer itself, already read whole (a request's JSON body over HTTP): the sender
    /// routes it as the inbox's reader would, without handing it to another task.
    Answer(Received),
}

/// A connection to one server.
pub(crate) trait Transport: Send + Sync + 'static {
    /// Sends one message. On HTTP this is a POST: a JSON answer is handed back
    /// ([`Sent::Answer`]), a stream of events goes to the inbox while the guard keeps it open
    /// ([`Sent::Stream`]).
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Sent, ClientError>>;

    /// Whether a request is cancelled by `notifications/cancelled` (stdio, in-memory, 2025-11-25
    /// HTTP) rather than by closing its stream (2026-07-28 HTTP).
    fn cancels_by_notification(&self, era: Era) -> bool {
        let _ = era;
        true
    }

    /// Called once a 2025-11-25 session is open (HTTP: opens the GET stream, and resolves once
    /// the server has answered the GET, so that what the server sends on it right after is not
    /// lost).
    fn session_opened(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    /// Resolves when the `Auto` probe has waited long enough for its answer: `limit` from now,
    /// or on stdio `limit` from the server's first output (a server started by `npx` or a JVM
    /// may take long to say anything at all).
    fn probe_clock(&self, limit: Duration) -> BoxFuture<'_, ()> {
        Box::pin(tokio::time::sleep(limit))
    }

    /// Forgets the session (HTTP: the session id), before re-initializing.
    fn forget_session(&self) {}

    /// Ends the connection politely (stdio: close stdin, wait for the child, then kill it;
    /// 2025-11-25 HTTP: delete the session).
    fn close(&self) -> BoxFuture<'_, ()> {
        Box::pin(async {})
    }

    /// What is known about why the connection closed (e.g. the end of a child's stderr).
    fn closed_detail(&self) -> Option<String> {
        None
    }
}
