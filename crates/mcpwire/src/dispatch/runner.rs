//! Running a handler (a tool, a prompt, a resource; plainly or as a task): its `Context`, its
//! round's inputs on 2026-07-28, a panic guard, and how it stopped, mapped onto the wire.

use super::envelope::MethodResult;
use super::era::Served;
use super::exchange::Exchange;
use super::rounds::{self, Target};
use crate::context::{Context, RequestScope};
use crate::error::ToolError;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::resolve::run::panic_message;
use crate::resolve::{RoundInputs, Stop};
use crate::server::handler::{CallKept, Handler, HandlerCall};
use futures_util::FutureExt;
use serde_json::value::RawValue;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;

/// A handler about to run: what its `requestState` is bound to, and what it is called with.
pub(crate) struct Invocation<'a> {
    pub(crate) target: Target<'a>,
    pub(crate) handler: &'a Arc<Handler>,
    /// The arguments, kept where the caller reads them again after the call (a round's state
    /// is sealed to them).
    pub(crate) kept: Arc<CallKept>,
    pub(crate) responses: Option<&'a RawValue>,
    pub(crate) state: Option<&'a str>,
    pub(crate) uri: Option<String>,
    /// Whether a replayed final round is refused (`#[tool(once)]`).
    pub(crate) once: bool,
    /// The request's context, when middleware already made it (else it is made here).
    pub(crate) context: Option<Context>,
}

/// The call a handler runs with: its context and, on 2026-07-28, its round's verified inputs.
pub(crate) fn start(
    exchange: &Exchange,
    id: &RequestId,
    served: Served,
    invocation: Invocation<'_>,
) -> Result<HandlerCall, ErrorObject> {
    let era = served.era;
    start_in(exchange, era, invocation, |given| {
        given.unwrap_or_else(|| request_context(exchange, id, served))
    })
}

/// [`start`] for a request served under `era`, whose context `context` makes (from the
/// invocation's, if it has one) once the round's inputs are verified.
pub(crate) fn start_in(
    exchange: &Exchange,
    era: Era,
    invocation: Invocation<'_>,
    context: impl FnOnce(Option<Context>) -> Context,
) -> Result<HandlerCall, ErrorObject> {
    let Invocation {
        target,
        handler,
        kept,
        responses,
        state,
        uri,
        once,
        context: given,
    } = invocation;
    let round = match era {
        Era::Modern => rounds::open(&exchange.core, target, responses, state)?,
        Era::Legacy => RoundInputs::default(),
    };
    Ok(HandlerCall {
        context: context(given),
        kept,
        handler: handler.clone(),
        round,
        uri,
        replay_guard: once.then(|| exchange.core.replay_guard.clone()),
        resolved: Default::default(),
    })
}

/// The `Context` of the request `id`, served as `served`.
pub(crate) fn request_context(exchange: &Exchange, id: &RequestId, served: Served) -> Context {
    Context::new(request_scope(exchange, id, served))
}

/// What a `Context` of the request `id`, served as `served`, holds: the request's identity,
/// capabilities and back channel (the client's requests only on a 2025-11-25 session).
pub(crate) fn request_scope(exchange: &Exchange, id: &RequestId, served: Served) -> RequestScope {
    let core = &exchange.core;
    let era = served.era;
    RequestScope {
        request_id: id.clone(),
        era,
        protocol_version: served.protocol_version,
        client_capabilities: served.capabilities,
        client_info: served.client_info,
        progress_token: served.progress_token,
        log_level: served.log_level,
        state: core.state.clone(),
        outbound: exchange.outbound.clone(),
        headers: exchange.headers.clone(),
        principal: exchange.subject.clone(),
        grant: exchange.grant.clone(),
        notifier: core.notifier.clone(),
        client_requests: (era == Era::Legacy).then(|| exchange.session.client_requests().clone()),
        client_request_timeout: core.limits.client_request_timeout,
        open_url_elicitations: Default::default(),
        reached: Default::default(),
        trace_context: served.trace_context,
        observer: Default::default(),
        extensions: Default::default(),
        task: None,
    }
}

/// Runs a handler on `call`, turning a panic into a failure (the panic message goes to the
/// log) and a body's [`ToolError::protocol`] into its JSON-RPC error; then owes the client
/// nothing: URL-mode elicitations the call left open are completed.
pub(crate) async fn run<T, F>(
    handler: fn(HandlerCall) -> F,
    call: HandlerCall,
    what: &'static str,
) -> Result<T, Stop>
where
    F: Future<Output = Result<T, Stop>>,
{
    let context = call.context();
    let kept = Arc::clone(&call.kept);
    let outcome = caught(handler(call), what)
        .await
        .unwrap_or_else(|| Err(Stop::Failed(ToolError::new(format!("{what} panicked")))));
    context.complete_open_elicitations();
    match kept.raised.get() {
        Some(error) if outcome.is_ok() => Err(Stop::Protocol(error.clone())),
        _ => outcome,
    }
}

/// `future`'s output, or `None` when it panicked (the panic message goes to the log only).
pub(crate) async fn caught<T>(future: impl Future<Output = T>, what: &'static str) -> Option<T> {
    match AssertUnwindSafe(future).catch_unwind().await {
        Ok(output) => Some(output),
        Err(panic) => {
            tracing::error!(what, panic = panic_message(&panic), "handler panicked");
            None
        }
    }
}

/// A protocol error, or the `input_required` result of a 2026-07-28 round.
pub(crate) fn stopped(exchange: &Exchange, target: Target<'_>, stop: Stop) -> MethodResult {
    match stop {
        Stop::Protocol(error) => Err(error),
        Stop::InputRequired(input) => rounds::seal(&exchange.core, target, input)
            .map(|line| (line, ResultKind::InputRequired)),
        Stop::Failed(_) | Stop::InvalidArguments(_) => unreachable!("handled by the caller"),
    }
}
