//! `initialize` (2025-11-25: opens the session) and `server/discover` (2026-07-28).

use crate::dispatch::admitted::{Admitted, Serving};
use crate::dispatch::envelope::to_json;
use crate::dispatch::exchange::{Exchange, parse};
use crate::dispatch::handshake::Negotiated;
use crate::protocol::ErrorObject;
use crate::protocol::cache_hint::CacheHint;
use crate::protocol::lifecycle::{DiscoverResult, InitializeParams, InitializeResult};
use crate::protocol::result_kind::ResultKind;
use crate::protocol::version::{all_supported, negotiate_legacy};
use serde_json::value::RawValue;
use std::sync::{Arc, LazyLock};

static ALL_VERSIONS: LazyLock<Vec<&'static str>> = LazyLock::new(all_supported);

/// `initialize`: records the handshake on the session; the result object.
pub(crate) fn initialize(
    exchange: &Exchange,
    params: Option<&RawValue>,
) -> Result<String, ErrorObject> {
    let params: InitializeParams = parse(params)?;
    let version = negotiate_legacy(&params.protocol_version);
    exchange.session.set_handshake(Negotiated {
        protocol_version: Arc::from(version),
        capabilities: Arc::new(params.capabilities),
        client_info: Arc::new(params.client_info),
    });
    let core = &exchange.core;
    exchange.session.watch_end(&core.session_ends);
    let result = InitializeResult {
        protocol_version: version,
        capabilities: &core.capabilities,
        server_info: &core.info,
        instructions: core.instructions.as_deref(),
    };
    Ok(to_json(&result))
}

/// Serves `ping` (2025-11-25): an empty result, through the server-wide layers.
pub(crate) fn serve_ping(admitted: Admitted<'_>, _: Option<Box<RawValue>>) -> Serving<'_> {
    let responder = admitted.responder();
    Box::pin(async move {
        Ok(admitted
            .through(None, async move { responder.empty() })
            .await)
    })
}

/// Serves `server/discover` (2026-07-28) through the server-wide layers.
pub(crate) fn serve_discover(admitted: Admitted<'_>, _: Option<Box<RawValue>>) -> Serving<'_> {
    let owned = Arc::clone(admitted.exchange);
    let responder = admitted.responder();
    let discovering = async move { Ok(responder.line(&discover(&owned), ResultKind::Complete)) };
    Box::pin(async move { Ok(admitted.through(None, discovering).await) })
}

/// `server/discover`: the result object.
fn discover(exchange: &Exchange) -> String {
    let core = &exchange.core;
    let principal = exchange.principal.as_deref();
    let hint = CacheHint::public(core.limits.list_ttl).for_principal(principal);
    let result = DiscoverResult {
        supported_versions: &ALL_VERSIONS,
        capabilities: &core.discover_capabilities,
        instructions: core.instructions.as_deref(),
        ttl_ms: hint.ttl_ms,
        cache_scope: hint.scope,
    };
    to_json(&result)
}
