//! [`Work`]: what a request asks for (its method's own code, a handler's call included), carried
//! by the request down the stack and run by the bottom of it, on what of the request the layers
//! passed on ([`Handed`]). It owns all it needs, so the stack may hold it across awaits, spawn
//! it, or drop it (a timeout drops the handler with it).

use super::McpResponse;
use crate::context::Context as RequestContext;
use crate::wire::shared_json::SharedJson;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

/// What layers keep alive for as long as the work a request started runs on after its response:
/// the body of a `tools/call` that became a task (tasks extension) drops it when it ends. A
/// built-in [`ConcurrencyLimit`](super::ConcurrencyLimit) keeps its place there.
pub(crate) type Kept = Arc<std::sync::Mutex<Vec<Box<dyn Send>>>>;

/// What of a request the bottom of the stack starts its work on: what the handler runs on (the
/// rest is dropped there).
pub(crate) struct Handed {
    pub(crate) arguments: Option<SharedJson>,
    pub(crate) context: RequestContext,
    /// What the layers keep alive while a task the request starts runs (made by the first
    /// layer that keeps something: nothing is allocated otherwise).
    pub(crate) kept: Option<Kept>,
}

/// The future of a request's work.
pub(crate) type WorkFuture = Pin<Box<dyn Startable>>;

/// A request's work, started by the bottom of the stack: one allocation, holding first the code
/// that starts it and then, in the same place, the future that code returns.
pub(crate) struct Work(WorkFuture);

impl Work {
    /// The work `start` begins on what of the request reached the bottom of the stack.
    pub(crate) fn new<F, Fut>(start: F) -> Self
    where
        F: FnOnce(Handed) -> Fut + Send + 'static,
        Fut: Future<Output = McpResponse> + Send + 'static,
    {
        Self(Box::pin(Stage::Waiting { start: Some(start) }))
    }

    /// Begins the work.
    pub(crate) fn start(self, handed: Handed) -> WorkFuture {
        let mut work = self.0;
        work.as_mut().hand(handed);
        work
    }
}

/// The work's future, which is first handed what it starts on.
pub(crate) trait Startable: Future<Output = McpResponse> + Send {
    /// Starts the work on what of the request reached the bottom of the stack: its future
    /// takes the place of the code that made it.
    fn hand(self: Pin<&mut Self>, handed: Handed);
}

pin_project_lite::pin_project! {
    /// Where a request's work is: waiting for what it starts on, or running.
    #[project = StageProjection]
    enum Stage<F, Fut> {
        Waiting { start: Option<F> },
        Running { #[pin] future: Fut },
    }
}

impl<F, Fut> Startable for Stage<F, Fut>
where
    F: FnOnce(Handed) -> Fut + Send,
    Fut: Future<Output = McpResponse> + Send,
{
    fn hand(mut self: Pin<&mut Self>, handed: Handed) {
        if let StageProjection::Waiting { start } = self.as_mut().project()
            && let Some(start) = start.take()
        {
            self.set(Stage::Running {
                future: start(handed),
            });
        }
    }
}

impl<F, Fut> Future for Stage<F, Fut>
where
    Fut: Future<Output = McpResponse>,
{
    type Output = McpResponse;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<McpResponse> {
        match self.project() {
            StageProjection::Running { future } => future.poll(cx),
            // `Work::start` hands the work its start before anything can poll it.
            StageProjection::Waiting { .. } => {
                unreachable!("a request's work is polled only once it was handed its start")
            }
        }
    }
}
