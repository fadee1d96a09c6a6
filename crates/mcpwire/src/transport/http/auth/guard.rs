//! The guard in front of the MCP endpoint: `Authorization`, the verifier, the metadata and the
//! scopes every request needs (the gate that applies them is `gate.rs`, the routes `protect.rs`).

use super::{ProtectedResource, TokenVerifier};

/// How the HTTP endpoint is protected: who verifies tokens, what the metadata says, and the
/// scopes every request needs.
///
/// Give it to [`HttpServer::authorization`](crate::transport::http::HttpServer::authorization).
///
/// ```
/// use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
///
/// let resource = ProtectedResource::new("https://books.example.com/mcp", "https://auth.example.com");
/// let verifier = JwtVerifier::new(
///     "https://auth.example.com",
///     resource.resource(),
///     JwksSource::parse("jwks.json"),
/// );
/// let authorization = Authorization::new(verifier, resource).required_scopes(["mcp"]);
/// # drop(authorization);
/// ```
pub struct Authorization {
    pub(super) verifier: Box<dyn TokenVerifier>,
    pub(super) resource: ProtectedResource,
    pub(super) required_scopes: Vec<String>,
}

impl Authorization {
    /// Tokens checked by `verifier`, `resource` published as this server's metadata.
    pub fn new(verifier: impl TokenVerifier, resource: ProtectedResource) -> Self {
        Self {
            verifier: Box::new(verifier),
            resource,
            required_scopes: Vec::new(),
        }
    }

    /// JWTs issued by `issuer` for this server at `resource_url` (their `aud`), signed with a key
    /// of the JSON Web Key Set at `jwks` (a file path, or an `http(s)://` URL:
    /// [`JwksSource::parse`](super::JwksSource::parse)), with `issuer` published as the
    /// authorization server in the metadata. What the examples' and `mcpwire-cli gateway`'s
    /// `--auth-issuer ISS --auth-audience URL --auth-jwks PATH_OR_URL` set up; build the parts
    /// yourself ([`Authorization::new`]) to tune them.
    ///
    /// ```
    /// use mcpwire::auth::Authorization;
    ///
    /// let authorization = Authorization::jwt(
    ///     "https://auth.example.com",
    ///     "https://books.example.com/mcp",
    ///     "https://auth.example.com/jwks.json",
    /// );
    /// let http = mcpwire::McpServer::new("books").http().authorization(authorization);
    /// # drop(http);
    /// ```
    pub fn jwt(issuer: &str, resource_url: &str, jwks: &str) -> Self {
        let resource = super::ProtectedResource::new(resource_url, issuer);
        let verifier =
            super::JwtVerifier::new(issuer, resource.resource(), super::JwksSource::parse(jwks));
        Self::new(verifier, resource)
    }

    /// Scopes every request needs; a valid token without all of them gets `403
    /// insufficient_scope` naming all of them, and a `401` challenge names them as `scope`.
    ///
    /// ```
    /// # use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
    /// # let resource = ProtectedResource::new("https://h/mcp", "https://a");
    /// # let verifier = JwtVerifier::new("https://a", "https://h/mcp", JwksSource::parse("k.json"));
    /// let authorization = Authorization::new(verifier, resource).required_scopes(["mcp:read"]);
    /// # drop(authorization);
    /// ```
    pub fn required_scopes<I, S>(mut self, scopes: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: Into<String>,
    {
        self.required_scopes = scopes.into_iter().map(Into::into).collect();
        self
    }
}
