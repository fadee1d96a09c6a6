//! What a connection is doing, for its watcher ([`super::serve`]) to read when the connection's
//! deadline passes: how many requests it started (its front was handed a request head) and
//! how many of their answers it finished (the answer's body was written out whole, or
//! dropped). A connection with no request started since its last deadline and none
//! unfinished has been idle, or slow to send a request's head, for that long.
//!
//! Two counters a request bumps once each, with nothing allocated: what the per-request timer
//! of hyper's `header_read_timeout` would cost (about 1 700 instructions a call, measured with
//! `scripts/layer-cost`) the connection's one timer does not.

use axum::body::Body;
use axum::response::Response;
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};

/// A connection's requests, started and finished.
#[derive(Debug, Default)]
pub(super) struct Activity {
    started: AtomicU64,
    finished: AtomicU64,
}

impl Activity {
    /// A request starts: its answer counts as finished once the returned guard is dropped.
    pub(super) fn start(self: &Arc<Self>) -> Finishing {
        self.started.fetch_add(1, Ordering::Relaxed);
        Finishing(Arc::clone(self))
    }

    /// How many requests started, and whether all of them finished.
    pub(super) fn read(&self) -> (u64, bool) {
        let finished = self.finished.load(Ordering::Acquire);
        let started = self.started.load(Ordering::Relaxed);
        (started, started == finished)
    }
}

/// Counts its request's answer as finished when dropped.
#[derive(Debug)]
pub(super) struct Finishing(Arc<Activity>);

impl Drop for Finishing {
    fn drop(&mut self) {
        self.0.finished.fetch_add(1, Ordering::Release);
    }
}

pin_project_lite::pin_project! {
    /// The answer to a request, whose body counts the request as finished once it is written
    /// out (hyper drops a body at its end) or dropped.
    pub(super) struct Answering<F> {
        #[pin]
        answer: F,
        finishing: Option<Finishing>,
    }
}

impl<F> Answering<F> {
    /// `answer`, whose request `finishing` counts.
    pub(super) fn new(answer: F, finishing: Finishing) -> Self {
        Self {
            answer,
            finishing: Some(finishing),
        }
    }
}

impl<F> Future for Answering<F>
where
    F: Future<Output = Result<Response, Infallible>>,
{
    type Output = Result<Response<Counted>, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let Ok(response) = std::task::ready!(this.answer.poll(cx));
        let finishing = this.finishing.take();
        Poll::Ready(Ok(response.map(|body| Counted {
            body,
            _finishing: finishing,
        })))
    }
}

pin_project_lite::pin_project! {
    /// An answer's body, which counts its request as finished when dropped.
    pub(super) struct Counted {
        #[pin]
        body: Body,
        _finishing: Option<Finishing>,
    }
}

impl HttpBody for Counted {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().body.poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_request_is_finished_once_its_answer_body_is_dropped() {
        let activity = Arc::new(Activity::default());
        assert_eq!(activity.read(), (0, true));
        let answer = std::future::ready(Ok(Response::new(Body::from("x"))));
        let answering = Answering::new(answer, activity.start());
        assert_eq!(activity.read(), (1, false), "started, not finished");
        let Ok(response) = answering.await;
        assert_eq!(
            activity.read(),
            (1, false),
            "answered, its body not yet written"
        );
        drop(response);
        assert_eq!(activity.read(), (1, true));
        // An answer dropped before it was made finishes its request too.
        drop(Answering::new(
            std::future::pending::<Result<Response, Infallible>>(),
            activity.start(),
        ));
        assert_eq!(activity.read(), (2, true));
    }
}
