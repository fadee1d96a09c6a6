//! The client logs in with OAuth against a small authorization server written here (dynamic
//! registration, PKCE S256, RFC 9207 `iss`, refresh tokens, real ES256 tokens), and calls a
//! server protected with `mcpwire::auth`: the first `401` runs the flow, a tool needing more
//! scopes steps up, an expired token is refreshed, and a second client reuses the tokens of the
//! file store without authorizing again, on both revisions. And what the client refuses: secrets
//! for another issuer, endpoints that are not https (or loopback), protected-resource metadata
//! without `resource` or on another origin, a new login when only refreshes are allowed.

use axum::extract::{Form, Query, State};
use axum::http::StatusCode;
use axum::http::header::{CONTENT_TYPE, LOCATION};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcpwire::auth::{Authorization, JwksSource, JwtVerifier, ProtectedResource};
use mcpwire::client::auth::{
    AuthError, AuthFuture, AuthorizationResponse, Authorizer, ClientRegistration, FileStore,
    HeadlessAuthorizer, OAuth, TokenStore,
};
use mcpwire::client::{Client, ClientError, EraChoice};
use mcpwire::prelude::*;
use mcpwire::protocol::Era;
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Who is calling: the issuer and the subject (two issuers may both have an `alice`).
#[tool]
async fn whoami(ctx: Context) -> String {
    match ctx.principal() {
        Some(who) => format!("{} {}", who.issuer().unwrap_or("-"), who.subject()),
        None => "nobody".into(),
    }
}

/// Places an order: only for tokens granting `orders:write`.
#[tool(scopes = ["orders:write"])]
async fn place_order(ctx: Context) -> String {
    let scopes = ctx.grant().map(|g| g.scopes.join(" ")).unwrap_or_default();
    format!("ordered (scopes: {scopes})")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn random() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).unwrap();
    URL_SAFE_NO_PAD.encode(bytes)
}

/// The authorization server's signing key and the JWK of its public half.
struct Key {
    private: EncodingKey,
    jwk: Value,
}

impl Key {
    fn new() -> Self {
        let mut bytes = [0u8; 32];
        let secret = loop {
            getrandom::fill(&mut bytes).unwrap();
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let der = secret.to_pkcs8_der().unwrap();
        let mut jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string()).unwrap();
        jwk["kid"] = json!("as-key");
        jwk["alg"] = json!("ES256");
        Key {
            private: EncodingKey::from_ec_der(der.as_bytes()),
            jwk,
        }
    }
}

/// A code waiting to be exchanged.
struct Pending {
    challenge: String,
    client_id: String,
    redirect_uri: String,
    resource: String,
    scope: String,
}

/// What the authorization server saw, and its state.
#[derive(Default)]
struct Seen {
    metadata_requests: usize,
    registrations: Vec<Value>,
    authorizations: Vec<HashMap<String, String>>,
    token_grants: Vec<String>,
    codes: HashMap<String, Pending>,
    refresh_tokens: HashMap<String, (String, String)>,
}

struct AuthServer {
    issuer: String,
    key: Key,
    seen: Mutex<Seen>,
    /// Seconds the next access tokens live.
    lifetime: AtomicU64,
    /// The user says no.
    deny: AtomicBool,
    /// Where the metadata says the endpoints are (default: under the issuer).
    endpoints: Mutex<Option<String>>,
}

type Shared = Arc<AuthServer>;

fn json_response(status: StatusCode, body: Value) -> Response {
    (
        status,
        [(CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

fn oauth_error(error: &str) -> Response {
    json_response(StatusCode::BAD_REQUEST, json!({"error": error}))
}

async fn metadata(State(auth): State<Shared>) -> Response {
    auth.seen.lock().unwrap().metadata_requests += 1;
    let issuer = &auth.issuer;
    let base = auth.endpoints.lock().unwrap().clone();
    let base = base.as_deref().unwrap_or(issuer);
    json_response(
        StatusCode::OK,
        json!({
            "issuer": issuer,
            "authorization_endpoint": format!("{base}/authorize"),
            "token_endpoint": format!("{base}/token"),
            "registration_endpoint": format!("{base}/register"),
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "code_challenge_methods_supported": ["S256"],
            "token_endpoint_auth_methods_supported": ["none"],
            "authorization_response_iss_parameter_supported": true,
        }),
    )
}

async fn register(State(auth): State<Shared>, body: String) -> Response {
    let Ok(request) = serde_json::from_str::<Value>(&body) else {
        return oauth_error("invalid_client_metadata");
    };
    let client_id = format!("client-{}", random());
    let mut registered = request.clone();
    registered["client_id"] = json!(client_id);
    registered["token_endpoint_auth_method"] = json!("none");
    auth.seen
        .lock()
        .unwrap()
        .registrations
        .push(registered.clone());
    json_response(StatusCode::CREATED, registered)
}

async fn authorize(
    State(auth): State<Shared>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let mut seen = auth.seen.lock().unwrap();
    seen.authorizations.push(query.clone());
    let field = |name: &str| query.get(name).cloned().unwrap_or_default();
    // RFC 8252 §7.3: a loopback redirect URI matches whatever its port.
    let portless = |uri: &str| {
        let mut url = reqwest::Url::parse(uri).ok()?;
        url.set_port(None).ok()?;
        Some(url)
    };
    let registered = seen.registrations.iter().any(|r| {
        r["client_id"] == field("client_id")
            && r["redirect_uris"][0]
                .as_str()
                .is_some_and(|uri| portless(uri) == portless(&field("redirect_uri")))
    });
    if !registered || field("response_type") != "code" || field("code_challenge_method") != "S256" {
        return oauth_error("invalid_request");
    }
    let mut redirect = reqwest::Url::parse(&field("redirect_uri")).unwrap();
    if auth.deny.load(Ordering::SeqCst) {
        redirect
            .query_pairs_mut()
            .append_pair("error", "access_denied")
            .append_pair("state", &field("state"));
    } else {
        let code = random();
        seen.codes.insert(
            code.clone(),
            Pending {
                challenge: field("code_challenge"),
                client_id: field("client_id"),
                redirect_uri: field("redirect_uri"),
                resource: field("resource"),
                scope: field("scope"),
            },
        );
        redirect
            .query_pairs_mut()
            .append_pair("code", &code)
            .append_pair("state", &field("state"))
            .append_pair("iss", &auth.issuer);
    }
    (StatusCode::FOUND, [(LOCATION, redirect.to_string())]).into_response()
}

async fn token(State(auth): State<Shared>, Form(form): Form<HashMap<String, String>>) -> Response {
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let mut seen = auth.seen.lock().unwrap();
    seen.token_grants.push(field("grant_type"));
    let (scope, resource) = match field("grant_type").as_str() {
        "authorization_code" => {
            let Some(pending) = seen.codes.remove(&field("code")) else {
                return oauth_error("invalid_grant");
            };
            let verifier = URL_SAFE_NO_PAD.encode(Sha256::digest(field("code_verifier")));
            if verifier != pending.challenge
                || field("client_id") != pending.client_id
                || field("redirect_uri") != pending.redirect_uri
                || field("resource") != pending.resource
            {
                return oauth_error("invalid_grant");
            }
            (pending.scope, pending.resource)
        }
        "refresh_token" => match seen.refresh_tokens.get(&field("refresh_token")) {
            Some((scope, resource)) if *resource == field("resource") => {
                (scope.clone(), resource.clone())
            }
            _ => return oauth_error("invalid_grant"),
        },
        // The machine's own credentials (the Basic header is not looked at here).
        "client_credentials" => (field("scope"), field("resource")),
        _ => return oauth_error("unsupported_grant_type"),
    };
    let lifetime = auth.lifetime.load(Ordering::SeqCst);
    let claims = json!({"iss": auth.issuer, "aud": resource, "sub": "alice", "scope": scope,
                        "iat": now(), "exp": now() + lifetime});
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("as-key".into());
    let access_token = encode(&header, &claims, &auth.key.private).unwrap();
    let refresh_token = random();
    seen.refresh_tokens
        .insert(refresh_token.clone(), (scope.clone(), resource));
    json_response(
        StatusCode::OK,
        json!({"access_token": access_token, "token_type": "Bearer", "expires_in": lifetime,
               "refresh_token": refresh_token, "scope": scope}),
    )
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Self {
        let dir = std::env::temp_dir().join(format!("mcpwire-oauth-{}", random()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The authorization server and the protected MCP server, on free ports.
struct World {
    auth: Shared,
    server_url: String,
    dir: TempDir,
}

async fn world() -> World {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let auth = Arc::new(AuthServer {
        issuer: format!("http://{}", listener.local_addr().unwrap()),
        key: Key::new(),
        seen: Mutex::default(),
        lifetime: AtomicU64::new(300),
        deny: AtomicBool::new(false),
        endpoints: Mutex::default(),
    });
    let app = axum::Router::new()
        .route("/.well-known/oauth-authorization-server", get(metadata))
        .route("/register", post(register))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .with_state(auth.clone());
    tokio::spawn(async move { axum::serve(listener, app).await });

    let dir = TempDir::new();
    let jwks = dir.0.join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [auth.key.jwk]}).to_string()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let server_url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let resource = ProtectedResource::new(&server_url, &auth.issuer);
    let verifier =
        JwtVerifier::new(&auth.issuer, resource.resource(), JwksSource::File(jwks)).leeway(0);
    let authorization = Authorization::new(verifier, resource).required_scopes(["mcp:tools"]);
    let server = McpServer::new("protected")
        .tool(whoami)
        .unwrap()
        .tool(place_order)
        .unwrap()
        .http()
        .authorization(authorization);
    tokio::spawn(server.serve_listener(listener, std::future::pending()));
    World {
        auth,
        server_url,
        dir,
    }
}

impl World {
    fn oauth(&self) -> OAuth {
        OAuth::new(HeadlessAuthorizer::new("http://127.0.0.1:9/callback"))
            .client_name("oauth-test")
            .store(FileStore::new(self.dir.0.join("credentials.json")))
    }

    /// What `whoami` answers for the authorization server's `alice`.
    fn alice(&self) -> String {
        format!("{} alice", self.auth.issuer)
    }

    fn seen<T>(&self, look: impl FnOnce(&Seen) -> T) -> T {
        look(&self.auth.seen.lock().unwrap())
    }
}

async fn text_of(client: &Client, tool: &str) -> String {
    let result = client.call_tool(tool, json!({})).await.unwrap();
    let content = serde_json::to_value(&result.content).unwrap();
    content[0]["text"].as_str().unwrap_or_default().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_in_steps_up_refreshes_and_reuses_stored_tokens() {
    let world = world().await;
    let client = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(client.era(), Era::Modern);
    assert_eq!(text_of(&client, "whoami").await, world.alice());

    // One native registration with the refresh grant; one authorization, for the challenge's
    // scope and this server's resource.
    world.seen(|seen| {
        assert_eq!(seen.registrations.len(), 1);
        let registration = &seen.registrations[0];
        assert_eq!(registration["application_type"], "native");
        assert_eq!(registration["client_name"], "oauth-test");
        let grants = registration["grant_types"].as_array().unwrap();
        assert!(grants.contains(&json!("refresh_token")));
        assert_eq!(seen.authorizations.len(), 1);
        let first = &seen.authorizations[0];
        assert_eq!(first["scope"], "mcp:tools");
        assert_eq!(first["resource"], world.server_url);
        assert_eq!(seen.token_grants, ["authorization_code"]);
    });

    // The tool needs orders:write: 403, a second authorization for the union, the call again.
    let ordered = text_of(&client, "place_order").await;
    assert!(ordered.contains("orders:write"), "{ordered}");
    world.seen(|seen| {
        assert_eq!(seen.authorizations.len(), 2);
        let scopes: Vec<&str> = seen.authorizations[1]["scope"].split(' ').collect();
        assert!(scopes.contains(&"mcp:tools") && scopes.contains(&"orders:write"));
    });

    // The stored access token goes bad (the refresh token stays): the next client must refresh.
    drop(client);
    let store = FileStore::new(world.dir.0.join("credentials.json"));
    let mut credentials = mcpwire::client::auth::TokenStore::load(&store).unwrap();
    let tokens = credentials.tokens.get_mut(&world.server_url).unwrap();
    assert!(tokens.refresh_token.is_some());
    tokens.access_token = "revoked".into();
    mcpwire::client::auth::TokenStore::save(&store, &credentials).unwrap();

    // A new client, a new OAuth, the same file: no new registration or authorization.
    let client = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    let ordered = text_of(&client, "place_order").await;
    assert!(ordered.contains("orders:write"), "{ordered}");
    world.seen(|seen| {
        assert_eq!(seen.registrations.len(), 1);
        assert_eq!(seen.authorizations.len(), 2);
        assert_eq!(
            seen.token_grants.last().map(String::as_str),
            Some("refresh_token")
        );
    });

    // 2025-11-25 with the stored token.
    let legacy = Client::builder()
        .era(EraChoice::Legacy)
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(legacy.era(), Era::Legacy);
    assert_eq!(text_of(&legacy, "whoami").await, world.alice());
    world.seen(|seen| assert_eq!(seen.authorizations.len(), 2));
    legacy.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expired_token_is_refreshed_once_for_concurrent_calls_without_the_user() {
    let world = world().await;
    world.auth.lifetime.store(1, Ordering::SeqCst);
    let client = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    world.auth.lifetime.store(300, Ordering::SeqCst);
    // The verifier has no leeway: after 2 s the 1 s token is refused with 401.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let refreshes = |seen: &Seen| {
        seen.token_grants
            .iter()
            .filter(|g| *g == "refresh_token")
            .count()
    };
    let before = world.seen(refreshes);
    // Four calls meet the 401 together: one refresh serves them all.
    let calls = tokio::join!(
        text_of(&client, "whoami"),
        text_of(&client, "whoami"),
        text_of(&client, "whoami"),
        text_of(&client, "whoami"),
    );
    let alice = world.alice();
    assert_eq!(
        calls,
        (alice.clone(), alice.clone(), alice.clone(), alice.clone())
    );
    world.seen(|seen| {
        assert_eq!(seen.authorizations.len(), 1);
        assert_eq!(seen.token_grants[0], "authorization_code");
        assert_eq!(refreshes(seen), before + 1);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_denied_authorization_is_an_error_and_no_token_is_asked_for() {
    let world = world().await;
    world.auth.deny.store(true, Ordering::SeqCst);
    let error = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap_err();
    match &error {
        ClientError::Auth(AuthError::Refused { error, .. }) => assert_eq!(error, "access_denied"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    world.seen(|seen| assert!(seen.token_grants.is_empty()));
}

/// The error `oauth` ends with when connecting to `url`.
async fn auth_error(oauth: OAuth, url: &str) -> AuthError {
    match Client::builder().oauth(oauth).connect_http(url).await {
        Err(ClientError::Auth(error)) => error,
        Err(other) => panic!("expected an authorization error, got {other:?}"),
        Ok(_) => panic!("expected an authorization error, got a connection"),
    }
}

/// Records the authorization URLs it is given, and goes no further.
#[derive(Clone, Default)]
struct Recording(Arc<Mutex<Vec<String>>>);

impl Authorizer for Recording {
    fn redirect_uri(&self) -> String {
        "http://127.0.0.1:9/callback".into()
    }

    fn authorize<'a>(
        &'a self,
        url: &'a str,
    ) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>> {
        self.0.lock().unwrap().push(url.to_owned());
        Box::pin(async { Err(AuthError::Authorizer("recorded only".into())) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pre_registered_secrets_go_to_their_issuer_only() {
    let world = world().await;
    let client = ClientRegistration::new("pre")
        .secret("pre-secret")
        .issuer("https://auth.elsewhere.example");
    let oauth = OAuth::new(Recording::default()).pre_registered(client);
    let error = auth_error(oauth, &world.server_url).await;
    match &error {
        AuthError::OtherIssuer { configured, found } => {
            assert_eq!(configured, "https://auth.elsewhere.example");
            assert_eq!(*found, world.auth.issuer);
        }
        other => panic!("expected OtherIssuer, got {other:?}"),
    }
    let message = error.to_string();
    assert!(
        message.contains("https://auth.elsewhere.example") && message.contains(&world.auth.issuer),
        "{message}"
    );
    assert!(!message.contains("pre-secret"), "{message}");
    world.seen(|seen| {
        assert!(seen.token_grants.is_empty() && seen.authorizations.is_empty());
        assert!(seen.registrations.is_empty());
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_without_an_issuer_are_sent_to_no_authorization_server() {
    let world = world().await;
    // Client credentials and pre-registered ones: neither goes to the first issuer met.
    let worker = ClientRegistration::new("worker").secret("w-secret");
    let pre = ClientRegistration::new("pre").secret("pre-secret");
    let unbound = [
        OAuth::client_credentials(worker),
        OAuth::new(Recording::default()).pre_registered(pre),
    ];
    for oauth in unbound {
        let error = auth_error(oauth, &world.server_url).await;
        match &error {
            AuthError::NoIssuer { found } => assert_eq!(*found, world.auth.issuer),
            other => panic!("expected NoIssuer, got {other:?}"),
        }
        let message = error.to_string();
        assert!(message.contains("ClientRegistration::issuer"), "{message}");
        assert!(!message.contains("secret"), "{message}");
    }
    world.seen(|seen| {
        assert!(seen.token_grants.is_empty() && seen.authorizations.is_empty());
        assert!(seen.registrations.is_empty());
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn client_credentials_go_to_their_issuer_and_never_to_another() {
    let first = world().await;
    let second = world().await;
    // The issuer learnt from the server the machine trusts.
    let issuer = OAuth::client_credentials(ClientRegistration::new("probe"))
        .discover_issuer(&first.server_url)
        .await
        .unwrap();
    assert_eq!(issuer, first.auth.issuer);
    let worker = ClientRegistration::new("worker")
        .secret("w-secret")
        .issuer(issuer);
    let oauth = OAuth::client_credentials(worker);
    let client = Client::builder()
        .oauth(oauth.clone())
        .connect_http(&first.server_url)
        .await
        .unwrap();
    assert_eq!(text_of(&client, "whoami").await, first.alice());
    first.seen(|seen| assert_eq!(seen.token_grants, ["client_credentials"]));

    // The same credentials, a resource pointing to another authorization server: refused,
    // naming both, and the second one never sees a token request.
    let error = auth_error(oauth, &second.server_url).await;
    match &error {
        AuthError::OtherIssuer { configured, found } => {
            assert_eq!(*configured, first.auth.issuer);
            assert_eq!(*found, second.auth.issuer);
        }
        other => panic!("expected OtherIssuer, got {other:?}"),
    }
    second.seen(|seen| assert!(seen.token_grants.is_empty()));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_issuer_on_plain_http_off_loopback_is_refused_before_its_metadata_is_fetched() {
    let world = world().await;
    // TEST-NET-1 (RFC 5737): not loopback; were its metadata fetched, the error would be a
    // failed fetch.
    let metadata = json!({"resource": SELF, "authorization_servers": ["http://192.0.2.1:9"]});
    let url = fake_resource(metadata, None).await;
    let browser = Recording::default();
    let error = auth_error(OAuth::new(browser.clone()), &url).await;
    match &error {
        AuthError::InsecureEndpoint { endpoint, url } => {
            assert_eq!(*endpoint, "issuer");
            assert_eq!(url, "http://192.0.2.1:9");
        }
        other => panic!("expected InsecureEndpoint, got {other:?}"),
    }
    assert!(error.to_string().contains("not https"), "{error}");
    assert!(browser.0.lock().unwrap().is_empty());
    // An issuer on loopback (the test's own) is fine: the login goes through.
    let client = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(text_of(&client, "whoami").await, world.alice());
}

/// Goes to the authorization page, and hands back a forged redirect instead of the real one:
/// an `error` under another `state`.
struct Forger;

impl Authorizer for Forger {
    fn redirect_uri(&self) -> String {
        "http://127.0.0.1:9/callback".into()
    }

    fn authorize<'a>(
        &'a self,
        _url: &'a str,
    ) -> AuthFuture<'a, Result<AuthorizationResponse, AuthError>> {
        let forged = "error=access_denied&error_description=forged&state=not-the-login";
        Box::pin(async move { Ok(AuthorizationResponse::from_query(forged)) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_forged_error_redirect_is_refused_for_its_state_not_taken_for_a_denial() {
    let world = world().await;
    let oauth = OAuth::new(Forger).store(FileStore::new(world.dir.0.join("forged.json")));
    let error = auth_error(oauth, &world.server_url).await;
    assert!(matches!(error, AuthError::StateMismatch), "{error:?}");
    assert!(!error.to_string().contains("forged"), "{error}");
    world.seen(|seen| assert!(seen.token_grants.is_empty()));
    // The real login afterwards is not held up by it.
    let client = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(text_of(&client, "whoami").await, world.alice());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn endpoints_that_are_not_https_or_loopback_are_never_shown_or_sent_to() {
    let world = world().await;
    // TEST-NET-1 (RFC 5737): never reached, and not loopback.
    *world.auth.endpoints.lock().unwrap() = Some("http://192.0.2.1:9".into());
    let browser = Recording::default();
    let oauth = OAuth::new(browser.clone());
    let error = auth_error(oauth, &world.server_url).await;
    assert!(
        matches!(&error, AuthError::InsecureEndpoint { url, .. } if url.starts_with("http://192.0.2.1:9/")),
        "{error:?}"
    );
    assert!(browser.0.lock().unwrap().is_empty());

    // A pre-registered secret is not sent there either.
    let client = ClientRegistration::new("pre").secret("s");
    let oauth = OAuth::new(browser.clone()).pre_registered(client);
    let error = auth_error(oauth, &world.server_url).await;
    assert!(
        matches!(error, AuthError::InsecureEndpoint { .. }),
        "{error:?}"
    );
    assert!(browser.0.lock().unwrap().is_empty());
}

/// In a fake resource's metadata, its own URL.
const SELF: &str = "{self}";

/// A resource server that answers every MCP request `401` (with `challenge`, when given, as its
/// `resource_metadata`) and publishes `metadata` at its path-based well-known URL (a `resource`
/// of [`SELF`] replaced with its URL).
async fn fake_resource(mut metadata: Value, challenge: Option<String>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    if metadata["resource"] == SELF {
        metadata["resource"] = json!(url);
    }
    let header = match challenge {
        Some(at) => format!("Bearer resource_metadata=\"{at}\""),
        None => "Bearer".to_owned(),
    };
    let refuse = move || {
        let header = header.clone();
        async move {
            let www = axum::http::header::WWW_AUTHENTICATE;
            (StatusCode::UNAUTHORIZED, [(www, header)]).into_response()
        }
    };
    let app = axum::Router::new()
        .route("/mcp", post(refuse.clone()).get(refuse))
        .route(
            "/.well-known/oauth-protected-resource/mcp",
            get(move || {
                let metadata = metadata.clone();
                async move { json_response(StatusCode::OK, metadata) }
            }),
        );
    tokio::spawn(async move { axum::serve(listener, app).await });
    url
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resource_metadata_without_resource_is_refused() {
    let world = world().await;
    let metadata = json!({"authorization_servers": [world.auth.issuer]});
    let url = fake_resource(metadata, None).await;
    let error = auth_error(world.oauth(), &url).await;
    assert!(matches!(error, AuthError::NoResource(_)), "{error:?}");
    world.seen(|seen| assert_eq!(seen.metadata_requests, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_resource_metadata_url_on_another_origin_is_not_fetched() {
    let world = world().await;
    // Another origin (another port) that counts what it is asked.
    let asked = Arc::new(AtomicUsize::new(0));
    let counter = asked.clone();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let elsewhere = format!("http://{}/prm.json", listener.local_addr().unwrap());
    let app = axum::Router::new().fallback(move || {
        counter.fetch_add(1, Ordering::SeqCst);
        async { StatusCode::NOT_FOUND }
    });
    tokio::spawn(async move { axum::serve(listener, app).await });

    let metadata = json!({"resource": "unused", "authorization_servers": [world.auth.issuer]});
    let url = fake_resource(metadata, Some(elsewhere.clone())).await;
    let error = auth_error(world.oauth(), &url).await;
    match &error {
        AuthError::ForeignResourceMetadata { url: named, server } => {
            assert_eq!(*named, elsewhere);
            assert_eq!(*server, url);
        }
        other => panic!("expected ForeignResourceMetadata, got {other:?}"),
    }
    assert_eq!(asked.load(Ordering::SeqCst), 0);
    world.seen(|seen| assert_eq!(seen.metadata_requests, 0));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refresh_only_never_starts_a_login_and_refreshes_a_stored_one() {
    let world = world().await;
    let path = world.dir.0.join("credentials.json");
    let refresh_only = || {
        OAuth::new(Recording::default())
            .refresh_only()
            .store(FileStore::new(&path))
    };
    // Nothing stored: refused before any discovery, registration or write.
    let error = auth_error(refresh_only(), &world.server_url).await;
    assert!(
        matches!(&error, AuthError::LoginRequired(url) if *url == world.server_url),
        "{error:?}"
    );
    assert!(!path.exists());
    world.seen(|seen| {
        assert_eq!(seen.metadata_requests, 0);
        assert!(seen.registrations.is_empty());
    });

    // Logged in (another OAuth on the same file), the access token gone bad: refreshed.
    let client = Client::builder()
        .oauth(world.oauth())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    client.close().await;
    let store = FileStore::new(&path);
    let mut credentials = store.load().unwrap();
    credentials
        .tokens
        .get_mut(&world.server_url)
        .unwrap()
        .access_token = "revoked".into();
    store.save(&credentials).unwrap();
    let client = Client::builder()
        .oauth(refresh_only())
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(text_of(&client, "whoami").await, world.alice());
    // A step-up would need the user: refused, and nothing more is asked of the server.
    let error = client
        .call_tool("place_order", json!({}))
        .await
        .unwrap_err();
    assert!(
        matches!(error, ClientError::Auth(AuthError::LoginRequired(_))),
        "{error:?}"
    );
    world.seen(|seen| {
        assert_eq!(seen.authorizations.len(), 1);
        assert_eq!(seen.token_grants, ["authorization_code", "refresh_token"]);
    });
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refresh_or_a_new_login_on_another_loopback_port_keeps_the_registration() {
    let world = world().await;
    let path = world.dir.0.join("credentials.json");
    let on_port = |port: u16| {
        OAuth::new(HeadlessAuthorizer::new(format!(
            "http://127.0.0.1:{port}/callback"
        )))
        .store(FileStore::new(&path))
    };
    let client = Client::builder()
        .oauth(on_port(41001))
        .connect_http(&world.server_url)
        .await
        .unwrap();
    client.close().await;
    let store = FileStore::new(&path);
    let spoil = |drop_refresh: bool| {
        let mut credentials = store.load().unwrap();
        let tokens = credentials.tokens.get_mut(&world.server_url).unwrap();
        tokens.access_token = "revoked".into();
        if drop_refresh {
            tokens.refresh_token = None;
        }
        store.save(&credentials).unwrap();
    };

    // A refresh from a listener on another port: the registered client, no new registration.
    spoil(false);
    let client = Client::builder()
        .oauth(on_port(41002))
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(text_of(&client, "whoami").await, world.alice());
    client.close().await;
    world.seen(|seen| {
        assert_eq!(seen.registrations.len(), 1);
        assert_eq!(seen.token_grants.last().unwrap(), "refresh_token");
    });

    // A new login on yet another port: still the same registration (RFC 8252 §7.3).
    spoil(true);
    let client = Client::builder()
        .oauth(on_port(41003))
        .connect_http(&world.server_url)
        .await
        .unwrap();
    assert_eq!(text_of(&client, "whoami").await, world.alice());
    world.seen(|seen| {
        assert_eq!(seen.registrations.len(), 1);
        assert_eq!(seen.authorizations.len(), 2);
        assert_eq!(
            seen.authorizations[1]["redirect_uri"],
            "http://127.0.0.1:41003/callback"
        );
    });
}

/// A gateway (`mcpwire::gateway`) signs in to a protected backend with OAuth client credentials
/// of its own: the backend's `401` runs the client-credentials grant at the issuer the
/// credentials are for, and the backend sees the gateway's client as its caller, on both
/// revisions of the front, with one token for every call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_signs_in_to_its_backend_with_client_credentials() {
    use mcpwire::gateway::{Backend, Gateway};
    let world = world().await;
    let credentials = ClientRegistration::new("worker")
        .secret("w-secret")
        .issuer(world.auth.issuer.clone());
    let backend =
        Backend::http("secure", &world.server_url).oauth(OAuth::client_credentials(credentials));
    let gateway = Gateway::new()
        .backend(backend)
        .start(McpServer::new("gateway"))
        .await
        .unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    tokio::spawn(
        gateway
            .http()
            .serve_listener(listener, std::future::pending()),
    );
    for era in [EraChoice::Legacy, EraChoice::Modern] {
        let front = Client::builder().era(era).connect_http(&url).await.unwrap();
        assert_eq!(
            text_of(&front, "secure_whoami").await,
            world.alice(),
            "{era:?}"
        );
        front.close().await;
    }
    world.seen(|seen| {
        assert_eq!(seen.token_grants, ["client_credentials"]);
        assert!(seen.authorizations.is_empty() && seen.registrations.is_empty());
    });
}
