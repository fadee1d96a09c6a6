//! What a connection is doing, for its watcher ([`super::serve`]) to read when the connection's
//! deadline passes: how many requests it started (its front was handed a request head), how
//! many of their answers it finished (the answer's body was written out whole, or dropped),
//! and whether a request's body is being read, with how many of its frames came so far.
//! A connection with no request started since its last deadline and none unfinished has been
//! idle, or slow to send a request's head, for that long; one whose request's body brought
//! nothing since then has stalled.
//!
//! Counters a request bumps once each (and a body once a frame), with nothing allocated: what
//! the per-request timer of hyper's `header_read_timeout` would cost (about 1 700 instructions
//! a call, measured with `scripts/layer-cost`) the connection's one timer does not.

use super::answer_body::{Answer, AnswerBody};
use hyper::body::{Body as HttpBody, Frame, SizeHint};
use std::convert::Infallible;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll};

/// A connection's requests, started and finished, and the body being read.
#[derive(Debug, Default)]
pub(super) struct Activity {
    started: AtomicU64,
    finished: AtomicU64,
    /// Frames of request bodies received (and their ends).
    frames: AtomicU64,
    /// Whether a request's body is being read: its head came, its end has not (HTTP/1.1
    /// serves one request of a connection at a time).
    reading: AtomicBool,
}

/// What a connection's watcher reads of its [`Activity`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Seen {
    /// Requests started.
    pub(super) started: u64,
    /// Whether every answer started is finished.
    pub(super) all_finished: bool,
    /// Request body frames received.
    pub(super) frames: u64,
    /// Whether a request's body is being read.
    pub(super) reading: bool,
}

impl Activity {
    /// A request starts: its answer counts as finished once the returned guard is dropped.
    pub(super) fn start(self: &Arc<Self>) -> Finishing {
        self.started.fetch_add(1, Ordering::Relaxed);
        Finishing(Arc::clone(self))
    }

    /// What the connection did so far.
    pub(super) fn read(&self) -> Seen {
        let finished = self.finished.load(Ordering::Acquire);
        let started = self.started.load(Ordering::Relaxed);
        Seen {
            started,
            all_finished: started == finished,
            frames: self.frames.load(Ordering::Relaxed),
            reading: self.reading.load(Ordering::Relaxed),
        }
    }

    /// `body`, the body of a request that just started, counted as it is read.
    pub(super) fn reading<B: HttpBody>(self: &Arc<Self>, body: B) -> Read<B> {
        let reading = !body.is_end_stream();
        self.reading.store(reading, Ordering::Relaxed);
        Read {
            body,
            activity: reading.then(|| Arc::clone(self)),
        }
    }
}

pin_project_lite::pin_project! {
    /// A request's body, counting its frames in its connection's [`Activity`] until its end
    /// (or until it is dropped).
    pub(super) struct Read<B> {
        #[pin]
        body: B,
        // `None` once the body ended.
        activity: Option<Arc<Activity>>,
    }

    impl<B> PinnedDrop for Read<B> {
        fn drop(this: Pin<&mut Self>) {
            if let Some(activity) = this.project().activity.take() {
                activity.reading.store(false, Ordering::Relaxed);
            }
        }
    }
}

impl<B: HttpBody> HttpBody for Read<B> {
    type Data = B::Data;
    type Error = B::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        let mut this = self.project();
        let frame = std::task::ready!(this.body.as_mut().poll_frame(cx));
        if let Some(activity) = this.activity.as_ref() {
            activity.frames.fetch_add(1, Ordering::Relaxed);
            if frame.is_none() || this.body.is_end_stream() {
                activity.reading.store(false, Ordering::Relaxed);
                *this.activity = None;
            }
        }
        Poll::Ready(frame)
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
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
    F: Future<Output = Result<Answer, Infallible>>,
{
    type Output = Result<http::Response<Counted>, Infallible>;

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
        body: AnswerBody,
        _finishing: Option<Finishing>,
    }
}

impl HttpBody for Counted {
    type Data = bytes::Bytes;
    type Error = axum::Error;

    #[inline]
    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Self::Data>, Self::Error>>> {
        self.project().body.poll_frame(cx)
    }

    #[inline]
    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    #[inline]
    fn size_hint(&self) -> SizeHint {
        self.body.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn requests(activity: &Activity) -> (u64, bool) {
        let seen = activity.read();
        (seen.started, seen.all_finished)
    }

    #[tokio::test]
    async fn a_request_is_finished_once_its_answer_body_is_dropped() {
        let activity = Arc::new(Activity::default());
        assert_eq!(requests(&activity), (0, true));
        let answer = std::future::ready(Ok(super::super::answer_body::json(
            http::StatusCode::OK,
            "x".to_owned(),
        )));
        let answering = Answering::new(answer, activity.start());
        assert_eq!(requests(&activity), (1, false), "started, not finished");
        let Ok(response) = answering.await;
        assert_eq!(
            requests(&activity),
            (1, false),
            "answered, body not yet written"
        );
        drop(response);
        assert_eq!(requests(&activity), (1, true));
        // An answer dropped before it was made finishes its request too.
        let never = std::future::pending::<Result<Answer, Infallible>>();
        drop(Answering::new(never, activity.start()));
        assert_eq!(requests(&activity), (2, true));
    }

    /// A body of two chunks, then its end.
    fn two_chunks() -> impl HttpBody<Data = bytes::Bytes, Error = Infallible> {
        let frames: Vec<Result<_, Infallible>> = vec![
            Ok(Frame::data(bytes::Bytes::from_static(b"ab"))),
            Ok(Frame::data(bytes::Bytes::from_static(b"cd"))),
        ];
        http_body_util::StreamBody::new(futures_util::stream::iter(frames))
    }

    #[tokio::test]
    async fn a_body_is_read_until_its_end_and_each_frame_counted() {
        use http_body_util::BodyExt;
        let activity = Arc::new(Activity::default());
        let mut body = std::pin::pin!(activity.reading(two_chunks()));
        assert!(activity.read().reading);
        assert!(body.frame().await.is_some());
        let seen = activity.read();
        assert_eq!((seen.frames, seen.reading), (1, true));
        assert!(body.frame().await.is_some());
        assert!(body.frame().await.is_none());
        let seen = activity.read();
        assert_eq!((seen.frames, seen.reading), (3, false), "ended");
        // A body dropped before its end is no longer read; an empty one never was.
        let body = activity.reading(two_chunks());
        assert!(activity.read().reading);
        drop(body);
        assert!(!activity.read().reading);
        let _empty = activity.reading(http_body_util::Empty::<bytes::Bytes>::new());
        assert!(!activity.read().reading);
    }
}
