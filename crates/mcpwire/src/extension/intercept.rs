//! The `tools/call` hook of the extension seam: an extension may take a call over after
//! authorization and the server-wide and per-tool middleware passed it (the tasks extension
//! answers a call with a task and runs the tool in the background), or leave it to run as usual.
//!
//! The core hands the interceptor an [`InterceptedCall`]: what it knows of the tool and the
//! request, and the means to run the tool apart from the request ([`ToolRunner`]), to open the
//! request's 2026-07-28 round, and to answer a call that stopped. The interceptor never sees the
//! dispatcher, so an extension's module sits below it in the floor plan.

use crate::context::Context;
use crate::context::task::TaskLink;
use crate::error::ToolError;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tasks::TaskSupport;
use crate::protocol::{CallToolResult, Era, ErrorObject};
use crate::resolve::{RoundInputs, Stop};
use std::future::Future;
use std::pin::Pin;

/// A boxed future an interceptor or a runner returns.
pub(crate) type Boxed<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// How an intercepted call is answered: a result body and its kind, or a JSON-RPC error.
pub(crate) type Answer = Result<(String, ResultKind), ErrorObject>;

/// What the core knows of the tool being called, for an interceptor to decide on.
#[derive(Clone, Copy, Debug)]
pub(crate) struct CalledTool {
    /// The name it was called by.
    pub(crate) name: &'static str,
    /// The scopes a caller needs for it.
    pub(crate) scopes: &'static [&'static str],
    /// Whether it may, or must, run as a task.
    pub(crate) task: TaskSupport,
    /// Its resolvers ask their questions in the request's own rounds, before its body runs apart.
    pub(crate) ask_before_task: bool,
    /// It has resolvers (that may ask questions).
    pub(crate) resolves: bool,
}

/// A `tools/call` an interceptor may take over, as the core hands it.
pub(crate) trait InterceptedCall: Send {
    /// The tool.
    fn tool(&self) -> CalledTool;
    /// Whether the request declared the extension `id` in its capabilities.
    fn declared(&self, id: &str) -> bool;
    /// The caller's principal, when the server knows one.
    fn principal(&self) -> Option<&str>;
    /// A context for running the tool apart from the request: the request's identity,
    /// capabilities and typed extensions, no back channel (progress goes to `task`'s status).
    fn detached_context(&self, task: TaskLink) -> Context;
    /// The inputs of the request's own round: its answers and verified `requestState`.
    fn open_round(&self) -> Result<RoundInputs, ErrorObject>;
    /// What the request answers when its call stopped on `stop` (a protocol error, or the sealed
    /// `input_required` result of this round).
    fn stopped(&self, stop: Stop) -> Answer;
    /// The runner of the tool, owning what it needs (and what the request's middleware keeps
    /// alive while it runs); taken once.
    fn runner(&mut self) -> Box<dyn ToolRunner>;
}

/// How a run of a tool ended: a result (a failure already an `isError` result), or a stop for
/// the protocol (an error, or questions).
pub(crate) type RunOutcome = Result<CallToolResult, Stop>;

/// Runs one tool, apart from the request that called it.
pub(crate) trait ToolRunner: Send + Sync {
    /// One run of the tool with `context` and `round`'s inputs; `resolved` is told once every
    /// resolver has its value, just before the body runs. A panic is a failure.
    fn run(
        &self,
        context: Context,
        round: RoundInputs,
        resolved: Option<tokio::sync::oneshot::Sender<()>>,
    ) -> Boxed<'static, RunOutcome>;
    /// The `isError` result of a run that failed with `error` (one that never ended, say).
    fn failed(&self, error: &ToolError) -> CallToolResult;
}

/// An extension's hook on `tools/call`.
pub(crate) trait ToolCallInterceptor: Send + Sync + 'static {
    /// Whether calls of `tool` on `era` may be intercepted at all (asked before the middleware
    /// runs, so that a call no interceptor wants keeps the plain path).
    fn wants(&self, tool: &CalledTool, era: Era) -> bool;
    /// The answer to `call` when this extension takes it over; `None` leaves it to run as
    /// usual.
    fn intercept<'a>(&'a self, call: &'a mut dyn InterceptedCall) -> Option<Boxed<'a, Answer>>;
}
