//! Routes one request to its method and writes the response line. The top of the dispatch
//! layer: nothing below imports it.

use super::envelope::{self, Kind};
use super::era::{Served, classify};
use super::exchange::{Exchange, parse};
use super::layered::around_method;
use super::methods::lists::{Listed, list};
use super::methods::{completion, lifecycle, listen, prompts, resources, tasks, tools};
use super::reply::{Reply, reply};
use super::runner::request_context;
use crate::protocol::jsonrpc::{Request, RequestId, result_line};
use crate::protocol::logging::SetLevelParams;
use crate::protocol::{Era, ErrorObject, tasks as task_methods};
use crate::server::cache::CacheHint;
use serde_json::value::RawValue;

/// Handles `request` and returns the response line.
pub(crate) async fn handle(exchange: &Exchange, request: Request) -> String {
    respond(exchange, request).await.line
}

/// Handles `request` and returns the response line with its error code.
pub(crate) async fn respond(exchange: &Exchange, request: Request) -> Reply {
    let Request { id, method, params } = request;
    let outcome = if method == "initialize" {
        lifecycle::initialize(exchange, params.as_deref()).map(|json| result_line(&id, &json))
    } else {
        match classify(params.as_deref(), &exchange.session) {
            Ok(served) => route(exchange, &id, &method, params, served).await,
            Err(error) => Err(error),
        }
    };
    reply(&id, outcome, exchange.grant.as_deref())
}

/// Handles `request` (not `initialize`) as the caller already classified it, and returns the
/// response line with its error code: [`respond`] without reading `_meta` again.
#[cfg(feature = "http")]
pub(crate) async fn respond_served(exchange: &Exchange, request: Request, served: Served) -> Reply {
    let Request { id, method, params } = request;
    debug_assert_ne!(method, "initialize");
    let outcome = route(exchange, &id, &method, params, served).await;
    reply(&id, outcome, exchange.grant.as_deref())
}

/// The methods whose handlers may need scopes: they report a header mismatch after their scope
/// decision ([`authorize::admit`](super::authorize::admit)); every other method reports it
/// before anything runs.
fn decides_scopes(method: &str) -> bool {
    matches!(
        method,
        "tools/call"
            | "prompts/get"
            | "resources/read"
            | "completion/complete"
            | "resources/subscribe"
    )
}

async fn route(
    exchange: &Exchange,
    id: &RequestId,
    method: &str,
    params: Option<Box<RawValue>>,
    served: Served,
) -> Result<String, ErrorObject> {
    if let Some(mismatch) = &exchange.mismatch
        && !decides_scopes(method)
    {
        return Err(mismatch.clone());
    }
    match exchange.core.layers.as_deref() {
        // The handler methods run their layers themselves, once authorization admitted them.
        Some(layers) if !matches!(method, "tools/call" | "prompts/get" | "resources/read") => {
            let context = request_context(exchange, id, served.clone());
            let era = served.era;
            let handled = method_of(exchange, id, method, params, served);
            // Boxed: the unlayered path keeps its future small.
            Box::pin(around_method(
                exchange,
                layers,
                (id, era),
                method,
                context,
                handled,
            ))
            .await
        }
        _ => method_of(exchange, id, method, params, served).await,
    }
}

/// Serves the request with its method's file.
async fn method_of(
    exchange: &Exchange,
    id: &RequestId,
    method: &str,
    params: Option<Box<RawValue>>,
    served: Served,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let era = served.era;
    let respond = |json: &str, kind| envelope::result(core, era, id, json, kind);
    let principal = exchange.principal.as_deref();
    let listed = Kind::Cacheable(CacheHint::public(core.limits.list_ttl).for_principal(principal));
    let list_of = |what| {
        list(exchange, what, params.as_deref(), |page| {
            respond(page, listed)
        })
    };
    let answered = |(json, kind): (String, Kind)| respond(&json, kind);
    match (method, era) {
        ("tools/call", _) if core.offers_tools() => {
            let params = parse(params.as_deref())?;
            tools::call_tool(exchange, id, params, served)
                .await
                .map(answered)
        }
        ("prompts/get", _) if core.offers_prompts() => {
            let params = parse(params.as_deref())?;
            prompts::get_prompt(exchange, id, params, served)
                .await
                .map(answered)
        }
        ("resources/read", _) if core.offers_resources() => {
            let params = parse(params.as_deref())?;
            resources::read_resource(exchange, id, params, served)
                .await
                .map(answered)
        }
        ("tools/list", _) if core.offers_tools() => list_of(Listed::Tools),
        ("prompts/list", _) if core.offers_prompts() => list_of(Listed::Prompts),
        ("resources/list", _) if core.offers_resources() => list_of(Listed::Resources),
        ("resources/templates/list", _) if core.offers_resources() => {
            list_of(Listed::ResourceTemplates)
        }
        ("completion/complete", _) if core.completer.is_some() => {
            let params = parse(params.as_deref())?;
            completion::complete(exchange, id, params, served)
                .await
                .map(answered)
        }
        ("ping", Era::Legacy) => Ok(respond("{}", Kind::Complete)),
        ("server/discover", Era::Modern) => {
            Ok(respond(&lifecycle::discover(exchange), Kind::Complete))
        }
        (task_methods::GET | task_methods::UPDATE | task_methods::CANCEL, Era::Modern)
            if core.tasks.is_some() =>
        {
            let json = tasks::serve(exchange, method, params.as_deref(), &served).await?;
            Ok(respond(&json, Kind::Complete))
        }
        ("subscriptions/listen", Era::Modern) => {
            let params = parse(params.as_deref())?;
            listen::listen(exchange, id, params, &served).await
        }
        ("resources/subscribe", Era::Legacy) if core.offers_resources() => {
            resources::subscribe(exchange, parse(params.as_deref())?)?;
            Ok(respond("{}", Kind::Complete))
        }
        ("resources/unsubscribe", Era::Legacy) if core.offers_resources() => {
            resources::unsubscribe(exchange, parse(params.as_deref())?);
            Ok(respond("{}", Kind::Complete))
        }
        ("logging/setLevel", Era::Legacy) => {
            let params: SetLevelParams = parse(params.as_deref())?;
            exchange.session.set_log_level(params.level);
            Ok(respond("{}", Kind::Complete))
        }
        _ => Err(ErrorObject::method_not_found(method)),
    }
}
