//! `TokenVerifier`: the one question authorization asks, "whose token is this?".

use super::VerifiedToken;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// Why a token was not accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TokenError {
    /// The token is not valid for this server: malformed, badly signed, expired, not yet valid,
    /// from another issuer or for another audience. The caller gets `401 invalid_token`; the
    /// reason goes to the server's log only.
    #[error("invalid token: {0}")]
    Invalid(String),
    /// The verifier could not decide (its keys could not be fetched). The caller gets `503`.
    #[error("token verification unavailable: {0}")]
    Unavailable(String),
}

/// Checks a bearer token and names its holder.
///
/// [`JwtVerifier`](super::JwtVerifier) is the built-in one; implement this for opaque tokens
/// (RFC 7662 introspection) or anything else. A verifier must check that the token was issued
/// for this server (its audience), not only that it is well signed.
///
/// ```
/// use mcpwire::auth::{TokenError, TokenVerifier, VerifiedToken};
/// use std::future::Future;
/// use std::pin::Pin;
///
/// /// Fixed tokens, for development only.
/// struct DevTokens;
///
/// impl TokenVerifier for DevTokens {
///     fn verify<'a>(
///         &'a self,
///         token: &'a str,
///     ) -> Pin<Box<dyn Future<Output = Result<VerifiedToken, TokenError>> + Send + 'a>> {
///         Box::pin(async move {
///             match token {
///                 "dev-alice" => Ok(VerifiedToken::new("dev", "alice")),
///                 _ => Err(TokenError::Invalid("unknown development token".into())),
///             }
///         })
///     }
/// }
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a token verifier",
    note = "implement `mcpwire::auth::TokenVerifier`, or use `mcpwire::auth::JwtVerifier`"
)]
pub trait TokenVerifier: Send + Sync + 'static {
    /// Checks `token` (the bearer token, without the `Bearer ` prefix).
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<VerifiedToken, TokenError>> + Send + 'a>>;

    /// The same check, its answer shared: what the HTTP guard calls. A verifier that keeps the
    /// tokens it verified ([`JwtVerifier`](super::JwtVerifier),
    /// [`IntrospectionVerifier`](super::IntrospectionVerifier)) hands out the one it keeps, and a
    /// request with a token verified before copies nothing. The default wraps
    /// [`verify`](Self::verify)'s answer.
    ///
    /// ```
    /// use mcpwire::auth::{TokenError, TokenVerifier, VerifiedToken};
    /// use std::future::Future;
    /// use std::pin::Pin;
    ///
    /// struct Anyone;
    ///
    /// impl TokenVerifier for Anyone {
    ///     fn verify<'a>(
    ///         &'a self,
    ///         token: &'a str,
    ///     ) -> Pin<Box<dyn Future<Output = Result<VerifiedToken, TokenError>> + Send + 'a>> {
    ///         Box::pin(async move { Ok(VerifiedToken::new("dev", token)) })
    ///     }
    /// }
    ///
    /// # tokio::runtime::Builder::new_current_thread().build().unwrap().block_on(async {
    /// let shared = Anyone.verify_shared("ada").await.unwrap();
    /// assert_eq!(shared.subject, "ada");
    /// # });
    /// ```
    fn verify_shared<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Arc<VerifiedToken>, TokenError>> + Send + 'a>> {
        Box::pin(async move { self.verify(token).await.map(Arc::new) })
    }
}
