//! `Principal`: who the transport authenticated, if anyone.

/// The authenticated caller of a request, as your authentication established it.
///
/// On HTTP, authentication is your middleware's job: insert a `Principal` into the request's
/// extensions and the SDK makes it available as [`Context::principal`](crate::Context::principal)
/// and binds every 2026-07-28 `requestState` to it, so a state minted for one caller is refused
/// for another.
///
/// ```
/// use mcpwire::context::Principal;
///
/// async fn authenticate(
///     mut request: axum::extract::Request,
///     next: axum::middleware::Next,
/// ) -> axum::response::Response {
///     // A real server validates a token here.
///     if let Some(user) = request.headers().get("x-user").and_then(|v| v.to_str().ok()) {
///         let principal = Principal(user.to_owned());
///         request.extensions_mut().insert(principal);
///     }
///     next.run(request).await
/// }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Principal(
    /// Who the caller is, in your authentication's terms (a user id, a client id).
    pub String,
);

/// Who vouched for the request's [`Principal`]: the issuer of its verified token.
///
/// Your own middleware inserts one beside the `Principal` (`mcpwire::auth` decides the same
/// pair, the token's `iss` beside its `sub`, from the verified token itself). Two authorization servers may issue the same subject, so when an
/// `Issuer` is present, 2025-11-25 sessions, 2026-07-28 `requestState`, tasks and
/// `#[tool(once)]` replay guards are bound to the issuer and the subject together: a token of
/// another issuer naming the same subject is another caller.
///
/// ```
/// use mcpwire::context::{Issuer, Principal};
///
/// let mut request = axum::extract::Request::new(axum::body::Body::empty());
/// request.extensions_mut().insert(Principal("alice".into()));
/// request.extensions_mut().insert(Issuer("https://auth.example.com".into()));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Issuer(
    /// The issuer's identifier (a token's `iss`).
    pub String,
);

impl Issuer {
    /// The key a caller authenticated as `subject` by this issuer is bound by: unambiguous for
    /// every pair (the issuer's length comes first), and never equal to another issuer's.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(crate) fn binding(&self, subject: &str) -> String {
        binding(&self.0, subject)
    }
}

/// The key a caller authenticated as `subject` by `issuer` is bound by (see
/// [`Issuer::binding`]).
#[cfg_attr(not(feature = "http"), allow(dead_code))]
pub(crate) fn binding(issuer: &str, subject: &str) -> String {
    format!("{}:{issuer}{subject}", issuer.len())
}
