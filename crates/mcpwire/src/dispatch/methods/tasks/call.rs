//! `tools/call` of a tool that takes tasks, on a request that negotiated the extension: the
//! task is stored, then announced (`resultType: "task"`), and its worker runs the call in the
//! background. A tool with `ask_before_task` first runs its resolvers inside the request (its
//! questions are `input_required` rounds of the `tools/call`), and becomes a task only once
//! they all have values.

use super::worker::{self, AbortOnDrop, Job};
use crate::context::task::TaskLink;
use crate::context::{Context, Outbound, RequestScope};
use crate::dispatch::envelope::{MethodResult, to_json};
use crate::dispatch::era::Served;
use crate::dispatch::exchange::Exchange;
use crate::dispatch::rounds::{self, Target};
use crate::dispatch::runner::{run, stopped};
use crate::layer::Kept;
use crate::protocol::jsonrpc::code;
use crate::protocol::methods::TOOLS_CALL;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::tasks::Task;
use crate::protocol::tools::CallToolParams;
use crate::protocol::{ErrorObject, RequestId};
use crate::resolve::Stop;
use crate::server::handler::{HandlerCall, failure};
use crate::server::tool::RegisteredTool;
use crate::tasks::runtime::{NotCreated, QuotaReached};
use crate::tasks::store_failed;
use crate::tasks::{TaskRecord, Tasks};
use std::sync::{Arc, Mutex};

pub(crate) async fn call_tool(
    exchange: &Exchange,
    id: &RequestId,
    params: CallToolParams,
    served: Served,
    tool: Arc<RegisteredTool>,
    (request, kept): (&Context, Option<Kept>),
) -> MethodResult {
    let Some(tasks) = exchange.core.tasks.clone() else {
        return Err(ErrorObject::internal());
    };
    tasks.sweep_if_due().await;
    let task_id = Tasks::new_id();
    let owner = exchange.principal.as_deref();
    let mut record = tasks.new_record(&task_id, owner);
    record.scopes = tool
        .definition
        .scopes
        .iter()
        .map(|s| (*s).to_owned())
        .collect();
    let (running, link) = tasks.start(&task_id, owner).map_err(busy)?;
    // Until a worker owns the task, a dropped request (the client left) forgets it.
    let registered = Registered {
        tasks: tasks.clone(),
        id: Some(task_id.clone()),
    };
    let job = Job {
        tasks: tasks.clone(),
        id: task_id.clone(),
        tool: tool.clone(),
        arguments: params.arguments.clone(),
        context: task_context(exchange, id, &served, link, request.extensions_copy()),
        running,
        kept,
    };
    let asks_first = tool.definition.ask_before_task && !tool.handler.plan.nodes.is_empty();
    if !asks_first {
        tasks.create(&record).await.map_err(not_created)?;
        registered.hand_over();
        tokio::spawn(worker::drive(job, None));
        return Ok((created(&record), ResultKind::Task));
    }
    let target = Target {
        method: TOOLS_CALL,
        name: tool.definition.name,
        arguments: params.arguments.as_deref(),
        principal: owner,
    };
    let round = rounds::open(
        &exchange.core,
        target,
        params.input_responses.as_deref(),
        params.request_state.as_deref(),
    );
    let round = round?;
    let (signal, resolved) = tokio::sync::oneshot::channel();
    let call = HandlerCall {
        context: job.context.clone(),
        arguments: params.arguments.clone(),
        handler: tool.handler.clone(),
        round,
        uri: None,
        replay_guard: tool
            .definition
            .once
            .then(|| exchange.core.replay_guard.clone()),
        raised: Default::default(),
        resolved: Mutex::new(Some(signal)),
    };
    let handle = AbortOnDrop(tokio::spawn(run(tool.definition.call, call, "the tool")));
    if resolved.await.is_ok() {
        tasks.create(&record).await.map_err(not_created)?;
        registered.hand_over();
        tokio::spawn(worker::drive(job, Some(handle)));
        return Ok((created(&record), ResultKind::Task));
    }
    // The call stopped before its body: questions for this request's next round, or a failure.
    drop(registered);
    match handle.join().await {
        Ok(result) => Ok((to_json(&result), ResultKind::Complete)),
        Err(Stop::Failed(error) | Stop::InvalidArguments(error)) => Ok((
            to_json(&failure(tool.definition.name, &error)),
            ResultKind::Complete,
        )),
        Err(stop) => stopped(exchange, target, stop),
    }
}

/// `-32000`: the caller has its quota of unfinished tasks.
fn busy(QuotaReached(quota): QuotaReached) -> ErrorObject {
    ErrorObject::new(
        code::SERVER_BUSY,
        format!("Server busy: at most {quota} unfinished tasks per caller; try again later"),
    )
}

fn not_created(refused: NotCreated) -> ErrorObject {
    match refused {
        NotCreated::Quota(quota) => busy(quota),
        NotCreated::Store(error) => store_failed(error),
    }
}

/// A task registered as running here, forgotten when dropped unless a worker took it over.
struct Registered {
    tasks: Arc<Tasks>,
    id: Option<String>,
}

impl Registered {
    /// The worker owns the task now (it forgets it when it ends).
    fn hand_over(mut self) {
        self.id = None;
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Some(id) = self.id.take() {
            self.tasks.finish(&id);
        }
    }
}

/// The `CreateTaskResult` body (the envelope adds `resultType: "task"`).
fn created(record: &TaskRecord) -> String {
    let task: Task = record.to_detailed().task;
    to_json(&task)
}

/// The context a task's call runs with: the request's identity and capabilities, no back
/// channel (a task's progress becomes its status message; it sends no notifications), and the
/// task's link; and the values the request's layers attached (`extensions`).
fn task_context(
    exchange: &Exchange,
    id: &RequestId,
    served: &Served,
    link: TaskLink,
    extensions: http::Extensions,
) -> Context {
    let core = &exchange.core;
    let (outbound, _nobody) = Outbound::channel(1);
    Context::new(RequestScope {
        request_id: id.clone(),
        era: served.era,
        protocol_version: served.protocol_version.clone(),
        client_capabilities: served.capabilities.clone(),
        client_info: served.client_info.clone(),
        progress_token: None,
        log_level: None,
        state: core.state.clone(),
        outbound,
        headers: exchange.headers.clone(),
        principal: exchange.subject.clone(),
        grant: exchange.grant.clone(),
        notifier: core.notifier.clone(),
        client_requests: None,
        client_request_timeout: core.limits.client_request_timeout,
        open_url_elicitations: Default::default(),
        reached: Default::default(),
        trace_context: served.trace_context.clone(),
        observer: Default::default(),
        extensions: std::sync::Mutex::new(extensions),
        task: Some(link),
    })
}
