//! A request's work as its response holds it: the handler's future, boxed once where it is made,
//! and what becomes of it when the response is dropped before it finished.
//!
//! A 2026-07-28 request's is dropped with it: closing the response cancels the request. A
//! 2025-11-25 session's runs to its end: a client that closes its connection does not cancel
//! its request (`notifications/cancelled` does), so work dropped unfinished is handed to a task
//! of its own to finish.

use crate::dispatch::reply::Reply;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

/// A request's work, giving its reply (`None` when it was cancelled), polled where the response
/// is.
pub(super) struct Work<T: 'static = Option<Reply>> {
    /// `None` once it finished.
    future: Option<Pin<Box<dyn Future<Output = T> + Send>>>,
    /// Whether, dropped unfinished, it is spawned to finish (its output then dropped: nobody
    /// waits for it any more) rather than dropped.
    runs_to_end: bool,
}

impl<T: 'static> Work<T> {
    /// `work`, not started, cancelled when dropped unfinished.
    pub(super) fn cancelled_on_drop(work: impl Future<Output = T> + Send + 'static) -> Self {
        Self {
            future: Some(Box::pin(work)),
            runs_to_end: false,
        }
    }

    /// `work`, not started, run to its end on a task of its own when dropped unfinished.
    pub(super) fn runs_to_end(work: impl Future<Output = T> + Send + 'static) -> Self {
        Self {
            future: Some(Box::pin(work)),
            runs_to_end: true,
        }
    }
}

impl<T: 'static> Future for Work<T> {
    type Output = T;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<T> {
        let running = self.future.as_mut().expect("polled after it finished");
        let output = ready!(running.as_mut().poll(cx));
        self.future = None;
        Poll::Ready(output)
    }
}

impl<T: 'static> Drop for Work<T> {
    fn drop(&mut self) {
        // Outside a runtime (the server is gone), the work goes with it.
        if self.runs_to_end
            && let Some(rest) = self.future.take()
            && let Ok(runtime) = tokio::runtime::Handle::try_current()
        {
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
        assert_eq!(Work::runs_to_end(async { 5 }).await, 5);

        let (go, gate) = oneshot::channel::<()>();
        let (done, finished) = oneshot::channel();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let mut work = Work::runs_to_end(async move {
            let _ = gate.await;
            flag.store(true, Ordering::SeqCst);
            let _ = done.send(());
            7
        });
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
        assert_eq!(Work::cancelled_on_drop(async { 5 }).await, 5);

        let (go, gate) = oneshot::channel::<()>();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let mut work = Work::cancelled_on_drop(async move {
            let _ = gate.await;
            flag.store(true, Ordering::SeqCst);
        });
        assert!(futures_util::poll!(&mut work).is_pending());
        drop(work);
        // Its gate's receiver went with it: dropped, not handed on.
        assert!(go.send(()).is_err());
        assert!(!ran.load(Ordering::SeqCst));
    }
}
