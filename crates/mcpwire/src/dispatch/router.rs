//! Routes one request to its method and writes the response line. The top of the dispatch
//! layer: nothing below imports it.

use super::envelope;
use super::era::{Served, classify};
use super::exchange::{Exchange, parse};
use super::methods::lists::{Listed, list};
use super::methods::{completion, lifecycle, listen, prompts, resources, tools};
use super::outer::{self, Arrived};
use super::pipeline::{MethodRequest, Written, run_method, write};
use super::reply::{Reply, reply};
use super::runner::request_context;
use super::table::row;
use crate::context::Context;
use crate::extension::ExtensionRequest;
use crate::extension::registry::Bound;
use crate::layer::{McpResponse, McpService, Outcome};
use crate::protocol::cache_hint::CacheHint;
use crate::protocol::jsonrpc::{Request, RequestId, result_line};
use crate::protocol::logging::SetLevelParams;
use crate::protocol::methods::{INITIALIZE, Method};
use crate::protocol::resources::{SubscribeParams, UnsubscribeParams};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject};
use crate::server::core::ServerCore;
use serde_json::value::RawValue;
use std::future::Future;
use std::sync::Arc;

/// Handles `request` and returns the response line.
pub(crate) async fn handle(exchange: &Arc<Exchange>, request: Request) -> String {
    respond(exchange, request).await.line
}

/// Handles `request` and returns the response line with its error code.
pub(crate) async fn respond(exchange: &Arc<Exchange>, request: Request) -> Reply {
    let served = (request.method != INITIALIZE)
        .then(|| classify(request.params.as_deref(), &exchange.session));
    answer(exchange, request, served).await
}

/// Handles `request` (not `initialize`) as the caller already classified it, and returns the
/// response line with its error code: [`respond`] without reading `_meta` again.
#[cfg(feature = "http")]
pub(crate) async fn respond_served(
    exchange: &Arc<Exchange>,
    request: Request,
    served: Served,
) -> Reply {
    debug_assert_ne!(request.method, INITIALIZE);
    answer(exchange, request, Some(Ok(served))).await
}

/// Answers `request`: `initialize` (`served` is `None`), or a request classified as `served`;
/// through the outer tier first when the server has one.
async fn answer(
    exchange: &Arc<Exchange>,
    request: Request,
    served: Option<Result<Served, ErrorObject>>,
) -> Reply {
    let written = match exchange.core.layers.outer() {
        None => {
            let Request { id, method, params } = request;
            let written = serve(exchange, (&id, &method, params), served, None).await;
            return reply(&id, lines(written), exchange.grant.as_deref());
        }
        Some(outer) => {
            let id = request.id.clone();
            let written = Box::pin(through_outer(exchange, outer, request, served)).await;
            (id, written)
        }
    };
    let (id, written) = written;
    reply(
        &id,
        written.map(|(line, _)| line),
        exchange.grant.as_deref(),
    )
}

/// The response line of a request served without an outer tier (refused before its method, or
/// written by it).
fn lines(served: Result<Written, ErrorObject>) -> Result<String, ErrorObject> {
    served.and_then(|written| written.map(|(line, _)| line))
}

/// Runs `request` through the outer tier `outer`, then serves it at its bottom.
async fn through_outer(
    exchange: &Arc<Exchange>,
    outer: &McpService,
    request: Request,
    served: Option<Result<Served, ErrorObject>>,
) -> Written {
    let arrived = Arrived::new(exchange, &request, served.as_ref());
    let owned = Arc::clone(exchange);
    let serving = move |context| async move {
        let Request { id, method, params } = request;
        serve(&owned, (&id, &method, params), served, Some(context)).await
    };
    outer::through(exchange, outer, arrived, serving).await
}

/// Serves `request`: `initialize` (`served` is `None`), or a request classified as `served`, in
/// `context` when the outer tier made it. `Err` when it was refused before its method ran.
async fn serve(
    exchange: &Arc<Exchange>,
    (id, method, params): (&RequestId, &str, Option<Box<RawValue>>),
    served: Option<Result<Served, ErrorObject>>,
    context: Option<Context>,
) -> Result<Written, ErrorObject> {
    match served {
        None => Ok(lifecycle::initialize(exchange, params.as_deref())
            .map(|json| (result_line(id, &json), Outcome::Complete))),
        Some(Ok(served)) => route(exchange, id, method, params, served, context).await,
        Some(Err(error)) => Err(error),
    }
}

/// Serves a classified request with its method: refused (`Err`) before the method runs, or
/// answered by it.
async fn route(
    exchange: &Arc<Exchange>,
    id: &RequestId,
    method: &str,
    params: Option<Box<RawValue>>,
    served: Served,
    context: Option<Context>,
) -> Result<Written, ErrorObject> {
    let known = Method::of(method);
    // A method whose handler may need scopes reports a mismatch after its scope decision.
    if let Some(mismatch) = &exchange.mismatch
        && !known.is_some_and(|known| row(known).needs_scopes)
    {
        return Err(mismatch.clone());
    }
    let core = &exchange.core;
    let era = served.era;
    let written = |response| write(core, (id, era, method), response);
    let admitted = Admitted {
        exchange,
        id,
        method,
        known,
        served,
        context,
    };
    // The handler methods run their layers themselves, between their scope decision and the
    // handler; every other method goes through the layers here, once admitted.
    match known {
        Some(Method::ToolsCall) if core.offers_tools() => {
            let params = parse(params.as_deref())?;
            let context = admitted.context;
            Ok(written(
                tools::call_tool(exchange, id, params, admitted.served, context).await?,
            ))
        }
        Some(Method::PromptsGet) if core.offers_prompts() => {
            let params = parse(params.as_deref())?;
            let context = admitted.context;
            Ok(written(
                prompts::get_prompt(exchange, id, params, admitted.served, context).await?,
            ))
        }
        Some(Method::ResourcesRead) if core.offers_resources() => {
            let params = parse(params.as_deref())?;
            let context = admitted.context;
            Ok(written(
                resources::read_resource(exchange, id, params, admitted.served, context).await?,
            ))
        }
        Some(Method::ToolsList) if core.offers_tools() => {
            Ok(written(admitted.list(Listed::Tools, params).await))
        }
        Some(Method::PromptsList) if core.offers_prompts() => {
            Ok(written(admitted.list(Listed::Prompts, params).await))
        }
        Some(Method::ResourcesList) if core.offers_resources() => {
            Ok(written(admitted.list(Listed::Resources, params).await))
        }
        Some(Method::ResourcesTemplatesList) if core.offers_resources() => Ok(written(
            admitted.list(Listed::ResourceTemplates, params).await,
        )),
        // The other methods are rarer, and their futures larger: boxed, so that the calls and
        // lists above move and keep a smaller future.
        _ => Ok(written(Box::pin(rest_of(admitted, params)).await?)),
    }
}

/// A request authorization admitted to its method (but for the handler methods' own scope
/// decision), as the router serves it.
struct Admitted<'a> {
    exchange: &'a Arc<Exchange>,
    id: &'a RequestId,
    method: &'a str,
    /// `method`, when the server knows it.
    known: Option<Method>,
    served: Served,
    /// The request's context, when the outer tier made it already.
    context: Option<Context>,
}

impl Admitted<'_> {
    /// What writes this request's response line, owning what it needs.
    fn responder(&self) -> Responder {
        Responder {
            core: Arc::clone(&self.exchange.core),
            era: self.served.era,
            id: self.id.clone(),
        }
    }

    /// Runs `work`, which writes the method's response line, through the server-wide layers;
    /// `target` is what the layers see as the request's target.
    async fn through(
        self,
        target: Option<&str>,
        work: impl Future<Output = Result<String, ErrorObject>> + Send + 'static,
    ) -> McpResponse {
        let context = match self.context {
            Some(context) => context,
            None => request_context(self.exchange, self.id, self.served),
        };
        let request = MethodRequest {
            method: self.method,
            known: self.known,
            target,
            context,
        };
        run_method(self.exchange, request, work).await
    }

    /// A `*/list` request.
    async fn list(self, listed: Listed, params: Option<Box<RawValue>>) -> McpResponse {
        let exchange = Arc::clone(self.exchange);
        let responder = self.responder();
        let kind = ResultKind::Cacheable(
            CacheHint::public(exchange.core.limits.list_ttl)
                .for_principal(exchange.principal.as_deref()),
        );
        let listing = async move {
            list(&exchange, listed, params.as_deref(), |page| {
                responder.line(page, kind)
            })
        };
        self.through(None, listing).await
    }
}

/// Writes a request's response line (the result's envelope differs by revision).
struct Responder {
    core: Arc<ServerCore>,
    era: Era,
    id: RequestId,
}

impl Responder {
    /// The response line of the result `json`, of kind `kind`.
    fn line(&self, json: &str, kind: ResultKind) -> String {
        envelope::result(&self.core, self.era, &self.id, json, kind)
    }

    /// The response line of a method's result.
    fn complete(self) -> impl FnOnce((String, ResultKind)) -> String {
        move |(json, kind)| self.line(&json, kind)
    }

    /// The response line of an empty result.
    fn empty(self) -> Result<String, ErrorObject> {
        Ok(self.line("{}", ResultKind::Complete))
    }
}

/// Serves the methods [`route`] does not: completions, subscriptions, `ping`,
/// `server/discover`, `logging/setLevel`, the methods of installed extensions (the tasks
/// extension's among them), and any unknown method (`-32601`).
async fn rest_of(
    admitted: Admitted<'_>,
    params: Option<Box<RawValue>>,
) -> Result<McpResponse, ErrorObject> {
    let exchange = admitted.exchange;
    let core = &exchange.core;
    let owned = Arc::clone(exchange);
    let responder = admitted.responder();
    let id = admitted.id.clone();
    match (admitted.known, admitted.served.era) {
        (Some(Method::CompletionComplete), _) if core.completer.is_some() => {
            let params = parse(params.as_deref())?;
            completion::admit(exchange, &params)?;
            let served = admitted.served.clone();
            let completing = async move {
                let completed = completion::complete(&owned, &id, params, served).await;
                completed.map(responder.complete())
            };
            Ok(admitted.through(None, completing).await)
        }
        (Some(Method::Ping), Era::Legacy) => Ok(admitted
            .through(None, async move { responder.empty() })
            .await),
        (Some(Method::Discover), Era::Modern) => {
            let discovering = async move {
                Ok(responder.line(&lifecycle::discover(&owned), ResultKind::Complete))
            };
            Ok(admitted.through(None, discovering).await)
        }
        (Some(Method::SubscriptionsListen), Era::Modern) => {
            let params = parse(params.as_deref())?;
            let listening = listen::admit(exchange, params, &admitted.served).await?;
            let listening = async move { listen::listen(&owned, &id, listening).await };
            Ok(admitted.through(None, listening).await)
        }
        (Some(Method::ResourcesSubscribe), Era::Legacy) if core.offers_resources() => {
            let params: SubscribeParams = parse(params.as_deref())?;
            resources::admit_subscription(exchange, &params)?;
            let uri = params.uri.clone();
            let subscribing = async move {
                resources::subscribe(&owned, &params)?;
                responder.empty()
            };
            Ok(admitted.through(Some(&uri), subscribing).await)
        }
        (Some(Method::ResourcesUnsubscribe), Era::Legacy) if core.offers_resources() => {
            let params: UnsubscribeParams = parse(params.as_deref())?;
            let uri = params.uri.clone();
            let unsubscribing = async move {
                resources::unsubscribe(&owned, &params);
                responder.empty()
            };
            Ok(admitted.through(Some(&uri), unsubscribing).await)
        }
        (Some(Method::LoggingSetLevel), Era::Legacy) => {
            let setting = async move {
                let params: SetLevelParams = parse(params.as_deref())?;
                owned.session.set_log_level(params.level);
                responder.empty()
            };
            Ok(admitted.through(None, setting).await)
        }
        _ => match core.extensions.method(admitted.method, admitted.served.era) {
            Some(bound) => {
                let bound = bound.clone();
                extension_method(admitted, bound, params, responder).await
            }
            None => {
                let unknown = ErrorObject::method_not_found(admitted.method);
                Ok(admitted.through(None, async move { Err(unknown) }).await)
            }
        },
    }
}

/// Serves a method an installed extension binds: admitted by the extension's own gates, then
/// run through the server-wide layers.
async fn extension_method(
    admitted: Admitted<'_>,
    bound: Bound,
    params: Option<Box<RawValue>>,
    responder: Responder,
) -> Result<McpResponse, ErrorObject> {
    let exchange = admitted.exchange;
    let context = match admitted.context {
        Some(context) => context,
        None => request_context(exchange, admitted.id, admitted.served.clone()),
    };
    let request = ExtensionRequest {
        method: bound.method,
        extension: bound.extension,
        params,
        context: context.clone(),
        owner: exchange.principal.clone(),
    };
    let kind = match bound.cacheable {
        true => ResultKind::Cacheable(
            CacheHint::public(exchange.core.limits.list_ttl)
                .for_principal(exchange.principal.as_deref()),
        ),
        false => ResultKind::Complete,
    };
    let serve = bound.handler.admit(request).await?;
    let serving = async move {
        let result = serve.await?;
        Ok(responder.line(&result.to_string(), kind))
    };
    let admitted = Admitted {
        context: Some(context),
        ..admitted
    };
    Ok(admitted.through(None, serving).await)
}
