//! A session request's work, run inside its response: a 2025-11-25 client that closes its
//! connection does not cancel its request (`notifications/cancelled` does), so work dropped
//! before it finished is handed to a task of its own to run to its end.

use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

/// `F`, polled where the response is; dropped unfinished, spawned to finish (its output is
/// dropped: nobody waits for it any more).
pub(super) struct RunsToEnd<F: Future + Send + 'static>(Option<Pin<Box<F>>>);

impl<F: Future + Send + 'static> RunsToEnd<F> {
    /// `work`, not started.
    pub(super) fn new(work: F) -> Self {
        Self(Some(Box::pin(work)))
    }
}

impl<F: Future + Send + 'static> Future for RunsToEnd<F> {
    type Output = F::Output;

    fn poll(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let running = self.0.as_mut().expect("polled after it finished");
        let output = ready!(running.as_mut().poll(cx));
        self.0 = None;
        Poll::Ready(output)
    }
}

impl<F: Future + Send + 'static> Drop for RunsToEnd<F> {
    fn drop(&mut self) {
        // Outside a runtime (the server is gone), the work goes with it.
        if let Some(rest) = self.0.take()
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
        assert_eq!(RunsToEnd::new(async { 5 }).await, 5);

        let (go, gate) = oneshot::channel::<()>();
        let (done, finished) = oneshot::channel();
        let ran = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&ran);
        let mut work = RunsToEnd::new(async move {
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
}
