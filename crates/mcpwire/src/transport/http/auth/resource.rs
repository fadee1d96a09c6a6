//! `ProtectedResource`: this server's RFC 9728 metadata, and where it is published.

use serde_json::{Value, json};

/// The well-known path of protected-resource metadata (RFC 9728).
const WELL_KNOWN: &str = "/.well-known/oauth-protected-resource";

/// This server as an OAuth protected resource: its canonical URL, the authorization servers
/// that issue tokens for it, and the scopes it knows (RFC 9728).
///
/// It is published at the path-based location (`/.well-known/oauth-protected-resource/mcp` for
/// `https://host/mcp`) and at the root one, and named in every `401`'s `resource_metadata`.
///
/// ```
/// use mcpwire::auth::ProtectedResource;
///
/// let resource = ProtectedResource::new("https://Books.Example.com/mcp/", "https://auth.example.com")
///     .scopes_supported(["books:read", "orders:write"])
///     .resource_name("The bookshop");
/// assert_eq!(resource.resource(), "https://books.example.com/mcp");
/// assert_eq!(
///     resource.metadata_url(),
///     "https://books.example.com/.well-known/oauth-protected-resource/mcp"
/// );
/// assert_eq!(resource.metadata()["scopes_supported"][1], "orders:write");
/// ```
#[derive(Clone, Debug)]
pub struct ProtectedResource {
    origin: String,
    path: String,
    authorization_servers: Vec<String>,
    scopes_supported: Vec<String>,
    resource_name: Option<String>,
    resource_documentation: Option<String>,
}

impl ProtectedResource {
    /// The resource at `resource_url` (the URL clients use for the MCP endpoint), whose tokens
    /// `authorization_server` (an issuer URL) issues. The URL is made canonical: lowercase
    /// scheme and host, no fragment or query, no trailing slash.
    pub fn new(resource_url: &str, authorization_server: impl Into<String>) -> Self {
        let (origin, path) = canonical(resource_url);
        Self {
            origin,
            path,
            authorization_servers: vec![authorization_server.into()],
            scopes_supported: Vec::new(),
            resource_name: None,
            resource_documentation: None,
        }
    }

    /// Another authorization server that issues tokens for this resource.
    ///
    /// ```
    /// # use mcpwire::auth::ProtectedResource;
    /// let r = ProtectedResource::new("https://h/mcp", "https://a1").authorization_server("https://a2");
    /// assert_eq!(r.metadata()["authorization_servers"][1], "https://a2");
    /// ```
    pub fn authorization_server(mut self, issuer: impl Into<String>) -> Self {
        self.authorization_servers.push(issuer.into());
        self
    }

    /// The scopes this resource knows (`scopes_supported`). `offline_access` is left out: it is
    /// the authorization server's business (SEP-2207).
    ///
    /// ```
    /// # use mcpwire::auth::ProtectedResource;
    /// let r = ProtectedResource::new("https://h/mcp", "https://a").scopes_supported(["read", "offline_access"]);
    /// assert_eq!(r.metadata()["scopes_supported"], serde_json::json!(["read"]));
    /// ```
    pub fn scopes_supported<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes_supported = scopes
            .into_iter()
            .map(Into::into)
            .filter(|scope| scope != "offline_access")
            .collect();
        self
    }

    /// A name for people (`resource_name`).
    ///
    /// ```
    /// # use mcpwire::auth::ProtectedResource;
    /// let r = ProtectedResource::new("https://h/mcp", "https://a").resource_name("Books");
    /// assert_eq!(r.metadata()["resource_name"], "Books");
    /// ```
    pub fn resource_name(mut self, name: impl Into<String>) -> Self {
        self.resource_name = Some(name.into());
        self
    }

    /// A page documenting the resource (`resource_documentation`).
    ///
    /// ```
    /// # use mcpwire::auth::ProtectedResource;
    /// let r = ProtectedResource::new("https://h/mcp", "https://a").resource_documentation("https://h/docs");
    /// assert_eq!(r.metadata()["resource_documentation"], "https://h/docs");
    /// ```
    pub fn resource_documentation(mut self, url: impl Into<String>) -> Self {
        self.resource_documentation = Some(url.into());
        self
    }

    /// The same resource, also listing `scopes` (each once, `offline_access` left out).
    pub(super) fn including_scopes<'a>(mut self, scopes: impl Iterator<Item = &'a str>) -> Self {
        for scope in scopes {
            if scope != "offline_access" && !self.scopes_supported.iter().any(|s| s == scope) {
                self.scopes_supported.push(scope.to_owned());
            }
        }
        self
    }

    /// The canonical resource URL (what tokens' `aud` must name).
    pub fn resource(&self) -> String {
        format!("{}{}", self.origin, self.path)
    }

    /// Where the metadata is published, path-based (the URL `401`s name).
    pub fn metadata_url(&self) -> String {
        format!("{}{}", self.origin, self.metadata_path())
    }

    /// The metadata document.
    pub fn metadata(&self) -> Value {
        let mut metadata = json!({
            "resource": self.resource(),
            "authorization_servers": self.authorization_servers,
            "bearer_methods_supported": ["header"],
        });
        if !self.scopes_supported.is_empty() {
            metadata["scopes_supported"] = json!(self.scopes_supported);
        }
        if let Some(name) = &self.resource_name {
            metadata["resource_name"] = json!(name);
        }
        if let Some(docs) = &self.resource_documentation {
            metadata["resource_documentation"] = json!(docs);
        }
        metadata
    }

    /// The path-based well-known path.
    pub(super) fn metadata_path(&self) -> String {
        match self.path.as_str() {
            "" | "/" => WELL_KNOWN.to_owned(),
            path => format!("{WELL_KNOWN}{path}"),
        }
    }

    /// The root well-known path.
    pub(super) fn root_metadata_path() -> &'static str {
        WELL_KNOWN
    }
}

/// `scheme://host[:port]` in lowercase, and the path without a trailing slash, fragment or query.
fn canonical(url: &str) -> (String, String) {
    let url = url.split(['#', '?']).next().unwrap_or_default();
    let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
    let (authority, path) = match rest.find('/') {
        Some(at) => rest.split_at(at),
        None => (rest, ""),
    };
    let path = path.trim_end_matches('/');
    (
        format!(
            "{}://{}",
            scheme.to_ascii_lowercase(),
            authority.to_ascii_lowercase()
        ),
        path.to_owned(),
    )
}
