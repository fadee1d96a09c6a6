//! A request's work as its response holds it: the handler's future (`Unpin`: a tool call's as it
//! is, any other boxed once where it is made), and what becomes of it when the response is
//! dropped before it finished.
//!
//! A 2026-07-28 request's is dropped with it: closing the response cancels the request. A
//! 2025-11-25 session's runs to its end: a client that closes its connection does not cancel
//! its request (`notifications/cancelled` does), so work dropped unfinished is handed to a task
//! of its own to finish.

use crate::dispatch::reply::Reply;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

/// A request's work, boxed ([`boxed`]).
pub(super) type Boxed<T = Option<Reply>> = Pin<Box<dyn Future<Output = T> + Send>>;

/// A request's work (`future`, giving its reply: `None` when it was cancelled), polled where the
/// response is. Its future is `Unpin`, so that the work moves into an event stream as it is: a
/// request's own future is boxed once where it is made ([`boxed`]); a tool call's
/// ([`ToolCall`](crate::dispatch::tool_call::ToolCall)) is `Unpin` of itself, and is held as it
/// is.
pub(super) struct Work<F = Boxed>
where
    F: Future + Unpin + Send + 'static,
    F::Output: Send,
{
    /// `None` once it finished.
    future: Option<F>,
    /// Whether, dropped unfinished, it is spawned to finish (its output then dropped: nobody
    /// waits for it any more) rather than dropped.
    runs_to_end: bool,
}

/// `work` boxed, as a request's own future is held in its [`Work`].
pub(super) fn boxed<T>(work: impl Future<Output = T> + Send + 'static) -> Boxed<T> {
    Box::pin(work)
}

impl<F> Work<F>
where
    F: Future + Unpin + Send + 'static,
    F::Output: Send,
{
    /// `work`, not started, cancelled when dropped unfinished.
    pub(super) fn cancelled_on_drop(work: F) -> Self {
        Self {
            future: Some(work),
            runs_to_end: false,
        }
    }

    /// `work`, not started, run to its end on a task of its own when dropped unfinished.
    pub(super) fn runs_to_end(work: F) -> Self {
        Self {
            future: Some(work),
            runs_to_end: true,
        }
    }
}

impl<F> Future for Work<F>
where
    F: Future + Unpin + Send + 'static,
    F::Output: Send,
{
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let running = self.future.as_mut().expect("polled after it finished");
        let output = ready!(Pin::new(running).poll(cx));
        self.future = None;
        Poll::Ready(output)
    }
}

impl<F> Drop for Work<F>
where
    F: Future + Unpin + Send + 'static,
    F::Output: Send,
{
    fn drop(&mut self) {
        let Some(rest) = self.future.take() else {
            return;
        };
        if !self.runs_to_end {
            tracing::debug!("the client closed its response; the request is cancelled");
            return;
        }
        // Outside a runtime (the server is gone), the work goes with it.
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                rest.await;
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
    use tokio::sync::oneshot;

    #[tokio::test]
    async fn finished_work_gives_its_output_and_dropped_work_runs_to_its_end() {
        assert_eq!(Work::runs_to_end(boxed(async { 5 })).await, 5);

        let (go, gate) = oneshot::channel::<()>();
        let (done, finished) = oneshot::channel();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let mut work = Work::runs_to_end(boxed(async move {
            let _ = gate.await;
            flag.store(true, Ordering::SeqCst);
            let _ = done.send(());
            7
        }));
        // Started, then dropped halfway, as a closed response drops it.
        assert!(futures_util::poll!(&mut work).is_pending());
        drop(work);
        assert!(!ran.load(Ordering::SeqCst));
        go.send(()).unwrap();
        tokio::time::timeout(Duration::from_secs(10), finished)
            .await
            .expect("the dropped work finished on a task of its own")
            .unwrap();
        assert!(ran.load(Ordering::SeqCst));
    }

    #[tokio::test]
    async fn work_cancelled_on_drop_is_dropped_with_its_response() {
        assert_eq!(Work::cancelled_on_drop(boxed(async { 5 })).await, 5);

        let (go, gate) = oneshot::channel::<()>();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let mut work = Work::cancelled_on_drop(boxed(async move {
            let _ = gate.await;
            flag.store(true, Ordering::SeqCst);
        }));
        assert!(futures_util::poll!(&mut work).is_pending());
        drop(work);
        // Its gate's receiver went with it: dropped, not handed on.
        assert!(go.send(()).is_err());
        assert!(!ran.load(Ordering::SeqCst));
    }
}
