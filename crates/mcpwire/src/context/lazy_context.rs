//! A call's [`Context`], made the first time something asks for it ([`LazyContext`]).
//!
//! Most tool calls never touch their context: a function of its arguments alone (`add(a, b)`)
//! takes none, resolves nothing and sends nothing back. Making one anyway costs an allocation and
//! a reference taken (and later dropped) on each of the dozen things it holds, on every call. So a
//! plain call keeps what its context would be made from instead ([`RequestSeed`], and the
//! [`ScopeSource`] that serves it), and makes the context only when the tool, a resolver or an
//! extractor asks. A context given by the caller (the layers', a task's) is kept as it is.

use super::{Context, Reached, RequestScope};
use crate::protocol::logging::LoggingLevel;
use crate::protocol::progress::ProgressToken;
use crate::protocol::{ClientCapabilities, Era, Implementation, RequestId, TraceContext};
use std::sync::{Arc, Mutex, OnceLock};

/// What a request's context holds of the request itself: its id, what it is served as (the
/// revision, the client's capabilities and identity, its `_meta`'s values), and what it reached.
/// The rest (the server's state, the request's back channel, its caller) comes from the
/// [`ScopeSource`] that serves it.
pub(crate) struct RequestSeed {
    pub(crate) request_id: RequestId,
    pub(crate) era: Era,
    pub(crate) protocol_version: Arc<str>,
    pub(crate) client_capabilities: Arc<ClientCapabilities>,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) progress_token: Option<ProgressToken>,
    /// The lowest level the client wants to hear, or `None` for "send no log messages".
    pub(crate) log_level: Option<LoggingLevel>,
    /// The caller's trace context, as its `_meta` carried it.
    pub(crate) trace_context: Option<Arc<TraceContext>>,
    /// What the request reached once authorization admitted it (a tool's or a prompt's name,
    /// a resource's URI), as its method parsed it: what telemetry names the request by.
    pub(crate) reached: Reached,
}

/// What serves a request (the dispatcher's exchange): it completes a [`RequestSeed`] into the
/// scope a context holds.
pub(crate) trait ScopeSource: Send + Sync {
    /// The scope of the request `seed` describes, served by this source.
    fn scope(self: Arc<Self>, seed: RequestSeed) -> RequestScope;
}

/// A call's context: given, or made from its seed the first time it is asked for.
pub(crate) struct LazyContext(Kept);

/// What a [`LazyContext`] holds.
enum Kept {
    /// A context given as it is.
    Given(Context),
    /// A context made when first asked for: `seed` (taken then) is what it is made from.
    Later {
        made: OnceLock<Context>,
        seed: Mutex<Option<(Arc<dyn ScopeSource>, RequestSeed)>>,
    },
}

impl LazyContext {
    /// A context given as it is.
    #[inline]
    pub(crate) fn given(context: Context) -> Self {
        Self(Kept::Given(context))
    }

    /// A context `source` makes from `seed` when it is first asked for.
    #[inline]
    pub(crate) fn later(source: Arc<dyn ScopeSource>, seed: RequestSeed) -> Self {
        Self(Kept::Later {
            made: OnceLock::new(),
            seed: Mutex::new(Some((source, seed))),
        })
    }

    /// The context, made now if it was not yet.
    pub(crate) fn get(&self) -> &Context {
        match &self.0 {
            Kept::Given(context) => context,
            Kept::Later { made, seed } => made.get_or_init(|| {
                let seed = seed.lock().unwrap_or_else(|e| e.into_inner()).take();
                let (source, seed) = seed.expect("a context is made once");
                Context::new(source.scope(seed))
            }),
        }
    }

    /// The context, if it was given or made; `None` if nothing asked for it.
    pub(crate) fn if_made(&self) -> Option<&Context> {
        match &self.0 {
            Kept::Given(context) => Some(context),
            Kept::Later { made, .. } => made.get(),
        }
    }
}

impl From<Context> for LazyContext {
    fn from(context: Context) -> Self {
        Self::given(context)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// A source that counts the scopes it makes: a detached context's, with the seed's id and
    /// target.
    #[derive(Default)]
    struct Counting(AtomicUsize);

    impl ScopeSource for Counting {
        fn scope(self: Arc<Self>, seed: RequestSeed) -> RequestScope {
            self.0.fetch_add(1, Ordering::SeqCst);
            let detached = Context::detached().build();
            let Ok(mut scope) = Arc::try_unwrap(detached.inner) else {
                unreachable!("a context just built has one owner")
            };
            scope.request = seed;
            scope
        }
    }

    fn seed(id: i64) -> RequestSeed {
        RequestSeed {
            request_id: RequestId::Number(id),
            era: Era::Modern,
            protocol_version: Arc::from("2026-07-28"),
            client_capabilities: Default::default(),
            client_info: None,
            progress_token: None,
            log_level: None,
            trace_context: None,
            reached: Reached::known("add"),
        }
    }

    #[test]
    fn a_seeded_context_is_made_once_and_only_when_asked_for() {
        let source = Arc::new(Counting::default());
        let lazy = LazyContext::later(source.clone(), seed(7));
        assert!(lazy.if_made().is_none());
        assert_eq!(
            source.0.load(Ordering::SeqCst),
            0,
            "made before it was asked for"
        );
        assert_eq!(lazy.get().request_id(), &RequestId::Number(7));
        assert_eq!(lazy.get().reached_target(), Some("add"));
        assert_eq!(source.0.load(Ordering::SeqCst), 1, "made more than once");
        assert!(lazy.if_made().is_some());
        drop(lazy);
        assert_eq!(Arc::strong_count(&source), 1, "the seed's source was kept");
    }

    #[test]
    fn a_given_context_is_kept_as_it_is() {
        let given = Context::detached().build();
        let lazy = LazyContext::from(given.clone());
        assert!(Arc::ptr_eq(&lazy.if_made().unwrap().inner, &given.inner));
        assert!(Arc::ptr_eq(&lazy.get().inner, &given.inner));
    }
}
