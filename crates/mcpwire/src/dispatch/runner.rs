//! Running a handler (a tool, a prompt, a resource; plainly or as a task): its `Context`, its
//! round's inputs on 2026-07-28, a panic guard, and how it stopped, mapped onto the wire.

use super::envelope::MethodResult;
use super::era::Served;
use super::exchange::Exchange;
use super::rounds::{self, Target};
use super::running::Running;
use crate::context::{
    Context, HeldHeaders, LazyContext, Reached, RequestScope, RequestSeed, ScopeSource,
};
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
    /// The arguments and the context, kept where the caller reads them again after the call (a
    /// round's state is sealed to the arguments).
    pub(crate) kept: Arc<CallKept>,
    pub(crate) responses: Option<&'a RawValue>,
    pub(crate) state: Option<&'a str>,
    pub(crate) uri: Option<String>,
    /// Whether a replayed final round is refused (`#[tool(once)]`).
    pub(crate) once: bool,
}

/// The call a handler runs with, on a request served under `era`: its kept arguments and
/// context and, on 2026-07-28, its round's verified inputs.
#[inline(always)]
pub(crate) fn start(
    exchange: &Exchange,
    era: Era,
    invocation: Invocation<'_>,
) -> Result<HandlerCall, ErrorObject> {
    let Invocation {
        target,
        handler,
        kept,
        responses,
        state,
        uri,
        once,
    } = invocation;
    let round = match era {
        Era::Modern => rounds::open(&exchange.core, target, responses, state)?,
        Era::Legacy => RoundInputs::default(),
    };
    Ok(HandlerCall {
        kept,
        handler: handler.clone(),
        round,
        uri,
        replay_guard: once.then(|| exchange.core.replay_guard.clone()),
        resolved: Default::default(),
    })
}

/// The `Context` of the request `id`, served as `served`.
pub(crate) fn request_context(exchange: &Arc<Exchange>, id: &RequestId, served: Served) -> Context {
    Context::new(request_scope(exchange, id, served, Default::default()))
}

/// [`request_context`] of a request its method already admitted to `target` (a tool's or a
/// prompt's name): what it reached is made with the context ([`Reached::known`]), not recorded
/// in it after by [`run_handler`](super::pipeline::run_handler). A resource's URI is the
/// request's own text: it is recorded after, not copied twice.
pub(crate) fn reaching_context(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    served: Served,
    target: &'static str,
) -> Context {
    Context::new(request_scope(exchange, id, served, Reached::known(target)))
}

/// [`reaching_context`], made only when the call first asks for it ([`LazyContext`]): a plain
/// call whose tool takes no context, resolves nothing and sends nothing back never makes it.
#[inline(always)]
pub(crate) fn lazy_reaching_context(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    served: Served,
    target: &'static str,
) -> LazyContext {
    let seed = request_seed(id, served, Reached::known(target));
    LazyContext::later(Arc::clone(exchange) as Arc<dyn ScopeSource>, seed)
}

/// What a `Context` of the request `id`, served as `served`, holds: the request's identity,
/// capabilities and back channel (the client's requests only on a 2025-11-25 session), and what
/// it `reached`, when that is known as it is made.
///
/// Inlined, so that the scope is written where the context keeps it, not made and then moved
/// there.
#[inline(always)]
pub(crate) fn request_scope(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    served: Served,
    reached: Reached,
) -> RequestScope {
    scope_of(exchange, request_seed(id, served, reached))
}

/// What a context of the request `id`, served as `served`, holds of the request itself.
#[inline(always)]
fn request_seed(id: &RequestId, served: Served, reached: Reached) -> RequestSeed {
    RequestSeed {
        request_id: id.clone(),
        era: served.era,
        protocol_version: served.protocol_version,
        client_capabilities: served.capabilities,
        client_info: served.client_info,
        progress_token: served.progress_token,
        log_level: served.log_level,
        trace_context: served.trace_context,
        reached,
    }
}

/// The scope of the request `seed` describes, served with `exchange`: the server's state and
/// notifier, the request's back channel and headers, its caller, and the client's requests
/// (on a 2025-11-25 session only).
#[inline(always)]
fn scope_of(exchange: &Arc<Exchange>, seed: RequestSeed) -> RequestScope {
    let core = &exchange.core;
    let era = seed.era;
    RequestScope {
        request: seed,
        state: core.state.clone(),
        outbound: exchange.outbound().into_owned(),
        headers: exchange
            .headers
            .is_some()
            .then(|| Arc::clone(exchange) as Arc<dyn HeldHeaders>),
        principal: exchange.subject.clone(),
        grant: exchange.grant.clone(),
        notifier: core.notifier.clone(),
        client_requests: (era == Era::Legacy).then(|| exchange.session.client_requests().clone()),
        client_request_timeout: core.limits.client_request_timeout,
        open_url_elicitations: Default::default(),
        observer: Default::default(),
        extensions: Default::default(),
        task: None,
    }
}

impl ScopeSource for Exchange {
    fn scope(self: Arc<Self>, seed: RequestSeed) -> RequestScope {
        scope_of(&self, seed)
    }
}

/// Runs a handler on `call`, turning a panic into a failure (the panic message goes to the
/// log) and a body's [`ToolError::protocol`](crate::error::ToolError::protocol) into its
/// JSON-RPC error; then owes the client nothing: URL-mode elicitations the call left open are
/// completed.
///
/// A plain function: the handler is called here, and the future returned ([`Running`]) holds
/// what the call needs after it (its context, its kept arguments) beside the handler's future,
/// not the whole `call` the handler took. A panic while the handler makes its future fails the
/// run as one while it runs does.
pub(crate) fn run<T, F>(
    handler: fn(HandlerCall) -> F,
    call: HandlerCall,
    what: &'static str,
) -> Running<F>
where
    F: Future<Output = Result<T, Stop>> + Unpin,
{
    let kept = Arc::clone(&call.kept);
    let started = match std::panic::catch_unwind(AssertUnwindSafe(|| handler(call))) {
        Ok(future) => Some(future),
        Err(panic) => {
            tracing::error!(what, panic = panic_message(&panic), "handler panicked");
            None
        }
    };
    Running::new(started, what, kept)
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

#[cfg(test)]
mod tests {
    use crate::McpServer;
    use crate::protocol::tasks::TaskSupport;
    use crate::protocol::tools::ToolAnnotations;
    use crate::server::handler::HandlerCall;
    use crate::server::output::OutputShape;
    use crate::server::tool::{ToolDefinition, ToolFuture};

    /// A tool whose call panics before it returns its future.
    fn panics_at_once(_: HandlerCall) -> ToolFuture {
        panic!("before its future")
    }

    fn eager() -> ToolDefinition {
        ToolDefinition {
            name: "eager",
            title: None,
            description: None,
            annotations: ToolAnnotations::default(),
            input_schema: || schemars::json_schema!({ "type": "object" }),
            input_schema_given: false,
            output: || OutputShape::Content,
            params: &[],
            once: false,
            scopes: &[],
            task: TaskSupport::Forbidden,
            ask_before_task: false,
            call: panics_at_once,
        }
    }

    #[tokio::test]
    async fn a_handler_that_panics_before_its_future_is_a_failed_call_and_the_server_serves_on() {
        let server = McpServer::new("runner-test").tool(eager()).unwrap();
        let mut client = server.serve_memory().await.unwrap();
        for id in 1..=2 {
            let call = format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"eager","arguments":{{}},"_meta":{{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{{}}}}}}}}"#
            );
            let answered = client.request(call);
            let reply = tokio::time::timeout(std::time::Duration::from_secs(10), answered)
                .await
                .expect("an answer within 10 s")
                .expect("an answer");
            assert!(reply.contains(r#""isError":true"#), "{reply}");
            assert!(reply.contains("the tool panicked"), "{reply}");
        }
    }
}
