//! The kept-alive connections of one plain `http://` endpoint ([`direct`](super::direct)), and
//! the answer body that gives its connection back once it has been read to its end.
//!
//! An HTTP/1.1 connection carries one exchange at a time, so a connection is idle, and may take
//! the next request, only once its last answer's body has been read whole. The body does that
//! ([`Returning`]): at its end, or when it is dropped already ended (an answer without a body,
//! such as a `202`), its connection goes back to the endpoint's idle list. A body dropped before
//! its end takes its connection with it, and hyper closes that connection. At most
//! [`MAX_IDLE`] connections are kept idle per endpoint; one more is closed.

use bytes::Bytes;
use futures_util::Stream;
use http_body_util::Full;
use hyper::body::{Body, Incoming};
use hyper::client::conn::http1::SendRequest;
use std::pin::Pin;
use std::sync::{Arc, Mutex, PoisonError};
use std::task::{Context, Poll, ready};

/// The most idle connections kept per endpoint.
pub(crate) const MAX_IDLE: usize = 32;

/// A connection's sending half.
pub(crate) type Sender = SendRequest<Full<Bytes>>;

/// The idle connections of one endpoint, the most recently used last.
#[derive(Default)]
pub(crate) struct Idle {
    senders: Mutex<Vec<Sender>>,
}

impl Idle {
    /// The most recently used idle connection that is still open.
    pub(crate) fn take(&self) -> Option<Sender> {
        let mut senders = self.senders.lock().unwrap_or_else(PoisonError::into_inner);
        while let Some(sender) = senders.pop() {
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
        let mut senders = self.senders.lock().unwrap_or_else(PoisonError::into_inner);
        if senders.len() < MAX_IDLE {
            senders.push(sender);
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
        if self.body.is_end_stream() {
            self.give_back();
        }
    }
}
