//! The client's identity at an authorization server: pre-registered, a client ID metadata
//! document, or dynamic registration (RFC 7591); and how it authenticates at the token
//! endpoint.

use super::assertion::{JWT_BEARER, client_assertion};
use super::discovery::ServerMetadata;
use super::error::AuthError;
use super::fetch;
use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::{Deserialize, Serialize};

/// How the client authenticates at the token endpoint (RFC 7591 §2).
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::TokenAuthMethod;
///
/// let method: TokenAuthMethod = serde_json::from_str(r#""client_secret_post""#).unwrap();
/// assert_eq!(method, TokenAuthMethod::ClientSecretPost);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenAuthMethod {
    /// `Authorization: Basic` with the client id and secret.
    ClientSecretBasic,
    /// `client_id` and `client_secret` in the form body.
    ClientSecretPost,
    /// A public client: `client_id` in the body, no secret.
    None,
    /// A JWT signed with the client's private key (RFC 7523), see
    /// [`ClientRegistration::private_key_jwt`].
    PrivateKeyJwt,
}

impl TokenAuthMethod {
    fn name(self) -> &'static str {
        match self {
            TokenAuthMethod::ClientSecretBasic => "client_secret_basic",
            TokenAuthMethod::ClientSecretPost => "client_secret_post",
            TokenAuthMethod::None => "none",
            TokenAuthMethod::PrivateKeyJwt => "private_key_jwt",
        }
    }

    fn parse(name: &str) -> Option<TokenAuthMethod> {
        serde_json::from_value(serde_json::Value::String(name.to_owned())).ok()
    }
}

/// A client id (and secret) at one authorization server.
///
/// # Examples
///
/// ```
/// use mcpwire::client::auth::{ClientRegistration, TokenAuthMethod};
///
/// let client = ClientRegistration::new("my-client").secret("s3cret");
/// assert_eq!(client.auth_method, None); // chosen from the server's metadata
/// let public = ClientRegistration::new("cli").auth_method(TokenAuthMethod::None);
/// assert_eq!(public.client_secret, None);
/// ```
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ClientRegistration {
    /// The client id.
    pub client_id: String,
    /// The secret of a confidential client.
    pub client_secret: Option<String>,
    /// How to authenticate at the token endpoint; `None`: `client_secret_basic` when there is a
    /// secret and the server allows it (else `client_secret_post`), `none` without a secret.
    pub auth_method: Option<TokenAuthMethod>,
    /// The redirect URI registered with it (dynamic registration), to register again when the
    /// client's redirect URI changed.
    #[serde(default)]
    pub redirect_uri: Option<String>,
    /// The PKCS #8 PEM private key of `private_key_jwt`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub private_key_pem: Option<String>,
    /// The algorithm it signs with (`ES256` unless set).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signing_algorithm: Option<String>,
    /// The issuer of the authorization server these credentials are for (see
    /// [`issuer`](Self::issuer)); they are never sent to another, nor anywhere without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
}

impl std::fmt::Debug for ClientRegistration {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ClientRegistration")
            .field("client_id", &self.client_id)
            .field("client_secret", &self.client_secret.as_ref().map(|_| "…"))
            .field("auth_method", &self.auth_method)
            .field("issuer", &self.issuer)
            .field(
                "private_key_pem",
                &self.private_key_pem.as_ref().map(|_| "…"),
            )
            .finish()
    }
}

impl ClientRegistration {
    /// A client id, public until [`secret`](Self::secret) is set.
    ///
    /// # Examples
    ///
    /// ```
    /// let client = mcpwire::client::auth::ClientRegistration::new("my-client");
    /// assert_eq!(client.client_id, "my-client");
    /// ```
    pub fn new(client_id: impl Into<String>) -> Self {
        ClientRegistration {
            client_id: client_id.into(),
            client_secret: None,
            auth_method: None,
            redirect_uri: None,
            private_key_pem: None,
            signing_algorithm: None,
            issuer: None,
        }
    }

    /// The authorization server (its issuer identifier, compared exactly) these credentials
    /// are for. Pre-registered and client-credentials secrets go to that server only: a
    /// resource that points to another is refused with [`AuthError::OtherIssuer`] before
    /// anything is sent. Required for them to be sent at all: credentials without an issuer
    /// are refused with [`AuthError::NoIssuer`] (see
    /// [`OAuth::discover_issuer`](super::OAuth::discover_issuer) to learn it from a server you
    /// trust). A dynamic registration is stored under its issuer.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::ClientRegistration;
    ///
    /// let client = ClientRegistration::new("worker-7").secret("s").issuer("https://auth.example.com");
    /// assert_eq!(client.issuer.as_deref(), Some("https://auth.example.com"));
    /// ```
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// The client secret.
    ///
    /// # Examples
    ///
    /// ```
    /// let client = mcpwire::client::auth::ClientRegistration::new("id").secret("secret");
    /// assert_eq!(client.client_secret.as_deref(), Some("secret"));
    /// ```
    pub fn secret(mut self, secret: impl Into<String>) -> Self {
        self.client_secret = Some(secret.into());
        self
    }

    /// How to authenticate at the token endpoint.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::{ClientRegistration, TokenAuthMethod};
    /// let client = ClientRegistration::new("id").secret("s").auth_method(TokenAuthMethod::ClientSecretPost);
    /// # drop(client);
    /// ```
    pub fn auth_method(mut self, method: TokenAuthMethod) -> Self {
        self.auth_method = Some(method);
        self
    }

    /// Authenticates with JWTs signed by this key (`private_key_jwt`, RFC 7523): a PKCS #8 PEM
    /// EC (P-256, P-384) or Ed25519 key; `algorithm` is `ES256` (the default), `ES384` or
    /// `EdDSA`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::{ClientRegistration, TokenAuthMethod};
    ///
    /// let pem = std::fs::read_to_string("worker.pem").unwrap_or_default();
    /// let client = ClientRegistration::new("worker-7").private_key_jwt(pem, None);
    /// assert_eq!(client.auth_method, Some(TokenAuthMethod::PrivateKeyJwt));
    /// ```
    pub fn private_key_jwt(mut self, pem: impl Into<String>, algorithm: Option<&str>) -> Self {
        self.private_key_pem = Some(pem.into());
        self.signing_algorithm = algorithm.map(str::to_owned);
        self.auth_method = Some(TokenAuthMethod::PrivateKeyJwt);
        self
    }

    /// The method used with `server`.
    pub(crate) fn method_for(&self, server: &ServerMetadata) -> TokenAuthMethod {
        if let Some(method) = self.auth_method {
            return method;
        }
        if self.client_secret.is_none() {
            return TokenAuthMethod::None;
        }
        let supported = server.token_endpoint_auth_methods_supported.as_deref();
        let allows = |name: &str| supported.is_none_or(|s| s.iter().any(|m| m == name));
        if !allows("client_secret_basic") && allows("client_secret_post") {
            TokenAuthMethod::ClientSecretPost
        } else {
            TokenAuthMethod::ClientSecretBasic
        }
    }

    /// Authenticates a token request: adds the header, or the body fields to `form`.
    pub(crate) fn authenticate(
        &self,
        server: &ServerMetadata,
        request: reqwest::RequestBuilder,
        form: &mut Vec<(&'static str, String)>,
    ) -> Result<reqwest::RequestBuilder, AuthError> {
        let secret = self.client_secret.as_deref().unwrap_or_default();
        Ok(match self.method_for(server) {
            TokenAuthMethod::ClientSecretBasic => {
                // RFC 6749 §2.3.1: both parts form-encoded before Base64.
                let encode =
                    |s: &str| form_urlencoded::byte_serialize(s.as_bytes()).collect::<String>();
                let pair = format!("{}:{}", encode(&self.client_id), encode(secret));
                request.header(
                    reqwest::header::AUTHORIZATION,
                    format!("Basic {}", STANDARD.encode(pair)),
                )
            }
            TokenAuthMethod::ClientSecretPost => {
                form.push(("client_id", self.client_id.clone()));
                form.push(("client_secret", secret.to_owned()));
                request
            }
            TokenAuthMethod::None => {
                form.push(("client_id", self.client_id.clone()));
                request
            }
            TokenAuthMethod::PrivateKeyJwt => {
                let pem = self.private_key_pem.as_deref().unwrap_or_default();
                let algorithm = self.signing_algorithm.as_deref().unwrap_or("ES256");
                let assertion = client_assertion(&self.client_id, &server.issuer, pem, algorithm)?;
                form.push(("client_assertion_type", JWT_BEARER.to_owned()));
                form.push(("client_assertion", assertion));
                request
            }
        })
    }
}

/// What the client tells a registration endpoint about itself.
pub(crate) struct ClientDescription<'a> {
    pub(crate) name: &'a str,
    pub(crate) redirect_uri: &'a str,
    pub(crate) grant_types: &'a [&'a str],
}

/// The method asked for at registration: `none` for a native client when allowed, else
/// `client_secret_basic`, else `client_secret_post`.
fn requested_method(server: &ServerMetadata) -> TokenAuthMethod {
    let Some(supported) = server.token_endpoint_auth_methods_supported.as_deref() else {
        return TokenAuthMethod::ClientSecretBasic;
    };
    [
        TokenAuthMethod::None,
        TokenAuthMethod::ClientSecretBasic,
        TokenAuthMethod::ClientSecretPost,
    ]
    .into_iter()
    .find(|method| supported.iter().any(|s| s == method.name()))
    .unwrap_or(TokenAuthMethod::ClientSecretBasic)
}

/// Registers the client dynamically (RFC 7591) as a native application.
pub(crate) async fn register(
    http: &reqwest::Client,
    server: &ServerMetadata,
    endpoint: &str,
    client: &ClientDescription<'_>,
) -> Result<ClientRegistration, AuthError> {
    let method = requested_method(server);
    let body = serde_json::json!({
        "client_name": client.name,
        "redirect_uris": [client.redirect_uri],
        "grant_types": client.grant_types,
        "response_types": ["code"],
        "token_endpoint_auth_method": method.name(),
        "application_type": "native",
    });
    let request = http
        .post(endpoint)
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .body(body.to_string());
    let (status, body) = fetch::post(request, endpoint).await?;
    if !(200..300).contains(&status) {
        return Err(fetch::refused("registration", status, &body));
    }
    #[derive(Deserialize)]
    struct Registered {
        client_id: String,
        client_secret: Option<String>,
        token_endpoint_auth_method: Option<String>,
    }
    let registered: Registered =
        serde_json::from_slice(&body).map_err(|e| AuthError::Malformed {
            what: "registration response",
            detail: e.to_string(),
        })?;
    let granted = registered
        .token_endpoint_auth_method
        .as_deref()
        .and_then(TokenAuthMethod::parse)
        .unwrap_or(method);
    let granted = match (granted, &registered.client_secret) {
        (TokenAuthMethod::ClientSecretBasic | TokenAuthMethod::ClientSecretPost, None) => {
            TokenAuthMethod::None
        }
        // No key was registered: a method needing one cannot be what the server means.
        (TokenAuthMethod::PrivateKeyJwt, _) => TokenAuthMethod::None,
        (granted, _) => granted,
    };
    Ok(ClientRegistration {
        auth_method: Some(granted),
        redirect_uri: Some(client.redirect_uri.to_owned()),
        client_secret: registered.client_secret,
        ..ClientRegistration::new(registered.client_id)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn server(methods: Option<&[&str]>) -> ServerMetadata {
        ServerMetadata {
            token_endpoint_auth_methods_supported: methods
                .map(|m| m.iter().map(|s| s.to_string()).collect()),
            ..ServerMetadata::default()
        }
    }

    #[test]
    fn registration_asks_for_what_the_server_allows() {
        assert_eq!(
            requested_method(&server(None)),
            TokenAuthMethod::ClientSecretBasic
        );
        assert_eq!(
            requested_method(&server(Some(&["none"]))),
            TokenAuthMethod::None
        );
        assert_eq!(
            requested_method(&server(Some(&["client_secret_post"]))),
            TokenAuthMethod::ClientSecretPost
        );
        assert_eq!(
            requested_method(&server(Some(&["private_key_jwt"]))),
            TokenAuthMethod::ClientSecretBasic
        );
    }

    #[test]
    fn a_pre_registered_secret_uses_basic_unless_only_post_is_allowed() {
        let client = ClientRegistration::new("id").secret("s");
        assert_eq!(
            client.method_for(&server(None)),
            TokenAuthMethod::ClientSecretBasic
        );
        assert_eq!(
            client.method_for(&server(Some(&["client_secret_post"]))),
            TokenAuthMethod::ClientSecretPost
        );
        assert_eq!(
            ClientRegistration::new("id").method_for(&server(None)),
            TokenAuthMethod::None
        );
    }

    #[test]
    fn basic_authentication_encodes_both_parts() {
        let client = ClientRegistration::new("a:b").secret("p&ss w");
        let http = reqwest::Client::new();
        let mut form = Vec::new();
        let request = client
            .authenticate(&server(None), http.post("http://h/token"), &mut form)
            .unwrap()
            .build()
            .unwrap();
        let header = request.headers()["authorization"].to_str().unwrap();
        let decoded = STANDARD
            .decode(header.strip_prefix("Basic ").unwrap())
            .unwrap();
        assert_eq!(String::from_utf8(decoded).unwrap(), "a%3Ab:p%26ss+w");
        assert!(form.is_empty());
    }

    #[test]
    fn the_debug_form_hides_the_secret() {
        let shown = format!("{:?}", ClientRegistration::new("id").secret("hunter2"));
        assert!(!shown.contains("hunter2"));
    }
}
