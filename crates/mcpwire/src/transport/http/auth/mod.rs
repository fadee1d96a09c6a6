//! Authorization for the Streamable HTTP server (features `auth` and `http`): the server as an
//! OAuth 2.1 protected resource.
//!
//! - [`TokenVerifier`] checks a bearer token and names its holder ([`VerifiedToken`]);
//!   [`JwtVerifier`] is the built-in one: signed JWTs whose keys come from a JWKS file or URL
//!   ([`JwksSource`]), fetched when first needed, cached by `kid` and fetched again when a token
//!   names a key it has not seen (key rotation). It checks the issuer, the audience (this
//!   server's resource URL, RFC 8707), `exp` and `nbf` with a small leeway, and allows only
//!   asymmetric algorithms (never `none`, never HMAC: a public key must not become a secret).
//! - [`IntrospectionVerifier`] asks the authorization server about opaque tokens (RFC 7662).
//! - [`ProtectedResource`] is the RFC 9728 metadata, served at the path-based and the root
//!   `/.well-known/oauth-protected-resource` locations (open CORS).
//! - [`Authorization`] puts both in front of the MCP endpoint
//!   ([`HttpServer::authorization`](crate::transport::http::HttpServer::authorization)). Every
//!   request is authenticated on its own (2026-07-28 has no sessions): no or a bad token gets
//!   `401` with `WWW-Authenticate: Bearer resource_metadata="…"` (and `error="invalid_token"`
//!   when a token was presented); a token without the endpoint's required scopes gets `403`
//!   `error="insufficient_scope"` naming all of them. The verified subject becomes the request's
//!   [`Principal`](crate::context::Principal) and its issuer the [`Issuer`](crate::context::Issuer),
//!   so 2026-07-28 `requestState`, 2025-11-25 sessions and tasks are bound to both: another
//!   subject, or the same subject from another issuer, cannot resume a call or use a session.
//!
//! The scopes of a tool, prompt or resource (`scopes = [...]`) are not checked here: the
//! dispatcher checks the request's [`Grant`](crate::context::Grant) where it looks the handler
//! up, from the parsed request, and the transport answers its refusal with the same `403`
//! challenge. The guard never reads the body. See [the authorization
//! guide](crate::guide::authorization).
//!
//! # Example
//!
//! ```no_run
//! use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
//! use mcpwire::prelude::*;
//!
//! # #[tokio::main] async fn main() -> mcpwire::Result<()> {
//! let resource = "https://books.example.com/mcp";
//! let issuer = "https://auth.example.com";
//! let verifier = JwtVerifier::new(
//!     issuer,
//!     resource,
//!     JwksSource::parse("https://auth.example.com/.well-known/jwks.json"),
//! );
//! let metadata = ProtectedResource::new(resource, issuer).scopes_supported(["books:read"]);
//! McpServer::new("books")
//!     .http()
//!     .authorization(Authorization::new(verifier, metadata).required_scopes(["books:read"]))
//!     .serve("0.0.0.0:8000")
//!     .await
//! # }
//! ```

mod admissions;
mod gate;
mod guard;
mod introspection;
mod jwks;
mod jwt;
mod protect;
mod resource;
mod token_cache;
mod verified;
mod verifier;

// Capped reads of the authorization server's answers (keys, introspection).
mod body;

pub(crate) use gate::{Gate, GateLayer};
pub use guard::Authorization;
pub use introspection::IntrospectionVerifier;
/// The JWT signature algorithms ([`JwtVerifier::algorithms`]), from `jsonwebtoken`.
pub use jsonwebtoken::Algorithm;
pub use jwks::JwksSource;
pub use jwt::JwtVerifier;
pub(crate) use protect::protect;
pub use resource::ProtectedResource;
pub use verified::VerifiedToken;
pub use verifier::{TokenError, TokenVerifier};
