//! MCP Apps (the extension `io.modelcontextprotocol/ui`, SEP-1865): a tool comes with a view,
//! an HTML document the host renders in a sandboxed frame beside the conversation. The view
//! receives the tool's input and result from the host, and may call the server's tools itself
//! (through the host, as ordinary `tools/call` requests).
//!
//! [`Apps`] holds the server's [`View`]s and which tool points at which. Installed with
//! [`McpServer::extension`](crate::McpServer::extension), on both revisions, it
//!
//! - declares `extensions["io.modelcontextprotocol/ui"] = {}` in `initialize` and
//!   `server/discover`;
//! - serves each view with `resources/read` at its `ui://` URI as `text/html;profile=mcp-app`,
//!   with the view's settings (CSP origins, permissions, domain, border) in `_meta.ui` on the
//!   content item, and lists it in `resources/list` with the same `_meta.ui`;
//! - writes `_meta.ui = {resourceUri, visibility?}` onto each linked tool as `tools/list` shows
//!   it, and the deprecated flat `_meta["ui/resourceUri"]` that older hosts read.
//!
//! Everything is checked when the server is built: a view's URI must be `ui://` (and one
//! document, not a template), a view read from disk must be readable and not empty, a tool must
//! be registered before the extension is installed, and the view it points at must be one of
//! the extension's.
//!
//! # What stays the tool author's
//!
//! - **A meaningful text result.** Hosts without Apps, and the model itself, only see a
//!   result's `content`: a tool with a view still returns text that says what happened, beside
//!   the `structuredContent` its view renders (return a
//!   [`CallToolResult`](crate::CallToolResult) with both, or a structured type, whose JSON is
//!   also sent as text).
//! - **Authorization.** [`Visibility::App`] asks the host to hide a tool from the model and
//!   let only views call it, but the server cannot tell a view's call from the model's (both
//!   come over the host's connection): visibility is not a security boundary. Protect a tool
//!   views call with `#[tool(scopes = […])]` as any other; its scopes are checked on every
//!   call, whoever makes it.
//! - **Hosts without Apps.** The tools are listed the same for every client (so their list
//!   stays cacheable). A tool that needs a view to be useful can check
//!   [`client_supports_apps`] and answer with text alone when the client cannot show it.
//!
//! # Examples
//!
//! ```
//! use mcpwire::apps::{Apps, View, Visibility};
//! use mcpwire::prelude::*;
//! use serde_json::json;
//!
//! /// Shows the catalog.
//! #[tool(read_only)]
//! async fn browse_catalog() -> CallToolResult {
//!     CallToolResult {
//!         content: vec![Content::text("2 books: Dune, Emma.")],
//!         structured_content: Some(json!({ "books": ["Dune", "Emma"] })),
//!         ..Default::default()
//!     }
//! }
//!
//! /// Reserves a book (the catalog's button).
//! #[tool]
//! async fn reserve_book(title: String) -> String { format!("Reserved {title}.") }
//!
//! const CATALOG: &str = "<!doctype html><html><body><div id=books></div></body></html>";
//! // In a crate: View::html(URI, include_str!("catalog.html")), or View::file(URI, path).
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
//! let apps = Apps::new()
//!     .view(View::html("ui://shop/catalog.html", CATALOG).prefers_border(true))
//!     .tool("browse_catalog", "ui://shop/catalog.html")
//!     .visibility("reserve_book", [Visibility::App]);
//! let server = McpServer::new("shop").tool(browse_catalog)?.tool(reserve_book)?.extension(apps)?;
//!
//! let mut client = server.serve_memory().await?;
//! let tools = client
//!     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#)
//!     .await
//!     .unwrap();
//! assert!(tools.contains(r#""ui":{"resourceUri":"ui://shop/catalog.html"}"#), "{tools}");
//! assert!(tools.contains(r#""ui/resourceUri":"ui://shop/catalog.html""#), "{tools}");
//! let view = client
//!     .request(r#"{"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"ui://shop/catalog.html"}}"#)
//!     .await
//!     .unwrap();
//! assert!(view.contains(r#""mimeType":"text/html;profile=mcp-app""#), "{view}");
//! assert!(view.contains(r#""_meta":{"ui":{"prefersBorder":true}}"#), "{view}");
//! # Ok(()) }
//! ```

mod mounted;
mod read;
mod view;

use crate::context::Context;
use crate::error::InvalidSignature;
use crate::extension::declared_settings;
use crate::protocol::apps::{META_KEY, RESOURCE_URI_META_KEY, SCHEME, UiToolMeta};
use crate::server::{Extension, Install};
use read::{Served, Views};
use serde_json::{Map, Value};

pub use crate::protocol::apps::{Csp, EXTENSION, MIME_TYPE, Permissions, Visibility};
pub use view::View;

/// The MCP Apps extension: the server's [`View`]s and the tools that point at them. Install it
/// with [`McpServer::extension`](crate::McpServer::extension) after registering those tools;
/// see the [module](self) for what it serves.
#[derive(Clone, Debug, Default)]
pub struct Apps {
    views: Vec<View>,
    /// `(tool, view URI)`, in the order given.
    links: Vec<(String, String)>,
    /// `(tool, visibility)`, in the order given.
    visibilities: Vec<(String, Vec<Visibility>)>,
}

impl Apps {
    /// No views yet; the extension is declared all the same.
    pub fn new() -> Self {
        Self::default()
    }

    /// Serves `view`.
    pub fn view(mut self, view: View) -> Self {
        self.views.push(view);
        self
    }

    /// Points the tool `tool` at the view at `view_uri`: hosts render that view when the tool
    /// is called. The tool must be registered before the extension is installed, and the view
    /// must be one of this extension's; a tool has one view.
    pub fn tool(mut self, tool: impl Into<String>, view_uri: impl Into<String>) -> Self {
        self.links.push((tool.into(), view_uri.into()));
        self
    }

    /// Says who may call the tool `tool` (`_meta.ui.visibility`): `[Visibility::App]` keeps it
    /// from the model for views to call, `[Visibility::Model]` keeps views from calling it;
    /// both (the default when unsaid) for either. The tool need not have a view of its own: a
    /// view may call any tool whose visibility has `App`.
    ///
    /// Hosts enforce it; the server does not (it cannot tell who called). Protect the tool with
    /// scopes as any other.
    pub fn visibility(
        mut self,
        tool: impl Into<String>,
        visibility: impl IntoIterator<Item = Visibility>,
    ) -> Self {
        self.visibilities
            .push((tool.into(), visibility.into_iter().collect()));
        self
    }

    /// Every tool's `_meta.ui` (and flat key), in the order the tools were first named; or why
    /// they cannot be, naming the tool.
    fn tool_metas(&self, served: &Views) -> Result<Vec<ToolMeta>, InvalidSignature> {
        let refused =
            |why: String| InvalidSignature::new(format!("extension '{EXTENSION}': {why}"));
        let mut tools: Vec<(String, UiToolMeta)> = Vec::new();
        for (tool, uri) in &self.links {
            if !served.0.contains_key(uri) {
                let why = match uri.starts_with(SCHEME) {
                    true => "which is not a view of the Apps extension (add it with Apps::view)",
                    false => "which is not a ui:// view",
                };
                return Err(refused(format!("tool '{tool}' points at '{uri}', {why}")));
            }
            let ui = entry(&mut tools, tool);
            if let Some(first) = &ui.resource_uri {
                return Err(refused(format!(
                    "tool '{tool}' points at two views, '{first}' and '{uri}' (a tool has one)"
                )));
            }
            ui.resource_uri = Some(uri.clone());
        }
        for (tool, visibility) in &self.visibilities {
            if visibility.is_empty() {
                return Err(refused(format!(
                    "tool '{tool}': an empty visibility would hide it from the model and from \
                     views (leave the tool out instead)"
                )));
            }
            let ui = entry(&mut tools, tool);
            if ui.visibility.is_some() {
                return Err(refused(format!(
                    "tool '{tool}': its visibility is given twice"
                )));
            }
            let mut unique = Vec::new();
            for who in visibility {
                if !unique.contains(who) {
                    unique.push(*who);
                }
            }
            ui.visibility = Some(unique);
        }
        Ok(tools
            .into_iter()
            .map(|(tool, ui)| (tool, tool_meta(ui)))
            .collect())
    }
}

/// A tool's name and the `_meta` entries installing adds to its listing.
type ToolMeta = (String, Map<String, Value>);

/// The `_meta.ui` being built for `tool`, added when it is first named.
fn entry<'a>(tools: &'a mut Vec<(String, UiToolMeta)>, tool: &str) -> &'a mut UiToolMeta {
    let at = match tools.iter().position(|(name, _)| name == tool) {
        Some(at) => at,
        None => {
            tools.push((tool.to_owned(), UiToolMeta::default()));
            tools.len() - 1
        }
    };
    &mut tools[at].1
}

/// A tool's `_meta` entries: `ui`, and the flat key when it has a view.
fn tool_meta(ui: UiToolMeta) -> Map<String, Value> {
    let mut meta = Map::new();
    if let Some(uri) = &ui.resource_uri {
        meta.insert(RESOURCE_URI_META_KEY.to_owned(), Value::from(uri.as_str()));
    }
    let ui = serde_json::to_value(ui).expect("a tool's ui meta serializes");
    meta.insert(META_KEY.to_owned(), ui);
    meta
}

// Not offered as a suggestion when something else is passed to `McpServer::extension`: a value
// that is not an extension is not helped by hearing of this one.
#[diagnostic::do_not_recommend]
impl Extension for Apps {
    const ID: &'static str = EXTENSION;

    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
        let refused =
            |why: String| InvalidSignature::new(format!("extension '{EXTENSION}': {why}"));
        let mut served = Views::default();
        for view in &self.views {
            let loaded = Served::load(view).map_err(refused)?;
            if served.0.insert(view.uri.clone(), loaded).is_some() {
                return Err(refused(format!("view '{}' is added twice", view.uri)));
            }
        }
        let tools = self.tool_metas(&served)?;
        for view in &self.views {
            install.resource_definition(read::resource(view))?;
            if let Some(meta) = &served.0[&view.uri].meta {
                install.resource_meta(&view.uri, meta.clone())?;
            }
        }
        for (tool, meta) in tools {
            install.tool_meta(&tool, meta)?;
        }
        install.state(served);
        install.on_mount(mounted::remount);
        Ok(())
    }
}

/// Whether the client of the request can show views: it declared the extension
/// `io.modelcontextprotocol/ui` (in `initialize` on 2025-11-25, in the request's `_meta` on
/// 2026-07-28) with `text/html;profile=mcp-app` among its `mimeTypes` (or with no `mimeTypes`
/// at all, as the Python SDK reads it).
///
/// # Examples
///
/// ```
/// use mcpwire::Context;
/// use mcpwire::protocol::ClientCapabilities;
/// use serde_json::json;
///
/// let host: ClientCapabilities = serde_json::from_value(json!({
///     "extensions": {"io.modelcontextprotocol/ui": {"mimeTypes": ["text/html;profile=mcp-app"]}}
/// }))
/// .unwrap();
/// let ctx = Context::detached().client_capabilities(host).build();
/// assert!(mcpwire::apps::client_supports_apps(&ctx));
/// assert!(!mcpwire::apps::client_supports_apps(&Context::detached().build()));
/// ```
pub fn client_supports_apps(ctx: &Context) -> bool {
    let declared = declared_settings(ctx.client_capabilities(), EXTENSION);
    match declared.map(|settings| settings.get("mimeTypes")) {
        None => false,
        Some(None) => true,
        Some(Some(Value::Array(types))) => types.iter().any(|t| t.as_str() == Some(MIME_TYPE)),
        Some(Some(_)) => false,
    }
}
