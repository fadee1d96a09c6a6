//! Configuring a client (who it is, which era, its handlers, limits, OAuth), then connecting:
//! every `connect_*` starts its transport, puts a peer on it, opens the conversation
//! (`negotiate`) and hands the session to a [`Client`].

#[cfg(feature = "auth")]
use super::auth::OAuth;
use super::client::Client;
use super::era::{EraChoice, Verdicts};
use super::error::ClientError;
use super::handlers::{FormElicitation, Handlers, UrlElicitation};
use super::hook::{Hooks, RequestHook};
use super::negotiate::{self, OpenError};
use super::peer::{Mode, Peer, Settings};
use super::session::Session;
use super::transport::http::{self, HttpOptions};
#[cfg(feature = "server")]
use super::transport::memory;
use super::transport::stdio::{self, StdioServer};
use super::transport::{Inbox, Transport, streams};
use crate::protocol::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitResult, Era,
    ErrorObject, Implementation, ListRootsResult,
};
#[cfg(feature = "server")]
use crate::server::McpServer;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite};

/// Builds a [`Client`]: set what you need, then connect.
///
/// # Examples
///
/// ```no_run
/// use mcpwire::client::{Client, EraChoice, StdioServer};
/// use mcpwire::protocol::{ElicitAction, ElicitResult};
/// use std::time::Duration;
///
/// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
/// let client = Client::builder()
///     .info("my-app", "1.0.0")
///     .era(EraChoice::Auto)
///     .timeout(Duration::from_secs(30))
///     .on_form_elicitation(|question| async move {
///         println!("{}", question.message);
///         ElicitResult { action: ElicitAction::Decline, content: None }
///     })
///     .connect_stdio(StdioServer::new("my-mcp-server"))
///     .await?;
/// # drop(client); Ok(()) }
/// ```
#[derive(Clone)]
pub struct ClientBuilder {
    info: Implementation,
    era: EraChoice,
    handlers: Handlers,
    timeout: Duration,
    max_rounds: u32,
    max_pages: usize,
    probe_timeout: Duration,
    max_message_bytes: usize,
    /// The `Auto` verdicts per HTTP URL.
    verdicts: Verdicts,
    #[cfg(feature = "auth")]
    oauth: Option<OAuth>,
    hooks: Hooks,
}

impl std::fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("info", &self.info)
            .field("era", &self.era)
            .field("capabilities", &self.handlers.capabilities())
            .field("timeout", &self.timeout)
            .field("max_rounds", &self.max_rounds)
            .field("max_pages", &self.max_pages)
            .field("probe_timeout", &self.probe_timeout)
            .field("max_message_bytes", &self.max_message_bytes)
            .field("hooks", &self.hooks.len())
            .finish()
    }
}

impl Default for ClientBuilder {
    fn default() -> Self {
        Self {
            info: Implementation {
                name: "mcpwire-client".into(),
                version: env!("CARGO_PKG_VERSION").into(),
                ..Default::default()
            },
            era: EraChoice::Auto,
            handlers: Handlers::default(),
            timeout: Duration::from_secs(60),
            max_rounds: 10,
            max_pages: 64,
            probe_timeout: Duration::from_secs(3),
            max_message_bytes: DEFAULT_MAX_MESSAGE_BYTES,
            verdicts: Verdicts::default(),
            #[cfg(feature = "auth")]
            oauth: None,
            hooks: Hooks::default(),
        }
    }
}

/// The default [`ClientBuilder::max_message_bytes`]: 4 MiB, as the server's.
const DEFAULT_MAX_MESSAGE_BYTES: usize = 4 * 1024 * 1024;

impl Client {
    /// A builder with the defaults: era `Auto`, a 60 s timeout (extended by progress), at most
    /// 10 input rounds per call and 64 pages per listing, messages of at most 4 MiB over HTTP,
    /// no handlers.
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().max_rounds(20);
    /// # drop(builder);
    /// ```
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }
}

impl ClientBuilder {
    /// The `clientInfo` sent to the server.
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().info("my-app", "1.2.3");
    /// # drop(builder);
    /// ```
    pub fn info(mut self, name: impl Into<String>, version: impl Into<String>) -> Self {
        self.info.name = name.into();
        self.info.version = version.into();
        self
    }

    /// Which era to speak (default [`EraChoice::Auto`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::{Client, EraChoice};
    /// let builder = Client::builder().era(EraChoice::Legacy);
    /// # drop(builder);
    /// ```
    pub fn era(mut self, era: EraChoice) -> Self {
        self.era = era;
        self
    }

    /// How long a call waits for its answer; each progress notification restarts the wait.
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().timeout(std::time::Duration::from_secs(5));
    /// # drop(builder);
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// The most `input_required` rounds one call answers (default 10).
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().max_rounds(25);
    /// # drop(builder);
    /// ```
    pub fn max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds;
        self
    }

    /// The most pages one listing follows (default 64).
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().max_pages(8);
    /// # drop(builder);
    /// ```
    pub fn max_pages(mut self, pages: usize) -> Self {
        self.max_pages = pages;
        self
    }

    /// How long the `Auto` probe waits for the answer to `server/discover` before deciding on
    /// 2025-11-25 (default 3 s), apart from the call timeout. Over stdio it is counted from the
    /// server's first output, so the time a server takes to start is not counted.
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().probe_timeout(std::time::Duration::from_secs(5));
    /// # drop(builder);
    /// ```
    pub fn probe_timeout(mut self, timeout: Duration) -> Self {
        self.probe_timeout = timeout;
        self
    }

    /// Wraps every request the client sends in `hook` (see [`RequestHook`]): around each call,
    /// all its rounds, and around each request on the wire. Call it again for more hooks; they
    /// run in the order given, the first outermost. With the `otel` feature,
    /// `mcpwire::otel::ClientTracing` is the hook that traces the client's calls. A hook that
    /// several clients share is given as an `Arc` of it (an `Arc` of a hook is a hook).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::hook::{BoxFuture, HookedRequest, Next, RawReply, RequestHook};
    ///
    /// /// Marks every request as coming from a batch job.
    /// struct Batch;
    ///
    /// impl RequestHook for Batch {
    ///     fn wrap<'a>(&'a self, mut request: HookedRequest<'a>, next: Next<'a>) -> BoxFuture<'a, RawReply> {
    ///         request.meta_mut().insert("example.com/batch".into(), true.into());
    ///         next.run(request)
    ///     }
    /// }
    ///
    /// let builder = mcpwire::client::Client::builder().hook(Batch);
    /// # drop(builder);
    ///
    /// // One hook for several clients:
    /// let shared: std::sync::Arc<dyn RequestHook> = std::sync::Arc::new(Batch);
    /// let (first, second) = (
    ///     mcpwire::client::Client::builder().hook(shared.clone()),
    ///     mcpwire::client::Client::builder().hook(shared),
    /// );
    /// # drop((first, second));
    /// ```
    pub fn hook(mut self, hook: impl RequestHook) -> Self {
        self.hooks = self.hooks.with(Arc::new(hook));
        self
    }

    /// The largest message read from an HTTP server (default 4 MiB, as the server's
    /// `McpServer::max_message_bytes`): a JSON answer, or one event
    /// of an event stream (and any line of it). A server that sends more gets its connection
    /// closed, and the call fails with [`ClientError::TooLarge`]; the client goes on with its
    /// other calls.
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder().max_message_bytes(16 * 1024 * 1024);
    /// # drop(builder);
    /// ```
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.max_message_bytes = bytes;
        self
    }

    /// Answers form-mode elicitations (declares `elicitation.form`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ElicitAction, ElicitResult};
    ///
    /// let builder = mcpwire::client::Client::builder().on_form_elicitation(|_question| async {
    ///     let content = serde_json::json!({"confirm": true}).as_object().cloned();
    ///     ElicitResult { action: ElicitAction::Accept, content }
    /// });
    /// # drop(builder);
    /// ```
    pub fn on_form_elicitation<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(FormElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitResult> + Send + 'static,
    {
        self.handlers.set_form(answer);
        self
    }

    /// Answers URL-mode elicitations (declares `elicitation.url`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{ElicitAction, ElicitResult};
    ///
    /// let builder = mcpwire::client::Client::builder().on_url_elicitation(|question| async move {
    ///     println!("open {}", question.url);
    ///     ElicitResult { action: ElicitAction::Accept, content: None }
    /// });
    /// # drop(builder);
    /// ```
    pub fn on_url_elicitation<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(UrlElicitation) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ElicitResult> + Send + 'static,
    {
        self.handlers.set_url(answer);
        self
    }

    /// Answers sampling requests with the client's LLM (declares `sampling`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::{CreateMessageResult, Role};
    /// use mcpwire::protocol::SamplingContent;
    ///
    /// let builder = mcpwire::client::Client::builder().on_sampling(|_request| async {
    ///     let content: SamplingContent =
    ///         serde_json::from_value(serde_json::json!({"type": "text", "text": "Dune"})).unwrap();
    ///     Ok(CreateMessageResult { role: Role::Assistant, content, model: "m".into(), stop_reason: None })
    /// });
    /// # drop(builder);
    /// ```
    pub fn on_sampling<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(CreateMessageRequestParams) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<CreateMessageResult, ErrorObject>> + Send + 'static,
    {
        self.handlers.set_sampling(answer);
        self
    }

    /// Declares the extension `id` with its `settings` in the client's capabilities (in
    /// `initialize` on 2025-11-25, in every request's `_meta` on 2026-07-28), so that servers
    /// offering it serve its methods to this client (Skills, Apps, tasks).
    ///
    /// # Examples
    ///
    /// ```
    /// let builder = mcpwire::client::Client::builder()
    ///     .extension("io.modelcontextprotocol/skills", serde_json::json!({}));
    /// let declared = &builder.capabilities().other["extensions"];
    /// assert!(declared.get("io.modelcontextprotocol/skills").is_some());
    /// ```
    pub fn extension(mut self, id: impl Into<String>, settings: serde_json::Value) -> Self {
        self.handlers.declare_extension(id.into(), settings);
        self
    }

    /// Lists the client's roots (declares `roots`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ListRootsResult;
    ///
    /// let builder = mcpwire::client::Client::builder()
    ///     .on_roots(|| async { ListRootsResult::default() });
    /// # drop(builder);
    /// ```
    pub fn on_roots<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn() -> Fut + Send + Sync + 'static,
        Fut: Future<Output = ListRootsResult> + Send + 'static,
    {
        self.handlers.set_roots(answer);
        self
    }

    /// The capabilities the client will declare (from the handlers set).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::ListRootsResult;
    ///
    /// let builder = mcpwire::client::Client::builder().on_roots(|| async { ListRootsResult::default() });
    /// assert!(builder.capabilities().roots());
    /// assert!(!builder.capabilities().sampling());
    /// ```
    pub fn capabilities(&self) -> ClientCapabilities {
        self.handlers.capabilities()
    }
}

/// Connecting: each transport started, then the conversation opened on it.
impl ClientBuilder {
    /// Starts `server` as a child process and opens the conversation. With
    /// [`EraChoice::Auto`] the child is asked `server/discover` first and spoken to with
    /// `initialize` when it refuses or does not answer within
    /// [`probe_timeout`](ClientBuilder::probe_timeout) of its first output; a server that exits
    /// on the probe is started once more, on 2025-11-25. Pin the era to skip the probe.
    ///
    /// # Errors
    ///
    /// When the program cannot be started, or the conversation cannot be opened.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::{Client, EraChoice, StdioServer};
    ///
    /// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
    /// let client = Client::builder()
    ///     .era(EraChoice::Legacy)
    ///     .connect_stdio(StdioServer::new("my-mcp-server"))
    ///     .await?;
    /// client.ping().await?;
    /// # Ok(()) }
    /// ```
    pub async fn connect_stdio(self, server: StdioServer) -> Result<Client, ClientError> {
        let (transport, incoming) = stdio::start(&server)?;
        let era = self.era;
        match self
            .clone()
            .open_probing(Box::new(transport), incoming, era)
            .await
        {
            Ok(client) => Ok(client),
            // It exited on `server/discover`: once more, with `initialize` first.
            Err(OpenError::ClosedOnProbe(_)) => {
                let (transport, incoming) = stdio::start(&server)?;
                self.open(Box::new(transport), incoming, EraChoice::Legacy)
                    .await
            }
            Err(OpenError::Failed(error)) => Err(error),
        }
    }

    /// Connects to a Streamable HTTP endpoint (e.g. `http://127.0.0.1:8000/mcp`). With
    /// [`EraChoice::Auto`] the client probes with `server/discover` and falls back to
    /// `initialize` when the server does not speak 2026-07-28 (it refuses the probe, or does not
    /// answer within [`probe_timeout`](ClientBuilder::probe_timeout)); the verdict is kept for
    /// the URL, and connecting to it again with this builder or a clone does not probe again.
    ///
    /// # Errors
    ///
    /// When the conversation cannot be opened.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
    /// let client = mcpwire::client::Client::builder().connect_http("http://127.0.0.1:8000/mcp").await?;
    /// println!("{:?}", client.era());
    /// # Ok(()) }
    /// ```
    pub async fn connect_http(self, url: &str) -> Result<Client, ClientError> {
        self.connect_http_with(url, HttpOptions::new()).await
    }

    /// [`connect_http`](ClientBuilder::connect_http) with extra headers.
    ///
    /// # Errors
    ///
    /// When the conversation cannot be opened.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::client::HttpOptions;
    ///
    /// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
    /// let options = HttpOptions::new().header("Authorization", "Bearer t")?;
    /// let client = mcpwire::client::Client::builder()
    ///     .connect_http_with("http://127.0.0.1:8000/mcp", options)
    ///     .await?;
    /// # drop(client); Ok(()) }
    /// ```
    pub async fn connect_http_with(
        self,
        url: &str,
        options: HttpOptions,
    ) -> Result<Client, ClientError> {
        let (transport, incoming) = http::start(
            url,
            options,
            self.max_message_bytes,
            #[cfg(feature = "auth")]
            self.oauth.clone(),
        )?;
        let verdicts = self.verdicts.clone();
        let era = verdicts.choice(url, self.era);
        let client = self.open(Box::new(transport), incoming, era).await?;
        if era == EraChoice::Auto {
            verdicts.remember(url, client.era());
        }
        Ok(client)
    }

    /// Connects over a pair of byte streams carrying one JSON-RPC message per line (a socket,
    /// a pipe, `tokio::io::duplex`). With [`EraChoice::Auto`] the probe
    /// runs on the connection itself: pin the era for a server that exits on any message before
    /// `initialize`.
    ///
    /// # Errors
    ///
    /// When the conversation cannot be opened.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::{Client, EraChoice};
    /// use mcpwire::prelude::*;
    ///
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> &'static str { "hello" }
    ///
    /// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    /// let (server_read, server_write) = tokio::io::split(server_end);
    /// let server = McpServer::new("hello").tool(hello)?;
    /// tokio::spawn(server.serve_streams(server_read, server_write));
    /// let (read, write) = tokio::io::split(client_end);
    /// let client = Client::builder().era(EraChoice::Legacy).connect_streams(read, write).await?;
    /// let result = client.call_tool("hello", serde_json::json!({})).await?;
    /// assert_eq!(result.content, [Content::text("hello")]);
    /// # Ok(()) }
    /// ```
    pub async fn connect_streams<R, W>(self, reader: R, writer: W) -> Result<Client, ClientError>
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (lines, incoming) = streams::Lines::start(reader, writer);
        let era = self.era;
        self.open(Box::new(lines), incoming, era).await
    }

    #[cfg(feature = "server")]
    /// Starts `server` on the current runtime and connects to it in memory.
    ///
    /// # Errors
    ///
    /// When the server fails to start, or the conversation cannot be opened.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::{Client, EraChoice};
    /// use mcpwire::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = McpServer::new("calc").tool(add)?;
    /// let client = Client::builder().era(EraChoice::Modern).connect_memory(server).await?;
    /// let sum: serde_json::Value = client.call_tool_as("add", serde_json::json!({"a": 2, "b": 3})).await?;
    /// assert_eq!(sum, serde_json::json!({"result": 5}));
    /// # Ok(()) }
    /// ```
    pub async fn connect_memory(self, server: McpServer) -> Result<Client, ClientError> {
        let (memory, incoming) = memory::start(server).await?;
        let era = self.era;
        self.open(Box::new(memory), incoming, era).await
    }

    #[cfg(feature = "auth")]
    /// Obtains OAuth tokens for HTTP servers that ask for them (see [`auth`](super::auth)).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::Client;
    /// use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    ///
    /// let builder = Client::builder().oauth(OAuth::new(HeadlessAuthorizer::new("http://localhost:3000/callback")));
    /// # drop(builder);
    /// ```
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        self.oauth = Some(oauth);
        self
    }

    /// Opens the conversation on a started transport.
    pub(crate) async fn open(
        self,
        transport: Box<dyn Transport>,
        inbox: Inbox,
        era: EraChoice,
    ) -> Result<Client, ClientError> {
        Ok(self.open_probing(transport, inbox, era).await?)
    }

    /// [`open`](Self::open), telling apart a connection that closed on the `Auto` probe.
    pub(crate) async fn open_probing(
        self,
        transport: Box<dyn Transport>,
        inbox: Inbox,
        era: EraChoice,
    ) -> Result<Client, OpenError> {
        let settings = Settings {
            info: self.info,
            timeout: self.timeout,
            max_rounds: self.max_rounds,
            max_pages: self.max_pages,
            hooks: self.hooks,
        };
        let mode = Mode {
            era: Era::Legacy,
            version: None,
        };
        let peer = Peer::start(transport, inbox, self.handlers, settings, mode);
        let details = negotiate::open(&peer, era, self.probe_timeout).await?;
        Ok(Client::new(Session::new(peer, details)))
    }
}
