//! What a request is served with besides its own message ([`Exchange`]), and reading its
//! parameters ([`parse`], from `protocol/params.rs`).

use super::handshake::Handshake;
use crate::context::{HeldHeaders, Outbound};
#[cfg(feature = "http")]
use crate::context::{HoldsChannel, LazyChannel};
use crate::protocol::ErrorObject;
pub(crate) use crate::protocol::params::{parse, parse_or_default};
use crate::server::core::ServerCore;
use std::borrow::Cow;
use std::sync::Arc;

/// What a request is served with besides its own message.
pub(crate) struct Exchange {
    pub(crate) core: Arc<ServerCore>,
    pub(crate) session: Arc<Handshake>,
    /// Where the request's lines (notifications, requests to the client) go: read them through
    /// [`Exchange::outbound`].
    pub(crate) sink: Sink,
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

/// Where a request's lines go.
pub(crate) enum Sink {
    /// A sink made apart: its connection's (stdio), or none.
    Given(Outbound),
    /// A queue of the request's own (HTTP), made by its first line, whose state lives in the
    /// exchange: the HTTP transport reads it (`transport/http/request_queue.rs`), and a sink
    /// clone holds the exchange.
    #[cfg(feature = "http")]
    Own {
        channel: LazyChannel,
        /// Whether the handler may end the stream early (a 2025-11-25 request).
        closable: bool,
    },
}

impl Exchange {
    /// Where the request's lines go: the given sink, or one holding this exchange.
    pub(crate) fn outbound(self: &Arc<Self>) -> Cow<'_, Outbound> {
        match &self.sink {
            Sink::Given(outbound) => Cow::Borrowed(outbound),
            #[cfg(feature = "http")]
            Sink::Own { closable, .. } => Cow::Owned(Outbound::held(
                Arc::clone(self) as Arc<dyn HoldsChannel>,
                *closable,
            )),
        }
    }
}

impl HeldHeaders for Exchange {
    fn headers(&self) -> Option<&http::HeaderMap> {
        self.headers.as_ref()
    }
}
