//! [`RequestObserver`]: what a layer attaches to a request's [`Context`](super::Context) to
//! watch the work the core does for it below the layers: each resolver's run, a round that ends
//! in questions, and each request the server sends the client. Telemetry (`otel::Tracing`)
//! makes its child spans through it; the core knows nothing of telemetry.

use std::future::Future;
use std::pin::Pin;
use std::time::SystemTime;

/// Work the core hands an observer to run, and gets back (the observer may wrap it: run it
/// inside its span's context, time it).
pub type Observed = Pin<Box<dyn Future<Output = ()> + Send>>;

/// How a piece of observed work ended, as an observer may record it (never the texts of
/// errors: they may quote arguments or answers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Ending<'a> {
    /// It finished with a value (a resolver), or an answer (a request to the client).
    Done,
    /// A resolver asked the client a question (a 2026-07-28 round ends with it).
    Asked,
    /// It failed; `kind` names how (`resolver_error`, `timeout`, `disconnected`, or a JSON-RPC
    /// error code).
    Failed {
        /// How it failed.
        kind: &'a str,
        /// The JSON-RPC error code the client answered with, for a request to the client.
        code: Option<i32>,
    },
}

/// One piece of observed work: runs it, and hears how it ended.
pub trait ObservedWork: Send + Sync {
    /// The future to run instead of `work` (it must run `work` to its end).
    fn run(&self, work: Observed) -> Observed {
        work
    }

    /// The work ended so.
    fn end(self: Box<Self>, ending: Ending<'_>);
}

/// Watches the work the core does for one request (attached by a layer with
/// [`Context::observe`](super::Context::observe)). Every method has a default that watches
/// nothing.
///
/// ```
/// use mcpwire::context::{Ending, ObservedWork, RequestObserver};
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// /// Counts the resolvers that ran, and those that failed.
/// #[derive(Default)]
/// struct Counts { ran: AtomicUsize, failed: Arc<AtomicUsize> }
///
/// struct Counted(Arc<AtomicUsize>);
///
/// impl ObservedWork for Counted {
///     fn end(self: Box<Self>, ending: Ending<'_>) {
///         if matches!(ending, Ending::Failed { .. }) {
///             self.0.fetch_add(1, Ordering::Relaxed);
///         }
///     }
/// }
///
/// impl RequestObserver for Counts {
///     fn resolver(&self, _name: &'static str) -> Option<Box<dyn ObservedWork>> {
///         self.ran.fetch_add(1, Ordering::Relaxed);
///         Some(Box::new(Counted(self.failed.clone())))
///     }
/// }
/// ```
pub trait RequestObserver: Send + Sync + 'static {
    /// The resolver `name` is about to run.
    fn resolver(&self, name: &'static str) -> Option<Box<dyn ObservedWork>> {
        let _ = name;
        None
    }

    /// A 2026-07-28 round that started at `started` ends with questions under `keys` (the
    /// resolvers' keys, never the questions' text).
    fn input_required(&self, started: SystemTime, keys: &[&str]) {
        let _ = (started, keys);
    }

    /// The server is about to send the client `method` (2025-11-25: a resolver's question);
    /// entries the observer adds to `meta` go in the request's `params._meta`.
    fn client_request(
        &self,
        method: &str,
        meta: &mut serde_json::Map<String, serde_json::Value>,
    ) -> Option<Box<dyn ObservedWork>> {
        let _ = (method, meta);
        None
    }
}

/// Runs `work` as `observed` (when there is an observer) and returns its output; `ending` says
/// how the output ended. `None` when the observer dropped the work without running it.
pub(crate) async fn observe<T: Send + 'static>(
    observed: Option<Box<dyn ObservedWork>>,
    work: impl Future<Output = T> + Send + 'static,
    ending: impl FnOnce(&T) -> Ending<'static>,
) -> Option<T> {
    let Some(observed) = observed else {
        return Some(work.await);
    };
    let slot = std::sync::Arc::new(std::sync::Mutex::new(None));
    let filled = std::sync::Arc::clone(&slot);
    let work: Observed = Box::pin(async move {
        let output = work.await;
        *filled.lock().unwrap_or_else(|e| e.into_inner()) = Some(output);
    });
    observed.run(work).await;
    let output = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
    match &output {
        Some(output) => observed.end(ending(output)),
        None => observed.end(Ending::Failed {
            kind: "dropped",
            code: None,
        }),
    }
    output
}
