//! `HttpServer`: an [`McpServer`] with its HTTP settings, ready to serve or to be mounted.

use super::connections::ConnectionLimits;
use super::endpoint::{Endpoint, Settings};
use super::events::{EventStore, MemoryEventStore};
use super::fleet::{Fleet, random_replica_id};
use super::front::Front;
use super::guard::Guard;
use super::origin::HostPolicy;
use super::proxies::{ForwardingHeader, NotANetwork, TrustedProxies};
use super::routes;
use super::serve::run;
use super::sessions::SessionLimits;
use crate::error::Result;
use crate::server::McpServer;
use axum::Router;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, ToSocketAddrs};
use tokio_util::sync::CancellationToken;

/// An [`McpServer`] served over Streamable HTTP, with its HTTP settings. Made by
/// [`McpServer::http`]; the defaults suit a server on localhost.
///
/// ```no_run
/// use mcpwire::prelude::*;
/// use std::time::Duration;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// #[tokio::main]
/// async fn main() -> mcpwire::Result<()> {
///     McpServer::new("calculator")
///         .tool(add)?
///         .http()
///         .allowed_hosts(["localhost", "127.0.0.1", "mcp.internal"])
///         .session_idle_timeout(Duration::from_secs(600))
///         .serve("127.0.0.1:8080")
///         .await
/// }
/// ```
pub struct HttpServer {
    pub(super) server: McpServer,
    path: String,
    pub(super) settings: Settings,
    /// What the accept loop holds ([`HttpServer::serve`] and its kin; not the router).
    pub(super) connections: ConnectionLimits,
    /// A [`HttpServer::trusted_proxies`] entry that is no address or network (start-up fails).
    bad_proxy: Option<String>,
    #[cfg(all(feature = "auth", feature = "http"))]
    authorization: Option<Arc<super::auth::Authorization>>,
}

impl McpServer {
    /// This server over Streamable HTTP, to configure before serving. See [`HttpServer`].
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    ///
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     McpServer::new("demo").http().path("/api/mcp").serve("127.0.0.1:8080").await
    /// }
    /// ```
    pub fn http(self) -> HttpServer {
        HttpServer {
            server: self,
            path: "/mcp".to_owned(),
            settings: Settings {
                hosts: HostPolicy::default(),
                max_body_bytes: None,
                max_drained_body_bytes: 64 * 1024 * 1024,
                sessions: SessionLimits {
                    idle_timeout: Duration::from_secs(30 * 60),
                    lifetime: Duration::from_secs(24 * 60 * 60),
                    max: 10_000,
                    max_per_principal: 100,
                    max_per_network: 100,
                    max_handshake_bytes: 16 * 1024,
                },
                keep_alive: Duration::from_secs(15),
                events: Arc::new(MemoryEventStore::default()),
                max_resumed_streams: 8,
                trusted_proxies: Default::default(),
                fleet: Fleet::of_replica(Arc::from(random_replica_id())),
            },
            connections: ConnectionLimits::default(),
            bad_proxy: None,
            #[cfg(all(feature = "auth", feature = "http"))]
            authorization: None,
        }
    }

    /// Serves Streamable HTTP at `http://{addr}/mcp` until the process ends, with the default
    /// [`HttpServer`] settings. Bind `127.0.0.1` (as in the example) unless the server must be
    /// reachable from other machines; then also set [`HttpServer::allowed_hosts`].
    ///
    /// ```no_run
    /// # use mcpwire::prelude::*;
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     McpServer::new("demo").serve_http("127.0.0.1:8080").await
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// When start-up fails, or `addr` cannot be bound.
    pub async fn serve_http(self, addr: impl ToSocketAddrs) -> Result<()> {
        self.http().serve(addr).await
    }

    /// Like [`McpServer::serve_http`], until `signal` completes; then in-flight requests
    /// finish (within [`McpServer::shutdown_grace`]), streams close, and this returns.
    ///
    /// ```no_run
    /// # use mcpwire::prelude::*;
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     let ctrl_c = async { let _ = tokio::signal::ctrl_c().await; };
    ///     McpServer::new("demo").serve_http_with_shutdown("127.0.0.1:8080", ctrl_c).await
    /// }
    /// ```
    ///
    /// # Errors
    ///
    /// When start-up fails, or `addr` cannot be bound.
    pub async fn serve_http_with_shutdown(
        self,
        addr: impl ToSocketAddrs,
        signal: impl Future<Output = ()> + Send + 'static,
    ) -> Result<()> {
        self.http().serve_with_shutdown(addr, signal).await
    }

    /// The MCP endpoint as an axum [`Router`] serving `/mcp`, with default settings, to merge
    /// into an application with its own routes and middleware. See [`HttpServer::into_router`].
    ///
    /// # Errors
    ///
    /// When start-up (a lifespan builder) fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use axum::{Router, routing::get};
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mcp = McpServer::new("demo").into_router().await?;
    /// let app: Router = Router::new().route("/health", get(|| async { "ok" })).merge(mcp);
    /// # drop(app);
    /// # Ok(()) }
    /// ```
    pub async fn into_router(self) -> Result<Router> {
        self.http().into_router().await
    }
}

impl HttpServer {
    /// The endpoint's path (default `/mcp`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // Serves POST, GET and DELETE at /api/mcp instead of /mcp.
    /// let router = McpServer::new("demo").http().path("/api/mcp").into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn path(mut self, path: impl Into<String>) -> Self {
        self.path = path.into();
        self
    }

    /// The host names the `Host` and `Origin` headers may name, on any port (default
    /// `localhost`, `127.0.0.1` and `[::1]`). Others are refused with `403`, which stops DNS
    /// rebinding and cross-site requests from browsers. Write IPv6 addresses in brackets.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // Behind https://mcp.example.com; localhost still works for local tests.
    /// let http = McpServer::new("demo").http().allowed_hosts(["mcp.example.com", "localhost"]);
    /// let router = http.into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn allowed_hosts<I, S>(mut self, hosts: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.settings.hosts = HostPolicy::only(hosts);
        self
    }

    /// Accepts any `Host` and `Origin`: for deployments that check them elsewhere (a reverse
    /// proxy, an authentication layer).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // The reverse proxy in front already checks Host and Origin.
    /// let router = McpServer::new("demo").http().allow_any_host().into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn allow_any_host(mut self) -> Self {
        self.settings.hosts = HostPolicy::Any;
        self
    }

    /// The largest request body accepted; a larger one is refused with `413`. Default: the
    /// server's [`max_message_bytes`](McpServer::max_message_bytes) (4 MiB).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // Tools take short arguments: refuse bodies over 64 KiB.
    /// let router = McpServer::new("demo").http().max_body_bytes(64 * 1024).into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn max_body_bytes(mut self, bytes: usize) -> Self {
        self.settings.max_body_bytes = Some(bytes);
        self
    }

    /// How much of a body refused with `413` is still read and dropped (default 64 MiB), so a
    /// client that writes its whole body before reading the answer, as blocking clients do,
    /// reads the `413` instead of a broken pipe. A larger body is answered at once and its
    /// connection closed; `0` never reads a refused body.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_drained_body_bytes(16 * 1024 * 1024);
    /// # drop(server);
    /// ```
    pub fn max_drained_body_bytes(mut self, bytes: usize) -> Self {
        self.settings.max_drained_body_bytes = bytes;
        self
    }

    /// How long a 2025-11-25 session may stay idle before it ends (default 30 minutes). Idle
    /// means that no client connection is open on it: no request waiting for its answer, no
    /// event stream. A request still running after its client left does not count, so an
    /// abandoned session ends even when its requests never would (they are cancelled with it).
    /// Its client then gets `404` and initializes again.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let http = McpServer::new("demo").http().session_idle_timeout(Duration::from_secs(5 * 60));
    /// let router = http.into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn session_idle_timeout(mut self, timeout: Duration) -> Self {
        self.settings.sessions.idle_timeout = timeout;
        self
    }

    /// How long a 2025-11-25 session may live from its `initialize`, however busy (default 24
    /// hours): then its streams close, its running requests are cancelled, and its client gets
    /// `404` and initializes again. This bounds a client that keeps streams open forever.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// use std::time::Duration;
    ///
    /// let server = McpServer::new("demo")
    ///     .http()
    ///     .max_session_lifetime(Duration::from_secs(8 * 60 * 60));
    /// # drop(server);
    /// ```
    pub fn max_session_lifetime(mut self, lifetime: Duration) -> Self {
        self.settings.sessions.lifetime = lifetime;
        self
    }

    /// The proxies (addresses like `10.0.0.5`, networks like `10.0.0.0/8`) whose forwarding
    /// header names the client: for a request from one of them, the client's address (which
    /// anonymous 2025-11-25 sessions are counted by, for fair eviction) is taken from
    /// `X-Forwarded-For` (or the header [`HttpServer::forwarding_header`] chose), as the
    /// right-most address that is not itself a trusted proxy. From any other peer forwarding
    /// headers are ignored (default: no trusted proxy). Behind nginx or HAProxy on the same
    /// machine, that is `127.0.0.1`.
    ///
    /// An entry that is neither an address nor a network fails start-up.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let router = McpServer::new("demo")
    ///     .http()
    ///     .trusted_proxies(["127.0.0.1", "10.0.0.0/8"])
    ///     .into_router()
    ///     .await?;
    /// # drop(router);
    /// assert!(McpServer::new("demo").http().trusted_proxies(["lb.internal"]).into_router().await.is_err());
    /// # Ok(()) }
    /// ```
    pub fn trusted_proxies<I, S>(mut self, proxies: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        match TrustedProxies::parse(proxies) {
            Ok(trusted) => {
                let header = self.settings.trusted_proxies.header();
                self.settings.trusted_proxies = trusted.reading(header);
                self.bad_proxy = None;
            }
            Err(NotANetwork(entry)) => self.bad_proxy = Some(entry),
        }
        self
    }

    /// The one header a [trusted proxy](HttpServer::trusted_proxies) names the client in:
    /// [`ForwardingHeader::XForwardedFor`] (the default) or [`ForwardingHeader::Forwarded`].
    /// The other is never read, not even when the chosen one is missing: the balancer writes
    /// one of them and passes the other through from the client, who could otherwise pick its
    /// own address. Choose the header your balancer writes.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::ForwardingHeader;
    ///
    /// let server = McpServer::new("demo")
    ///     .http()
    ///     .trusted_proxies(["127.0.0.1"])
    ///     .forwarding_header(ForwardingHeader::Forwarded);
    /// # drop(server);
    /// ```
    pub fn forwarding_header(mut self, header: ForwardingHeader) -> Self {
        let trusted = std::mem::take(&mut self.settings.trusted_proxies);
        self.settings.trusted_proxies = trusted.reading(header);
        self
    }

    /// The most 2025-11-25 sessions held at once (default 10 000). When full, `initialize`
    /// evicts a session of the caller holding the most, idle ones first; a busy session (a
    /// request or stream open) only when its caller holds more than the newcomer's. Anonymous
    /// callers (no [`Principal`](crate::context::Principal)) are told apart by network (IPv4
    /// address, IPv6 /64) and take room only from anonymous sessions. When no session may go,
    /// `initialize` is refused with `503`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // A small machine: hold at most 500 sessions.
    /// let router = McpServer::new("demo").http().max_sessions(500).into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn max_sessions(mut self, sessions: usize) -> Self {
        self.settings.sessions.max = sessions;
        self
    }

    /// The most 2025-11-25 sessions one authenticated [`Principal`](crate::context::Principal)
    /// holds at once (default 100). Beyond it, the principal's `initialize` replaces its own
    /// least recently used session, so one caller cannot fill the table. Anonymous callers
    /// are capped per network instead (see [`HttpServer::max_sessions_per_network`]).
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_sessions_per_principal(10);
    /// # drop(server);
    /// ```
    pub fn max_sessions_per_principal(mut self, sessions: usize) -> Self {
        self.settings.sessions.max_per_principal = sessions;
        self
    }

    /// Where the recent events of 2025-11-25 request streams are kept, so a client that lost a
    /// stream can resume it with `Last-Event-ID` (default: in memory, at most 1 024 events and
    /// 4 MiB a session; see [`MemoryEventStore`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::MemoryEventStore;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // Keep more history for clients on flaky networks.
    /// let store = MemoryEventStore::new(10_000);
    /// let router = McpServer::new("demo").http().event_store(store).into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn event_store(mut self, store: impl EventStore) -> Self {
        self.settings.events = Arc::new(store);
        self
    }

    /// How often an open event stream carries a keep-alive comment (default 15 s).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // A proxy drops connections idle for 10 s.
    /// let http = McpServer::new("demo").http().keep_alive(Duration::from_secs(5));
    /// let router = http.into_router().await?;
    /// # drop(router);
    /// # Ok(()) }
    /// ```
    pub fn keep_alive(mut self, interval: Duration) -> Self {
        self.settings.keep_alive = interval;
        self
    }

    /// Serves at `addr` until the process ends.
    ///
    /// # Errors
    ///
    /// When start-up fails, or `addr` cannot be bound.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    ///
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     McpServer::new("demo").http().max_sessions(1_000).serve("127.0.0.1:8080").await
    /// }
    /// ```
    pub async fn serve(self, addr: impl ToSocketAddrs) -> Result<()> {
        self.serve_with_shutdown(addr, std::future::pending()).await
    }

    /// Serves at `addr` until `signal` completes, then shuts down gracefully (see
    /// [`McpServer::serve_http_with_shutdown`]).
    ///
    /// # Errors
    ///
    /// When start-up fails, or `addr` cannot be bound.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    ///
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     let ctrl_c = async { let _ = tokio::signal::ctrl_c().await; };
    ///     McpServer::new("demo").http().serve_with_shutdown("127.0.0.1:8080", ctrl_c).await
    /// }
    /// ```
    pub async fn serve_with_shutdown(
        self,
        addr: impl ToSocketAddrs,
        signal: impl Future<Output = ()> + Send + 'static,
    ) -> Result<()> {
        let listener = TcpListener::bind(addr).await?;
        self.serve_listener(listener, signal).await
    }

    /// Serves on an already bound listener (e.g. one bound to port 0, whose address the caller
    /// reads first) until `signal` completes.
    ///
    /// ```no_run
    /// # use mcpwire::prelude::*;
    /// # #[tokio::main] async fn main() -> mcpwire::Result<()> {
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    /// eprintln!("serving http://{}/mcp", listener.local_addr()?);
    /// McpServer::new("demo").http().serve_listener(listener, std::future::pending()).await
    /// # }
    /// ```
    ///
    /// # Errors
    ///
    /// When start-up fails, or accepting connections fails.
    pub async fn serve_listener(
        self,
        listener: TcpListener,
        signal: impl Future<Output = ()> + Send + 'static,
    ) -> Result<()> {
        self.check_proxies()?;
        let shutdown = CancellationToken::new();
        let guard = self.guard();
        let core = self.server.build().await?;
        core.warn_if_ephemeral_keys(self.settings.fleet.is_shared());
        let grace = core.limits.shutdown_grace;
        let endpoint = Arc::new(Endpoint::new(core.clone(), self.settings, shutdown.clone()));
        endpoint.join_fleet();
        let router = guard.apply(routes::router(endpoint.clone(), &self.path), core);
        let front = Front::new(endpoint, &self.path, router, guard);
        run(listener, (front, self.connections), shutdown, signal, grace).await
    }

    /// Requires a valid bearer token on every request, and publishes the protected-resource
    /// metadata (feature `auth`; see [`crate::auth`]).
    ///
    /// ```no_run
    /// use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
    /// use mcpwire::prelude::*;
    ///
    /// # #[tokio::main] async fn main() -> mcpwire::Result<()> {
    /// let resource = ProtectedResource::new("http://127.0.0.1:8080/mcp", "https://auth.example.com");
    /// let verifier = JwtVerifier::new(
    ///     "https://auth.example.com",
    ///     resource.resource(),
    ///     JwksSource::parse("jwks.json"),
    /// );
    /// McpServer::new("demo")
    ///     .http()
    ///     .authorization(Authorization::new(verifier, resource))
    ///     .serve("127.0.0.1:8080")
    ///     .await
    /// # }
    /// ```
    #[cfg(all(feature = "auth", feature = "http"))]
    #[cfg_attr(docsrs, doc(cfg(feature = "auth")))]
    pub fn authorization(mut self, authorization: super::auth::Authorization) -> Self {
        self.authorization = Some(Arc::new(authorization));
        self
    }

    /// What will stand in front of the endpoint.
    fn guard(&self) -> Guard {
        Guard {
            #[cfg(feature = "auth")]
            gate: self.authorization.clone().map(super::auth::Gate::layer),
        }
    }

    /// The MCP endpoint as an axum [`Router`] serving [`path`](HttpServer::path), to merge into
    /// an application: add routes and middleware as usual, then serve it with `axum::serve`
    /// (set `TCP_NODELAY` on accepted sockets, and serve with
    /// `into_make_service_with_connect_info::<SocketAddr>()` so anonymous 2025-11-25 sessions
    /// are counted per network, see the example and [`HttpServer::max_sessions`]). The request
    /// headers reach handlers as [`Context::headers`](crate::Context::headers).
    ///
    /// The answers are those of [`serve`](HttpServer::serve), which costs less per call: it
    /// takes a POST to the MCP path past axum's routing (the same authorization, `Host` check
    /// and handler, without the router's allocations). Use this when the application needs
    /// routes or HTTP middleware of its own.
    ///
    /// ```no_run
    /// use axum::{Router, routing::get, serve::ListenerExt};
    /// use mcpwire::prelude::*;
    /// use std::net::SocketAddr;
    ///
    /// # #[tokio::main] async fn main() -> mcpwire::Result<()> {
    /// let mcp = McpServer::new("demo").http().into_router().await?;
    /// let app = Router::new().route("/health", get(|| async { "ok" })).merge(mcp);
    /// let listener = tokio::net::TcpListener::bind("127.0.0.1:8080")
    ///     .await?
    ///     .tap_io(|tcp| { let _ = tcp.set_nodelay(true); });
    /// axum::serve(listener, app.into_make_service_with_connect_info::<SocketAddr>()).await?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When start-up (a lifespan builder) fails.
    pub async fn into_router(self) -> Result<Router> {
        self.check_proxies()?;
        let guard = self.guard();
        let core = self.server.build().await?;
        core.warn_if_ephemeral_keys(self.settings.fleet.is_shared());
        let endpoint = Arc::new(Endpoint::new(
            core.clone(),
            self.settings,
            CancellationToken::new(),
        ));
        endpoint.join_fleet();
        Ok(guard.apply(routes::router(endpoint, &self.path), core))
    }
}

impl HttpServer {
    /// Fails start-up on a trusted proxy entry that is no address or network.
    fn check_proxies(&self) -> Result<()> {
        match &self.bad_proxy {
            Some(entry) => Err(crate::error::Error::Startup(format!(
                "trusted proxy {entry:?} is neither an IP address nor a network (e.g. 10.0.0.0/8)"
            ))),
            None => Ok(()),
        }
    }
}
