//! Routes one request to its handler and writes the response line.

use super::authorize;
use super::calls;
use super::envelope::{self, Kind};
use super::era::{Served, classify};
use super::listen;
use super::session::{Handshake, Session};
use super::watched;
use crate::context::Outbound;
use crate::protocol::completion::CompleteParams;
use crate::protocol::jsonrpc::{Request, RequestId, error_line, result_line};
use crate::protocol::lifecycle::{DiscoverResult, InitializeParams, InitializeResult};
use crate::protocol::logging::SetLevelParams;
use crate::protocol::prompts::GetPromptParams;
use crate::protocol::resources::{ReadResourceParams, SubscribeParams, UnsubscribeParams};
use crate::protocol::subscriptions::ListenParams;
use crate::protocol::tasks;
use crate::protocol::tools::{CallToolParams, PaginatedParams};
use crate::protocol::version::{all_supported, negotiate_legacy};
use crate::protocol::{Era, ErrorObject};
use crate::server::cache::CacheHint;
use crate::server::core::ServerCore;
use crate::server::pages::Pages;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::sync::{Arc, LazyLock};

/// What a request is served with besides its own message.
pub(crate) struct Exchange {
    pub(crate) core: Arc<ServerCore>,
    pub(crate) session: Arc<Session>,
    pub(crate) outbound: Outbound,
    pub(crate) headers: Option<Arc<http::HeaderMap>>,
    /// Who the transport authenticated, as sessions, `requestState`, tasks and replay guards
    /// are bound to (the issuer and the subject of a verified token).
    pub(crate) principal: Option<Arc<str>>,
    /// Who the transport authenticated, as handlers see it ([`Context::principal`]: the
    /// subject).
    ///
    /// [`Context::principal`]: crate::Context::principal
    pub(crate) subject: Option<Arc<str>>,
    /// What the caller's token grants (HTTP with authorization or the application's own
    /// middleware, or [`McpServer::local_grant`](crate::McpServer::local_grant)).
    pub(crate) grant: Option<Arc<crate::context::Grant>>,
    /// A 2025-11-25 request whose `Mcp-Method`/`Mcp-Name` headers disagree with its body: the
    /// error it gets, after the scope decision ([`authorize::admit`]).
    pub(crate) mismatch: Option<ErrorObject>,
}

/// Handles `request` and returns the response line.
pub(crate) async fn handle(exchange: &Exchange, request: Request) -> String {
    respond(exchange, request).await.line
}

/// A response line, and the JSON-RPC error code when it is an error (HTTP picks its status from
/// it).
pub(crate) struct Reply {
    pub(crate) line: String,
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) error_code: Option<i32>,
    /// When the scope decision refused the request: what HTTP's `403 insufficient_scope`
    /// challenge says.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) refusal: Option<authorize::Refusal>,
}

/// Handles `request` and returns the response line with its error code.
pub(crate) async fn respond(exchange: &Exchange, request: Request) -> Reply {
    let Request { id, method, params } = request;
    let outcome = if method == "initialize" {
        initialize(exchange, params.as_deref()).map(|json| result_line(&id, &json))
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

fn reply(
    id: &RequestId,
    outcome: Result<String, ErrorObject>,
    grant: Option<&crate::context::Grant>,
) -> Reply {
    match outcome {
        Ok(line) => Reply {
            line,
            error_code: None,
            refusal: None,
        },
        Err(error) => Reply {
            line: error_line(Some(id), &error),
            error_code: Some(error.code),
            refusal: authorize::refusal(&error, grant),
        },
    }
}

async fn route(
    exchange: &Exchange,
    id: &RequestId,
    method: &str,
    params: Option<Box<RawValue>>,
    served: Served,
) -> Result<String, ErrorObject> {
    let core = &exchange.core;
    let era = served.era;
    let respond = |json: &str, cacheable| envelope::result(core, era, id, json, cacheable);
    let principal = exchange.principal.as_deref();
    let listed = Kind::Cacheable(CacheHint::public(core.limits.list_ttl).for_principal(principal));
    // The handlers that may need scopes report a header mismatch after their scope decision;
    // every other method reports it here.
    if let Some(mismatch) = &exchange.mismatch
        && !matches!(
            method,
            "tools/call"
                | "prompts/get"
                | "resources/read"
                | "completion/complete"
                | "resources/subscribe"
        )
    {
        return Err(mismatch.clone());
    }
    match (method, era) {
        ("tools/call", _) if core.offers_tools() => {
            let params: CallToolParams = parse(params.as_deref())?;
            let (json, kind) = calls::call_tool(exchange, id, params, served).await?;
            Ok(respond(&json, kind))
        }
        ("prompts/get", _) if core.offers_prompts() => {
            let params: GetPromptParams = parse(params.as_deref())?;
            let (json, kind) = calls::get_prompt(exchange, id, params, served).await?;
            Ok(respond(&json, kind))
        }
        ("resources/read", _) if core.offers_resources() => {
            let params: ReadResourceParams = parse(params.as_deref())?;
            let (json, kind) = calls::read_resource(exchange, id, params, served).await?;
            Ok(respond(&json, kind))
        }
        ("prompts/list", _) if core.offers_prompts() => {
            let snapshot = core.snapshot();
            if let Some(grant) = exchange.grant.as_deref()
                && snapshot.prompts.any_scoped()
            {
                return Ok(respond(
                    &snapshot.prompts.page_for("prompts", grant),
                    listed,
                ));
            }
            let page = list_page(snapshot.prompts.pages(), params.as_deref())?;
            Ok(respond(page, listed))
        }
        ("resources/list", _) if core.offers_resources() => {
            let snapshot = core.snapshot();
            if let Some(grant) = exchange.grant.as_deref()
                && snapshot.resources.any_scoped()
            {
                return Ok(respond(
                    &snapshot.resources.resource_page_for(grant),
                    listed,
                ));
            }
            let page = list_page(snapshot.resources.resource_pages(), params.as_deref())?;
            Ok(respond(page, listed))
        }
        ("resources/templates/list", _) if core.offers_resources() => {
            let snapshot = core.snapshot();
            if let Some(grant) = exchange.grant.as_deref()
                && snapshot.resources.any_scoped()
            {
                return Ok(respond(
                    &snapshot.resources.template_page_for(grant),
                    listed,
                ));
            }
            let page = list_page(snapshot.resources.template_pages(), params.as_deref())?;
            Ok(respond(page, listed))
        }
        ("tools/list", _) if core.offers_tools() => {
            let snapshot = core.snapshot();
            // A caller with a token sees only the tools its scopes allow (in one page).
            if let Some(grant) = exchange.grant.as_deref()
                && snapshot.tools.any_scoped()
            {
                return Ok(respond(&snapshot.tools.page_for("tools", grant), listed));
            }
            let page = list_page(snapshot.tools.pages(), params.as_deref())?;
            Ok(respond(page, listed))
        }
        ("completion/complete", _) if core.completer.is_some() => {
            let params: CompleteParams = parse(params.as_deref())?;
            let (json, kind) = calls::complete(exchange, id, params, served).await?;
            Ok(respond(&json, kind))
        }
        ("ping", Era::Legacy) => Ok(respond("{}", Kind::Complete)),
        ("server/discover", Era::Modern) => {
            let versions = &*ALL_VERSIONS;
            let hint = CacheHint::public(core.limits.list_ttl).for_principal(principal);
            let result = DiscoverResult {
                supported_versions: versions,
                capabilities: &core.discover_capabilities,
                instructions: core.instructions.as_deref(),
                ttl_ms: hint.ttl_ms,
                cache_scope: hint.scope,
            };
            Ok(respond(&to_json(&result), Kind::Complete))
        }
        (tasks::GET | tasks::UPDATE | tasks::CANCEL, Era::Modern) if core.tasks.is_some() => {
            let json = super::tasks::serve(exchange, method, params.as_deref(), &served).await?;
            Ok(respond(&json, Kind::Complete))
        }
        ("subscriptions/listen", Era::Modern) => {
            let params: ListenParams = parse(params.as_deref())?;
            listen::listen(exchange, id, params, &served).await
        }
        ("resources/subscribe", Era::Legacy) if core.offers_resources() => {
            let params: SubscribeParams = parse(params.as_deref())?;
            let scopes = watched::admit(core, era, &params.uri)?;
            authorize::admit(exchange, scopes)?;
            exchange
                .session
                .subscribe(&params.uri, core.limits.max_subscriptions)
                .map_err(|_| {
                    watched::over_the_cap(
                        &core.limits,
                        "subscriptions per session; unsubscribe first",
                    )
                })?;
            Ok(respond("{}", Kind::Complete))
        }
        ("resources/unsubscribe", Era::Legacy) if core.offers_resources() => {
            let params: UnsubscribeParams = parse(params.as_deref())?;
            exchange.session.unsubscribe(&params.uri);
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

/// The page of a list result the request's cursor points at.
fn list_page<'p>(pages: &'p Pages, params: Option<&RawValue>) -> Result<&'p str, ErrorObject> {
    let params: PaginatedParams = parse_or_default(params)?;
    pages
        .page(params.cursor.as_deref())
        .map(RawValue::get)
        .ok_or_else(|| ErrorObject::invalid_params("Invalid params: unknown cursor"))
}

static ALL_VERSIONS: LazyLock<Vec<&'static str>> = LazyLock::new(all_supported);

fn initialize(exchange: &Exchange, params: Option<&RawValue>) -> Result<String, ErrorObject> {
    let params: InitializeParams = parse(params)?;
    let version = negotiate_legacy(&params.protocol_version);
    exchange.session.set_handshake(Handshake {
        protocol_version: Arc::from(version),
        capabilities: Arc::new(params.capabilities),
        client_info: Arc::new(params.client_info),
    });
    let core = &exchange.core;
    let result = InitializeResult {
        protocol_version: version,
        capabilities: &core.capabilities,
        server_info: &core.info,
        instructions: core.instructions.as_deref(),
    };
    Ok(to_json(&result))
}

fn to_json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("results serialize")
}

pub(crate) fn parse<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|error| {
        let why = error.to_string();
        let why = why.split(" at line ").next().unwrap_or_default();
        ErrorObject::invalid_params(format!("Invalid params: {why}"))
    })
}

fn parse_or_default<T: DeserializeOwned + Default>(
    params: Option<&RawValue>,
) -> Result<T, ErrorObject> {
    match params {
        None => Ok(T::default()),
        Some(_) => parse(params),
    }
}
