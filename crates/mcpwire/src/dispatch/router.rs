//! Routes one request to its method and writes the response line. The top of the dispatch
//! layer: nothing below imports it.

use super::envelope;
use super::era::{Served, classify};
use super::exchange::{Exchange, parse};
use super::layered::Around;
use super::methods::lists::{Listed, list};
use super::methods::{completion, lifecycle, listen, prompts, resources, tasks, tools};
use super::reply::{Reply, reply};
use super::runner::request_context;
use super::table::row;
use crate::protocol::cache_hint::CacheHint;
use crate::protocol::jsonrpc::{Request, RequestId, result_line};
use crate::protocol::logging::SetLevelParams;
use crate::protocol::methods::{INITIALIZE, Method};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{Era, ErrorObject};
use serde_json::value::RawValue;
use std::future::Future;

/// Handles `request` and returns the response line.
pub(crate) async fn handle(exchange: &Exchange, request: Request) -> String {
    respond(exchange, request).await.line
}

/// Handles `request` and returns the response line with its error code.
pub(crate) async fn respond(exchange: &Exchange, request: Request) -> Reply {
    let served = (request.method != INITIALIZE)
        .then(|| classify(request.params.as_deref(), &exchange.session));
    answer(exchange, request, served).await
}

/// Handles `request` (not `initialize`) as the caller already classified it, and returns the
/// response line with its error code: [`respond`] without reading `_meta` again.
#[cfg(feature = "http")]
pub(crate) async fn respond_served(exchange: &Exchange, request: Request, served: Served) -> Reply {
    debug_assert_ne!(request.method, INITIALIZE);
    answer(exchange, request, Some(Ok(served))).await
}

/// Answers `request`: `initialize` (`served` is `None`), or a request classified as `served`.
/// Not an `async fn`: its two ways are two variants of one small future, and the untraced way
/// keeps the answer's future in place (an `async fn` here doubled its size, and every request
/// copied it).
#[cfg(feature = "otel")]
fn answer<'a>(
    exchange: &'a Exchange,
    request: Request,
    served: Option<Result<Served, ErrorObject>>,
) -> impl Future<Output = Reply> + 'a {
    use futures_util::future::Either;
    match super::unlayered::arrival(exchange, (&request.id, &request.method), served.as_ref()) {
        Some(arrival) => Either::Left(arrival.answer(
            exchange,
            Box::pin(answer_untraced(exchange, request, served)),
        )),
        None => Either::Right(answer_untraced(exchange, request, served)),
    }
}

/// Answers `request`: `initialize` (`served` is `None`), or a request classified as `served`.
#[cfg(not(feature = "otel"))]
fn answer<'a>(
    exchange: &'a Exchange,
    request: Request,
    served: Option<Result<Served, ErrorObject>>,
) -> impl Future<Output = Reply> + 'a {
    answer_untraced(exchange, request, served)
}

/// [`answer`], without a span for a request the layers never saw.
async fn answer_untraced(
    exchange: &Exchange,
    request: Request,
    served: Option<Result<Served, ErrorObject>>,
) -> Reply {
    let Request { id, method, params } = request;
    let outcome = match served {
        None => {
            lifecycle::initialize(exchange, params.as_deref()).map(|json| result_line(&id, &json))
        }
        Some(Ok(served)) => route(exchange, &id, &method, params, served).await,
        Some(Err(error)) => Err(error),
    };
    reply(&id, outcome, exchange.grant.as_deref())
}

async fn route(
    exchange: &Exchange,
    id: &RequestId,
    method: &str,
    params: Option<Box<RawValue>>,
    served: Served,
) -> Result<String, ErrorObject> {
    let known = Method::of(method);
    // A method whose handler may need scopes reports a mismatch after its scope decision.
    if let Some(mismatch) = &exchange.mismatch
        && !known.is_some_and(|known| row(known).needs_scopes)
    {
        return Err(mismatch.clone());
    }
    let around = Around::new(exchange, (id, served.era), (method, known), || {
        request_context(exchange, id, served.clone())
    });
    method_of(exchange, id, (method, known, params), served, around).await
}

/// Serves the request with its method's file: the scope decision first (for the methods that
/// may need scopes), then the server's layers (`around`; the handler methods run theirs
/// themselves, between the decision and the handler), then the method.
async fn method_of(
    exchange: &Exchange,
    id: &RequestId,
    (method, known, params): (&str, Option<Method>, Option<Box<RawValue>>),
    served: Served,
    around: Around<'_>,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let era = served.era;
    let respond = |json: &str, kind| envelope::result(core, era, id, json, kind);
    let principal = exchange.principal.as_deref();
    let listed =
        ResultKind::Cacheable(CacheHint::public(core.limits.list_ttl).for_principal(principal));
    // Each method's work is a future the layers start, so a layer runs before it.
    let list_of = |what| {
        let params = params.as_deref();
        async move { list(exchange, what, params, |page| respond(page, listed)) }
    };
    let answered = |(json, kind): (String, ResultKind)| respond(&json, kind);
    match (known, era) {
        (Some(Method::ToolsCall), _) if core.offers_tools() => {
            let params = parse(params.as_deref())?;
            tools::call_tool(exchange, id, params, served)
                .await
                .map(answered)
        }
        (Some(Method::PromptsGet), _) if core.offers_prompts() => {
            let params = parse(params.as_deref())?;
            prompts::get_prompt(exchange, id, params, served)
                .await
                .map(answered)
        }
        (Some(Method::ResourcesRead), _) if core.offers_resources() => {
            let params = parse(params.as_deref())?;
            resources::read_resource(exchange, id, params, served)
                .await
                .map(answered)
        }
        (Some(Method::ToolsList), _) if core.offers_tools() => {
            around.run(None, list_of(Listed::Tools)).await
        }
        (Some(Method::PromptsList), _) if core.offers_prompts() => {
            around.run(None, list_of(Listed::Prompts)).await
        }
        (Some(Method::ResourcesList), _) if core.offers_resources() => {
            around.run(None, list_of(Listed::Resources)).await
        }
        (Some(Method::ResourcesTemplatesList), _) if core.offers_resources() => {
            around.run(None, list_of(Listed::ResourceTemplates)).await
        }
        // The other methods are rarer, and their futures larger: boxed, so that the calls and
        // lists above move and keep a smaller future.
        _ => {
            Box::pin(rest_of(
                exchange,
                id,
                (method, known, params),
                served,
                around,
            ))
            .await
        }
    }
}

/// Serves the methods [`method_of`] does not: completions, subscriptions, tasks, `ping`,
/// `server/discover`, `logging/setLevel`, and any unknown method (`-32601`).
async fn rest_of(
    exchange: &Exchange,
    id: &RequestId,
    (method, known, params): (&str, Option<Method>, Option<Box<RawValue>>),
    served: Served,
    around: Around<'_>,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let era = served.era;
    let respond = |json: &str, kind| envelope::result(core, era, id, json, kind);
    let answered = |(json, kind): (String, ResultKind)| respond(&json, kind);
    let done = |json: fn(&Exchange) -> String| async move {
        Ok(respond(&json(exchange), ResultKind::Complete))
    };
    match (known, era) {
        (Some(Method::CompletionComplete), _) if core.completer.is_some() => {
            let params = parse(params.as_deref())?;
            completion::admit(exchange, &params)?;
            let completing = completion::complete(exchange, id, params, served);
            around
                .run(None, async { completing.await.map(answered) })
                .await
        }
        (Some(Method::Ping), Era::Legacy) => around.run(None, done(|_| "{}".to_owned())).await,
        (Some(Method::Discover), Era::Modern) => around.run(None, done(lifecycle::discover)).await,
        (Some(Method::TasksGet | Method::TasksUpdate | Method::TasksCancel), Era::Modern)
            if core.tasks.is_some() =>
        {
            let request = tasks::admit(exchange, method, params.as_deref(), &served).await?;
            let serving = async {
                let json = tasks::serve(exchange, request).await?;
                Ok(respond(&json, ResultKind::Complete))
            };
            around.run(None, serving).await
        }
        (Some(Method::SubscriptionsListen), Era::Modern) => {
            let params = parse(params.as_deref())?;
            let listening = listen::admit(exchange, params, &served).await?;
            around
                .run(None, listen::listen(exchange, id, listening))
                .await
        }
        (Some(Method::ResourcesSubscribe), Era::Legacy) if core.offers_resources() => {
            let params = parse(params.as_deref())?;
            resources::admit_subscription(exchange, &params)?;
            let subscribing = async {
                resources::subscribe(exchange, &params)?;
                Ok(respond("{}", ResultKind::Complete))
            };
            around.run(Some(&params.uri), subscribing).await
        }
        (Some(Method::ResourcesUnsubscribe), Era::Legacy) if core.offers_resources() => {
            let params = parse(params.as_deref())?;
            let unsubscribing = async {
                resources::unsubscribe(exchange, &params);
                Ok(respond("{}", ResultKind::Complete))
            };
            around.run(Some(&params.uri), unsubscribing).await
        }
        (Some(Method::LoggingSetLevel), Era::Legacy) => {
            let setting = async {
                let params: SetLevelParams = parse(params.as_deref())?;
                exchange.session.set_log_level(params.level);
                Ok(respond("{}", ResultKind::Complete))
            };
            around.run(None, setting).await
        }
        _ => {
            let unknown = async { Err(ErrorObject::method_not_found(method)) };
            around.run(None, unknown).await
        }
    }
}
