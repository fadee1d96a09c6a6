//! The outer tier (`McpServer::outer_layer`): every message the server answers, `initialize` and
//! refused requests included, through the outer layers before anything else runs; at the bottom
//! of that stack the request is served as on a server without them.

use super::era::{Served, unclassified};
use super::exchange::Exchange;
use super::peek::peek;
use super::pipeline::{Written, method_name, reached, write};
use super::runner::request_context;
use crate::context::Context;
use crate::layer::{Answer, McpRequest, McpResponse, McpService, Work};
use crate::protocol::jsonrpc::Request;
use crate::protocol::methods::Method;
use crate::protocol::{Era, ErrorObject, RequestId};
use crate::wire::shared_json::SharedJson;
use std::future::Future;
use std::sync::{Arc, OnceLock};

/// A request as it arrives, made into the request the outer layers see.
pub(crate) struct Arrived {
    id: RequestId,
    method: String,
    era: Era,
    request: McpRequest,
}

impl Arrived {
    /// `request` (classified as `served`; `None` for `initialize`) as the outer layers see it:
    /// its context made now (and kept for its method), its target and arguments as sent.
    pub(crate) fn new(
        exchange: &Arc<Exchange>,
        request: &Request,
        served: Option<&Result<Served, ErrorObject>>,
    ) -> Self {
        let served = match served {
            Some(Ok(served)) => served.clone(),
            _ => unclassified(&exchange.session),
        };
        let era = served.era;
        let known = Method::of(&request.method);
        let sent = peek(known, request.params.as_deref());
        let context = request_context(exchange, &request.id, served);
        Self {
            id: request.id.clone(),
            method: request.method.to_string(),
            era,
            request: McpRequest {
                method: method_name(&request.method, known),
                target: sent.target,
                arguments: sent.arguments.map(SharedJson::from),
                arguments_read: OnceLock::new(),
                retried: sent.retried,
                context,
                binding: exchange.principal.clone(),
                handler_layers: None,
                work: None,
                kept: None,
            },
        }
    }
}

/// Runs `arrived` through the outer stack `outer`, whose bottom serves it (`serve`, in the
/// context the outer layers saw; `Err` when it was refused before its method ran), and writes
/// the answer.
pub(crate) async fn through<S, F>(
    exchange: &Exchange,
    outer: &McpService,
    arrived: Arrived,
    serve: S,
) -> Written
where
    S: FnOnce(Context) -> F + Send + 'static,
    F: Future<Output = Result<Written, ErrorObject>> + Send + 'static,
{
    let Arrived {
        id,
        method,
        era,
        mut request,
    } = arrived;
    request.work = Some(Work::new(move |handed| async move {
        match serve(handed.context).await {
            Ok(Ok((line, outcome))) => reached(McpResponse::of(Answer::Line { line, outcome })),
            Ok(Err(error)) => reached(McpResponse::error(error)),
            Err(error) => McpResponse::error(error),
        }
    }));
    let response = outer.run(request).await;
    write(&exchange.core, (&id, era, &method), response)
}
