//! `McpServer`: the builder a server author starts from.

use super::completion::Completer;
use super::core::{Limits, ServerCore};
use super::pages::DEFAULT_PAGE_SIZE;
use super::prompt::{IntoPrompt, PromptRegistry};
use super::registry::ToolRegistry;
use super::resource::{IntoResource, ResourceRegistry};
use super::tool::IntoTool;
use crate::context::state::SharedValue;
use crate::context::{Notifier, SharedState};
use crate::error::{Error, InvalidSignature, Result};
use crate::protocol::Implementation;
use crate::resolve::Resolver;
use crate::resolve::plan::Overrides;
use crate::state::{KeyRing, StateCodec};
use std::any::TypeId;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

/// A lifespan builder: runs once at start and yields one shared value.
type Startup =
    Box<dyn FnOnce() -> Pin<Box<dyn Future<Output = Result<SharedValue>> + Send>> + Send>;

/// An MCP server: its identity, tools and shared state. Serves both protocol revisions
/// (2025-11-25 sessions and stateless 2026-07-28 requests) from the same registrations.
///
/// ```no_run
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 {
///     a + b
/// }
///
/// #[tokio::main]
/// async fn main() -> mcpwire::Result<()> {
///     McpServer::new("calculator").version("1.0.0").tool(add)?.serve_stdio().await
/// }
/// ```
pub struct McpServer {
    info: Implementation,
    instructions: Option<String>,
    tools: ToolRegistry,
    prompts: PromptRegistry,
    resources: ResourceRegistry,
    overrides: Overrides,
    state: SharedState,
    startup: Vec<Startup>,
    limits: Limits,
    page_size: usize,
    state_keys: Option<KeyRing>,
    state_ttl: Duration,
    notifier: Notifier,
    completer: Option<Completer>,
}

impl McpServer {
    /// A server named `name` (reported as `serverInfo.name`), with no tools yet.
    pub fn new(name: impl Into<String>) -> Self {
        Self {
            info: Implementation {
                name: name.into(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                ..Implementation::default()
            },
            instructions: None,
            tools: ToolRegistry::default(),
            prompts: PromptRegistry::default(),
            resources: ResourceRegistry::default(),
            overrides: Overrides::new(),
            state: SharedState::default(),
            startup: Vec::new(),
            limits: Limits::default(),
            page_size: DEFAULT_PAGE_SIZE,
            state_keys: None,
            state_ttl: Duration::from_secs(600),
            notifier: Notifier::default(),
            completer: None,
        }
    }

    /// The version reported as `serverInfo.version`.
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.info.version = version.into();
        self
    }

    /// A display title reported in `serverInfo`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// How to use this server, for the client's model.
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Shares `value` with every handler: [`Context::state`](crate::Context::state) returns it.
    /// One value per type; a second value of the same type replaces the first.
    pub fn state<T: Send + Sync + 'static>(mut self, value: T) -> Self {
        self.state.insert(value);
        self
    }

    /// Builds shared state once when the server starts serving (a database pool, a client),
    /// before the first request is read. A failure stops the server before it serves.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// struct Pool;
    /// let server = McpServer::new("db").lifespan(|| async { Ok::<_, std::io::Error>(Pool) });
    /// # drop(server);
    /// ```
    pub fn lifespan<T, E, F, Fut>(mut self, build: F) -> Self
    where
        T: Send + Sync + 'static,
        E: std::fmt::Display,
        F: FnOnce() -> Fut + Send + 'static,
        Fut: Future<Output = std::result::Result<T, E>> + Send + 'static,
    {
        self.startup.push(Box::new(move || {
            Box::pin(async move {
                let value = build().await.map_err(|e| Error::Startup(e.to_string()))?;
                Ok(SharedValue::new(value))
            })
        }));
        self
    }

    /// Registers a tool (a function annotated with `#[tool]`).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the name is invalid or taken, the input schema's root is not an
    /// object, or the tool's resolver graph is broken (a parameter no source can fill, a type
    /// that differs from the tool argument of the same name, a cycle). The message names the
    /// culprit.
    pub fn tool(mut self, tool: impl IntoTool) -> std::result::Result<Self, InvalidSignature> {
        self.tools.add(tool.into_tool(), &self.overrides)?;
        Ok(self)
    }

    /// Registers a prompt (a function annotated with `#[prompt]`).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the name is taken or the prompt's resolver graph is broken.
    pub fn prompt(
        mut self,
        prompt: impl IntoPrompt,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.prompts.add(prompt.into_prompt(), &self.overrides)?;
        Ok(self)
    }

    /// Registers a resource or resource template (a function annotated with `#[resource]`).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the URI is taken or malformed, a parameter is not a variable of
    /// the URI template, or the resolver graph is broken.
    pub fn resource(
        mut self,
        resource: impl IntoResource,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.resources
            .add(resource.into_resource(), &self.overrides)?;
        Ok(self)
    }

    /// Replaces the resolver `original` with `replacement` in every tool of this server, for
    /// tests: a fake stock lookup, a fixed clock. The replacement must produce the same output
    /// type (checked at compile time); its own parameters are checked like any resolver's.
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// #[resolver]
    /// async fn price(title: String) -> u32 { title.len() as u32 }
    ///
    /// #[resolver]
    /// async fn free() -> u32 { 0 }
    ///
    /// /// Quotes a price.
    /// #[tool]
    /// async fn quote(title: String, #[resolve(price)] price: u32) -> String {
    ///     format!("{title}: {price}")
    /// }
    ///
    /// let server = McpServer::new("shop").tool(quote)?.override_resolver::<price, free>()?;
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the replacement gives its consumers another type than the
    /// original, or a tool's graph is broken once the replacement is in place.
    pub fn override_resolver<R, W>(mut self) -> std::result::Result<Self, InvalidSignature>
    where
        R: Resolver,
        W: Resolver,
    {
        let (original, replacement) = (R::definition(), W::definition());
        if (original.output_type)() != (replacement.output_type)() {
            return Err(InvalidSignature::new(format!(
                "resolver '{}' cannot replace '{}': it gives `{}`, the original gives `{}`",
                replacement.name,
                original.name,
                (replacement.output_type_name)(),
                (original.output_type_name)(),
            )));
        }
        self.overrides.insert(TypeId::of::<R>(), replacement);
        self.tools.replan(&self.overrides)?;
        self.prompts.replan(&self.overrides)?;
        self.resources.replan(&self.overrides)?;
        Ok(self)
    }

    /// A handle that announces changes (a list changed, a resource was updated) to every
    /// connected client that wants them, from anywhere in the application.
    pub fn notifier(&self) -> Notifier {
        self.notifier.clone()
    }

    /// The most tools one `tools/list` page holds (default 100).
    pub fn page_size(mut self, page_size: usize) -> Self {
        self.page_size = page_size.max(1);
        self
    }

    /// The longest message accepted on stdio (default 4 MiB); a longer line is answered with a
    /// JSON-RPC error and skipped.
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_message_bytes = bytes;
        self
    }

    /// How long in-flight requests may finish after the client closed the connection (default
    /// 5 s).
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.limits.shutdown_grace = grace;
        self
    }

    /// How long a question sent to a 2025-11-25 client (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`) waits for its answer before the tool call fails
    /// (default 5 minutes: a person may be answering).
    pub fn client_request_timeout(mut self, timeout: Duration) -> Self {
        self.limits.client_request_timeout = timeout;
        self
    }

    /// The most requests one client runs at once: per connection on stdio (and the in-memory
    /// transport), per session on 2025-11-25 HTTP (default 128). A request beyond it is answered
    /// at once with the JSON-RPC error `-32000` ("Server busy: … retry later"), and the server
    /// goes on serving the others. A 2026-07-28 HTTP request has its own connection, so this
    /// does not apply to it.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").max_requests_in_flight(16);
    /// # drop(server);
    /// ```
    pub fn max_requests_in_flight(mut self, requests: usize) -> Self {
        self.limits.max_requests_in_flight = requests.max(1);
        self
    }

    /// The most messages (notifications, requests to the client, answers) queued for one
    /// client stream that the client has not read yet: the connection on stdio, one response
    /// stream on HTTP (default 1 024). When a client reads slower than the server writes, a
    /// handler sending more waits until it catches up, so memory stays bounded. A 2025-11-25
    /// HTTP request stream, which runs on without its client, is ended instead; the client
    /// resumes it with `Last-Event-ID` from the session's event store (`HttpServer::event_store`).
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").max_queued_messages(256);
    /// # drop(server);
    /// ```
    pub fn max_queued_messages(mut self, messages: usize) -> Self {
        self.limits.max_queued_messages = messages.max(1);
        self
    }

    /// The keys that seal `requestState` on 2026-07-28 rounds: the first seals, all open, so
    /// keys can be rotated. Replicas that share keys (and the server name) resume each other's
    /// rounds. Without this, keys come from the `MCP_REQUEST_STATE_KEYS` environment variable
    /// (see [`KeyRing::from_env`]), or else one random key per process.
    pub fn request_state_keys(mut self, keys: KeyRing) -> Self {
        self.state_keys = Some(keys);
        self
    }

    /// How long a round's `requestState` stays valid (default 10 minutes, renewed each round).
    pub fn request_state_ttl(mut self, ttl: Duration) -> Self {
        self.state_ttl = ttl;
        self
    }

    /// Sets the completer ([`McpServer::completion`]).
    pub(crate) fn with_completer(mut self, completer: Completer) -> Self {
        self.completer = Some(completer);
        self
    }

    /// Runs start-up (lifespan builders) and freezes the server for serving.
    pub(crate) async fn build(self) -> Result<Arc<ServerCore>> {
        let keys = match self.state_keys {
            Some(keys) => keys,
            None => KeyRing::from_env()
                .map_err(|e| Error::Startup(e.to_string()))?
                .unwrap_or_else(KeyRing::ephemeral),
        };
        let state_codec = StateCodec::new(keys, self.info.name.clone()).with_ttl(self.state_ttl);
        let mut state = self.state;
        for startup in self.startup {
            state.insert_value(startup().await?);
        }
        let mut core = ServerCore::new(
            self.info,
            self.instructions,
            self.tools,
            self.prompts,
            self.resources,
            state,
            self.limits,
            self.page_size,
            state_codec,
            self.notifier,
        );
        if let Some(completer) = self.completer {
            core.capabilities.completions = Some(Default::default());
            core.completer = Some(completer);
        }
        Ok(Arc::new(core))
    }
}
