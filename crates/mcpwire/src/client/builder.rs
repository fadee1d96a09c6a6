//! Configuring a client: who it is, which era, its handlers, limits; then connecting.

use super::client::Client;
use super::era::{EraChoice, Verdicts};
use super::error::ClientError;
use super::handlers::{FormElicitation, Handlers, UrlElicitation};
use super::negotiate::{self, OpenError};
use super::peer::{Mode, Peer, Settings};
use super::transport::Transport;
use crate::protocol::{
    ClientCapabilities, CreateMessageRequestParams, CreateMessageResult, ElicitResult, Era,
    ErrorObject, Implementation, ListRootsResult,
};
use std::future::Future;
use std::time::Duration;
use tokio::sync::mpsc;

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
    pub(crate) info: Implementation,
    pub(crate) era: EraChoice,
    pub(crate) handlers: Handlers,
    pub(crate) timeout: Duration,
    pub(crate) max_rounds: u32,
    pub(crate) max_pages: usize,
    pub(crate) probe_timeout: Duration,
    /// The `Auto` verdicts per HTTP URL.
    pub(crate) verdicts: Verdicts,
    #[cfg(feature = "auth")]
    pub(crate) oauth: Option<super::auth::OAuth>,
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
            verdicts: Verdicts::default(),
            #[cfg(feature = "auth")]
            oauth: None,
        }
    }
}

impl Client {
    /// A builder with the defaults: era `Auto`, a 60 s timeout (extended by progress), at most
    /// 10 input rounds per call and 64 pages per listing, no handlers.
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

    /// Opens the conversation on a started transport.
    pub(crate) async fn open(
        self,
        transport: Box<dyn Transport>,
        inbox: mpsc::UnboundedReceiver<String>,
        era: EraChoice,
    ) -> Result<Client, ClientError> {
        Ok(self.open_probing(transport, inbox, era).await?)
    }

    /// [`open`](Self::open), telling apart a connection that closed on the `Auto` probe.
    pub(crate) async fn open_probing(
        self,
        transport: Box<dyn Transport>,
        inbox: mpsc::UnboundedReceiver<String>,
        era: EraChoice,
    ) -> Result<Client, OpenError> {
        let settings = Settings {
            info: self.info,
            timeout: self.timeout,
            max_rounds: self.max_rounds,
            max_pages: self.max_pages,
        };
        let mode = Mode {
            era: Era::Legacy,
            version: None,
        };
        let peer = Peer::start(transport, inbox, self.handlers, settings, mode);
        let details = negotiate::open(&peer, era, self.probe_timeout).await?;
        *peer.details.write().expect("details lock") = details;
        Ok(Client { peer })
    }
}
