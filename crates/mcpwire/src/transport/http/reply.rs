//! How a request is answered: `application/json` when the handler finishes before sending
//! anything else, or a `text/event-stream` carrying its notifications (and, on a 2025-11-25
//! session, its requests to the client) and then its response.
//!
//! The handler's future lives inside the response, as its [`Work`]: when the client closes the
//! stream, the work is dropped. On 2026-07-28 that cancels the request; on a session the rest of
//! the work is handed to a task of its own, as a disconnect does not stop it there (the spec
//! asks for `notifications/cancelled`).

use super::answer_body::{self, Answer};
use super::response_work::{Boxed, Work};
use super::{challenge, sse};
use crate::context::LazyLines;
use crate::dispatch::reply::Reply;
use crate::protocol::Era;
use crate::protocol::jsonrpc::{ErrorObject, RequestId, code, error_line};
use axum::response::{IntoResponse, Response};
use http::StatusCode;
use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

/// The HTTP status of a JSON response: the 2026-07-28 mapping (unknown method `404`; header,
/// capability and version errors `400`), `200` for everything else and on 2025-11-25.
pub(super) fn status(era: Era, error_code: Option<i32>) -> StatusCode {
    match (era, error_code) {
        (Era::Modern, Some(code::METHOD_NOT_FOUND)) => StatusCode::NOT_FOUND,
        (
            Era::Modern,
            Some(
                code::HEADER_MISMATCH
                | code::MISSING_REQUIRED_CLIENT_CAPABILITY
                | code::UNSUPPORTED_PROTOCOL_VERSION,
            ),
        ) => StatusCode::BAD_REQUEST,
        _ => StatusCode::OK,
    }
}

/// A finished request's JSON response: a refusal of the scope decision is `403` with the
/// `insufficient_scope` challenge naming every scope the request needs (and the JSON-RPC error
/// as the body); anything else gets the revision's status for its error code.
pub(super) fn finished(era: Era, reply: Reply) -> Answer {
    match reply.refusal {
        Some(refusal) => {
            let metadata_url = refusal.metadata_url.as_deref();
            let challenge =
                challenge::insufficient_scope(metadata_url, &refusal.scopes, reply.line);
            answer_body::of(challenge)
        }
        None => answer_body::json(status(era, reply.error_code), reply.line),
    }
}

/// A JSON body with the given status, as axum serves it ([`answer_body::json`], boxed once).
pub(super) fn json(status: StatusCode, line: String) -> Response {
    answer_body::into_response(answer_body::json(status, line))
}

/// A JSON-RPC error body with the given status.
pub(super) fn error(status: StatusCode, id: Option<&RequestId>, error: &ErrorObject) -> Response {
    json(status, error_line(id, error))
}

/// A response without a body (`202 Accepted`, `405`, …).
pub(super) fn empty(status: StatusCode) -> Response {
    status.into_response()
}

/// A request's work as the response polls it: `Unpin`, giving the reply (`None`, or no reply
/// at all, when the request was cancelled).
pub(super) trait Working:
    Future<Output: Into<Option<Reply>> + Send> + Unpin + Send + 'static
{
}

impl<F> Working for F where F: Future<Output: Into<Option<Reply>> + Send> + Unpin + Send + 'static {}

/// How a request is answered, decided by what comes first: the handler's reply, or a line it
/// sends (a notification, or a request to the client) before it.
pub(super) enum Decision<F: Working = Boxed> {
    /// The handler finished first and sent nothing: a JSON response.
    Json(Reply),
    /// An event stream: the lines so far, the handler if it still runs, and its line source.
    Stream {
        queue: VecDeque<String>,
        work: Option<Work<F>>,
        lines: LazyLines,
    },
}

/// Waits for the handler's reply or its first line: [`Deciding`].
pub(super) fn decide<F: Working>(work: Work<F>, lines: LazyLines) -> Deciding<F> {
    Deciding {
        work: Some(work),
        lines: Some(lines),
        lines_ended: false,
    }
}

/// The wait for the handler's reply or its first line, as one future (`Unpin`, held where it is
/// made): the reply is looked at first, then the lines.
pub(super) struct Deciding<F: Working> {
    /// `None` once decided.
    work: Option<Work<F>>,
    lines: Option<LazyLines>,
    /// The lines' channel closed: only the reply is waited for.
    lines_ended: bool,
}

impl<F: Working> Future for Deciding<F> {
    type Output = Decision<F>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Decision<F>> {
        let this = self.get_mut();
        let work = this.work.as_mut().expect("polled after it decided");
        if let Poll::Ready(reply) = Pin::new(work).poll(cx) {
            this.work = None;
            let mut lines = this.lines.take().expect("polled after it decided");
            let mut queue = VecDeque::new();
            while let Some(line) = lines.try_recv() {
                queue.push_back(line);
            }
            if let Some(reply) = reply.into() {
                if queue.is_empty() {
                    return Poll::Ready(Decision::Json(reply));
                }
                queue.push_back(reply.line);
            }
            return Poll::Ready(Decision::Stream {
                queue,
                work: None,
                lines,
            });
        }
        if this.lines_ended {
            return Poll::Pending;
        }
        let lines = this.lines.as_mut().expect("polled after it decided");
        match lines.poll_recv(cx) {
            Poll::Ready(Some(first)) => Poll::Ready(Decision::Stream {
                queue: VecDeque::from([first]),
                work: this.work.take(),
                lines: this.lines.take().expect("polled after it decided"),
            }),
            Poll::Ready(None) => {
                this.lines_ended = true;
                Poll::Pending
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// Answers with JSON when `work` finishes before `lines` yields, else with SSE. `work` yields
/// `None` when the request was cancelled: the stream then ends without a response.
pub(super) fn answer<F: Working>(
    work: Work<F>,
    lines: LazyLines,
    era: Era,
    keep_alive: Duration,
) -> Answered<F> {
    Answered {
        deciding: decide(work, lines),
        era,
        keep_alive,
    }
}

/// A request's answer ([`answer`]), as one future: its decision, then the JSON response or
/// the event stream it decides.
pub(super) struct Answered<F: Working> {
    deciding: Deciding<F>,
    era: Era,
    keep_alive: Duration,
}

impl<F: Working> Future for Answered<F> {
    type Output = Answer;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Answer> {
        let this = self.get_mut();
        Poll::Ready(match ready!(Pin::new(&mut this.deciding).poll(cx)) {
            Decision::Json(reply) => finished(this.era, reply),
            Decision::Stream { queue, work, lines } => {
                let pump = Pump { queue, work, lines };
                answer_body::of(sse::stream(pump.into_stream(), this.keep_alive))
            }
        })
    }
}

/// Lines to send, the handler still running (if it is), and its outbound lines.
struct Pump<F: Working> {
    queue: VecDeque<String>,
    work: Option<Work<F>>,
    lines: LazyLines,
}

enum Step {
    Line(String),
    Done(Option<Reply>),
}

impl<F: Working> Pump<F> {
    fn into_stream(self) -> impl futures_util::Stream<Item = String> + Send + 'static {
        futures_util::stream::unfold(self, |mut pump| async move {
            loop {
                if let Some(line) = pump.queue.pop_front() {
                    return Some((line, pump));
                }
                let work = pump.work.as_mut()?;
                let step = tokio::select! {
                    biased;
                    Some(line) = pump.lines.recv() => Step::Line(line),
                    reply = work => Step::Done(reply.into()),
                };
                match step {
                    Step::Line(line) => return Some((line, pump)),
                    Step::Done(reply) => {
                        pump.work = None;
                        while let Some(line) = pump.lines.try_recv() {
                            pump.queue.push_back(line);
                        }
                        pump.queue.extend(reply.map(|reply| reply.line));
                    }
                }
            }
        })
    }
}
