//! `McpServer`: the builder a server author starts from.

use super::completer::Completer;
use super::core::{Limits, ServerCore};
use super::mounted_completers::MountedCompleters;
use super::pages::DEFAULT_PAGE_SIZE;
use super::prompt::IntoPrompt;
use super::registries::Registries;
use super::remount::MountHooks;
use super::resource::IntoResource;
use super::tool::IntoTool;
use crate::context::state::SharedValue;
use crate::context::{Notifier, SharedState};
use crate::error::{Error, InvalidSignature, Result};
use crate::layer::McpLayer;
use crate::layer::service::{HandlerKind, LayerSet};
use crate::protocol::{Era, Implementation};
use crate::request_state::{KeyRing, StateCodec};
use crate::resolve::Resolver;
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
    pub(super) info: Implementation,
    instructions: Option<String>,
    /// Tools, prompts and resources, shared with every `Catalog` handle.
    pub(super) registries: Arc<Registries>,
    pub(super) state: SharedState,
    pub(super) startup: Vec<Startup>,
    pub(super) limits: Limits,
    state_keys: Option<KeyRing>,
    state_ttl: Duration,
    state_max_bytes: usize,
    replay_guard: Option<Arc<dyn crate::request_state::ReplayGuard>>,
    local_grant: Option<Arc<crate::context::Grant>>,
    notifier: Notifier,
    pub(super) completer: Option<Completer>,
    /// The completers of mounted servers, in front of `completer` ([`McpServer::mount`]).
    pub(super) mounted_completers: MountedCompleters,
    /// How tasks (the 2026-07-28 tasks extension) are kept (set in `task_settings.rs`).
    pub(crate) tasks: crate::tasks::TaskOptions,
    /// Middleware: server-wide and per-handler layers (`mcpwire::layer`).
    pub(super) layers: LayerSet,
    /// The extensions installed ([`McpServer::extension`]): capability entries and methods.
    pub(super) extensions: crate::extension::Extensions,
    /// What the extensions do when this server is mounted in another ([`McpServer::mount`]).
    pub(super) mount_hooks: MountHooks,
    /// What hears a session end ([`McpServer::on_session_end`]).
    pub(super) session_ends: Vec<crate::context::SessionEndHook>,
}

impl McpServer {
    /// A server named `name` (reported as `serverInfo.name`), with no tools yet.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("bookshop").serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#).await.unwrap();
    /// let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
    /// assert_eq!(reply["result"]["serverInfo"]["name"], "bookshop");
    /// # Ok(()) }
    /// ```
    pub fn new(name: impl Into<String>) -> Self {
        let notifier = Notifier::default();
        Self {
            info: Implementation {
                name: name.into(),
                version: env!("CARGO_PKG_VERSION").to_owned(),
                ..Implementation::default()
            },
            instructions: None,
            registries: Arc::new(Registries::new(notifier.clone(), DEFAULT_PAGE_SIZE)),
            state: SharedState::default(),
            startup: Vec::new(),
            limits: Limits::default(),
            state_keys: None,
            state_ttl: Duration::from_secs(600),
            state_max_bytes: crate::request_state::codec::DEFAULT_MAX_BYTES,
            replay_guard: None,
            local_grant: None,
            notifier,
            completer: None,
            mounted_completers: MountedCompleters::default(),
            tasks: crate::tasks::TaskOptions::default(),
            extensions: Default::default(),
            mount_hooks: MountHooks::default(),
            session_ends: Vec::new(),
            layers: LayerSet::default(),
        }
    }

    /// The version reported as `serverInfo.version`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("bookshop").version("1.2.0").serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#).await.unwrap();
    /// let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
    /// assert_eq!(reply["result"]["serverInfo"]["version"], "1.2.0");
    /// # Ok(()) }
    /// ```
    pub fn version(mut self, version: impl Into<String>) -> Self {
        self.info.version = version.into();
        self
    }

    /// A display title reported in `serverInfo`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("bookshop").title("The Bookshop").serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#).await.unwrap();
    /// let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
    /// assert_eq!(reply["result"]["serverInfo"]["title"], "The Bookshop");
    /// # Ok(()) }
    /// ```
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.info.title = Some(title.into());
        self
    }

    /// How to use this server, for the client's model.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let server = McpServer::new("bookshop").instructions("Search before you reserve.");
    /// let mut client = server.serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"test","version":"0"}}}"#).await.unwrap();
    /// let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
    /// assert_eq!(reply["result"]["instructions"], "Search before you reserve.");
    /// # Ok(()) }
    /// ```
    pub fn instructions(mut self, instructions: impl Into<String>) -> Self {
        self.instructions = Some(instructions.into());
        self
    }

    /// Shares `value` with every handler: [`Context::state`](crate::Context::state) returns it.
    /// One value per type; a second value of the same type replaces the first.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// struct Greeting(&'static str);
    ///
    /// /// Greets in the configured language.
    /// #[tool]
    /// async fn greet(ctx: Context) -> String { ctx.state::<Greeting>().0.to_owned() }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let server = McpServer::new("greeter").state(Greeting("Hej!")).tool(greet)?;
    /// let mut client = server.serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet"}}"#).await;
    /// assert!(reply.unwrap().contains(r#""text":"Hej!""#));
    /// # Ok(()) }
    /// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let server = McpServer::new("calculator").tool(add)?;
    /// // The same name twice is refused at registration, not when a client calls.
    /// let error = server.tool(add).err().unwrap();
    /// assert!(error.message().contains("add"));
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn tool<Kind>(
        self,
        tool: impl IntoTool<Kind>,
    ) -> std::result::Result<Self, InvalidSignature> {
        let mut server = self;
        server.add_tool(tool.into_tool())?;
        Ok(server)
    }

    /// Registers the tool `definition` (what [`McpServer::tool`] and an extension's
    /// [`Install::tool`](super::Install::tool) do).
    pub(super) fn add_tool(
        &mut self,
        definition: super::tool::ToolDefinition,
    ) -> std::result::Result<(), InvalidSignature> {
        let task = definition.task;
        self.registries.add_tool(definition)?;
        self.tasks.note_tool(task);
        Ok(())
    }

    /// Registers the prompt `definition`.
    pub(super) fn add_prompt(
        &self,
        definition: super::prompt::PromptDefinition,
    ) -> std::result::Result<(), InvalidSignature> {
        self.registries.add_prompt(definition)
    }

    /// Registers the resource `definition`.
    pub(super) fn add_resource(
        &self,
        definition: super::resource::ResourceDefinition,
    ) -> std::result::Result<(), InvalidSignature> {
        self.registries.add_resource(definition)
    }

    /// Shares `value` with every handler and resolver.
    pub(super) fn insert_state<T: Send + Sync + 'static>(&mut self, value: T) {
        self.state.insert(value);
    }

    /// `Ok` when the extension `id` is not installed yet.
    pub(super) fn check_new_extension(
        &self,
        id: &str,
    ) -> std::result::Result<(), InvalidSignature> {
        self.extensions.check_new(id)
    }

    /// Calls `listener` each time a 2025-11-25 session ends (2026-07-28 has no sessions): to
    /// record how long sessions last, free what the application kept per session, or log it.
    /// It runs on the task that ends the session: keep it short.
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::context::SessionEnd;
    ///
    /// let server = McpServer::new("shop").on_session_end(|ended: &SessionEnd| {
    ///     eprintln!("a {} session ended after {:?}", ended.transport, ended.duration);
    /// });
    /// # drop(server);
    /// ```
    pub fn on_session_end(
        self,
        listener: impl Fn(&crate::context::SessionEnd) + Send + Sync + 'static,
    ) -> Self {
        let mut server = self;
        server.session_ends.push(Arc::new(listener));
        server
    }

    /// Declares the extension `id` with `settings`, offered on `eras`.
    pub(super) fn declare_extension(
        &mut self,
        id: &'static str,
        settings: serde_json::Value,
        eras: crate::extension::Eras,
    ) -> std::result::Result<(), InvalidSignature> {
        self.extensions.declare(id, settings, eras)
    }

    /// Serves `method` with an extension's `handler`.
    pub(super) fn bind_extension_method(
        &mut self,
        extension: &'static str,
        method: &'static str,
        eras: crate::extension::Eras,
        handler: crate::extension::registry::Binding,
    ) -> std::result::Result<(), InvalidSignature> {
        self.extensions.bind(extension, method, eras, handler)
    }

    /// Registers a prompt (a function annotated with `#[prompt]`).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the name is taken or the prompt's resolver graph is broken.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Asks for a review of `code`.
    /// #[prompt]
    /// async fn review(code: String) -> String { format!("Please review:\n{code}") }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("reviews").prompt(review)?.serve_memory().await?;
    /// let reply = client
    ///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"prompts/get","params":{"name":"review","arguments":{"code":"x = 1"}}}"#)
    ///     .await;
    /// assert!(reply.unwrap().contains(r#""text":"Please review:\nx = 1""#));
    /// # Ok(()) }
    /// ```
    pub fn prompt<Kind>(
        self,
        prompt: impl IntoPrompt<Kind>,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.add_prompt(prompt.into_prompt())?;
        Ok(self)
    }

    /// Registers a resource or resource template (a function annotated with `#[resource]`).
    ///
    /// A read finds a resource of its exact URI first. Otherwise the most specific template that
    /// matches the URI answers: the one with the longest literal text before its first variable
    /// (`notes://archive/{id}` before `notes://{+path}`, whatever their order), the first
    /// registered among equals.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the URI is taken or malformed, a parameter is not a variable of
    /// the URI template, or the resolver graph is broken.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// The shop's opening hours.
    /// #[resource(uri = "shop://hours", mime_type = "text/plain")]
    /// async fn hours() -> String { "Mon-Fri 9-17".into() }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("shop").resource(hours)?.serve_memory().await?;
    /// let reply = client
    ///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"shop://hours"}}"#)
    ///     .await;
    /// assert!(reply.unwrap().contains(r#""text":"Mon-Fri 9-17""#));
    /// # Ok(()) }
    /// ```
    pub fn resource<Kind>(
        self,
        resource: impl IntoResource<Kind>,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.add_resource(resource.into_resource())?;
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
    pub fn override_resolver<R, W>(self) -> std::result::Result<Self, InvalidSignature>
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
        self.registries
            .override_resolver(TypeId::of::<R>(), replacement)?;
        Ok(self)
    }

    /// A handle that announces changes (a list changed, a resource was updated) to every
    /// connected client that wants them, from anywhere in the application. To change the lists
    /// themselves (and have each change announced), take a [`Catalog`](super::Catalog) with
    /// [`McpServer::catalog`].
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::protocol::ChangedList;
    ///
    /// let server = McpServer::new("catalogue");
    /// let notifier = server.notifier();
    /// std::thread::spawn(move || {
    ///     // e.g. after reloading the catalogue from disk:
    ///     notifier.list_changed(ChangedList::Resources);
    /// });
    /// # drop(server);
    /// ```
    pub fn notifier(&self) -> Notifier {
        self.notifier.clone()
    }

    /// The most items one page of `tools/list`, `prompts/list`, `resources/list` or
    /// `resources/templates/list` holds (default 100).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Adds.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> i64 { a + b }
    /// /// Subtracts.
    /// #[tool]
    /// async fn sub(a: i64, b: i64) -> i64 { a - b }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let server = McpServer::new("calc").tool(add)?.tool(sub)?.page_size(1);
    /// let mut client = server.serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#).await.unwrap();
    /// let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
    /// assert_eq!(reply["result"]["tools"].as_array().unwrap().len(), 1);
    /// assert!(reply["result"]["nextCursor"].is_string());
    /// # Ok(()) }
    /// ```
    pub fn page_size(self, page_size: usize) -> Self {
        self.registries.set_page_size(page_size.max(1));
        self
    }

    /// The longest message accepted on stdio (default 4 MiB); a longer line is answered with a
    /// JSON-RPC error and skipped.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let (client, server_end) = tokio::io::duplex(64 * 1024);
    /// let (reader, writer) = tokio::io::split(server_end);
    /// tokio::spawn(McpServer::new("small").max_message_bytes(1024).serve_streams(reader, writer));
    /// let (client_reader, mut client_writer) = tokio::io::split(client);
    /// let long = format!(r#"{{"jsonrpc":"2.0","id":1,"method":"{}"}}"#, "x".repeat(2000));
    /// client_writer.write_all(format!("{long}\n").as_bytes()).await.unwrap();
    /// let reply = BufReader::new(client_reader).lines().next_line().await.unwrap().unwrap();
    /// assert!(reply.contains(r#""error""#));
    /// # }
    /// ```
    pub fn max_message_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_message_bytes = bytes;
        self
    }

    /// How long in-flight requests may finish after the client closed the connection (default
    /// 5 s).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// // Long exports may finish within 30 s after the client hangs up.
    /// let server = McpServer::new("exports").shutdown_grace(Duration::from_secs(30));
    /// # drop(server);
    /// ```
    pub fn shutdown_grace(mut self, grace: Duration) -> Self {
        self.limits.shutdown_grace = grace;
        self
    }

    /// How long a question sent to a 2025-11-25 client (`elicitation/create`,
    /// `sampling/createMessage`, `roots/list`) waits for its answer before the tool call fails
    /// (default 5 minutes: a person may be answering).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// // A bot answers elicitations at once: fail fast when it does not.
    /// let server = McpServer::new("ops").client_request_timeout(Duration::from_secs(10));
    /// # drop(server);
    /// ```
    pub fn client_request_timeout(mut self, timeout: Duration) -> Self {
        self.limits.client_request_timeout = timeout;
        self
    }

    /// How long a 2026-07-28 client may cache `tools/list`, `prompts/list`, `resources/list`,
    /// `resources/templates/list` and `server/discover` (default 60 s; `ttlMs`). They are
    /// `cacheScope: "public"`, or `"private"` when served to an authenticated principal. A
    /// resource's reads carry their own hints (`#[resource(ttl_ms = …, cache = "…")]`).
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("shop").list_ttl(std::time::Duration::from_secs(5));
    /// # drop(server);
    /// ```
    pub fn list_ttl(mut self, ttl: Duration) -> Self {
        self.limits.list_ttl = ttl;
        self
    }

    /// The most resources one client may watch (default 1,000): a 2025-11-25 session's
    /// `resources/subscribe` calls, or the `resourceSubscriptions` of one 2026-07-28
    /// `subscriptions/listen` request. One more is refused with a JSON-RPC error (`-32602`,
    /// `data.limit`); subscribing twice to the same URI takes no room.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("files").max_subscriptions(100);
    /// # drop(server);
    /// ```
    pub fn max_subscriptions(mut self, subscriptions: usize) -> Self {
        self.limits.max_subscriptions = subscriptions;
        self
    }

    /// The longest resource URI a client may subscribe to (default 2,048 bytes); a longer one is
    /// refused with a JSON-RPC error (`-32602`, `data.limit`). Reads are not limited by it.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("files").max_subscription_uri_bytes(8 * 1024);
    /// # drop(server);
    /// ```
    pub fn max_subscription_uri_bytes(mut self, bytes: usize) -> Self {
        self.limits.max_subscription_uri_bytes = bytes;
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
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::request_state::KeyRing;
    ///
    /// # let (new_secret, old_secret) = ([3u8; 32], [4u8; 32]);
    /// // Rotation: the new secret seals, the old one still opens rounds in flight.
    /// let keys = KeyRing::new([new_secret, old_secret]).expect("32-byte secrets");
    /// let server = McpServer::new("bookshop").request_state_keys(keys);
    /// # drop(server);
    /// ```
    pub fn request_state_keys(mut self, keys: KeyRing) -> Self {
        self.state_keys = Some(keys);
        self
    }

    /// How long a round's `requestState` stays valid (default 10 minutes, renewed each round),
    /// counted in milliseconds. A TTL too long for the clock means "never expires".
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use std::time::Duration;
    ///
    /// // Users may take up to an hour to answer a question.
    /// let server = McpServer::new("forms").request_state_ttl(Duration::from_secs(60 * 60));
    /// # drop(server);
    /// ```
    pub fn request_state_ttl(mut self, ttl: Duration) -> Self {
        self.state_ttl = ttl;
        self
    }

    /// The longest `requestState` the server mints and accepts (default 64 KiB). Recorded
    /// answers travel inside the state: a round whose answers would not fit is refused with a
    /// `-32602` that says so, rather than minting a state the next round would refuse.
    pub fn request_state_max_bytes(mut self, bytes: usize) -> Self {
        self.state_max_bytes = bytes;
        self
    }

    /// The [`Grant`](crate::context::Grant) every stdio and in-memory connection runs with: what
    /// the local user's credentials allow (say, a token the process was started with). Its
    /// scopes are then checked as on HTTP: lists show only what it allows, and a call, read,
    /// subscription or completion of anything else is refused with JSON-RPC error `-32003`
    /// naming the missing scopes. Without it, nothing is checked off HTTP.
    ///
    /// ```
    /// use mcpwire::context::Grant;
    /// use mcpwire::McpServer;
    ///
    /// let server = McpServer::new("shop").local_grant(Grant::new(["books:read"]));
    /// # drop(server);
    /// ```
    pub fn local_grant(mut self, grant: crate::context::Grant) -> Self {
        self.local_grant = Some(Arc::new(grant));
        self
    }

    /// Where `#[tool(once)]` calls record that they completed (default: a bounded
    /// [`MemoryReplayGuard`](crate::request_state::MemoryReplayGuard) of this process). Replicas that
    /// resume each other's rounds share one guard.
    pub fn replay_guard(mut self, guard: impl crate::request_state::ReplayGuard) -> Self {
        self.replay_guard = Some(Arc::new(guard));
        self
    }

    /// Whether [`McpServer::replay_guard`] was called.
    #[cfg(all(feature = "redis", feature = "http"))]
    pub(crate) fn has_replay_guard(&self) -> bool {
        self.replay_guard.is_some()
    }

    /// Wraps every request (but `initialize`) in `layer`: middleware that sees each parsed
    /// request after authorization admitted it, on every transport and both revisions, and may
    /// refuse it, run code before and after, and see how it ended (see [`crate::layer`] and
    /// `mcpwire::guide::middleware`).
    ///
    /// The first layer added is the outermost; server-wide layers wrap the handler's own
    /// ([`McpServer::tool_layer`]). A server without layers serves exactly as before, at no
    /// cost.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::layer::{ConcurrencyLimit, RateLimit, RequestLog};
    /// use mcpwire::prelude::*;
    /// use std::time::Duration;
    ///
    /// let server = McpServer::new("shop")
    ///     .layer(RequestLog::new()) // outermost: logs every request, refused ones too
    ///     .layer(RateLimit::per_principal(100, Duration::from_secs(1)))
    ///     .layer(ConcurrencyLimit::new(256));
    /// # drop(server);
    /// ```
    pub fn layer(mut self, layer: impl McpLayer) -> Self {
        self.layers.add(Arc::new(layer));
        self
    }

    /// Wraps every message the server answers in `layer`, before anything else runs:
    /// `initialize`, requests authorization refuses, unknown methods, tools, prompts or
    /// resources, malformed parameters, and every request that goes on to the server-wide
    /// layers ([`McpServer::layer`]) and its handler. What telemetry and audit logs that must
    /// see every request are made of ([`otel::Tracing`](crate::otel) belongs here).
    ///
    /// At this tier the request is as the client sent it: [`McpRequest::target`] and
    /// [`McpRequest::arguments`] are what it names and passes, not yet checked (the server may
    /// have no such tool), and a request not yet classified (`initialize`, or one with a
    /// malformed `_meta`) shows revision 2025-11-25 and the session's protocol version, empty
    /// before the handshake. The response says whether the request reached its method
    /// ([`McpResponse::reached`]). A refusal made here (a [`McpResponse`] of the layer's own)
    /// is answered as a refusal from any layer is. The first outer layer added is the
    /// outermost; all of them wrap all the others.
    ///
    /// [`McpRequest::target`]: crate::layer::McpRequest::target
    /// [`McpRequest::arguments`]: crate::layer::McpRequest::arguments
    /// [`McpResponse`]: crate::layer::McpResponse
    /// [`McpResponse::reached`]: crate::layer::McpResponse::reached
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::layer::{self, McpRequest, Next};
    /// use mcpwire::prelude::*;
    /// use std::sync::Arc;
    /// use std::sync::atomic::{AtomicUsize, Ordering};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let seen = Arc::new(AtomicUsize::new(0));
    /// let counted = seen.clone();
    /// let server = McpServer::new("demo").outer_layer(layer::from_fn(
    ///     move |request: McpRequest, next: Next| {
    ///         counted.fetch_add(1, Ordering::Relaxed);
    ///         next.run(request)
    ///     },
    /// ));
    /// let mut client = server.serve_memory().await?;
    /// // Refused (no such method), yet seen by the outer layer.
    /// let reply = client
    ///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"no/such"}"#)
    ///     .await
    ///     .unwrap();
    /// assert!(reply.contains("-32601"));
    /// assert_eq!(seen.load(Ordering::Relaxed), 1);
    /// # Ok(()) }
    /// ```
    pub fn outer_layer(mut self, layer: impl McpLayer) -> Self {
        self.layers.add_outer(Arc::new(layer));
        self
    }

    /// Wraps every call of the tool `name` in `layer`, inside the server-wide layers (the first
    /// added for a tool is the outermost of its own).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when no tool is registered as `name` (yet: register the tool first),
    /// so that a typo cannot leave a limit unenforced.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::layer::Timeout;
    /// use mcpwire::prelude::*;
    /// use std::time::Duration;
    ///
    /// /// Waits.
    /// #[tool]
    /// async fn slow() -> String {
    ///     tokio::time::sleep(Duration::from_secs(60)).await;
    ///     "done".into()
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let server = McpServer::new("demo")
    ///     .tool(slow)?
    ///     .tool_layer("slow", Timeout::new(Duration::from_millis(10)))?;
    /// // A name no tool has is refused here, not when a client calls.
    /// assert!(McpServer::new("demo").tool_layer("slo", Timeout::new(Duration::from_millis(10))).is_err());
    /// let mut client = server.serve_memory().await?;
    /// let reply = client
    ///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"slow"}}"#)
    ///     .await
    ///     .unwrap();
    /// assert!(reply.contains("-32001") && reply.contains("timed out"));
    /// # Ok(()) }
    /// ```
    pub fn tool_layer(
        self,
        name: &str,
        layer: impl McpLayer,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.handler_layer(HandlerKind::Tool, name, Arc::new(layer))
    }

    /// Wraps every `prompts/get` of the prompt `name` in `layer` (as [`McpServer::tool_layer`]
    /// does for a tool).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when no prompt is registered as `name`.
    ///
    /// ```
    /// use mcpwire::layer::RateLimit;
    /// use mcpwire::prelude::*;
    ///
    /// /// Asks for a review.
    /// #[prompt]
    /// async fn review(code: String) -> String { code }
    ///
    /// let server = McpServer::new("reviews")
    ///     .prompt(review)?
    ///     .prompt_layer("review", RateLimit::per_principal(5, std::time::Duration::from_secs(1)))?;
    /// # drop(server);
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn prompt_layer(
        self,
        name: &str,
        layer: impl McpLayer,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.handler_layer(HandlerKind::Prompt, name, Arc::new(layer))
    }

    /// Wraps every `resources/read` served by the resource registered as `uri` (a URI, or a
    /// URI template exactly as registered: `books://{title}/blurb`) in `layer` (as
    /// [`McpServer::tool_layer`] does for a tool).
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when no resource or template is registered as `uri`.
    ///
    /// ```
    /// use mcpwire::layer::ConcurrencyLimit;
    /// use mcpwire::prelude::*;
    ///
    /// /// A book's blurb.
    /// #[resource(uri = "books://{title}/blurb")]
    /// async fn blurb(title: String) -> String { title }
    ///
    /// let server = McpServer::new("library")
    ///     .resource(blurb)?
    ///     .resource_layer("books://{title}/blurb", ConcurrencyLimit::new(8))?;
    /// # drop(server);
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn resource_layer(
        self,
        uri: &str,
        layer: impl McpLayer,
    ) -> std::result::Result<Self, InvalidSignature> {
        self.handler_layer(HandlerKind::Resource, uri, Arc::new(layer))
    }

    /// Attaches `layer` to the handler registered as `key`, or says that none is.
    fn handler_layer(
        mut self,
        kind: HandlerKind,
        key: &str,
        layer: Arc<dyn McpLayer>,
    ) -> std::result::Result<Self, InvalidSignature> {
        if let Some(missing) = unregistered(&self.registries, kind, key) {
            return Err(InvalidSignature::new(missing));
        }
        self.layers.add_for(kind, key.to_owned(), layer);
        Ok(self)
    }

    /// The server's name, as `initialize` and `server/discover` give it (and the audience its
    /// `requestState` is sealed for).
    ///
    /// ```
    /// # use mcpwire::McpServer;
    /// assert_eq!(McpServer::new("bookshop").name(), "bookshop");
    /// ```
    pub fn name(&self) -> &str {
        &self.info.name
    }

    /// The registries, shared with `Catalog` handles.
    pub(crate) fn registries(&self) -> &Arc<Registries> {
        &self.registries
    }

    /// Sets the completer ([`McpServer::completion`]).
    /// The completer set with [`McpServer::completion`], if any (a gateway puts its own
    /// routing in front of it).
    #[cfg(feature = "gateway")]
    pub(crate) fn completer(&self) -> Option<Completer> {
        self.completer.clone()
    }

    pub(crate) fn with_completer(mut self, completer: Completer) -> Self {
        self.completer = Some(completer);
        self
    }

    /// Runs start-up (lifespan builders) and freezes the server for serving.
    pub(crate) async fn build(self) -> Result<Arc<ServerCore>> {
        let configured = match self.state_keys {
            Some(keys) => Some(keys),
            None => KeyRing::from_env().map_err(|e| Error::Startup(e.to_string()))?,
        };
        let ephemeral_keys = configured.is_none();
        let keys = configured.unwrap_or_else(KeyRing::ephemeral);
        let state_codec = StateCodec::new(keys, self.info.name.clone())
            .with_ttl(self.state_ttl)
            .with_max_bytes(self.state_max_bytes);
        let mut state = self.state;
        for startup in self.startup {
            state.insert_value(startup().await?);
        }
        let mut core = ServerCore::new(
            self.info,
            self.instructions,
            self.registries,
            state,
            self.limits,
            state_codec,
            self.notifier,
        );
        core.ephemeral_keys = ephemeral_keys;
        core.layers = self.layers.build();
        if let Some(guard) = self.replay_guard {
            core.replay_guard = guard;
        }
        core.local_grant = self.local_grant;
        if let Some(completer) = self.mounted_completers.in_front_of(self.completer) {
            core.capabilities.completions = Some(Default::default());
            core.completer = Some(completer);
        }
        let mut extensions = self.extensions;
        if let Some(tasks) = self.tasks.start() {
            let max_listened = core.limits.max_listened_tasks;
            crate::tasks::install(&mut extensions, &tasks, max_listened)?;
        }
        core.discover_capabilities = core.capabilities.clone();
        extensions.advertise(&mut core.capabilities, Era::Legacy);
        extensions.advertise(&mut core.discover_capabilities, Era::Modern);
        core.extensions = extensions;
        core.session_ends = self.session_ends.into();
        Ok(Arc::new(core))
    }
}

/// Why a layer cannot attach to the handler `key` of `kind`: none is registered so (a typo would
/// leave a limit unenforced); `None` when one is.
fn unregistered(registries: &Registries, kind: HandlerKind, key: &str) -> Option<String> {
    let (noun, method) = match kind {
        HandlerKind::Tool => ("tool", "tool_layer"),
        HandlerKind::Prompt => ("prompt", "prompt_layer"),
        HandlerKind::Resource => ("resource", "resource_layer"),
    };
    (!registries.contains(kind, key)).then(|| {
        format!(
            "McpServer::{method}(\"{key}\", ..): no {noun} is registered as \"{key}\" \
             (register it first)"
        )
    })
}
