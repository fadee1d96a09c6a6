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
