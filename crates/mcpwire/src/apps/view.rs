//! [`View`]: one HTML document a host renders for a tool, at a `ui://` URI, and what installing
//! checks of it.

use crate::protocol::apps::{Csp, Permissions, SCHEME, UiResourceMeta};
use std::path::PathBuf;
use std::time::Duration;

/// How long a client may reuse a read of a view by default (it does not change while the
/// server runs): five minutes.
const DEFAULT_TTL: Duration = Duration::from_secs(300);

/// A view: an HTML document at a `ui://` URI that a host renders, in a sandboxed frame, for the
/// tools that point at it ([`Apps::tool`](super::Apps::tool)). `resources/read` serves it as
/// `text/html;profile=mcp-app` with its settings in `_meta.ui` (its [`csp`](View::csp),
/// [`permissions`](View::permissions), [`domain`](View::domain) and
/// [`prefers_border`](View::prefers_border)), which its `resources/list` entry carries too.
///
/// Its contents are fixed when the server starts: embedded in the binary
/// ([`View::html`] with `include_str!`) or read once from disk ([`View::file`]). Nothing is
/// checked until the [`Apps`](super::Apps) holding it is installed; then a URI that is not
/// `ui://`, an unreadable or empty file, or a CSP entry that is not an origin fails
/// [`McpServer::extension`](crate::McpServer::extension), naming the view.
///
/// # Examples
///
/// ```
/// use mcpwire::apps::{Csp, View};
///
/// let catalog = View::html("ui://shop/catalog.html", "<!doctype html><p>Books</p>")
///     .title("Catalog")
///     .prefers_border(true)
///     .csp(Csp { connect_domains: vec!["https://api.example.com".into()], ..Csp::default() });
/// assert_eq!(catalog.uri(), "ui://shop/catalog.html");
/// // Read from disk when the server is built (relative to the working directory):
/// let checkout = View::file("ui://shop/checkout.html", "views/checkout.html");
/// # drop(checkout);
/// ```
#[derive(Clone)]
pub struct View {
    pub(super) uri: String,
    pub(super) source: Source,
    pub(super) name: Option<String>,
    pub(super) title: Option<String>,
    pub(super) description: Option<String>,
    pub(super) ui: UiResourceMeta,
    pub(super) ttl: Duration,
}

/// Where a view's document comes from.
#[derive(Clone)]
pub(super) enum Source {
    /// Text, served as `text`.
    Html(String),
    /// Bytes, served as a base64 `blob`.
    Bytes(Vec<u8>),
    /// A file, read when the extension is installed: `text` when UTF-8, a `blob` otherwise.
    File(PathBuf),
}

impl View {
    fn new(uri: impl Into<String>, source: Source) -> Self {
        Self {
            uri: uri.into(),
            source,
            name: None,
            title: None,
            description: None,
            ui: UiResourceMeta::default(),
            ttl: DEFAULT_TTL,
        }
    }

    /// The view at `uri` (`ui://…`) made of the HTML document `html`, served as `text`.
    /// `include_str!("catalog.html")` embeds a file of the crate in the binary.
    pub fn html(uri: impl Into<String>, html: impl Into<String>) -> Self {
        Self::new(uri, Source::Html(html.into()))
    }

    /// The view at `uri` made of the bytes of an HTML document, served as a base64 `blob`
    /// (`include_bytes!` embeds them).
    pub fn bytes(uri: impl Into<String>, bytes: impl Into<Vec<u8>>) -> Self {
        Self::new(uri, Source::Bytes(bytes.into()))
    }

    /// The view at `uri` made of the file at `path`, read once, when the [`Apps`](super::Apps)
    /// holding it is installed: served as `text` when it is UTF-8, as a base64 `blob`
    /// otherwise. A relative path is taken from the working directory; for a file beside the
    /// sources, give `concat!(env!("CARGO_MANIFEST_DIR"), "/views/catalog.html")`. A file
    /// that cannot be read, or is empty, fails the installation, naming the path.
    pub fn file(uri: impl Into<String>, path: impl Into<PathBuf>) -> Self {
        Self::new(uri, Source::File(path.into()))
    }

    /// Its URI.
    pub fn uri(&self) -> &str {
        &self.uri
    }

    /// Its name in `resources/list` (default: the URI without `ui://`).
    pub fn name(mut self, name: impl Into<String>) -> Self {
        self.name = Some(name.into());
        self
    }

    /// Its display title in `resources/list`.
    pub fn title(mut self, title: impl Into<String>) -> Self {
        self.title = Some(title.into());
        self
    }

    /// What it shows, in `resources/list`.
    pub fn description(mut self, description: impl Into<String>) -> Self {
        self.description = Some(description.into());
        self
    }

    /// The origins the view may reach (`_meta.ui.csp`). Without it the host applies its
    /// restrictive default: no network, inline scripts and styles only.
    pub fn csp(mut self, csp: Csp) -> Self {
        self.ui.csp = Some(csp);
        self
    }

    /// The browser permissions the view asks for (`_meta.ui.permissions`).
    pub fn permissions(mut self, permissions: Permissions) -> Self {
        self.ui.permissions = Some(permissions);
        self
    }

    /// A dedicated origin for the view's frame (`_meta.ui.domain`), in the format the host
    /// documents. Leave it out unless a host asks for one: without it the host uses its own
    /// sandbox origin.
    pub fn domain(mut self, domain: impl Into<String>) -> Self {
        self.ui.domain = Some(domain.into());
        self
    }

    /// Whether the view would like a visible border and background (`_meta.ui.prefersBorder`);
    /// the host decides when it is not said, and hosts' defaults differ.
    pub fn prefers_border(mut self, prefers_border: bool) -> Self {
        self.ui.prefers_border = Some(prefers_border);
        self
    }

    /// How long a client may reuse a read of the view (2026-07-28 `ttlMs`, with `cacheScope`
    /// `public`: the document is the same for every caller); five minutes unless set. Zero
    /// while you edit a view read from disk.
    pub fn ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The document as served, with the view's settings checked: why not, naming the view,
    /// otherwise.
    pub(super) fn load(&self) -> Result<Document, String> {
        let uri = &self.uri;
        check_uri(uri).map_err(|why| format!("view '{uri}': {why}"))?;
        check_ui(&self.ui).map_err(|why| format!("view '{uri}': {why}"))?;
        let document = match &self.source {
            Source::Html(html) => Document::Text(html.clone()),
            Source::Bytes(bytes) => Document::Bytes(bytes.clone()),
            Source::File(path) => {
                let bytes = std::fs::read(path).map_err(|error| {
                    format!("view '{uri}': cannot read {}: {error}", path.display())
                })?;
                if bytes.is_empty() {
                    return Err(format!("view '{uri}': {} is empty", path.display()));
                }
                match String::from_utf8(bytes) {
                    Ok(text) => Document::Text(text),
                    Err(not_utf8) => Document::Bytes(not_utf8.into_bytes()),
                }
            }
        };
        if document.is_empty() {
            return Err(format!("view '{uri}': the document is empty"));
        }
        Ok(document)
    }
}

impl std::fmt::Debug for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let source = match &self.source {
            Source::Html(html) => format!("{} bytes of HTML", html.len()),
            Source::Bytes(bytes) => format!("{} bytes", bytes.len()),
            Source::File(path) => format!("file {}", path.display()),
        };
        f.debug_struct("View")
            .field("uri", &self.uri)
            .field("source", &source)
            .field("ui", &self.ui)
            .finish_non_exhaustive()
    }
}

/// A view's document, loaded.
pub(super) enum Document {
    Text(String),
    Bytes(Vec<u8>),
}

impl Document {
    fn is_empty(&self) -> bool {
        match self {
            Document::Text(text) => text.is_empty(),
            Document::Bytes(bytes) => bytes.is_empty(),
        }
    }
}

/// A view's URI: `ui://` and something after it, one document (no template variables), nothing
/// a URI never holds.
fn check_uri(uri: &str) -> Result<(), String> {
    let Some(rest) = uri.strip_prefix(SCHEME) else {
        return Err(format!(
            "a view's URI must start with {SCHEME} (MCP Apps hosts render only {SCHEME} views)"
        ));
    };
    if rest.is_empty() {
        return Err(format!("a view's URI needs a name after {SCHEME}"));
    }
    if uri.contains(['{', '}']) {
        return Err("a view is one document: its URI cannot be a template ('{', '}')".into());
    }
    if uri.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("a URI holds no spaces or control characters".into());
    }
    Ok(())
}

/// The settings a host turns into a policy: every CSP entry an origin (nothing that would end
/// the directive or add another), and a domain with no spaces.
fn check_ui(ui: &UiResourceMeta) -> Result<(), String> {
    let breaks_policy = |c: char| c.is_whitespace() || c.is_control() || ";,'\"".contains(c);
    for (field, entry) in ui.csp.iter().flat_map(Csp::entries) {
        if entry.is_empty() || entry.contains(breaks_policy) {
            return Err(format!(
                "csp.{field} entry {entry:?} is not an origin (like https://api.example.com or \
                 https://*.example.com)"
            ));
        }
    }
    if let Some(domain) = &ui.domain
        && (domain.is_empty() || domain.contains(breaks_policy))
    {
        return Err(format!("domain {domain:?} is not a host name"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_uri_is_one_ui_document() {
        assert!(check_uri("ui://shop/catalog.html").is_ok());
        assert!(
            check_uri("https://shop/catalog.html")
                .unwrap_err()
                .contains("ui://")
        );
        assert!(check_uri("ui://").unwrap_err().contains("a name"));
        assert!(
            check_uri("ui://shop/{page}")
                .unwrap_err()
                .contains("template")
        );
        assert!(
            check_uri("ui://shop/my view")
                .unwrap_err()
                .contains("spaces")
        );
    }

    #[test]
    fn csp_entries_cannot_break_the_policy() {
        let with = |entry: &str| UiResourceMeta {
            csp: Some(Csp {
                resource_domains: vec![entry.into()],
                ..Csp::default()
            }),
            ..UiResourceMeta::default()
        };
        assert!(check_ui(&with("https://*.example.com")).is_ok());
        let why = check_ui(&with("https://a.com; script-src *")).unwrap_err();
        assert!(why.contains("csp.resourceDomains"), "{why}");
        assert!(check_ui(&with("")).is_err());
    }
}
