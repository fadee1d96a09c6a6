//! What a `Context` knows of the task it runs in (the 2026-07-28 tasks extension): the task's
//! id, its cancellation, and where its status message goes.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tokio_util::sync::CancellationToken;

/// Sets a running task's `statusMessage` (implemented by the task runtime).
pub(crate) trait StatusReporter: Send + Sync {
    /// Records `message` as the task's status message.
    fn report(&self, message: String) -> Pin<Box<dyn Future<Output = ()> + Send + '_>>;
}

/// The task a context's call runs as.
#[derive(Clone)]
pub(crate) struct TaskLink {
    /// The task's id, as the client knows it.
    pub(crate) id: Arc<str>,
    /// Cancelled by `tasks/cancel` (and by expiry).
    pub(crate) cancel: CancellationToken,
    /// Where progress goes: the task's status message.
    pub(crate) reporter: Arc<dyn StatusReporter>,
}
