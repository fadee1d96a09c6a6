//! [`OAuth`]: what the client needs to obtain tokens, and the flow that runs when a server
//! answers `401` or `403 insufficient_scope`.

use super::authorizer::Authorizer;
use super::challenge::BearerChallenge;
use super::discovery::{
    ResourceMetadata, ServerMetadata, is_loopback, origin, resource_metadata, server_metadata,
};
use super::error::AuthError;
use super::pkce::{Pkce, random_token};
use super::registration::{ClientDescription, ClientRegistration, TokenAuthMethod, register};
use super::scope::choose_scope;
use super::store::{Credentials, MemoryStore, TokenStore};
use super::tokens::{self, Grant, Tokens};
use std::sync::Arc;

/// How the client obtains tokens for the servers it connects to over HTTP: the
/// authorization-code flow with a user-facing [`Authorizer`], or the client-credentials grant
/// for machines. Give it to [`ClientBuilder::oauth`](crate::client::ClientBuilder::oauth).
///
/// # Examples
///
/// ```no_run
/// use mcpwire::client::Client;
/// use mcpwire::client::auth::{FileStore, HeadlessAuthorizer, OAuth};
///
/// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::ClientError> {
/// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost:3000/callback"))
///     .client_name("my-app")
///     .client_metadata_url("https://my-app.example.com/oauth/client.json")
///     .store(FileStore::new("/home/me/.config/my-app/credentials.json"));
/// let client = Client::builder().oauth(oauth).connect_http("http://127.0.0.1:8000/mcp").await?;
/// # drop(client); Ok(()) }
/// ```
#[derive(Clone)]
pub struct OAuth {
    grant: GrantKind,
    client_name: String,
    metadata_url: Option<String>,
    pre_registered: Option<ClientRegistration>,
    store: Arc<dyn TokenStore>,
    /// What the store held when last read or written: requests take their token from here.
    cache: Arc<std::sync::Mutex<Option<Credentials>>>,
    http: reqwest::Client,
    /// One flow at a time: requests that meet a `401` together share its outcome.
    flow: Arc<tokio::sync::Mutex<()>>,
    /// Only stored tokens, refreshed: never a discovery for a new authorization.
    refresh_only: bool,
}

#[derive(Clone)]
enum GrantKind {
    AuthorizationCode(Arc<dyn Authorizer>),
    ClientCredentials(ClientRegistration),
}

impl std::fmt::Debug for OAuth {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let grant = match &self.grant {
            GrantKind::AuthorizationCode(_) => "authorization_code",
            GrantKind::ClientCredentials(_) => "client_credentials",
        };
        f.debug_struct("OAuth")
            .field("grant", &grant)
            .field("client_name", &self.client_name)
            .field("metadata_url", &self.metadata_url)
            .field("pre_registered", &self.pre_registered)
            .field("refresh_only", &self.refresh_only)
            .finish_non_exhaustive()
    }
}

/// The grants asked for at dynamic registration.
const GRANT_TYPES: &[&str] = &["authorization_code", "refresh_token"];

impl OAuth {
    /// The authorization-code flow (PKCE S256), with `authorizer` showing the user the
    /// authorization page. Tokens are kept in memory until [`store`](Self::store) says
    /// otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost:3000/callback"));
    /// # drop(oauth);
    /// ```
    pub fn new(authorizer: impl Authorizer) -> Self {
        Self::with_grant(GrantKind::AuthorizationCode(Arc::new(authorizer)))
    }

    /// The client-credentials grant, for a machine with its own credentials (no user). They are
    /// sent to their [`issuer`](ClientRegistration::issuer) only; without one they are sent
    /// nowhere ([`AuthError::NoIssuer`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::auth::{ClientRegistration, OAuth};
    /// let worker = ClientRegistration::new("worker-7").secret("s").issuer("https://auth.example.com");
    /// let oauth = OAuth::client_credentials(worker);
    /// # drop(oauth);
    /// ```
    pub fn client_credentials(client: ClientRegistration) -> Self {
        Self::with_grant(GrantKind::ClientCredentials(client))
    }

    fn with_grant(grant: GrantKind) -> Self {
        OAuth {
            grant,
            client_name: "mcpwire-client".into(),
            metadata_url: None,
            pre_registered: None,
            store: Arc::new(MemoryStore::default()),
            cache: Arc::default(),
            http: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .build()
                .unwrap_or_default(),
            flow: Arc::default(),
            refresh_only: false,
        }
    }

    /// Only uses the stored tokens, and refreshes them: a server that wants a new
    /// authorization (no tokens stored for it, none refreshable, or a step-up to more scopes)
    /// gets [`AuthError::LoginRequired`] at once, before any discovery, registration or write
    /// to the store. For commands that must not start a login (a CLI's, after `login`).
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://127.0.0.1/cb")).refresh_only();
    /// # drop(oauth);
    /// ```
    pub fn refresh_only(mut self) -> Self {
        self.refresh_only = true;
        self
    }

    /// The `client_name` sent at dynamic registration (default `mcpwire-client`).
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb")).client_name("my-app");
    /// # drop(oauth);
    /// ```
    pub fn client_name(mut self, name: impl Into<String>) -> Self {
        self.client_name = name.into();
        self
    }

    /// The HTTPS URL of this client's metadata document, used as its client id at
    /// authorization servers that advertise `client_id_metadata_document_supported`.
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb"))
    ///     .client_metadata_url("https://my-app.example.com/oauth/client.json");
    /// # drop(oauth);
    /// ```
    pub fn client_metadata_url(mut self, url: impl Into<String>) -> Self {
        self.metadata_url = Some(url.into());
        self
    }

    /// Credentials registered beforehand, used in preference to a metadata document or
    /// dynamic registration, at their [`issuer`](ClientRegistration::issuer) only: a resource
    /// pointing to another authorization server is refused with [`AuthError::OtherIssuer`], and
    /// credentials without an issuer are sent nowhere ([`AuthError::NoIssuer`]). When only the
    /// server is known, [`discover_issuer`](Self::discover_issuer) finds the issuer it names.
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{ClientRegistration, HeadlessAuthorizer, OAuth};
    /// let client = ClientRegistration::new("my-client").secret("s3cret").issuer("https://auth.example.com");
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb")).pre_registered(client);
    /// # drop(oauth);
    /// ```
    pub fn pre_registered(mut self, client: ClientRegistration) -> Self {
        self.pre_registered = Some(client);
        self
    }

    /// Where tokens and registrations are kept (default: in memory).
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{FileStore, HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb"))
    ///     .store(FileStore::new("/tmp/credentials.json"));
    /// # drop(oauth);
    /// ```
    pub fn store(mut self, store: impl TokenStore) -> Self {
        self.store = Arc::new(store);
        self.cache = Arc::default();
        self
    }

    /// The tokens stored for the server at `server_url`.
    ///
    /// # Errors
    ///
    /// When the store fails.
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb"));
    /// assert!(oauth.tokens("http://127.0.0.1:8000/mcp")?.is_none());
    /// # Ok::<(), mcpwire::client::auth::AuthError>(())
    /// ```
    pub fn tokens(&self, server_url: &str) -> Result<Option<Tokens>, AuthError> {
        Ok(self.load()?.tokens.remove(server_url))
    }

    /// Forgets the tokens stored for the server at `server_url` (registrations stay).
    ///
    /// # Errors
    ///
    /// When the store fails.
    ///
    /// # Examples
    ///
    /// ```
    /// # use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb"));
    /// oauth.logout("http://127.0.0.1:8000/mcp")?;
    /// # Ok::<(), mcpwire::client::auth::AuthError>(())
    /// ```
    pub fn logout(&self, server_url: &str) -> Result<(), AuthError> {
        let mut stored = self.load()?;
        if stored.tokens.remove(server_url).is_some() {
            self.save(&stored)?;
        }
        Ok(())
    }

    /// Obtains tokens for the server at `server_url` now (a CLI's `login`), from what its
    /// challenge said when there was one, else from its well-known metadata.
    ///
    /// # Errors
    ///
    /// When discovery, registration, the user-facing step or the token request fails.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use mcpwire::client::auth::{HeadlessAuthorizer, OAuth};
    /// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::auth::AuthError> {
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb"));
    /// let tokens = oauth.login("http://127.0.0.1:8000/mcp", None).await?;
    /// println!("scopes: {:?}", tokens.scope);
    /// # Ok(()) }
    /// ```
    pub async fn login(
        &self,
        server_url: &str,
        challenge: Option<&BearerChallenge>,
    ) -> Result<Tokens, AuthError> {
        let _flow = self.flow.lock().await;
        let challenge = challenge.cloned().unwrap_or_default();
        self.obtain(server_url, &challenge, false).await
    }

    /// The issuer of the authorization server the resource at `server_url` names: the first of
    /// its protected-resource metadata's `authorization_servers` (its `resource` checked as in
    /// a login), or for a 2025-03-26 server without that metadata, its own origin. For binding
    /// pre-registered credentials ([`ClientRegistration::issuer`]) to the authorization server
    /// of a server you trust, when only the server is known: what that server names is what
    /// the credentials are then sent to, and never to the issuer of another server.
    ///
    /// # Errors
    ///
    /// When the metadata cannot be fetched or is refused.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// # use mcpwire::client::auth::{ClientRegistration, HeadlessAuthorizer, OAuth};
    /// # #[tokio::main] async fn main() -> Result<(), mcpwire::client::auth::AuthError> {
    /// let oauth = OAuth::new(HeadlessAuthorizer::new("http://localhost/cb"));
    /// let issuer = oauth.discover_issuer("https://mcp.example.com/mcp").await?;
    /// let oauth = oauth.pre_registered(ClientRegistration::new("my-client").secret("s").issuer(issuer));
    /// # drop(oauth); Ok(()) }
    /// ```
    pub async fn discover_issuer(&self, server_url: &str) -> Result<String, AuthError> {
        let (metadata, _) = self.resource(server_url, None).await?;
        metadata
            .authorization_servers
            .into_iter()
            .next()
            .ok_or(AuthError::NoAuthorizationServer)
    }

    /// The protected-resource metadata of `server_url`, and whether it is a 2025-03-26 server
    /// without any (its origin is then its authorization server).
    async fn resource(
        &self,
        server_url: &str,
        from_challenge: Option<&str>,
    ) -> Result<(ResourceMetadata, bool), AuthError> {
        match resource_metadata(&self.http, server_url, from_challenge).await {
            Ok(metadata) => Ok((metadata, false)),
            Err(AuthError::NoResourceMetadata(_)) => {
                let metadata = ResourceMetadata {
                    authorization_servers: vec![origin(server_url)?],
                    ..ResourceMetadata::default()
                };
                Ok((metadata, true))
            }
            Err(error) => Err(error),
        }
    }

    /// The access token to send to `server_url`, if any (the store is read once, then kept
    /// up to date by this client's own saves).
    pub(crate) fn bearer(&self, server_url: &str) -> Result<Option<String>, AuthError> {
        let cached = |cache: &Option<Credentials>| {
            let tokens = cache.as_ref()?.tokens.get(server_url)?;
            Some(tokens.access_token.clone())
        };
        let cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        if cache.is_some() {
            return Ok(cached(&cache));
        }
        drop(cache);
        let loaded = self.load()?;
        Ok(cached(&Some(loaded)))
    }

    /// Reads the store (and remembers what it holds).
    fn load(&self) -> Result<Credentials, AuthError> {
        let credentials = self.store.load()?;
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some(credentials.clone());
        Ok(credentials)
    }

    /// Writes the store (and remembers what it holds).
    fn save(&self, credentials: &Credentials) -> Result<(), AuthError> {
        self.store.save(credentials)?;
        *self.cache.lock().unwrap_or_else(|e| e.into_inner()) = Some(credentials.clone());
        Ok(())
    }

    /// Answers a `401` or `403` the server sent to a request that carried `used`: afterwards a
    /// new token is stored, or the error says why none could be had.
    pub(crate) async fn answer(
        &self,
        server_url: &str,
        status: u16,
        header: Option<&str>,
        used: Option<&str>,
    ) -> Result<(), AuthError> {
        let _flow = self.flow.lock().await;
        if self.bearer(server_url)?.as_deref() != used {
            // Another request got a new token while this one waited.
            return Ok(());
        }
        let challenge = header.and_then(BearerChallenge::parse).unwrap_or_default();
        let step_up = status == 403;
        if step_up && !challenge.insufficient_scope() {
            let reason = challenge.error.unwrap_or_else(|| "HTTP 403".into());
            return Err(AuthError::Forbidden(reason));
        }
        self.obtain(server_url, &challenge, step_up).await.map(drop)
    }

    /// Discovery, then a refresh (for a `401`, with a refresh token from the same issuer) or
    /// a new grant; the tokens are stored.
    async fn obtain(
        &self,
        server_url: &str,
        challenge: &BearerChallenge,
        step_up: bool,
    ) -> Result<Tokens, AuthError> {
        let http = &self.http;
        if self.refresh_only {
            let refreshable = self
                .load()?
                .tokens
                .get(server_url)
                .is_some_and(|t| t.refresh_token.is_some());
            if step_up || !refreshable {
                return Err(AuthError::LoginRequired(server_url.to_owned()));
            }
        }
        // 2025-03-26: no protected-resource metadata, the server's origin authorizes.
        let found = self.resource(server_url, challenge.resource_metadata.as_deref());
        let (resource_md, legacy) = found.await?;
        // Sent exactly as published; the server's URL when the metadata names none.
        let resource = resource_md
            .resource
            .as_deref()
            .unwrap_or(server_url)
            .to_owned();
        let issuer = resource_md
            .authorization_servers
            .first()
            .ok_or(AuthError::NoAuthorizationServer)?;
        let server = match server_metadata(http, issuer).await {
            Ok(server) => server,
            Err(AuthError::NoServerMetadata(_)) if legacy => ServerMetadata::fallback(issuer),
            Err(error) => return Err(error),
        };
        // Nothing goes to an endpoint a user or a secret should not go to.
        server.check_endpoints()?;
        let fixed = self.fixed_client(&server)?;
        let mut stored = self.load()?;
        let prior = stored
            .tokens
            .get(server_url)
            .filter(|t| t.issuer == server.issuer)
            .cloned();
        if let Some(refresh_token) = prior.as_ref().and_then(|t| t.refresh_token.as_deref())
            && !step_up
        {
            // The client that obtained the tokens refreshes them (never a new registration).
            let client = fixed
                .clone()
                .or_else(|| stored.clients.get(&server.issuer).cloned());
            if let Some(client) = client {
                let grant = Grant::Refresh { refresh_token };
                let scope = prior.as_ref().and_then(|t| t.scope.as_deref());
                if let Ok(tokens) =
                    tokens::request(http, &server, &client, grant, &resource, scope).await
                {
                    return self.keep(server_url, tokens, &mut stored);
                }
            }
        }
        if self.refresh_only {
            return Err(AuthError::LoginRequired(server_url.to_owned()));
        }
        let client = match fixed {
            Some(client) => client,
            None => self.client_for(&server, &mut stored).await?,
        };
        let previous = prior.filter(|_| step_up).and_then(|t| t.scope);
        let scope = choose_scope(
            challenge.scope.as_deref(),
            resource_md.scopes_supported.as_deref(),
            server.scopes_supported.as_deref(),
            previous.as_deref(),
        );
        let mut tokens = match &self.grant {
            GrantKind::ClientCredentials(_) => {
                let grant = Grant::ClientCredentials;
                tokens::request(http, &server, &client, grant, &resource, scope.as_deref()).await?
            }
            GrantKind::AuthorizationCode(authorizer) => {
                let request = AuthorizationRequest {
                    server: &server,
                    client: &client,
                    resource: &resource,
                    scope: scope.as_deref(),
                };
                self.authorization_code(authorizer.as_ref(), &request)
                    .await?
            }
        };
        if tokens.scope.is_none() {
            tokens.scope = scope;
        }
        self.keep(server_url, tokens, &mut stored)
    }

    fn keep(
        &self,
        server_url: &str,
        tokens: Tokens,
        stored: &mut Credentials,
    ) -> Result<Tokens, AuthError> {
        stored.tokens.insert(server_url.to_owned(), tokens.clone());
        self.save(stored)?;
        Ok(tokens)
    }

    /// The credentials configured on this `OAuth` (the machine's own, else pre-registered),
    /// if any, once checked to be for `server`'s issuer: credentials without an
    /// [`issuer`](ClientRegistration::issuer) are for none.
    fn fixed_client(
        &self,
        server: &ServerMetadata,
    ) -> Result<Option<ClientRegistration>, AuthError> {
        let client = match &self.grant {
            GrantKind::ClientCredentials(client) => client,
            GrantKind::AuthorizationCode(_) => match &self.pre_registered {
                Some(client) => client,
                None => return Ok(None),
            },
        };
        let other = |configured: &str| AuthError::OtherIssuer {
            configured: configured.to_owned(),
            found: server.issuer.clone(),
        };
        match &client.issuer {
            Some(issuer) if *issuer == server.issuer => Ok(Some(client.clone())),
            Some(issuer) => Err(other(issuer)),
            None => Err(AuthError::NoIssuer {
                found: server.issuer.clone(),
            }),
        }
    }

    /// The client's identity at `server` for the authorization-code flow, without fixed
    /// credentials: one registered there before (for the same redirect URI, a loopback one's
    /// port aside), else its metadata document (when supported), else a new dynamic
    /// registration (stored under the issuer).
    async fn client_for(
        &self,
        server: &ServerMetadata,
        stored: &mut Credentials,
    ) -> Result<ClientRegistration, AuthError> {
        let GrantKind::AuthorizationCode(authorizer) = &self.grant else {
            return Err(AuthError::CannotRegister(server.issuer.clone()));
        };
        let redirect_uri = authorizer.redirect_uri();
        if let Some(client) = stored.clients.get(&server.issuer)
            && client
                .redirect_uri
                .as_deref()
                .is_none_or(|r| same_redirect(r, &redirect_uri))
        {
            return Ok(client.clone());
        }
        if server.client_id_metadata_document_supported
            && let Some(url) = &self.metadata_url
        {
            return Ok(ClientRegistration::new(url).auth_method(TokenAuthMethod::None));
        }
        let Some(endpoint) = &server.registration_endpoint else {
            return Err(AuthError::CannotRegister(server.issuer.clone()));
        };
        let description = ClientDescription {
            name: &self.client_name,
            redirect_uri: &redirect_uri,
            grant_types: GRANT_TYPES,
        };
        let client = register(&self.http, server, endpoint, &description).await?;
        stored.clients.insert(server.issuer.clone(), client.clone());
        self.save(stored)?;
        Ok(client)
    }

    /// The authorization-code flow: the user-facing step, its answer checked, the code
    /// exchanged.
    async fn authorization_code(
        &self,
        authorizer: &dyn Authorizer,
        request: &AuthorizationRequest<'_>,
    ) -> Result<Tokens, AuthError> {
        let server = request.server;
        let pkce = Pkce::new().map_err(|e| AuthError::Authorizer(e.to_string()))?;
        let state = random_token().map_err(|e| AuthError::Authorizer(e.to_string()))?;
        let redirect_uri = authorizer.redirect_uri();
        let endpoint = server
            .authorization_endpoint
            .as_deref()
            .ok_or(AuthError::Malformed {
                what: "authorization-server metadata",
                detail: "no authorization_endpoint".into(),
            })?;
        let mut url = reqwest::Url::parse(endpoint).map_err(|e| AuthError::Malformed {
            what: "authorization-server metadata",
            detail: format!("authorization_endpoint: {e}"),
        })?;
        {
            let mut query = url.query_pairs_mut();
            query
                .append_pair("response_type", "code")
                .append_pair("client_id", &request.client.client_id)
                .append_pair("redirect_uri", &redirect_uri)
                .append_pair("code_challenge", &pkce.challenge)
                .append_pair("code_challenge_method", "S256")
                .append_pair("state", &state)
                .append_pair("resource", request.resource);
            if let Some(scope) = request.scope {
                query.append_pair("scope", scope);
            }
        }
        let response = authorizer.authorize(url.as_str()).await?;
        // The state first: a redirect without this login's state is forged, whatever it says
        // (an `error` in it must not pass for the authorization server's answer).
        if response.state.as_deref() != Some(state.as_str()) {
            return Err(AuthError::StateMismatch);
        }
        if let Some(error) = response.error {
            return Err(AuthError::Refused {
                endpoint: "authorization endpoint",
                error,
                description: response.error_description,
            });
        }
        check_issuer_parameter(
            &server.issuer,
            server.authorization_response_iss_parameter_supported,
            response.iss.as_deref(),
        )?;
        let code = response.code.ok_or(AuthError::Malformed {
            what: "authorization response",
            detail: "no code".into(),
        })?;
        let grant = Grant::AuthorizationCode {
            code: &code,
            redirect_uri: &redirect_uri,
            verifier: &pkce.verifier,
        };
        let http = &self.http;
        tokens::request(http, server, request.client, grant, request.resource, None).await
    }
}

/// Whether two redirect URIs are the same registration: equal, or both `http` on the same
/// loopback address with the same path and query, whatever their ports (RFC 8252 §7.3: a
/// native client's loopback listener takes whichever port is free).
fn same_redirect(registered: &str, current: &str) -> bool {
    if registered == current {
        return true;
    }
    let (Ok(mut a), Ok(mut b)) = (
        reqwest::Url::parse(registered),
        reqwest::Url::parse(current),
    ) else {
        return false;
    };
    if a.scheme() != "http" || b.scheme() != "http" || !is_loopback(&a) || !is_loopback(&b) {
        return false;
    }
    let portless = a.set_port(None).is_ok() && b.set_port(None).is_ok();
    portless && a == b
}

/// What one authorization request is for.
struct AuthorizationRequest<'a> {
    server: &'a ServerMetadata,
    client: &'a ClientRegistration,
    resource: &'a str,
    scope: Option<&'a str>,
}

/// The RFC 9207 check of an authorization response's `iss`: when present it must equal the
/// issuer exactly (no normalization), advertised or not; when the server advertises it, it
/// must be present.
///
/// # Errors
///
/// [`AuthError::IssuerParameter`] when the check fails.
pub(crate) fn check_issuer_parameter(
    issuer: &str,
    advertised: bool,
    iss: Option<&str>,
) -> Result<(), AuthError> {
    match iss {
        Some(iss) if iss == issuer => Ok(()),
        None if !advertised => Ok(()),
        found => Err(AuthError::IssuerParameter {
            expected: issuer.to_owned(),
            found: found.map(str::to_owned),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::{check_issuer_parameter, same_redirect};

    #[test]
    fn loopback_redirects_compare_without_their_port() {
        let registered = "http://127.0.0.1:41234/callback";
        assert!(same_redirect(registered, "http://127.0.0.1:50000/callback"));
        assert!(same_redirect(registered, "http://127.0.0.1/callback"));
        assert!(same_redirect("http://[::1]:1/cb", "http://[::1]:2/cb"));
        assert!(!same_redirect(registered, "http://127.0.0.1:50000/other"));
        assert!(!same_redirect(registered, "http://[::1]:41234/callback"));
        assert!(!same_redirect(
            registered,
            "https://127.0.0.1:41234/callback"
        ));
        // Not loopback: the port is part of the registration.
        assert!(!same_redirect(
            "http://app.example:1/cb",
            "http://app.example:2/cb"
        ));
        assert!(!same_redirect(
            "https://app.example:1/cb",
            "https://app.example:2/cb"
        ));
        assert!(same_redirect(
            "https://app.example/cb",
            "https://app.example/cb"
        ));
    }

    #[test]
    fn the_documented_issuer_parameter_checks() {
        let issuer = "https://auth.example.com";
        assert!(check_issuer_parameter(issuer, true, Some(issuer)).is_ok());
        assert!(check_issuer_parameter(issuer, false, None).is_ok());
        assert!(check_issuer_parameter(issuer, true, None).is_err());
        assert!(check_issuer_parameter(issuer, false, Some("https://evil.example.com")).is_err());
        assert!(check_issuer_parameter(issuer, true, Some("https://auth.example.com/")).is_err());
    }
}
