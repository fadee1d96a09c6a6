//! Request hooks: code of the application's (telemetry, headers in `_meta`, timing, auditing)
//! around each request the client sends, the client's side of the server's layers. A hook sees
//! the method, the protocol revision and the params, may edit the params (add `_meta` entries),
//! and wraps the future of the request: it can time it, run it inside a context of its own, see
//! its result, or answer without sending it.
//!
//! A hook runs at two stages ([`Stage`]): around a whole call (every typed call of
//! [`Client`](super::Client), all the `input_required` rounds of a 2026-07-28 call included),
//! and around each request that goes on the wire (each round of a call; `initialize`,
//! `server/discover` and `subscriptions/listen`, which are not calls, only at this stage).
//! `mcpwire::otel::ClientTracing` (feature `otel`) is one: a CLIENT span per call, whose context
//! every request of the call carries in `_meta`.
//!
//! With no hook installed nothing of this runs, and nothing is allocated for it.

use super::error::ClientError;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A future a hook returns: boxed, `Send`, borrowing the request for `'a`.
pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What a request comes back with: its raw result, or why it failed.
pub type RawReply = Result<Box<RawValue>, ClientError>;

/// Code around each request the client sends, installed with
/// [`ClientBuilder::hook`](super::ClientBuilder::hook).
///
/// [`wrap`](RequestHook::wrap) is called once per [`Stage`]: for a call, first with
/// [`Stage::Call`] (before its first request), then, inside the call, with [`Stage::Request`]
/// for each request it sends; a hook that acts only once per call picks its stage. It gets the
/// request and the rest of the chain ([`Next`]): it may edit the request, then hands it on with
/// [`Next::run`] (or answers without doing so), and returns the future the client awaits.
/// Hooks run in the order they were installed, the first outermost. An edit at the call stage
/// goes into every request of the call.
///
/// Hooks see what goes out before the client adds its own `_meta` entries (the revision, its
/// capabilities and info on 2026-07-28, the progress token), which win over a hook's of the same
/// name.
///
/// # Examples
///
/// A hook that tags every request with a tenant in `_meta`, and counts the calls:
///
/// ```
/// use mcpwire::client::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook, Stage};
/// use mcpwire::client::{Client, EraChoice};
/// use mcpwire::prelude::*;
/// use std::sync::Arc;
/// use std::sync::atomic::{AtomicUsize, Ordering};
///
/// struct Tenant {
///     name: &'static str,
///     calls: Arc<AtomicUsize>,
/// }
///
/// impl RequestHook for Tenant {
///     fn wrap<'a>(&'a self, mut request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply> {
///         match request.stage() {
///             Stage::Call => {
///                 self.calls.fetch_add(1, Ordering::Relaxed);
///             }
///             Stage::Request => {
///                 request.meta_mut().insert("example.com/tenant".into(), self.name.into());
///             }
///             _ => {}
///         }
///         next.run(request)
///     }
/// }
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let calls = Arc::new(AtomicUsize::new(0));
/// let client = Client::builder()
///     .era(EraChoice::Modern)
///     .hook(Tenant { name: "acme", calls: calls.clone() })
///     .connect_memory(McpServer::new("calc").tool(add)?)
///     .await?;
/// client.call_tool("add", serde_json::json!({"a": 2, "b": 3})).await?;
/// assert_eq!(calls.load(Ordering::Relaxed), 1);
/// # Ok(()) }
/// ```
///
/// Around the request (timing it, running it in a context), the future does the work:
///
/// ```
/// use mcpwire::client::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook, Stage};
/// use std::time::Instant;
///
/// struct Timing;
///
/// impl RequestHook for Timing {
///     fn wrap<'a>(&'a self, request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply> {
///         if request.stage() != Stage::Call {
///             return next.run(request);
///         }
///         let method = request.method();
///         Box::pin(async move {
///             let started = Instant::now();
///             let reply = next.run(request).await;
///             eprintln!("{method}: {:?} ({})", started.elapsed(), if reply.is_ok() { "ok" } else { "failed" });
///             reply
///         })
///     }
/// }
/// # let _ = mcpwire::client::Client::builder().hook(Timing);
/// ```
pub trait RequestHook: Send + Sync + 'static {
    /// Wraps `request`: edit it, hand it on with `next.run(request)`, and return the future
    /// the client awaits (usually `next.run`'s, or one that awaits it).
    fn wrap<'a>(&'a self, request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply>;
}

/// A shared hook: what `H` does, for every client given a clone of the `Arc`.
impl<H: RequestHook + ?Sized> RequestHook for Arc<H> {
    fn wrap<'a>(&'a self, request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply> {
        (**self).wrap(request, next)
    }
}

/// Where a hook runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stage {
    /// Around one call of the client, from its first request to its result: on 2026-07-28,
    /// every `input_required` round of it (each of them a [`Stage::Request`] inside).
    Call,
    /// Around one request on the wire, with the params it is sent with: each round of a call,
    /// a request sent again after the server lost the session, and `initialize`,
    /// `server/discover` and `subscriptions/listen`, which are not calls.
    Request,
}

/// The request a hook wraps.
#[derive(Debug)]
pub struct HookedRequest<'a> {
    stage: Stage,
    method: &'a str,
    version: Option<&'a str>,
    params: Map<String, Value>,
}

impl<'a> HookedRequest<'a> {
    /// The stage the hook is called at.
    pub fn stage(&self) -> Stage {
        self.stage
    }

    /// The method (`tools/call`).
    pub fn method(&self) -> &'a str {
        self.method
    }

    /// The protocol revision it is sent under (`2026-07-28`); `None` before `initialize` or
    /// `server/discover` answered.
    pub fn version(&self) -> Option<&'a str> {
        self.version
    }

    /// Its params. At [`Stage::Request`], a round after the first carries `inputResponses`
    /// (2026-07-28; its `requestState` is added on the way out).
    pub fn params(&self) -> &Map<String, Value> {
        &self.params
    }

    /// Its params, to edit.
    pub fn params_mut(&mut self) -> &mut Map<String, Value> {
        &mut self.params
    }

    /// Its `params._meta`, to add entries to (made empty when absent, or when it is not an
    /// object, as the client would otherwise replace it).
    pub fn meta_mut(&mut self) -> &mut Map<String, Value> {
        let meta = self
            .params
            .entry("_meta")
            .or_insert_with(|| Value::Object(Map::new()));
        if !meta.is_object() {
            *meta = Value::Object(Map::new());
        }
        match meta {
            Value::Object(meta) => meta,
            _ => unreachable!("made an object above"),
        }
    }
}

/// The rest of the chain: the hooks installed after this one, then the request itself.
pub struct Next<'a> {
    hooks: &'a [Arc<dyn RequestHook>],
    endpoint: Box<dyn FnOnce(Map<String, Value>) -> BoxFuture<'a, RawReply> + Send + 'a>,
}

impl std::fmt::Debug for Next<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Next")
            .field("hooks", &self.hooks.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Next<'a> {
    /// Hands `request` to the next hook, or sends it; the future of its result. Nothing is sent
    /// until the future is polled; the next hook's `wrap` runs now.
    pub fn run(self, request: HookedRequest<'a>) -> BoxFuture<'a, RawReply> {
        match self.hooks.split_first() {
            Some((hook, hooks)) => hook.wrap(
                request,
                Next {
                    hooks,
                    endpoint: self.endpoint,
                },
            ),
            None => (self.endpoint)(request.params),
        }
    }
}

/// The hooks a client was built with, in order.
#[derive(Clone, Default)]
pub(crate) struct Hooks(Arc<[Arc<dyn RequestHook>]>);

impl Hooks {
    /// `hooks` with `hook` after the others.
    pub(crate) fn with(&self, hook: Arc<dyn RequestHook>) -> Self {
        Self(self.0.iter().cloned().chain([hook]).collect())
    }

    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `send` of `params`, wrapped in every hook at `stage`. Only called with hooks installed:
    /// without, the caller sends directly (no box).
    pub(crate) fn run<'a>(
        &'a self,
        stage: Stage,
        method: &'a str,
        version: Option<&'a str>,
        params: Map<String, Value>,
        send: impl FnOnce(Map<String, Value>) -> BoxFuture<'a, RawReply> + Send + 'a,
    ) -> BoxFuture<'a, RawReply> {
        let request = HookedRequest {
            stage,
            method,
            version,
            params,
        };
        Next {
            hooks: &self.0,
            endpoint: Box::new(send),
        }
        .run(request)
    }
}
