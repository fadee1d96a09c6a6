//! [`Work`]: what a request asks for (its method's own code, a handler's call included), carried
//! by the request down the stack and run by the bottom of it, on what of the request the layers
//! passed on ([`Handed`]). It owns all it needs, so the stack may hold it across awaits, spawn
//! it, or drop it (a timeout drops the handler with it).

use super::McpResponse;
use crate::context::Context;
use serde_json::value::RawValue;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// What layers keep alive for as long as the work a request started runs on after its response:
/// the body of a `tools/call` that became a task (tasks extension) drops it when it ends. A
/// built-in [`ConcurrencyLimit`](super::ConcurrencyLimit) keeps its place there.
pub(crate) type Kept = Arc<std::sync::Mutex<Vec<Box<dyn Send>>>>;

/// What of a request the bottom of the stack starts its work on: what the handler runs on (the
/// rest is dropped there).
pub(crate) struct Handed {
    pub(crate) arguments: Option<Box<RawValue>>,
    pub(crate) context: Context,
    /// What the layers keep alive while a task the request starts runs (made by the first
    /// layer that keeps something: nothing is allocated otherwise).
    pub(crate) kept: Option<Kept>,
}

/// The future of a request's work.
pub(crate) type WorkFuture = Pin<Box<dyn Future<Output = McpResponse> + Send>>;

/// A request's work, started by the bottom of the stack.
pub(crate) struct Work(Box<dyn FnOnce(Handed) -> WorkFuture + Send>);

impl Work {
    /// The work `start` begins on what of the request reached the bottom of the stack.
    pub(crate) fn new<F, Fut>(start: F) -> Self
    where
        F: FnOnce(Handed) -> Fut + Send + 'static,
        Fut: Future<Output = McpResponse> + Send + 'static,
    {
        Self(Box::new(move |handed| Box::pin(start(handed))))
    }

    /// Begins the work.
    pub(crate) fn start(self, handed: Handed) -> WorkFuture {
        (self.0)(handed)
    }
}
