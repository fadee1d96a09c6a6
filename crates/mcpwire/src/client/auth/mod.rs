//! OAuth 2.1 for the client (features `client` + `auth`): the client obtains, stores,
//! refreshes and steps up the bearer tokens an MCP server over HTTP asks for.
//!
//! Give the builder an [`OAuth`]: every HTTP request then carries the stored token, and a `401`
//! (or a `403` with `error="insufficient_scope"`) runs the flow and retries the request, at
//! most three times. This happens inside the transport, before the era is known, so it works
//! on both revisions (on 2026-07-28 `server/discover` itself needs a token).
//!
//! The flow, as the MCP authorization specification asks:
//!
//! 1. **Discovery**: the challenge's [`BearerChallenge`] gives the protected-resource
//!    metadata's URL, else the path-based then the root well-known URL
//!    ([`resource_metadata_urls`]). Its `resource` must cover the server's URL
//!    ([`resource_covers`]), else nothing is sent anywhere; it is kept verbatim and sent
//!    byte for byte. The first authorization server's metadata is looked for in the
//!    specification's order ([`server_metadata_urls`]) and its `issuer` must equal the issuer.
//! 2. **Registration**: pre-registered credentials, else a client ID metadata document (when
//!    the server supports them and [`OAuth::client_metadata_url`] is set), else dynamic
//!    registration as a `native` application with the `refresh_token` grant. Registrations are
//!    kept by issuer: a new authorization server gets a new registration.
//! 3. **Authorization**: PKCE S256, `state`, the `resource`; an [`Authorizer`] shows the page
//!    and returns the redirect; `state` and the RFC 9207 `iss` are checked
//!    ([`check_issuer_parameter`]); the code is exchanged, authenticating as registered
//!    (`client_secret_basic`, `client_secret_post` or none).
//! 4. **Scopes** ([`choose_scope`]): the challenge's, else the resource's `scopes_supported`,
//!    else none; `offline_access` when the authorization server lists it; on a step-up, the
//!    union with the scopes held.
//! 5. **Refresh**: a `401` with a refresh token from the same issuer refreshes first.
//!
//! A server of the 2025-03-26 revision, with no protected-resource metadata, is authorized by
//! its own origin: its authorization-server metadata there, else `/authorize`, `/token` and
//! `/register`.
//!
//! Machines use [`OAuth::client_credentials`] instead of an authorizer, with a secret or a
//! private key ([`ClientRegistration::private_key_jwt`]). Tokens and
//! registrations go through a [`TokenStore`]: [`MemoryStore`] (the default) or [`FileStore`].
//! Every response read from the servers is bounded (64 KiB).
//!
//! # Examples
//!
//! ```no_run
//! use mcpwire::client::Client;
//! use mcpwire::client::auth::{FileStore, HeadlessAuthorizer, OAuth};
//!
//! # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
//! let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost:3000/callback"))
//!     .client_name("my-app")
//!     .store(FileStore::new("credentials.json"));
//! let client = Client::builder().oauth(oauth).connect_http("http://127.0.0.1:8000/mcp").await?;
//! println!("{:?}", client.list_tools().await?);
//! # Ok(()) }
//! ```

mod assertion;
mod authorizer;
mod challenge;
mod discovery;
mod error;
mod fetch;
mod oauth;
mod pkce;
mod registration;
mod scope;
mod store;
mod tokens;

pub use authorizer::{AuthFuture, AuthorizationResponse, Authorizer, HeadlessAuthorizer};
pub use challenge::BearerChallenge;
pub use discovery::{
    ResourceMetadata, ServerMetadata, resource_covers, resource_metadata_urls, secure_endpoint,
    server_metadata_urls,
};
pub use error::AuthError;
pub use oauth::{OAuth, check_issuer_parameter};
pub use registration::{ClientRegistration, TokenAuthMethod};
pub use scope::choose_scope;
pub use store::{Credentials, FileStore, MemoryStore, TokenStore};
pub use tokens::Tokens;

use super::builder::ClientBuilder;

impl ClientBuilder {
    /// Obtains OAuth tokens for HTTP servers that ask for them (see [`auth`](self)).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::Client;
    /// use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    ///
    /// let builder = Client::builder().oauth(OAuth::new(HeadlessAuthorizer::new("http://localhost:3000/callback")));
    /// # drop(builder);
    /// ```
    pub fn oauth(mut self, oauth: OAuth) -> Self {
        self.oauth = Some(oauth);
        self
    }
}
