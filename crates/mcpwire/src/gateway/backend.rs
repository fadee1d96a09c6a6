//! One server behind the gateway: how to reach it, and how its entries are shown in front.

use crate::client::hook::RequestHook;
use crate::client::{ClientBuilder, EraChoice, StdioServer};
use std::sync::Arc;
use std::time::Duration;

/// How the gateway reaches a backend.
#[derive(Clone, Debug)]
pub enum Target {
    /// A child process speaking MCP on stdin and stdout; restarted with a bounded backoff when
    /// it dies.
    Stdio(StdioServer),
    /// A Streamable HTTP endpoint, with static headers sent on every request (credentials of
    /// the gateway's own, e.g. `Authorization: Bearer …` read from the environment).
    Http {
        /// The endpoint, e.g. `http://127.0.0.1:8000/mcp`.
        url: String,
        /// Headers sent on every request to it.
        headers: Vec<(String, String)>,
    },
}

/// A server behind the gateway, and its settings.
///
/// # Examples
///
/// ```
/// use mcpwire::client::StdioServer;
/// use mcpwire::gateway::Backend;
/// use std::time::Duration;
///
/// let backend = Backend::stdio("files", StdioServer::new("my-file-server"))
///     .separator("__")
///     .deny_tools(["delete_file"])
///     .timeout(Duration::from_secs(30));
/// assert_eq!(backend.front_name("read_file"), "files__read_file");
/// ```
#[derive(Clone, Debug)]
pub struct Backend {
    pub(crate) name: String,
    pub(crate) namespace: String,
    pub(crate) separator: String,
    pub(crate) target: Target,
    pub(crate) allow_tools: Option<Vec<String>>,
    pub(crate) deny_tools: Vec<String>,
    pub(crate) timeout: Option<Duration>,
    pub(crate) forward_authorization: bool,
    pub(crate) era: EraChoice,
    /// The gateway's own OAuth client for an HTTP backend.
    #[cfg(feature = "auth")]
    pub(crate) oauth: Option<crate::client::auth::OAuth>,
    pub(crate) hooks: Hooks,
}

/// The request hooks installed on every connection to a backend.
#[derive(Clone, Default)]
pub(crate) struct Hooks(pub(crate) Vec<Arc<dyn RequestHook>>);

impl std::fmt::Debug for Hooks {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} hook(s)", self.0.len())
    }
}

impl Backend {
    /// A backend called `name` (in errors and logs) reached as `target`, its entries shown
    /// under the namespace `name` unless [`namespace`](Backend::namespace) says otherwise.
    pub fn new(name: impl Into<String>, target: Target) -> Self {
        let name = name.into();
        Self {
            namespace: name.clone(),
            name,
            separator: "_".to_owned(),
            target,
            allow_tools: None,
            deny_tools: Vec::new(),
            timeout: None,
            forward_authorization: false,
            era: EraChoice::Auto,
            #[cfg(feature = "auth")]
            oauth: None,
            hooks: Hooks::default(),
        }
    }

    /// A child process backend.
    pub fn stdio(name: impl Into<String>, server: StdioServer) -> Self {
        Self::new(name, Target::Stdio(server))
    }

    /// A Streamable HTTP backend at `url`.
    ///
    /// ```
    /// let backend = mcpwire::gateway::Backend::http("shop", "http://127.0.0.1:8000/mcp")
    ///     .header("X-Api-Key", "k");
    /// assert_eq!(backend.front_name("search"), "shop_search");
    /// ```
    pub fn http(name: impl Into<String>, url: impl Into<String>) -> Self {
        Self::new(
            name,
            Target::Http {
                url: url.into(),
                headers: Vec::new(),
            },
        )
    }

    /// Adds a header sent on every request to an HTTP backend (ignored for stdio).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        if let Target::Http { headers, .. } = &mut self.target {
            headers.push((name.into(), value.into()));
        }
        self
    }

    /// Shows its entries under `namespace` instead of its name; `""` shows them with their
    /// own names (no prefix).
    ///
    /// ```
    /// let backend = mcpwire::gateway::Backend::http("shop", "http://127.0.0.1:8000/mcp");
    /// assert_eq!(backend.namespace("").front_name("search"), "search");
    /// ```
    pub fn namespace(mut self, namespace: impl Into<String>) -> Self {
        self.namespace = namespace.into();
        self
    }

    /// What joins the namespace and a tool's or prompt's name (`_` unless set).
    pub fn separator(mut self, separator: impl Into<String>) -> Self {
        self.separator = separator.into();
        self
    }

    /// Shows only these tools (by their names on the backend).
    pub fn allow_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.allow_tools = Some(tools.into_iter().map(Into::into).collect());
        self
    }

    /// Hides these tools (by their names on the backend).
    pub fn deny_tools<S: Into<String>>(mut self, tools: impl IntoIterator<Item = S>) -> Self {
        self.deny_tools = tools.into_iter().map(Into::into).collect();
        self
    }

    /// How long a request to the backend may take (the client's default otherwise).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// Sends the caller's own `Authorization` header on to this HTTP backend. Off unless set:
    /// a server must not pass on the token it received (the MCP authorization rules); set it
    /// only for a backend that is the audience of the front's tokens.
    pub fn forward_authorization(mut self, forward: bool) -> Self {
        self.forward_authorization = forward;
        self
    }

    /// Signs the gateway in to this HTTP backend with an OAuth client of its own (ignored for
    /// stdio): typically [`OAuth::client_credentials`](crate::client::auth::OAuth::client_credentials),
    /// a machine's credentials, bound to the authorization server they are for
    /// ([`ClientRegistration::issuer`](crate::client::auth::ClientRegistration::issuer)). The
    /// backend's `401` starts the flow, and its tokens are kept and reused across the
    /// gateway's connections to it. A call whose caller's token is forwarded
    /// ([`forward_authorization`](Backend::forward_authorization)) goes with that token instead.
    ///
    /// ```
    /// use mcpwire::client::auth::{ClientRegistration, OAuth};
    ///
    /// let credentials = ClientRegistration::new("gateway")
    ///     .secret(std::env::var("SHOP_CLIENT_SECRET").unwrap_or_default())
    ///     .issuer("https://auth.example.com");
    /// let backend = mcpwire::gateway::Backend::http("shop", "http://127.0.0.1:8000/mcp")
    ///     .oauth(OAuth::client_credentials(credentials));
    /// # drop(backend);
    /// ```
    #[cfg(feature = "auth")]
    pub fn oauth(mut self, oauth: crate::client::auth::OAuth) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// The revision the backend is spoken to on: [`EraChoice::Auto`] (found by asking it)
    /// unless set; pin it for a server that must be started only once, or to keep a backend on
    /// 2025-11-25.
    ///
    /// ```
    /// use mcpwire::client::EraChoice;
    ///
    /// let backend = mcpwire::gateway::Backend::http("shop", "http://127.0.0.1:8000/mcp")
    ///     .era(EraChoice::Legacy);
    /// # drop(backend);
    /// ```
    pub fn era(mut self, era: EraChoice) -> Self {
        self.era = era;
        self
    }

    /// `builder` with the gateway's own OAuth client for this backend, if it has one.
    pub(crate) fn signed_in(&self, builder: ClientBuilder) -> ClientBuilder {
        #[cfg(feature = "auth")]
        if let Some(oauth) = &self.oauth {
            return builder.oauth(oauth.clone());
        }
        builder
    }

    /// Installs a request hook ([`ClientBuilder::hook`](crate::client::ClientBuilder::hook)) on
    /// every connection the gateway opens to this backend, after the others. With the `otel`
    /// feature, [`ClientTracing`](crate::otel::ClientTracing) makes each call sent on a CLIENT
    /// span, a child of the front request's span, whose context goes to the backend (so a
    /// backend that trusts the gateway records its spans in the same trace).
    ///
    /// ```
    /// use mcpwire::client::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook};
    ///
    /// /// Marks every request the gateway sends on.
    /// struct Marked;
    ///
    /// impl RequestHook for Marked {
    ///     fn wrap<'a>(&'a self, mut request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply> {
    ///         request.meta_mut().insert("example.com/via".into(), "gateway".into());
    ///         next.run(request)
    ///     }
    /// }
    ///
    /// let backend = mcpwire::gateway::Backend::http("shop", "http://127.0.0.1:8000/mcp").hook(Marked);
    /// # drop(backend);
    /// ```
    pub fn hook(mut self, hook: impl RequestHook) -> Self {
        self.hooks.0.push(Arc::new(hook));
        self
    }

    /// Its name, in errors and logs.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The name the backend's tool or prompt `name` is shown under.
    pub fn front_name(&self, name: &str) -> String {
        super::names::front_name(&self.namespace, &self.separator, name)
    }

    /// Whether the backend's tool `name` is shown.
    pub(crate) fn shows_tool(&self, name: &str) -> bool {
        let allowed = self
            .allow_tools
            .as_ref()
            .is_none_or(|allow| allow.iter().any(|a| a == name));
        allowed && !self.deny_tools.iter().any(|d| d == name)
    }
}
