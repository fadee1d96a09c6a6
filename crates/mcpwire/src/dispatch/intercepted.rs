//! A `tools/call` as the dispatcher hands it to an extension's hook
//! ([`ToolCallInterceptor`](crate::extension::intercept::ToolCallInterceptor)): the request's
//! parts, and a runner of the tool that owns what it needs.

use super::call_inputs::CallInputs;
use super::envelope::to_json;
use super::era::Served;
use super::exchange::Exchange;
use super::rounds::{self, Target};
use super::runner::{request_scope, run, stopped};
use crate::context::task::TaskLink;
use crate::context::{Context, Outbound, RequestScope};
use crate::error::ToolError;
use crate::extension::declared_by;
use crate::extension::intercept::{
    Answer, Boxed, CalledTool, InterceptedCall, RunOutcome, ToolRunner,
};
use crate::layer::Kept;
use crate::protocol::methods::TOOLS_CALL;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{CallToolResult, ErrorObject, RequestId};
use crate::request_state::ReplayGuard;
use crate::resolve::{RoundInputs, Stop};
use crate::server::handler::{CallKept, HandlerCall, failure};
use crate::server::tool::{RegisteredTool, ToolDefinition};
use crate::server::tool_output::ToolOutput;
use crate::wire::shared_json::SharedJson;
use std::sync::{Arc, Mutex};

/// What the core tells an interceptor of `definition`.
pub(crate) fn called_tool(tool: &RegisteredTool) -> CalledTool {
    let definition: &ToolDefinition = &tool.definition;
    CalledTool {
        name: definition.name,
        scopes: definition.scopes,
        task: definition.task,
        ask_before_task: definition.ask_before_task,
        resolves: !tool.handler.plan.nodes.is_empty(),
    }
}

/// An admitted `tools/call` that passed its middleware, offered to the interceptors.
pub(crate) struct Intercepted<'a> {
    pub(crate) exchange: &'a Arc<Exchange>,
    pub(crate) id: &'a RequestId,
    pub(crate) served: Served,
    pub(crate) tool: Arc<RegisteredTool>,
    pub(crate) inputs: CallInputs,
    /// The request's context, as its middleware left it.
    pub(crate) context: Context,
    /// What the middleware keeps alive while the tool runs apart from the request.
    pub(crate) kept: Option<Kept>,
}

impl Intercepted<'_> {
    fn target(&self) -> Target<'_> {
        Target {
            method: TOOLS_CALL,
            name: self.tool.definition.name,
            arguments: self.inputs.arguments.as_ref().map(SharedJson::get),
            principal: self.exchange.principal.as_deref(),
        }
    }
}

impl InterceptedCall for Intercepted<'_> {
    fn tool(&self) -> CalledTool {
        called_tool(&self.tool)
    }

    fn declared(&self, id: &str) -> bool {
        declared_by(&self.served.capabilities, id)
    }

    fn principal(&self) -> Option<&str> {
        self.exchange.principal.as_deref()
    }

    fn detached_context(&self, task: TaskLink) -> Context {
        // No back channel: a task's progress becomes its status message, it sends no
        // notifications and asks the client nothing directly.
        let outbound = Outbound::nowhere();
        let mut scope = request_scope(
            self.exchange,
            self.id,
            self.served.clone(),
            Default::default(),
        );
        scope.request.progress_token = None;
        scope.request.log_level = None;
        Context::new(RequestScope {
            outbound,
            client_requests: None,
            extensions: Mutex::new(self.context.extensions_copy()),
            task: Some(task),
            ..scope
        })
    }

    fn open_round(&self) -> Result<RoundInputs, ErrorObject> {
        let params = &self.inputs;
        rounds::open(
            &self.exchange.core,
            self.target(),
            params.input_responses.as_deref(),
            params.request_state.as_deref(),
        )
    }

    fn stopped(&self, stop: Stop) -> Answer {
        match stop {
            Stop::Failed(error) | Stop::InvalidArguments(error) => Ok((
                to_json(&failure(self.tool.definition.name, &error)),
                ResultKind::Complete,
            )),
            stop => stopped(self.exchange, self.target(), stop),
        }
    }

    fn runner(&mut self) -> Box<dyn ToolRunner> {
        let core = &self.exchange.core;
        let definition = &self.tool.definition;
        Box::new(Runner {
            tool: Arc::clone(&self.tool),
            // Its own copy: the task may run long after the request's body is gone.
            arguments: self.inputs.arguments.as_ref().map(SharedJson::detached),
            replay_guard: definition.once.then(|| core.replay_guard.clone()),
            _kept: self.kept.take(),
        })
    }
}

/// Runs a tool apart from its request, as often as the interceptor asks.
struct Runner {
    tool: Arc<RegisteredTool>,
    arguments: Option<SharedJson>,
    /// Refuses a replayed final round (`#[tool(once)]`); only a round with a verified
    /// `requestState` is checked.
    replay_guard: Option<Arc<dyn ReplayGuard>>,
    /// Dropped with the runner, when the interceptor is done with the tool.
    _kept: Option<Kept>,
}

impl ToolRunner for Runner {
    fn run(
        &self,
        context: Context,
        round: RoundInputs,
        resolved: Option<tokio::sync::oneshot::Sender<()>>,
    ) -> Boxed<'static, RunOutcome> {
        let definition = &self.tool.definition;
        let call = HandlerCall {
            kept: CallKept::new(self.arguments.clone(), context.into()),
            handler: self.tool.handler.clone(),
            round,
            uri: None,
            replay_guard: self.replay_guard.clone(),
            resolved: Mutex::new(resolved),
        };
        let (call_tool, name) = (definition.call, definition.name);
        Box::pin(async move {
            match run(call_tool, call, "the tool").await {
                Err(Stop::Failed(error) | Stop::InvalidArguments(error)) => {
                    Ok(failure(name, &error))
                }
                outcome => outcome.map(ToolOutput::into_result),
            }
        })
    }

    fn failed(&self, error: &ToolError) -> CallToolResult {
        failure(self.tool.definition.name, error)
    }
}
