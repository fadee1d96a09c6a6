//! A `tools/call` as one future ([`ToolCall`]): the request most requests are, served without
//! the router's futures around it.
//!
//! The router ([`router`](super::router)) serves every request through a stack of futures (the
//! answer, the route, the handler method), each polled on every wake-up and each moved whole
//! into the next, with the method's own run boxed inside. A `tools/call` whose parameters the
//! transport already read, on a server without an outer tier, needs none of them: its method
//! is known, and so is its tool, found when the call was read
//! ([`CalledName`](super::preread::CalledName)). So it is the tool's run, held here, then its
//! line written, as the router writes it.
//!
//! The tool's run is [`start_read`]'s, the function the router's tool method runs too: the
//! tool's own ([`PlainRun`]) when nothing stands between the request and its tool (no layers of
//! the server's or the tool's own, no extension that wants the call), held as it is, with
//! nothing boxed but the tool's future; else its run through the layers ([`HandlerRun`], held as
//! it is too), or its refusal. A name sent that is not the tool's own (an alias, or no tool's)
//! is looked up as the registry is now. A request this does not take is handed back untouched,
//! for the router.

use super::envelope;
use super::era::Served;
use super::exchange::Exchange;
use super::methods::handlers::HandlerMethod;
use super::methods::tools::{PlainOutcome, PlainRun, ToolRun, start_read};
use super::pipeline::{HandlerRun, Written, write};
use super::preread::Preread;
use super::reply::{Reply, reply};
use super::table::{Serve, row};
use crate::layer::Outcome;
use crate::protocol::jsonrpc::Request;
use crate::protocol::methods::{Method, TOOLS_CALL};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::server::core::ServerCore;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};

/// A `tools/call`, running: its run, then its response line. `Unpin`, so that a transport holds
/// it as it is, not boxed.
pub(crate) struct ToolCall {
    run: Run,
    id: RequestId,
    era: Era,
    exchange: Arc<Exchange>,
}

/// What a [`ToolCall`] runs.
enum Run {
    /// The tool's own run: nothing stands between the request and the tool.
    Plain(PlainRun),
    /// The run through the layers (or an extension that takes the call over).
    Stacked(HandlerRun),
    /// Refused before its layers (an unknown tool, a scope the caller lacks); `None` once
    /// answered.
    Refused(Option<ErrorObject>),
}

/// What [`prepare`] made of a request: a [`ToolCall`], or the request for the router, what it
/// was given handed back untouched (not a `Result`: neither is an error, and the router's is
/// the larger).
pub(crate) enum Prepared {
    /// A `tools/call`, running.
    Call(ToolCall),
    /// Any other request, for the router.
    ForRouter(Request, Served, Preread),
}

/// `request` (served as `served`, with what the transport read of its parameters, `preread`)
/// started as a [`ToolCall`], when it is a `tools/call` whose parameters were read, on a server
/// without an outer tier; else everything given back, untouched, for the router.
pub(crate) fn prepare(
    exchange: &Arc<Exchange>,
    request: Request,
    served: Served,
    preread: Preread,
) -> Prepared {
    let core = &exchange.core;
    let era = served.era;
    let taken = request.method == TOOLS_CALL
        && core.layers.outer().is_none()
        && matches!(
            row(Method::ToolsCall).served(era, core),
            Some(Serve::Handler(HandlerMethod::Tool))
        );
    let call = match preread {
        Preread::ToolCall(call) if taken => call,
        preread => return Prepared::ForRouter(request, served, preread),
    };
    let id = request.id;
    let run = match start_read(exchange, &id, call, served, None) {
        Ok(ToolRun::Plain(plain)) => Run::Plain(plain),
        Ok(ToolRun::Stacked(stacked)) => Run::Stacked(stacked),
        Err(error) => Run::Refused(Some(error)),
    };
    Prepared::Call(ToolCall::new(run, id, era, exchange))
}

impl ToolCall {
    fn new(run: Run, id: RequestId, era: Era, exchange: &Arc<Exchange>) -> Self {
        ToolCall {
            run,
            id,
            era,
            exchange: Arc::clone(exchange),
        }
    }
}

impl Future for ToolCall {
    type Output = Reply;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Reply> {
        let this = self.get_mut();
        let grant = this.exchange.grant.as_deref();
        let (core, answering) = (&this.exchange.core, (&this.id, this.era, TOOLS_CALL));
        let written = match &mut this.run {
            Run::Plain(run) => written(core, answering, ready!(Pin::new(run).poll(cx))),
            Run::Stacked(run) => write(core, answering, ready!(Pin::new(run).poll(cx))),
            Run::Refused(error) => Err(error.take().expect("polled after it finished")),
        };
        Poll::Ready(reply(&this.id, written.map(|(line, _)| line), grant))
    }
}

/// Writes the answer to a plain call that ended in `outcome`: the tool's output straight into
/// its line, as [`write`] writes a result (no layer is there to read it as a response first);
/// any other end as [`write`] writes it.
fn written(
    core: &ServerCore,
    answering: (&RequestId, Era, &str),
    outcome: PlainOutcome,
) -> Written {
    let output = match outcome {
        PlainOutcome::Output(output) => output,
        ended => return write(core, answering, ended.into()),
    };
    let outcome = match output.is_error() {
        true => Outcome::ToolError,
        false => Outcome::Complete,
    };
    let (id, era, _) = answering;
    let json = output.into_result_json();
    let line = envelope::result_of(core, era, id, json, ResultKind::Complete);
    Ok((line, outcome))
}
