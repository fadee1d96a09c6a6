//! A handler's run as one future ([`Running`]): the handler's own future polled under
//! `catch_unwind`, and what the call owes once it ends, done in the same poll.

use crate::error::ToolError;
use crate::resolve::Stop;
use crate::resolve::run::panic_message;
use crate::server::handler::CallKept;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Poll, ready};

/// A handler's run ([`run`](super::runner::run)): its future (`None` when the handler panicked
/// while it made it), and what the call needs once that future ends.
///
/// One future in place of an `async` block around a caught future: a call's future is polled
/// through every future around it on each wake-up, and each level costs a poll.
pub(crate) struct Running<F> {
    /// The handler's future; `None` once it panicked, or when it panicked before it was made.
    future: Option<F>,
    /// What ran, for the log and the failure a panic becomes (`"the tool"`).
    what: &'static str,
    /// The call's kept arguments, its context (whose open URL-mode elicitations are completed
    /// at the end) and the protocol error its body raised.
    kept: Arc<CallKept>,
}

impl<F> Running<F> {
    /// The run of `future` (`None`: the handler panicked making it, and the run fails at once).
    pub(crate) fn new(future: Option<F>, what: &'static str, kept: Arc<CallKept>) -> Self {
        Self { future, what, kept }
    }
}

impl<T, F> Future for Running<F>
where
    F: Future<Output = Result<T, Stop>> + Unpin,
{
    type Output = Result<T, Stop>;

    fn poll(mut self: Pin<&mut Self>, cx: &mut std::task::Context<'_>) -> Poll<Self::Output> {
        let this = &mut *self;
        let outcome = match this.future.as_mut() {
            None => None,
            Some(future) => {
                let polled =
                    std::panic::catch_unwind(AssertUnwindSafe(|| Pin::new(future).poll(cx)));
                match polled {
                    Ok(polled) => Some(ready!(polled)),
                    Err(panic) => {
                        let what = this.what;
                        tracing::error!(what, panic = panic_message(&panic), "handler panicked");
                        None
                    }
                }
            }
        };
        this.future = None;
        let what = this.what;
        let outcome = outcome
            .unwrap_or_else(|| Err(Stop::Failed(ToolError::new(format!("{what} panicked")))));
        // A context nothing asked for started no elicitation.
        if let Some(context) = this.kept.context.if_made() {
            context.complete_open_elicitations();
        }
        Poll::Ready(match this.kept.raised.get() {
            Some(error) if outcome.is_ok() => Err(Stop::Protocol(error.clone())),
            _ => outcome,
        })
    }
}
