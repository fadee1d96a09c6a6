//! A [`Context`] that serves no request: for calling a tool's or resolver's body from a unit
//! test, as `name::call(..)`.

use super::state::SharedState;
use super::{Context, Notifier, Outbound, RequestScope, RequestSeed};
use crate::protocol::version::MODERN;
use crate::protocol::{ClientCapabilities, Era, RequestId};
use std::sync::Arc;
use std::time::Duration;

/// Builds a [`Context`] that serves no request ([`Context::detached`]): no client is
/// connected, so progress and log messages go nowhere and a question to the client fails.
/// Shared state is what you give it here.
///
/// ```
/// use mcpwire::prelude::*;
///
/// struct Prices { dune: u32 }
///
/// #[resolver]
/// async fn price(title: String, ctx: Context) -> u32 {
///     if title == "Dune" { ctx.state::<Prices>().dune } else { 0 }
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// let ctx = Context::detached().state(Prices { dune: 12 }).build();
/// assert_eq!(price::call("Dune".into(), ctx).await, 12);
/// # });
/// ```
pub struct DetachedContext {
    state: SharedState,
    principal: Option<Arc<str>>,
    issuer: Option<Arc<str>>,
    grant: Option<Arc<super::Grant>>,
    capabilities: ClientCapabilities,
    extensions: http::Extensions,
}

impl Context {
    /// A context that serves no request, for calling a tool's or resolver's body from a unit
    /// test (`name::call(..)`); see [`DetachedContext`].
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::protocol::RequestId;
    ///
    /// let ctx = Context::detached().build();
    /// assert_eq!(ctx.request_id(), &RequestId::Number(0));
    /// assert!(ctx.client_info().is_none());
    /// ```
    pub fn detached() -> DetachedContext {
        DetachedContext::new()
    }
}

impl DetachedContext {
    fn new() -> Self {
        Self {
            state: SharedState::default(),
            principal: None,
            issuer: None,
            grant: None,
            capabilities: ClientCapabilities::default(),
            extensions: http::Extensions::new(),
        }
    }

    /// Adds a shared value, read with [`Context::state`] (one value per type).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// struct Inventory { copies: u32 }
    ///
    /// let ctx = Context::detached().state(Inventory { copies: 3 }).build();
    /// assert_eq!(ctx.state::<Inventory>().copies, 3);
    /// ```
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.state.insert(value);
        self
    }

    /// The subject of the authenticated caller [`Context::principal`] reports.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// let ctx = Context::detached().principal("ada@example.com").build();
    /// assert_eq!(ctx.principal().map(|who| who.subject()), Some("ada@example.com"));
    /// ```
    pub fn principal(mut self, subject: impl Into<Arc<str>>) -> Self {
        self.principal = Some(subject.into());
        self
    }

    /// The issuer that vouched for the [`principal`](Self::principal) (ignored without one).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    ///
    /// let ctx = Context::detached().principal("ada").issuer("https://auth.example.com").build();
    /// assert_eq!(ctx.principal().and_then(|who| who.issuer()), Some("https://auth.example.com"));
    /// ```
    pub fn issuer(mut self, issuer: impl Into<Arc<str>>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The caller's [`Grant`](super::Grant) that [`Context::grant`] reports.
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::context::Grant;
    ///
    /// let ctx = Context::detached().grant(Grant::new(["a"])).build();
    /// assert_eq!(ctx.grant().map(|g| g.scopes.len()), Some(1));
    /// ```
    pub fn grant(mut self, grant: super::Grant) -> Self {
        self.grant = Some(Arc::new(grant));
        self
    }

    /// A typed value [`Context::extension`] returns, as a layer would have attached it.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// #[derive(Clone)]
    /// struct Tenant(&'static str);
    ///
    /// /// Names the caller's tenant.
    /// #[tool]
    /// async fn whose(ctx: Context) -> String {
    ///     ctx.extension::<Tenant>().map_or("nobody", |tenant| tenant.0).to_owned()
    /// }
    ///
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let ctx = Context::detached().extension(Tenant("acme")).build();
    /// assert_eq!(whose::call(ctx).await, "acme");
    /// # });
    /// ```
    pub fn extension<T: Clone + Send + Sync + 'static>(mut self, value: T) -> Self {
        self.extensions.insert(value);
        self
    }

    /// The capabilities [`Context::client_capabilities`] reports.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let caps: ClientCapabilities = serde_json::from_str(r#"{"elicitation":{}}"#).unwrap();
    /// let ctx = Context::detached().client_capabilities(caps).build();
    /// assert!(ctx.client_capabilities().elicitation_form());
    /// ```
    pub fn client_capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.capabilities = capabilities;
        self
    }

    /// The context: a 2026-07-28 request with id `0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::Context;
    /// use mcpwire::protocol::{Era, RequestId};
    ///
    /// let ctx = Context::detached().build();
    /// assert_eq!((ctx.request_id(), ctx.era()), (&RequestId::Number(0), Era::Modern));
    /// assert!(ctx.headers().is_none());
    /// ```
    pub fn build(self) -> Context {
        let outbound = Outbound::nowhere();
        Context::new(RequestScope {
            request: RequestSeed {
                request_id: RequestId::Number(0),
                era: Era::Modern,
                protocol_version: Arc::from(MODERN),
                client_capabilities: Arc::new(self.capabilities),
                client_info: None,
                progress_token: None,
                log_level: None,
                trace_context: None,
                reached: Default::default(),
            },
            state: Arc::new(self.state),
            outbound,
            headers: None,
            principal: self.principal.map(|subject| {
                let identity = super::Identity::new(subject);
                match self.issuer {
                    Some(issuer) => identity.with_issuer(issuer),
                    None => identity,
                }
            }),
            grant: self.grant,
            notifier: Notifier::default(),
            client_requests: None,
            client_request_timeout: Duration::ZERO,
            open_url_elicitations: Default::default(),
            observer: Default::default(),
            extensions: std::sync::Mutex::new(self.extensions),
            task: None,
        })
    }
}
