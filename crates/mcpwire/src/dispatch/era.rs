//! Which revision a request is served under, decided per message.
//!
//! `initialize` opens a 2025-11-25 session. A request whose `params._meta` carries
//! `io.modelcontextprotocol/protocolVersion` (or client capabilities) is a stateless 2026-07-28
//! request and must carry both. Anything else belongs to the session, served leniently even
//! before `initialize` (real clients send `logging/setLevel` early).

use super::handshake::Handshake;
use crate::protocol::jsonrpc::code;
use crate::protocol::logging::LoggingLevel;
use crate::protocol::meta::RequestMeta;
use crate::protocol::progress::ProgressToken;
use crate::protocol::version::MODERN_VERSIONS;
use crate::protocol::{ClientCapabilities, Era, ErrorObject, Implementation, TraceContext};
use serde_json::json;
use std::sync::{Arc, OnceLock};

/// Who is asking, under which revision: everything a `Context` needs from the request.
#[derive(Clone)]
pub(crate) struct Served {
    pub(crate) era: Era,
    pub(crate) protocol_version: Arc<str>,
    pub(crate) capabilities: Arc<ClientCapabilities>,
    pub(crate) client_info: Option<Arc<Implementation>>,
    pub(crate) log_level: Option<LoggingLevel>,
    pub(crate) progress_token: Option<ProgressToken>,
    /// The caller's trace context from `_meta`, as sent.
    pub(crate) trace_context: Option<Arc<TraceContext>>,
}

/// The refusal of a request whose `_meta` does not read as one.
pub(crate) fn malformed_meta() -> ErrorObject {
    ErrorObject::invalid_params("Invalid params: malformed _meta")
}

/// What a request not classified (`initialize`, or one whose `_meta` is malformed) is served as
/// until it is refused or answered: the session's revision, as 2025-11-25 knows it.
pub(crate) fn unclassified(session: &Handshake) -> Served {
    by_session(SessionMeta::default(), session)
}

/// What the `_meta` of a request that names no revision (a 2025-11-25 session's) brings to how
/// it is served: its progress token and the caller's trace context. Small, where the whole
/// `_meta` ([`RequestMeta`]) is hundreds of bytes.
#[derive(Default)]
pub(crate) struct SessionMeta {
    progress_token: Option<ProgressToken>,
    trace_context: Option<Arc<TraceContext>>,
}

impl SessionMeta {
    /// What `meta` (which [names no revision](names_revision)) brings to how it is served.
    pub(crate) fn of(meta: RequestMeta) -> Self {
        Self {
            trace_context: TraceContext::of(meta.traceparent, meta.tracestate).map(Arc::new),
            progress_token: meta.progress_token,
        }
    }
}

/// Whether `meta` names a revision or carries client capabilities: a 2026-07-28 request's (or
/// a malformed one, which [`classify_meta`] refuses); else a session serves it.
pub(crate) fn names_revision(meta: &RequestMeta) -> bool {
    meta.protocol_version.is_some() || meta.client_capabilities.is_some()
}

/// A 2025-11-25 request (its `_meta`, `meta`, names no revision): served as its session
/// negotiated.
pub(crate) fn by_session(meta: SessionMeta, session: &Handshake) -> Served {
    let handshake = session.handshake();
    Served {
        era: Era::Legacy,
        protocol_version: handshake.protocol_version.clone(),
        capabilities: handshake.capabilities.clone(),
        client_info: Some(handshake.client_info.clone()),
        log_level: Some(session.log_level()),
        trace_context: meta.trace_context,
        progress_token: meta.progress_token,
    }
}

/// The `index`th of [`MODERN_VERSIONS`], shared: each request holds a reference, not a copy.
fn served_version(index: usize) -> Arc<str> {
    static SHARED: OnceLock<Vec<Arc<str>>> = OnceLock::new();
    let shared = SHARED.get_or_init(|| MODERN_VERSIONS.iter().map(|v| Arc::from(*v)).collect());
    Arc::clone(&shared[index])
}

/// Classifies a request (other than `initialize`) by its already read `_meta`: the same answer
/// as [`classify`] on the params `meta` was read from, without parsing them again.
pub(crate) fn classify_meta(meta: RequestMeta, session: &Handshake) -> Result<Served, ErrorObject> {
    if !names_revision(&meta) {
        return Ok(by_session(SessionMeta::of(meta), session));
    }
    let (Some(version), Some(capabilities)) = (meta.protocol_version, meta.client_capabilities)
    else {
        return Err(ErrorObject::invalid_params(
            "Invalid params: _meta must carry io.modelcontextprotocol/protocolVersion and \
             io.modelcontextprotocol/clientCapabilities",
        ));
    };
    let Some(index) = MODERN_VERSIONS.iter().position(|v| *v == version) else {
        return Err(ErrorObject::new(
            code::UNSUPPORTED_PROTOCOL_VERSION,
            "Unsupported protocol version",
        )
        .with_data(json!({ "supported": MODERN_VERSIONS, "requested": version })));
    };
    Ok(Served {
        era: Era::Modern,
        protocol_version: served_version(index),
        capabilities,
        client_info: meta.client_info,
        log_level: meta.log_level,
        progress_token: meta.progress_token,
        trace_context: TraceContext::of(meta.traceparent, meta.tracestate).map(Arc::new),
    })
}
