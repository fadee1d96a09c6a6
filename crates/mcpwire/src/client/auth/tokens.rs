//! Tokens, and the token endpoint's grants: authorization code, refresh token, client
//! credentials.

use super::discovery::ServerMetadata;
use super::error::AuthError;
use super::fetch;
use super::registration::ClientRegistration;
use serde::{Deserialize, Serialize};
use std::time::{SystemTime, UNIX_EPOCH};

/// The tokens held for one server.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::Tokens;
///
/// let tokens: Tokens = serde_json::from_str(
///     r#"{"access_token": "at", "issuer": "https://auth.example.com", "expires_at": 1}"#,
/// ).unwrap();
/// assert!(tokens.expired());
/// ```
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Tokens {
    /// The access token, sent as `Authorization: Bearer …`.
    pub access_token: String,
    /// The refresh token, when one was issued.
    #[serde(default)]
    pub refresh_token: Option<String>,
    /// When the access token expires (seconds since the Unix epoch), when known.
    #[serde(default)]
    pub expires_at: Option<u64>,
    /// The scopes granted (or, when the server did not say, asked for), space-separated.
    #[serde(default)]
    pub scope: Option<String>,
    /// The authorization server that issued them.
    pub issuer: String,
}

impl std::fmt::Debug for Tokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tokens")
            .field("access_token", &"…")
            .field("refresh_token", &self.refresh_token.as_ref().map(|_| "…"))
            .field("expires_at", &self.expires_at)
            .field("scope", &self.scope)
            .field("issuer", &self.issuer)
            .finish()
    }
}

impl Tokens {
    /// Whether the access token has expired (or does within 30 seconds).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::Tokens;
    /// let tokens: Tokens = serde_json::from_str(r#"{"access_token": "at", "issuer": "i"}"#).unwrap();
    /// assert!(!tokens.expired()); // no expiry known
    /// ```
    pub fn expired(&self) -> bool {
        self.expires_at.is_some_and(|at| at <= now() + 30)
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or_default()
}

/// A token request's grant.
pub(crate) enum Grant<'a> {
    AuthorizationCode {
        code: &'a str,
        redirect_uri: &'a str,
        verifier: &'a str,
    },
    Refresh {
        refresh_token: &'a str,
    },
    ClientCredentials,
}

/// Asks the token endpoint for tokens; `resource` is sent verbatim, `scope` when given.
pub(crate) async fn request(
    http: &reqwest::Client,
    server: &ServerMetadata,
    client: &ClientRegistration,
    grant: Grant<'_>,
    resource: &str,
    scope: Option<&str>,
) -> Result<Tokens, AuthError> {
    let mut form: Vec<(&'static str, String)> = Vec::new();
    let mut old_refresh = None;
    match grant {
        Grant::AuthorizationCode {
            code,
            redirect_uri,
            verifier,
        } => {
            form.push(("grant_type", "authorization_code".into()));
            form.push(("code", code.into()));
            form.push(("redirect_uri", redirect_uri.into()));
            form.push(("code_verifier", verifier.into()));
        }
        Grant::Refresh { refresh_token } => {
            form.push(("grant_type", "refresh_token".into()));
            form.push(("refresh_token", refresh_token.into()));
            old_refresh = Some(refresh_token.to_owned());
        }
        Grant::ClientCredentials => form.push(("grant_type", "client_credentials".into())),
    }
    form.push(("resource", resource.into()));
    if let Some(scope) = scope {
        form.push(("scope", scope.into()));
    }
    let endpoint = &server.token_endpoint;
    let request = client.authenticate(server, http.post(endpoint), &mut form)?;
    let pairs: Vec<(&str, &str)> = form.iter().map(|(n, v)| (*n, v.as_str())).collect();
    let (status, body) = fetch::post(fetch::form(request, &pairs), endpoint).await?;
    if !(200..300).contains(&status) {
        return Err(fetch::refused("token endpoint", status, &body));
    }
    #[derive(Deserialize)]
    struct Issued {
        access_token: String,
        token_type: Option<String>,
        expires_in: Option<u64>,
        refresh_token: Option<String>,
        scope: Option<String>,
    }
    let issued: Issued = serde_json::from_slice(&body).map_err(|e| AuthError::Malformed {
        what: "token response",
        detail: e.to_string(),
    })?;
    if let Some(kind) = &issued.token_type
        && !kind.eq_ignore_ascii_case("bearer")
    {
        return Err(AuthError::Malformed {
            what: "token response",
            detail: format!("token_type {kind} is not Bearer"),
        });
    }
    Ok(Tokens {
        access_token: issued.access_token,
        // RFC 6749 §6: without a new refresh token, the old one stays valid.
        refresh_token: issued.refresh_token.or(old_refresh),
        expires_at: issued.expires_in.map(|s| now().saturating_add(s)),
        scope: issued.scope.or_else(|| scope.map(str::to_owned)),
        issuer: server.issuer.clone(),
    })
}
