//! `Grant`: what the caller's verified access token allows.

use serde_json::{Map, Value};
use std::sync::Arc;

/// What the caller's access token grants: its scopes and claims.
///
/// `mcpwire::auth` (features `auth` + `http`) makes one from each verified token (what it decided
/// travels with the request, not as a separate extension); your own middleware may insert one
/// into the HTTP request's extensions, beside the [`Principal`](super::Principal), and
/// [`McpServer::local_grant`](crate::McpServer::local_grant) sets one for stdio and in-memory
/// connections. The SDK then shows the caller only the tools, prompts and resources it
/// may use (their `scopes = […]`), refuses every other call, read, subscription or completion
/// at dispatch, from the parsed request (`403 insufficient_scope` on HTTP, JSON-RPC error
/// `-32003` elsewhere), and hands the grant to handlers as [`Context::grant`](crate::Context::grant).
/// Without a grant nothing is checked: scopes are an OAuth matter.
///
/// ```
/// use mcpwire::context::Grant;
///
/// let grant = Grant::new(["books:read", "orders:write"]);
/// assert!(grant.has_scope("orders:write"));
/// assert!(grant.allows(&["books:read", "orders:write"]));
/// assert!(!grant.allows(&["admin"]));
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct Grant {
    /// The scopes the token grants.
    pub scopes: Vec<String>,
    /// Every claim of the token (empty when the verifier reports none); shared with the
    /// token's [`VerifiedToken::claims`](crate::auth::VerifiedToken) rather than copied per
    /// request (read it as a map: `grant.claims["tenant"]`, `grant.claims.get("tenant")`).
    pub claims: Arc<Map<String, Value>>,
    /// Where this server's protected-resource metadata is (for the `403` challenge).
    pub(crate) metadata_url: Option<Arc<str>>,
    /// The scopes every request of the endpoint needs (named again in a `403` challenge, which
    /// lists every scope the refused request needs).
    pub(crate) endpoint_scopes: Arc<[String]>,
}

impl Grant {
    /// A grant of `scopes`, with no claims.
    pub fn new<I, S>(scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        Self {
            scopes: scopes.into_iter().map(Into::into).collect(),
            ..Self::default()
        }
    }

    /// The same grant, with `claims`.
    ///
    /// ```
    /// let grant = mcpwire::context::Grant::new(["a"])
    ///     .with_claims(serde_json::json!({"tenant": "t1"}).as_object().unwrap().clone());
    /// assert_eq!(grant.claims["tenant"], "t1");
    /// ```
    pub fn with_claims(mut self, claims: Map<String, Value>) -> Self {
        self.claims = Arc::new(claims);
        self
    }

    /// Whether the grant includes `scope`.
    ///
    /// ```
    /// assert!(mcpwire::context::Grant::new(["a"]).has_scope("a"));
    /// ```
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }

    /// Whether the grant includes every one of `needed`.
    ///
    /// ```
    /// assert!(mcpwire::context::Grant::new(["a", "b"]).allows(&["b"]));
    /// ```
    pub fn allows(&self, needed: &[&str]) -> bool {
        needed.iter().all(|scope| self.has_scope(scope))
    }
}
