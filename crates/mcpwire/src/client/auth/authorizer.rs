//! The user-facing step of the authorization-code flow: show the user the authorization page,
//! and hand back where the authorization server redirected.

use super::error::AuthError;
use super::fetch::{TIMEOUT, fetch_error};
use std::future::Future;
use std::pin::Pin;

/// A boxed, sendable future (what [`Authorizer::authorize`] returns).
pub type AuthFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Shows the user an authorization URL and receives the redirect: a browser and a loopback
/// listener in a CLI, [`HeadlessAuthorizer`] in tests.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{AuthError, AuthFuture, AuthorizationResponse, Authorizer};
///
/// /// Prints the URL and reads the redirected URL the user pastes.
/// struct Paste;
///
/// impl Authorizer for Paste {
///     fn redirect_uri(&self) -> String {
///         "http://127.0.0.1:8976/callback".into()
///     }
///
///     fn authorize<'a>(&'a self, url: &'a str) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>> {
///         Box::pin(async move {
///             println!("open {url} and paste where you land:");
///             let mut line = String::new();
///             std::io::stdin().read_line(&mut line).map_err(|e| AuthError::Authorizer(e.to_string()))?;
///             AuthorizationResponse::from_redirect_url(line.trim())
///         })
///     }
/// }
/// # let _ = mcpwire::client::auth::OAuth::new(Paste);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an Authorizer",
    note = "implement `redirect_uri` and `authorize`, or use `HeadlessAuthorizer`"
)]
pub trait Authorizer: Send + Sync + 'static {
    /// The redirect URI to register and send (e.g. a loopback listener's URL).
    fn redirect_uri(&self) -> String;

    /// Lets the user authorize at `url`, and returns the parameters of the redirect that
    /// followed. The flow refuses a redirect without the `state` of `url`
    /// ([`AuthError::StateMismatch`]) before looking at anything else in it; an authorizer that
    /// listens for the redirect (a loopback listener) should ignore any other request and keep
    /// waiting, so that a forged redirect cannot end the login.
    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>>;
}

/// The parameters of the redirect that ends the user-facing step (RFC 6749 §4.1.2, RFC 9207).
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::AuthorizationResponse;
///
/// let response = AuthorizationResponse::from_redirect_url(
///     "http://localhost:3000/callback?code=abc&state=xyz&iss=https%3A%2F%2Fauth.example.com",
/// ).unwrap();
/// assert_eq!(response.code.as_deref(), Some("abc"));
/// assert_eq!(response.iss.as_deref(), Some("https://auth.example.com"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct AuthorizationResponse {
    /// The authorization code.
    pub code: Option<String>,
    /// The `state` sent with the request.
    pub state: Option<String>,
    /// The issuer (RFC 9207).
    pub iss: Option<String>,
    /// An error code (`access_denied`, …).
    pub error: Option<String>,
    /// The error's explanation.
    pub error_description: Option<String>,
}

impl AuthorizationResponse {
    /// The parameters of a query string (`code=…&state=…`, without the `?`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::AuthorizationResponse;
    /// let response = AuthorizationResponse::from_query("error=access_denied&state=s");
    /// assert_eq!(response.error.as_deref(), Some("access_denied"));
    /// ```
    pub fn from_query(query: &str) -> AuthorizationResponse {
        let mut response = AuthorizationResponse::default();
        for (name, value) in form_urlencoded::parse(query.as_bytes()) {
            let slot = match name.as_ref() {
                "code" => &mut response.code,
                "state" => &mut response.state,
                "iss" => &mut response.iss,
                "error" => &mut response.error,
                "error_description" => &mut response.error_description,
                _ => continue,
            };
            slot.get_or_insert_with(|| value.into_owned());
        }
        response
    }

    /// The parameters of the URL the authorization server redirected to.
    ///
    /// # Errors
    ///
    /// When `url` is not a URL.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::AuthorizationResponse;
    /// assert!(AuthorizationResponse::from_redirect_url("not a url").is_err());
    /// ```
    pub fn from_redirect_url(url: &str) -> Result<AuthorizationResponse, AuthError> {
        let parsed = reqwest::Url::parse(url).map_err(|e| AuthError::Malformed {
            what: "redirect URL",
            detail: e.to_string(),
        })?;
        Ok(Self::from_query(parsed.query().unwrap_or_default()))
    }
}

/// The user-facing step without a user: GETs the authorization URL without following
/// redirects and reads the `Location` it answers with. For tests, the conformance suite and
/// authorization servers that approve without asking.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
///
/// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost:3000/callback"));
/// # drop(oauth);
/// ```
#[derive(Clone, Debug)]
pub struct HeadlessAuthorizer {
    redirect_uri: String,
    http: reqwest::Client,
}

impl HeadlessAuthorizer {
    /// A headless step that registers and sends `redirect_uri` (never listened on).
    ///
    /// # Examples
    ///
    /// ```
    /// let step = mcpwire::client::auth::HeadlessAuthorizer::new("http://localhost:3000/callback");
    /// # drop(step);
    /// ```
    pub fn new(redirect_uri: impl Into<String>) -> Self {
        let http = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .unwrap_or_default();
        HeadlessAuthorizer {
            redirect_uri: redirect_uri.into(),
            http,
        }
    }
}

impl Authorizer for HeadlessAuthorizer {
    fn redirect_uri(&self) -> String {
        self.redirect_uri.clone()
    }

    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>> {
        Box::pin(async move {
            let response = self
                .http
                .get(url)
                .timeout(TIMEOUT)
                .send()
                .await
                .map_err(|e| fetch_error(url, e))?;
            let location = response
                .headers()
                .get(reqwest::header::LOCATION)
                .and_then(|v| v.to_str().ok())
                .filter(|_| response.status().is_redirection())
                .ok_or_else(|| {
                    AuthError::Authorizer(format!(
                        "the authorization endpoint answered {} without a redirect",
                        response.status().as_u16()
                    ))
                })?;
            // A relative Location is resolved against the authorization URL.
            let absolute = reqwest::Url::parse(url)
                .and_then(|base| base.join(location))
                .map(String::from)
                .unwrap_or_else(|_| location.to_owned());
            AuthorizationResponse::from_redirect_url(&absolute)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::AuthorizationResponse;

    #[test]
    fn the_first_of_repeated_parameters_wins_and_unknown_ones_are_ignored() {
        let response = AuthorizationResponse::from_query("code=a&code=b&x=1&state=%2B");
        assert_eq!(response.code.as_deref(), Some("a"));
        assert_eq!(response.state.as_deref(), Some("+"));
        assert_eq!(response.iss, None);
    }

    #[test]
    fn a_redirect_without_query_has_nothing() {
        let response = AuthorizationResponse::from_redirect_url("http://h/cb").unwrap();
        assert_eq!(response, AuthorizationResponse::default());
    }
}
