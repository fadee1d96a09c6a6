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
//!    metadata's URL, else the path-based then the root well-known URL. Its `resource` must
//!    cover the server's URL (same origin, and the server's path or a parent of it), else
//!    nothing is sent anywhere; it is kept verbatim and sent byte for byte. The first
//!    authorization server's metadata is looked for in the specification's order (RFC 8414's
//!    path-inserted URL, then OpenID Connect's) and its `issuer` must equal the issuer.
//! 2. **Registration**: pre-registered credentials (for their issuer only), else a client ID
//!    metadata document (when the server supports them and [`OAuth::client_metadata_url`] is
//!    set), else dynamic registration as a `native` application with the `refresh_token`
//!    grant. Registrations are kept by issuer: a new authorization server gets a new
//!    registration.
//! 3. **Authorization**: PKCE S256, `state`, the `resource`; an [`Authorizer`] shows the page
//!    and returns the redirect; `state` and the RFC 9207 `iss` are checked (when present it
//!    must equal the issuer exactly; when advertised, it must be present); the code is exchanged, authenticating as registered
//!    (`client_secret_basic`, `client_secret_post` or none).
//! 4. **Scopes**: the challenge's, else the resource's `scopes_supported`,
//!    else none; `offline_access` when the authorization server lists it; on a step-up, the
//!    union with the scopes held.
//! 5. **Refresh**: a `401` with a refresh token from the same issuer refreshes first, with the
//!    client registered when the tokens were obtained.
//!
//! A server of the 2025-03-26 revision, with no protected-resource metadata, is authorized by
//! its own origin: its authorization-server metadata there, else `/authorize`, `/token` and
//! `/register`.
//!
//! # What the client refuses
//!
//! Each check is made on the parsed value, before anything depends on it; a refusal is an
//! [`AuthError`] naming what was refused, and nothing more is sent.
//!
//! - **Protected-resource metadata without `resource`**, or whose `resource` does not cover
//!   the server's URL (RFC 9728 §3.3): [`AuthError::NoResource`],
//!   [`AuthError::ResourceMismatch`]. No authorization server is contacted.
//! - **A `resource_metadata` URL on another origin** than the server's:
//!   [`AuthError::ForeignResourceMetadata`]; it is not fetched.
//! - **Authorization-server metadata for another issuer** (RFC 8414 §3.3), or without PKCE
//!   S256: [`AuthError::IssuerMismatch`], [`AuthError::PkceUnsupported`].
//! - **Endpoints that are not `https`** (plain `http` is accepted on loopback addresses only,
//!   [`secure_endpoint`]): [`AuthError::InsecureEndpoint`], before the [`Authorizer`] (a
//!   browser) is given the authorization URL and before a registration or token request. An
//!   issuer that is not `https` (off loopback) is refused the same way before its metadata is
//!   fetched.
//! - **Secrets for another issuer**: pre-registered and client-credentials secrets go only to
//!   the authorization server they are for ([`ClientRegistration::issuer`]); a resource that
//!   points to another gets [`AuthError::OtherIssuer`], naming both, and credentials without
//!   an issuer are sent to none ([`AuthError::NoIssuer`]; [`OAuth::discover_issuer`] learns
//!   the issuer of a server you trust).
//! - **A redirect with another `state`** (checked first: a forged redirect's `error` is not
//!   taken for the server's), or an `iss` other than the issuer (RFC 9207):
//!   [`AuthError::StateMismatch`], [`AuthError::IssuerParameter`]; the code is not exchanged.
//! - **A new login where only refreshes are allowed** ([`OAuth::refresh_only`], a CLI's
//!   commands): [`AuthError::LoginRequired`], before any discovery, registration or write to
//!   the store.
//!
//! A refresh uses the client that obtained the tokens (no new registration), and a stored
//! registration is reused for a loopback redirect URI on another port (RFC 8252 §7.3).
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
pub use discovery::{ResourceMetadata, ServerMetadata, secure_endpoint};
pub use error::AuthError;
pub use oauth::OAuth;
pub use registration::{ClientRegistration, TokenAuthMethod};
pub use store::{Credentials, FileStore, MemoryStore, TokenStore};
pub use tokens::Tokens;
