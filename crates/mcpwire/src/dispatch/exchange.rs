//! What a request is served with besides its own message ([`Exchange`]), and reading its
//! parameters ([`parse`]).

use super::session::Session;
use crate::context::Outbound;
use crate::protocol::ErrorObject;
use crate::server::core::ServerCore;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use std::sync::Arc;

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
    /// subject and its issuer).
    ///
    /// [`Context::principal`]: crate::Context::principal
    pub(crate) subject: Option<crate::context::Identity>,
    /// What the caller's token grants (HTTP with authorization or the application's own
    /// middleware, or [`McpServer::local_grant`](crate::McpServer::local_grant)).
    pub(crate) grant: Option<Arc<crate::context::Grant>>,
    /// A 2025-11-25 request whose `Mcp-Method`/`Mcp-Name` headers disagree with its body: the
    /// error it gets, after the scope decision ([`admit`](super::authorize::admit)).
    pub(crate) mismatch: Option<ErrorObject>,
}

/// `params` read as `T` (absent params read as `{}`), or `-32602` saying why not.
pub(crate) fn parse<T: DeserializeOwned>(params: Option<&RawValue>) -> Result<T, ErrorObject> {
    let text = params.map_or("{}", RawValue::get);
    serde_json::from_str(text).map_err(|error| {
        let why = error.to_string();
        let why = why.split(" at line ").next().unwrap_or_default();
        ErrorObject::invalid_params(format!("Invalid params: {why}"))
    })
}

/// `params` read as `T`, or `T::default()` when the request has none.
pub(crate) fn parse_or_default<T: DeserializeOwned + Default>(
    params: Option<&RawValue>,
) -> Result<T, ErrorObject> {
    match params {
        None => Ok(T::default()),
        Some(_) => parse(params),
    }
}
