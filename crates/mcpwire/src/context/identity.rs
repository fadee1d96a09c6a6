//! `Identity`: who a request's caller is, as handlers and layers see it: the subject, and the
//! issuer that vouched for it.

use std::sync::Arc;

/// The authenticated caller of a request: its subject (the [`Principal`](super::Principal) your
/// authentication set, a token's `sub`) and, when known, the issuer that vouched for it (the
/// [`Issuer`](super::Issuer), a token's `iss`).
///
/// Two authorization servers may issue the same subject: compare, hash or key your own data on
/// the whole `Identity` (it is `Eq` and `Hash` over both), never on the subject alone. Returned
/// by [`Context::principal`](crate::Context::principal) and
/// [`McpRequest::principal`](crate::layer::McpRequest::principal). Its `Display` shows both
/// (`subject (issuer)`), for logs.
///
/// # Examples
///
/// ```
/// use mcpwire::context::Identity;
///
/// let alice = Identity::new("alice").with_issuer("https://auth.example.com");
/// assert_eq!(alice.subject(), "alice");
/// assert_eq!(alice.issuer(), Some("https://auth.example.com"));
/// assert_ne!(alice, Identity::new("alice").with_issuer("https://other.example.com"));
/// assert_eq!(alice.to_string(), "alice (https://auth.example.com)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Identity {
    subject: Arc<str>,
    issuer: Option<Arc<str>>,
}

impl Identity {
    /// A caller known by its subject alone (no issuer: your own authentication, a test).
    ///
    /// # Examples
    ///
    /// ```
    /// let who = mcpwire::context::Identity::new("ada");
    /// assert_eq!((who.subject(), who.issuer()), ("ada", None));
    /// ```
    pub fn new(subject: impl Into<Arc<str>>) -> Self {
        Identity {
            subject: subject.into(),
            issuer: None,
        }
    }

    /// The same subject, vouched for by `issuer`.
    ///
    /// # Examples
    ///
    /// ```
    /// let who = mcpwire::context::Identity::new("ada").with_issuer("https://auth.example.com");
    /// assert_eq!(who.issuer(), Some("https://auth.example.com"));
    /// ```
    pub fn with_issuer(mut self, issuer: impl Into<Arc<str>>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The subject, in the issuer's terms (a user id, a client id).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(mcpwire::context::Identity::new("ada").subject(), "ada");
    /// ```
    pub fn subject(&self) -> &str {
        &self.subject
    }

    /// The issuer that vouched for the subject, when known (always with `mcpwire::auth`).
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(mcpwire::context::Identity::new("ada").issuer(), None);
    /// ```
    pub fn issuer(&self) -> Option<&str> {
        self.issuer.as_deref()
    }
}

impl std::fmt::Display for Identity {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.issuer {
            Some(issuer) => write!(f, "{} ({issuer})", self.subject),
            None => f.write_str(&self.subject),
        }
    }
}
