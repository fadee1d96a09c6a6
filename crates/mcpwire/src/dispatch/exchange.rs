//! What a request is served with besides its own message ([`Exchange`]), and reading its
//! parameters ([`parse`], from `protocol/params.rs`).

use super::handshake::Handshake;
use crate::context::{HeldHeaders, Outbound};
use crate::protocol::ErrorObject;
pub(crate) use crate::protocol::params::{parse, parse_or_default};
use crate::server::core::ServerCore;
use std::sync::Arc;

/// What a request is served with besides its own message.
pub(crate) struct Exchange {
    pub(crate) core: Arc<ServerCore>,
    pub(crate) session: Arc<Handshake>,
    pub(crate) outbound: Outbound,
    /// The request's HTTP headers (on HTTP), which its context reads through this exchange.
    pub(crate) headers: Option<http::HeaderMap>,
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

impl HeldHeaders for Exchange {
    fn headers(&self) -> Option<&http::HeaderMap> {
        self.headers.as_ref()
    }
}
