//! The kept-alive connections of one plain `http://` endpoint ([`direct`](super::direct)), and
//! the answer body that gives its connection back once it has been read to its end.
//!
//! An HTTP/1.1 connection carries one exchange at a time, so a connection may take the next
//! request only once its last answer's body has been read whole. The body gives its connection
//! back to the endpoint's idle list ([`Returning`]) at its end, or when it is dropped: an answer
//! without a body (a `202`), or an event stream its reader left once the answer it waited for
//! went by. hyper then reads what is left of a dropped body if it has already arrived (the end
//! of a stream, typically), and closes the connection otherwise; a request taken from the list
//! waits for the connection to be ready, and leaves it for another when it closed. At most
//! [`MAX_IDLE`] connections are kept idle per endpoint (one more is closed), none of them for
//! longer than [`IDLE_FOR`] (hyper-util's pool's default): one idle longer is closed when a
//! connection is next taken or given back. Calls in flight together each hold a connection, and
//! a 2025-11-25 call whose server asks something holds two (its stream, and the answer's POST):
//! the bound keeps that many for the next ones rather than opening them again.

use bytes::Bytes;
use futures_util::Stream;
use http_body_util::Full;
use hyper::body::{Body, Incoming};
use hyper::client::conn::http1::SendRequest;
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};
use std::time::{Duration, Instant};

/// The most idle connections kept per endpoint.
pub(crate) const MAX_IDLE: usize = 128;

/// How long a connection is kept idle.
pub(crate) const IDLE_FOR: Duration = Duration::from_secs(90);

/// A connection's sending half.
pub(crate) type Sender = SendRequest<Full<Bytes>>;

/// The idle connections of one endpoint, each with when it was given back, the most recently
/// used last.
#[derive(Default)]
pub(crate) struct Idle {
    senders: Mutex<VecDeque<(Sender, Instant)>>,
}

impl Idle {
    /// The most recently used idle connection that is still open.
    pub(crate) fn take(&self) -> Option<Sender> {
        let now = Instant::now();
        let mut senders = self.senders.lock().unwrap_or_else(PoisonError::into_inner);
        expire(&mut senders, now);
        while let Some((sender, _)) = senders.pop_back() {
            if !sender.is_closed() {
                return Some(sender);
            }
        }
        None
    }

    /// Keeps `sender` for the next request, unless it is closed or [`MAX_IDLE`] are kept.
    fn give_back(&self, sender: Sender) {
        if sender.is_closed() {
            return;
        }
        let now = Instant::now();
        let mut senders = self.senders.lock().unwrap_or_else(PoisonError::into_inner);
        expire(&mut senders, now);
        if senders.len() < MAX_IDLE {
            senders.push_back((sender, now));
        }
    }

    /// How many connections are idle.
    #[cfg(test)]
    pub(crate) fn count(&self) -> usize {
        self.senders
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .len()
    }
}

/// Closes the connections idle for longer than [`IDLE_FOR`] (the oldest are first).
fn expire<T>(idle: &mut VecDeque<(T, Instant)>, now: Instant) {
    while idle
        .front()
        .is_some_and(|(_, since)| now.saturating_duration_since(*since) > IDLE_FOR)
    {
        idle.pop_front();
    }
}

/// An answer's body, whose connection goes back to `idle` once the body has ended.
pub(crate) struct Returning {
    body: Incoming,
    connection: Option<(Sender, Arc<Idle>)>,
}

impl Returning {
    /// `body`, read on `sender`'s connection, which goes back to `idle` at the body's end.
    pub(crate) fn new(body: Incoming, sender: Sender, idle: Arc<Idle>) -> Self {
        Self {
            body,
            connection: Some((sender, idle)),
        }
    }

    /// The body's length, when its head says it.
    pub(crate) fn exact_length(&self) -> Option<u64> {
        self.body.size_hint().exact()
    }

    fn give_back(&mut self) {
        if let Some((sender, idle)) = self.connection.take() {
            idle.give_back(sender);
        }
    }
}

impl Stream for Returning {
    type Item = Result<Bytes, hyper::Error>;

    /// The body's data, frame by frame (trailers are skipped).
    fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        loop {
            match ready!(Pin::new(&mut self.body).poll_frame(cx)) {
                Some(Ok(frame)) => {
                    if let Ok(data) = frame.into_data() {
                        return Poll::Ready(Some(Ok(data)));
                    }
                }
                Some(Err(error)) => {
                    // A connection whose answer broke off is not used again.
                    self.connection = None;
                    return Poll::Ready(Some(Err(error)));
                }
                None => {
                    self.give_back();
                    return Poll::Ready(None);
                }
            }
        }
    }
}

impl Drop for Returning {
    fn drop(&mut self) {
        self.give_back();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_was_idle_for_longer_than_the_bound_is_closed() {
        let start = Instant::now();
        let mut idle: VecDeque<(u32, Instant)> = VecDeque::new();
        idle.push_back((1, start));
        idle.push_back((2, start + Duration::from_secs(30)));
        idle.push_back((3, start + Duration::from_secs(60)));
        expire(&mut idle, start + IDLE_FOR);
        assert_eq!(idle.len(), 3, "exactly the bound is not longer than it");
        expire(&mut idle, start + IDLE_FOR + Duration::from_secs(31));
        assert_eq!(idle.iter().map(|(n, _)| *n).collect::<Vec<_>>(), [3]);
        expire(&mut idle, start + Duration::from_secs(3600));
        assert!(idle.is_empty());
    }
}
