//! What can go wrong while authorizing.

/// Why the client could not obtain (or use) an access token.
///
/// Messages name the URL or the field at fault, never a token or a secret.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::AuthError;
///
/// let error = AuthError::TooManyAttempts(3);
/// assert_eq!(error.to_string(), "still not authorized after 3 attempts");
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AuthError {
    /// An HTTP request failed (connection, timeout, a body larger than allowed).
    #[error("cannot fetch {url}: {detail}")]
    Fetch {
        /// The URL requested.
        url: String,
        /// What went wrong.
        detail: String,
    },
    /// A document or a response did not have the expected shape.
    #[error("{what} is malformed: {detail}")]
    Malformed {
        /// What was being read (`protected-resource metadata`, `token response`, …).
        what: &'static str,
        /// Why.
        detail: String,
    },
    /// No protected-resource metadata was found at any of the places looked at.
    #[error("no protected-resource metadata for {0}")]
    NoResourceMetadata(String),
    /// The protected-resource metadata names another resource than the server connected to
    /// (RFC 9728 §3.3): nothing was sent to any authorization server.
    #[error("the protected-resource metadata is for {published}, not for {server}")]
    ResourceMismatch {
        /// The `resource` the metadata published.
        published: String,
        /// The server's URL.
        server: String,
    },
    /// The protected-resource metadata has no `resource` (RFC 9728 §3.3 asks the client to
    /// refuse it): nothing was sent to any authorization server.
    #[error("the protected-resource metadata at {0} names no resource")]
    NoResource(String),
    /// The server's challenge names a `resource_metadata` URL on another origin than the
    /// server itself: it was not fetched.
    #[error(
        "the resource_metadata URL {url} is on another origin than the server {server}: not fetched"
    )]
    ForeignResourceMetadata {
        /// The URL the challenge named.
        url: String,
        /// The server's URL.
        server: String,
    },
    /// Pre-registered or client-credentials secrets are configured for one authorization
    /// server, and the resource points to another: nothing was sent to it.
    #[error(
        "the client credentials are for the authorization server {configured}, but the resource points to {found}: not sent"
    )]
    OtherIssuer {
        /// The issuer the credentials are for.
        configured: String,
        /// The issuer the resource points to.
        found: String,
    },
    /// Pre-registered or client-credentials secrets name no authorization server
    /// ([`ClientRegistration::issuer`]): they are sent to none, and the resource's was not
    /// sent them.
    ///
    /// [`ClientRegistration::issuer`]: super::ClientRegistration::issuer
    #[error(
        "the client credentials name no authorization server (ClientRegistration::issuer): not sent to {found}"
    )]
    NoIssuer {
        /// The issuer the resource points to.
        found: String,
    },
    /// An authorization-server endpoint, or its issuer, is neither `https` nor `http` on a
    /// loopback address: no browser was shown it and nothing was sent to it (for the issuer:
    /// its metadata was not fetched).
    #[error(
        "the authorization server's {endpoint} {url} is not https (plain http is for loopback addresses only)"
    )]
    InsecureEndpoint {
        /// Which endpoint (`issuer`, `authorization_endpoint`, `token_endpoint`, …).
        endpoint: &'static str,
        /// Its URL.
        url: String,
    },
    /// The client only uses and refreshes stored tokens ([`OAuth::refresh_only`]) and has none
    /// usable for this server: no discovery, registration or authorization was attempted.
    ///
    /// [`OAuth::refresh_only`]: super::OAuth::refresh_only
    #[error("not logged in to {0}, or the login expired")]
    LoginRequired(String),
    /// The protected-resource metadata lists no authorization server.
    #[error("the protected-resource metadata lists no authorization server")]
    NoAuthorizationServer,
    /// No authorization-server metadata was found for the issuer.
    #[error("no authorization-server metadata for {0}")]
    NoServerMetadata(String),
    /// The authorization-server metadata names another issuer than the one it was fetched for
    /// (RFC 8414 §3.3): it was not used.
    #[error("the metadata at {url} is for issuer {found}, not {expected}")]
    IssuerMismatch {
        /// Where the metadata came from.
        url: String,
        /// The issuer it was fetched for.
        expected: String,
        /// The issuer it names.
        found: String,
    },
    /// The authorization server does not offer PKCE with S256.
    #[error("the authorization server {0} does not support PKCE with S256")]
    PkceUnsupported(String),
    /// No way to obtain a client id: not pre-registered, no client metadata document
    /// supported, no registration endpoint.
    #[error("cannot register a client with {0}")]
    CannotRegister(String),
    /// The authorization server refused a request (`error` from RFC 6749 §5.2, or an HTTP
    /// status).
    #[error("{endpoint} refused: {error}{}", description_suffix(.description))]
    Refused {
        /// Which endpoint (`registration`, `token`, `authorization`).
        endpoint: &'static str,
        /// The OAuth error code, or the HTTP status.
        error: String,
        /// The server's `error_description`, if any.
        description: Option<String>,
    },
    /// The authorization response's `state` is not the one sent: a forged redirect, refused
    /// whatever else it carries (an `error` in it is not reported as the server's).
    #[error("the authorization response carries another state than the request")]
    StateMismatch,
    /// The authorization response's `iss` is missing (when the server advertises it) or is not
    /// exactly the issuer (RFC 9207).
    #[error("the authorization response's iss is {}, expected {expected}", found.as_deref().unwrap_or("missing"))]
    IssuerParameter {
        /// The issuer the request went to.
        expected: String,
        /// The `iss` received.
        found: Option<String>,
    },
    /// The server answered `403` for another reason than missing scopes.
    #[error("the server refused access: {0}")]
    Forbidden(String),
    /// The server kept refusing the tokens obtained.
    #[error("still not authorized after {0} attempts")]
    TooManyAttempts(u32),
    /// The step that shows the user the authorization page failed.
    #[error("the user-facing authorization step failed: {0}")]
    Authorizer(String),
    /// No user-facing step is configured for the authorization-code flow.
    #[error("the authorization-code flow needs an Authorizer")]
    NoAuthorizer,
    /// The token store failed.
    #[error("the token store failed: {0}")]
    Storage(String),
    /// jsonwebtoken has no usable crypto backend to sign a client assertion with (another
    /// provider was fixed before; the message says what to install).
    #[error("cannot sign the client assertion: {0}")]
    CryptoBackend(String),
}

fn description_suffix(description: &Option<String>) -> String {
    match description {
        Some(text) if !text.is_empty() => format!(" ({text})"),
        _ => String::new(),
    }
}
