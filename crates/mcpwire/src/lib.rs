//! # mcpwire — a Model Context Protocol SDK whose tools declare their dependencies
//!
//! Write a tool as a plain Rust function. Parameters the model fills appear in the tool's input
//! schema; parameters marked `#[resolve(f)]` are filled by your own resolver `f` before the tool
//! runs, never appear in the schema, and cannot be supplied by the client.
//!
//! ```no_run
//! use mcpwire::prelude::*;
//! use std::collections::HashMap;
//!
//! #[derive(Clone, Debug)]
//! struct Stock { title: String, copies: u32 }
//!
//! struct Inventory(HashMap<&'static str, u32>);
//!
//! #[resolver]
//! async fn check_stock(title: String, ctx: Context) -> Stock {
//!     let copies = ctx.state::<Inventory>().0.get(title.as_str()).copied().unwrap_or(0);
//!     Stock { title, copies }
//! }
//!
//! /// Reserve a copy of a book.
//! #[tool]
//! async fn reserve_book(title: String, #[resolve(check_stock)] stock: Stock) -> String {
//!     if stock.copies == 0 {
//!         return format!("{title:?} is out of stock.");
//!     }
//!     format!("Reserved {title:?} ({} copies left).", stock.copies - 1)
//! }
//!
//! #[tokio::main]
//! async fn main() -> mcpwire::Result<()> {
//!     McpServer::new("Bookshop")
//!         .state(Inventory(HashMap::from([("Dune", 7), ("Neuromancer", 0)])))
//!         .tool(reserve_book)?
//!         .serve_stdio()
//!         .await
//! }
//! ```
//!
//! One server answers both protocol revisions: 2025-11-25 sessions (`initialize`) and stateless
//! 2026-07-28 requests (per-request `_meta`), on stdio, Streamable HTTP
//! ([`McpServer::serve_http`], [`McpServer::into_router`]) or in memory.
//!
//! # Cargo features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `server` | yes | the server: `#[tool]`, `#[resolver]`, `#[prompt]`, `#[resource]`, [`McpServer`], stdio and in-memory transports, sealed `requestState`; MCP Apps (`apps::Apps`: tools with `ui://` views) |
//! | `http` | yes | Streamable HTTP for the server ([`McpServer::serve_http`], [`McpServer::into_router`]): axum and hyper |
//! | `skills` | no | `skills::Skills`: Agent Skills folders published with the Skills extension (`skills/list`, `skills/get`, `skill://` files, `resources/directory/read`) |
//! | `sqlite` | no | `tasks::SqliteTaskStore`: tasks kept in SQLite (compiled in), completed results surviving restarts |
//! | `redis` | no | a fleet of replicas sharing state in one Redis, on one connection: `transport::http::RedisBackend` (2025-11-25 sessions, resumable streams, questions and changes on any replica; tasks, `tasks::RedisTaskStore`; the `#[tool(once)]` record, `request_state::RedisReplayGuard`; rate-limit buckets), set with `HttpServer::fleet` |
//! | `client` | no | the client (`mcpwire::client`): stdio, Streamable HTTP (hyper's HTTP/1.1 connections for plain `http://`, reqwest otherwise) and, with `server`, in-memory transports; both eras |
//! | `auth-aws-lc` | no | `auth` with JWT signatures checked (and the client's assertions signed) by aws-lc-rs instead of RustCrypto: a token's first verification several times faster; builds AWS-LC's C (see the authorization guide) |
//!
//! With `default-features = false` only the wire types ([`protocol`]) remain; add `server` for
//! a stdio server that compiles no HTTP stack.
//!
//! # Smaller binaries
//!
//! Most of a server's binary is its dependencies' code, and an idle server's memory is mostly
//! the pages of that binary it has touched. Three settings of the application's own profile make
//! both smaller, with `opt-level` left at `3`; on the repository's `bookshop` example (`auth` and
//! `otel` compiled in; `docs/benchmarks.md`, "Size and idle memory") they took the file from
//! 21.8 to 12.7 MB and the idle memory from 12.8 to 10.9 MiB:
//!
//! ```toml
//! [profile.release]          # or a profile of its own, as the repository's `dist`
//! strip = "symbols"          # the symbol table: 21.8 -> 16.7 MB; never loaded, so no memory
//! lto = "fat"                # with one codegen unit, whole-program optimization:
//! codegen-units = 1          #   16.7 -> 12.7 MB, and 1.9 MiB less idle memory
//! ```
//!
//! The price is a longer, single-threaded final link on every rebuild (a build from scratch
//! took about as long here). Keep `opt-level` at `3`: `"s"` and `"z"` trade CPU per call for
//! size. `panic = "abort"` would also drop the unwinding tables (0.46 MB of exception tables in
//! the build above, besides the landing pads in the code), but mcpwire answers a panicking tool
//! or resolver with an error and keeps serving, which needs unwinding: with `abort` such a panic
//! ends the process. Use it only when a supervisor restarts the server and no tool may panic.
//!
//! The JSON Schema checker (`boon`, with the `regex` crate, `url` and `idna`) runs when tools
//! are registered and when arguments with constraints are checked; compiling it for size
//! (`[profile.release.package.boon] opt-level = "s"`, and the same for `url`, `idna`,
//! `regex-automata` and `regex-syntax`) is what this repository's `dist` profile does, the rest
//! kept at `opt-level = 3`; a server with the default features is 5.3 MB so (what `"s"` saves
//! on `boon` alone was not measured).
//!
//! # Layers
//!
//! Top to bottom; a file imports files of its own layer or a lower one, and no file reaches
//! itself through others (both checked on the sources by `tests/import_graph`):
//! `transport`, `auth` → `dispatch` (and the `client`, beside it) → `server`, `tasks` →
//! `resolve` → `request_state`, `context` → `error` → `schema`, `wire` → `protocol`. The client
//! (feature `client`) uses `protocol`, the low `wire` layer (line framing, header value
//! encoding, `x-mcp-header` rules) and nothing of the server but `McpServer`, to serve one in
//! memory. The floor plan and the path of a request are drawn in the repository's
//! `docs/architecture.md`.

#![warn(missing_docs)]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate self as mcpwire;

/// Marks the items of one feature in the docs (on docs.rs).
macro_rules! feature_gated {
    ($feature:literal, $($item:item)*) => {
        $(
            #[cfg(feature = $feature)]
            #[cfg_attr(docsrs, doc(cfg(feature = $feature)))]
            $item
        )*
    };
}

// The modules are declared outside `feature_gated!` so that rustfmt (which does not expand
// macros) reaches them.
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod apps;
#[cfg(feature = "client")]
#[cfg_attr(docsrs, doc(cfg(feature = "client")))]
pub mod client;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod context;
#[cfg(feature = "server")]
mod dispatch;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod extension;
#[cfg(feature = "gateway")]
#[cfg_attr(docsrs, doc(cfg(feature = "gateway")))]
pub mod gateway;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod layer;
#[cfg(feature = "otel")]
#[cfg_attr(docsrs, doc(cfg(feature = "otel")))]
pub mod otel;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod request_state;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod resolve;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod server;
#[cfg(feature = "skills")]
#[cfg_attr(docsrs, doc(cfg(feature = "skills")))]
pub mod skills;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod tasks;
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod transport;

feature_gated! { "server",
    pub use context::Context;
    pub use server::McpServer;

    /// # Example
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool(read_only)]
    /// async fn add(
    ///     /// The first number.
    ///     a: i64,
    ///     #[arg(default = 1)] b: i64,
    /// ) -> i64 {
    ///     a + b
    /// }
    ///
    /// let server = McpServer::new("calculator").tool(add)?;
    /// # drop(server);
    /// // The body, called directly (from a unit test, say):
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// assert_eq!(add::call(2, 3).await, 5);
    /// # });
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    ///
    /// Constraints on an argument, listed in the input schema and checked on every call:
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Books a table.
    /// #[tool]
    /// async fn book_table(
    ///     /// The name on the booking.
    ///     #[schemars(length(min = 2, max = 40))]
    ///     name: String,
    ///     /// How many seats.
    ///     #[schemars(range(min = 1, max = 8))]
    ///     seats: u32,
    ///     /// Where to send the confirmation.
    ///     #[schemars(email)]
    ///     email: Option<String>,
    /// ) -> String {
    ///     format!("{seats} seats for {name}")
    /// }
    ///
    /// let server = McpServer::new("restaurant").tool(book_table)?;
    /// # drop(server);
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    ///
    /// A `pattern` (`#[schemars(regex(pattern = "..."))]`) is an ECMA-262 regular expression, as
    /// JSON Schema says (`\d`, `\w` and `\s` are ASCII), matched by the `regex` crate in time
    /// linear in the argument's length. Look-around and backreferences are not supported: a tool
    /// whose schema uses them is refused at registration (`InvalidSignature`). A look-ahead
    /// `(?=.*[0-9])` is one more pattern (`allOf` of two `pattern`s); `(?!admin$)` is a
    /// `not` of one.
    pub use mcpwire_macros::tool;

    /// # Example
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// struct Prices;
    /// impl Prices { fn of(&self, title: &str) -> Option<u32> { (title == "Dune").then_some(12) } }
    ///
    /// #[resolver]
    /// async fn price(title: String, ctx: Context) -> Result<u32, ToolError> {
    ///     ctx.state::<Prices>().of(&title).ok_or_else(|| ToolError::new("no such book"))
    /// }
    ///
    /// /// Quotes a book's price.
    /// #[tool]
    /// async fn quote(title: String, #[resolve(price)] price: u32) -> String {
    ///     format!("{title}: {price} EUR")
    /// }
    ///
    /// let server = McpServer::new("shop").state(Prices).tool(quote)?;
    /// # drop(server);
    /// # tokio::runtime::Runtime::new().unwrap().block_on(async {
    /// let ctx = Context::detached().state(Prices).build();
    /// assert_eq!(price::call("Dune".into(), ctx).await, Ok(12));
    /// # });
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub use mcpwire_macros::resolver;

    /// # Example
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Asks for a review of some code.
    /// #[prompt]
    /// async fn review(code: String, language: Option<String>) -> String {
    ///     let language = language.unwrap_or_else(|| "Rust".into());
    ///     format!("Review this {language} code:\n{code}")
    /// }
    ///
    /// let server = McpServer::new("prompts").prompt(review)?;
    /// # drop(server);
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub use mcpwire_macros::prompt;

    /// # Example
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// One book's blurb.
    /// #[resource(uri = "books://{title}/blurb", mime_type = "text/plain")]
    /// async fn blurb(title: String) -> String {
    ///     format!("{title}: a book worth reading.")
    /// }
    ///
    /// /// The opening hours: the same for everyone, so any client may reuse a read for an hour.
    /// #[resource(uri = "library://hours", ttl_ms = 3_600_000, cache = "public")]
    /// async fn hours() -> String {
    ///     "9-18".into()
    /// }
    ///
    /// let server = McpServer::new("library").resource(blurb)?.resource(hours)?;
    /// # drop(server);
    /// # Ok::<(), mcpwire::InvalidSignature>(())
    /// ```
    pub use mcpwire_macros::resource;
}
#[cfg(all(feature = "auth", feature = "http"))]
#[cfg_attr(docsrs, doc(cfg(all(feature = "auth", feature = "http"))))]
#[doc(inline)]
pub use transport::http::auth;
mod error;
pub mod protocol;
pub mod schema;
#[cfg(any(feature = "server", feature = "client"))]
mod wire;

pub use error::{Error, InvalidSignature, Result, ToolError};
pub use protocol::{CallToolResult, Content};

/// Guides, with examples that are compiled as doc tests.
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod guide {
    #[doc = include_str!("../docs/dependencies.md")]
    pub mod dependencies {}
    #[doc = include_str!("../docs/tasks.md")]
    pub mod tasks {}
    #[doc = include_str!("../docs/authorization.md")]
    pub mod authorization {}
    #[doc = include_str!("../docs/middleware.md")]
    pub mod middleware {}
}

/// The crate's README, whose example is compiled as a doc test.
#[cfg(all(doctest, feature = "http"))]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// The workspace's fleet guide (`docs/scale-out.md`), whose example is compiled as a doc test.
#[cfg(all(doctest, feature = "redis", feature = "http"))]
#[doc = include_str!("../../../docs/scale-out.md")]
pub struct ScaleOutDoctests;

/// The workspace's observability guide (`docs/observability.md`), whose examples are compiled as
/// doc tests.
#[cfg(all(doctest, feature = "otel", feature = "http", feature = "client"))]
#[doc = include_str!("../../../docs/observability.md")]
pub struct ObservabilityDoctests;

/// The workspace's guide to MCP Apps and Skills (`docs/apps-and-skills.md`), whose examples are
/// compiled as doc tests.
#[cfg(all(doctest, feature = "skills"))]
#[doc = include_str!("../../../docs/apps-and-skills.md")]
pub struct AppsAndSkillsDoctests;

/// The workspace's gateway guide (`docs/gateway.md`, with mounting a server in-process), whose
/// examples are compiled as doc tests.
#[cfg(all(doctest, feature = "gateway"))]
#[doc = include_str!("../../../docs/gateway.md")]
pub struct GatewayDoctests;

/// Everything a server author usually needs, in one import.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// #[derive(Serialize, JsonSchema)]
/// struct Quote { title: String, cents: u32 }
///
/// /// Quotes a book's price.
/// #[tool]
/// async fn quote(title: String) -> Quote { Quote { title, cents: 1299 } }
///
/// let server = McpServer::new("shop").tool(quote)?;
/// # drop(server);
/// # Ok::<(), InvalidSignature>(())
/// ```
#[cfg(feature = "server")]
#[cfg_attr(docsrs, doc(cfg(feature = "server")))]
pub mod prelude {
    pub use crate::context::Context;
    pub use crate::error::{InvalidSignature, ToolError};
    pub use crate::protocol::{CallToolResult, Content};
    pub use crate::protocol::{CreateMessageResult, ListRootsResult};
    pub use crate::resolve::{
        Elicit, ElicitUrl, ElicitationResult, ListRoots, Resolver, Sample, UrlConsent,
    };
    pub use crate::server::McpServer;
    pub use mcpwire_macros::{prompt, resolver, resource, tool};
    pub use schemars::JsonSchema;
    pub use serde::{Deserialize, Serialize};
}

/// The `requestState` codec, for `benches/request_state.rs` only (feature `bench-internals`,
/// not a public API).
#[doc(hidden)]
#[cfg(all(feature = "server", feature = "bench-internals"))]
pub mod bench_internals {
    pub use crate::request_state::codec::{Binding, Refusal, StateCodec, arguments_digest};
}

/// Support for the code `#[tool]` and `#[resolver]` generate, and nothing else. Not a public
/// API.
#[doc(hidden)]
#[cfg(feature = "server")]
pub mod __private {
    pub use crate::protocol::lifecycle::CacheScope;
    pub use crate::protocol::tasks::TaskSupport;
    pub use crate::protocol::tools::ToolAnnotations;
    pub use crate::resolve::from_request::FromRequest;
    pub use crate::resolve::from_resolved::consumer_check;
    pub use crate::resolve::inputs::{ArgumentSource, ResolverInputs};
    pub use crate::resolve::into_resolution::Resolution;
    pub use crate::resolve::param_spec::{
        ParamSpec, ResolverDefinition, ResolverFuture, request_param_spec,
    };
    pub use crate::resolve::resolver::Resolver;
    pub use crate::resolve::return_probe::{ReturnProbe, ViaIntoResolution, ViaPlainValue};
    pub use crate::resolve::run::Stop;
    pub use crate::schema::schema_for;
    pub use crate::server::handler::HandlerCall;
    pub use crate::server::output::{
        OutputShape, Probe, ViaContent, ViaStructured, ViaStructuredResult, ViaUnsupported,
    };
    pub use crate::server::prompt::{
        IntoGetPromptResult, PromptDefinition, PromptFuture, PromptMarker,
    };
    pub use crate::server::resource::{
        IntoResourceContents, ResourceDefinition, ResourceFuture, ResourceMarker,
    };
    pub use crate::server::tool::{ToolDefinition, ToolFuture, ToolMarker};

    pub use schemars;
    pub use serde;
    pub use std::any::{Any, TypeId};
    pub use std::boxed::Box;
    pub use std::sync::Arc;

    /// Runs a plain (blocking) function on the blocking thread pool, so it never stalls the
    /// async runtime. A panic becomes a `ToolError` naming `what`.
    pub async fn run_blocking<T, F>(what: &'static str, body: F) -> Result<T, crate::ToolError>
    where
        F: FnOnce() -> T + Send + 'static,
        T: Send + 'static,
    {
        tokio::task::spawn_blocking(body).await.map_err(|error| {
            if error.is_panic() {
                let panic = error.into_panic();
                let message = crate::resolve::run::panic_message(&panic);
                tracing::error!(what, panic = message, "blocking function panicked");
            }
            crate::ToolError::new(format!("{what} panicked"))
        })
    }
}
