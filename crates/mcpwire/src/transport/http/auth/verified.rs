//! `VerifiedToken`: what a verifier learned from a valid token.

use serde_json::{Map, Value};
use std::sync::Arc;

/// The holder of a valid access token, as its verifier established it.
///
/// The HTTP guard ([`Authorization`](super::Authorization)) makes the request's caller of it: its
/// `subject` and `issuer` are what [`Context::principal`](crate::Context::principal) reports (and
/// what sessions, `requestState` and tasks are bound to), its scopes and claims the
/// [`Grant`](crate::context::Grant). What the guard decided is made once per token its verifier
/// keeps ([`TokenVerifier::verify_shared`](super::TokenVerifier::verify_shared)) and shared by
/// every request with that token.
///
/// ```
/// use mcpwire::auth::VerifiedToken;
///
/// let token = VerifiedToken::new("https://auth.example.com", "alice")
///     .with_scopes(["books:read", "orders:write"]);
/// assert!(token.has_scope("orders:write"));
/// assert!(!token.has_scope("admin"));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct VerifiedToken {
    /// Who issued the token (`iss`).
    pub issuer: String,
    /// Whom it was issued to (`sub`).
    pub subject: String,
    /// The OAuth client it was issued through (`client_id`, else `azp`), when it says.
    pub client_id: Option<String>,
    /// The scopes it grants (`scope`, space-separated, or `scp`).
    pub scopes: Vec<String>,
    /// When it expires (`exp`, seconds since the Unix epoch).
    pub expires_at: Option<u64>,
    /// Every claim it carries (shared: a verified token served from the verifier's cache, and
    /// the [`Grant`](crate::context::Grant) made from it, hold the same map).
    pub claims: Arc<Map<String, Value>>,
}

impl VerifiedToken {
    /// A token of `subject` from `issuer`, with no scopes and no other claims (for verifiers of
    /// your own, and tests).
    pub fn new(issuer: impl Into<String>, subject: impl Into<String>) -> Self {
        Self {
            issuer: issuer.into(),
            subject: subject.into(),
            client_id: None,
            scopes: Vec::new(),
            expires_at: None,
            claims: Arc::default(),
        }
    }

    /// The same token, granting `scopes`.
    ///
    /// ```
    /// let token = mcpwire::auth::VerifiedToken::new("iss", "bob").with_scopes(["a", "b"]);
    /// assert_eq!(token.scopes, ["a", "b"]);
    /// ```
    pub fn with_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.scopes = scopes.into_iter().map(Into::into).collect();
        self
    }

    /// Whether the token grants `scope`.
    ///
    /// ```
    /// let token = mcpwire::auth::VerifiedToken::new("iss", "bob").with_scopes(["a"]);
    /// assert!(token.has_scope("a"));
    /// ```
    pub fn has_scope(&self, scope: &str) -> bool {
        self.scopes.iter().any(|granted| granted == scope)
    }
}
