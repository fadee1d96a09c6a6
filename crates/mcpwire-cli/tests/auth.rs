//! `auth login|status|logout` against a local authorization server made here (OAuth 2.1 with
//! dynamic registration, PKCE and ES256 access tokens), and the protected bookshop example
//! (`--auth-issuer/--auth-audience/--auth-jwks`; `order_book` needs `orders:write`). The test
//! plays the browser: it reads the login URL the CLI prints, follows it to the authorization
//! server, and delivers the redirect to the CLI's loopback listener (after requests that are
//! not the login's, which the listener turns away).

mod common;

use axum::extract::{Form, Query, State};
use axum::http::StatusCode;
use axum::http::header::LOCATION;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use common::{HttpServer, cli, example_bin, free_port};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::Ordering::SeqCst;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

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

/// The authorization server: its issuer, signing key, and the codes it handed out.
struct AuthServer {
    issuer: String,
    key: EncodingKey,
    /// code -> (PKCE challenge, requested scope, resource)
    codes: Mutex<HashMap<String, (String, String, String)>>,
    /// Issue tokens that expired a minute ago (and no refresh token).
    expired: std::sync::atomic::AtomicBool,
    /// Issue tokens that expired a minute ago with a refresh token, which gets good ones.
    refreshable: std::sync::atomic::AtomicBool,
    /// refresh token -> (scope, resource)
    refresh_tokens: Mutex<HashMap<String, (String, String)>>,
    /// How many times the metadata and the registration endpoint were asked.
    metadata_requests: std::sync::atomic::AtomicUsize,
    registrations: std::sync::atomic::AtomicUsize,
    /// Where the metadata says the endpoints are (default: under the issuer).
    endpoints: Mutex<Option<String>>,
}

type Shared = Arc<AuthServer>;

async fn metadata(State(auth): State<Shared>) -> Response {
    auth.metadata_requests.fetch_add(1, SeqCst);
    let issuer = &auth.issuer;
    let base = auth.endpoints.lock().unwrap().clone();
    let base = base.as_deref().unwrap_or(issuer);
    axum_json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{base}/authorize"),
        "token_endpoint": format!("{base}/token"),
        "registration_endpoint": format!("{base}/register"),
        "response_types_supported": ["code"],
        "grant_types_supported": ["authorization_code", "refresh_token"],
        "code_challenge_methods_supported": ["S256"],
        "token_endpoint_auth_methods_supported": ["none"],
        "authorization_response_iss_parameter_supported": true,
    }))
}

fn axum_json(body: Value) -> Response {
    (
        [(axum::http::header::CONTENT_TYPE, "application/json")],
        body.to_string(),
    )
        .into_response()
}

async fn register(State(auth): State<Shared>, body: String) -> Response {
    auth.registrations.fetch_add(1, SeqCst);
    let mut registered: Value = serde_json::from_str(&body).unwrap_or(json!({}));
    registered["client_id"] = json!(format!("cli-{}", random()));
    registered["token_endpoint_auth_method"] = json!("none");
    (StatusCode::CREATED, axum_json(registered)).into_response()
}

async fn authorize(
    State(auth): State<Shared>,
    Query(query): Query<HashMap<String, String>>,
) -> Response {
    let field = |name: &str| query.get(name).cloned().unwrap_or_default();
    if field("code_challenge_method") != "S256" || field("response_type") != "code" {
        return (StatusCode::BAD_REQUEST, "bad authorization request").into_response();
    }
    let code = random();
    auth.codes.lock().unwrap().insert(
        code.clone(),
        (field("code_challenge"), field("scope"), field("resource")),
    );
    let mut redirect = url::Url::parse(&field("redirect_uri")).unwrap();
    redirect
        .query_pairs_mut()
        .append_pair("code", &code)
        .append_pair("state", &field("state"))
        .append_pair("iss", &auth.issuer);
    (StatusCode::FOUND, [(LOCATION, redirect.to_string())]).into_response()
}

async fn token(State(auth): State<Shared>, Form(form): Form<HashMap<String, String>>) -> Response {
    let field = |name: &str| form.get(name).cloned().unwrap_or_default();
    let invalid_grant =
        || (StatusCode::BAD_REQUEST, r#"{"error":"invalid_grant"}"#).into_response();
    let refreshable = auth.refreshable.load(SeqCst);
    let (scope, resource, expired, refresh_token) = if field("grant_type") == "refresh_token" {
        let known = auth
            .refresh_tokens
            .lock()
            .unwrap()
            .get(&field("refresh_token"))
            .cloned();
        let Some((scope, resource)) = known else {
            return invalid_grant();
        };
        (scope, resource, false, None)
    } else {
        let Some((challenge, scope, resource)) = auth.codes.lock().unwrap().remove(&field("code"))
        else {
            return invalid_grant();
        };
        if URL_SAFE_NO_PAD.encode(Sha256::digest(field("code_verifier"))) != challenge {
            return invalid_grant();
        }
        let refresh_token = refreshable.then(|| {
            let token = random();
            let kept = (scope.clone(), resource.clone());
            auth.refresh_tokens
                .lock()
                .unwrap()
                .insert(token.clone(), kept);
            token
        });
        let expired = auth.expired.load(SeqCst) || refreshable;
        (scope, resource, expired, refresh_token)
    };
    let exp = if expired { now() - 60 } else { now() + 600 };
    let claims = json!({"iss": auth.issuer, "aud": resource, "sub": "alice", "scope": scope,
                        "iat": now(), "exp": exp});
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("as-key".into());
    let access_token = encode(&header, &claims, &auth.key).unwrap();
    axum_json(json!({"access_token": access_token, "token_type": "Bearer",
                     "expires_in": 600, "scope": scope, "refresh_token": refresh_token}))
}

/// Starts the authorization server; writes its public key as a JWKS into `dir`.
async fn start_auth_server(dir: &Path) -> (String, PathBuf, Shared) {
    let secret = loop {
        let mut bytes = [0u8; 32];
        getrandom::fill(&mut bytes).unwrap();
        if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
            break secret;
        }
    };
    let mut jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string()).unwrap();
    jwk["kid"] = json!("as-key");
    jwk["alg"] = json!("ES256");
    let jwks = dir.join("jwks.json");
    std::fs::write(&jwks, json!({"keys": [jwk]}).to_string()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let issuer = format!("http://{}", listener.local_addr().unwrap());
    let der = secret.to_pkcs8_der().unwrap();
    let state = Arc::new(AuthServer {
        issuer: issuer.clone(),
        key: EncodingKey::from_ec_der(der.as_bytes()),
        codes: Mutex::default(),
        expired: Default::default(),
        refreshable: Default::default(),
        refresh_tokens: Mutex::default(),
        metadata_requests: Default::default(),
        registrations: Default::default(),
        endpoints: Mutex::default(),
    });
    let shared = state.clone();
    let app = axum::Router::new()
        .route("/.well-known/oauth-authorization-server", get(metadata))
        .route("/register", post(register))
        .route("/authorize", get(authorize))
        .route("/token", post(token))
        .with_state(state);
    tokio::spawn(async move { axum::serve(listener, app).await });
    (issuer, jwks, shared)
}

/// The CLI with its logins kept in `credentials`.
fn cli_with(credentials: &Path, args: &[&str]) -> std::process::Output {
    cli()
        .env("MCPWIRE_CLI_CREDENTIALS", credentials)
        .env_remove("BROWSER")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the CLI runs")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn logs_in_then_every_command_uses_the_login_until_logout() {
    let dir = tempfile::tempdir().unwrap();
    let credentials = dir.path().join("credentials.json");
    let (issuer, jwks, auth_server) = start_auth_server(dir.path()).await;
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut shop = Command::new(example_bin("bookshop"));
    shop.args(["--http", &format!("127.0.0.1:{port}")])
        .args([
            "--auth-issuer",
            &issuer,
            "--auth-audience",
            &url,
            "--auth-jwks",
        ])
        .arg(&jwks);
    let _shop = HttpServer::start(shop);

    // Not logged in: a call fails with exit 3, saying how to log in, having asked the
    // authorization server nothing and written no credentials.
    let call = ["call", "--url", &url, "order_book", "title=Dune"];
    let refused = cli_with(&credentials, &call);
    assert_eq!(refused.status.code(), Some(3), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("auth login"),
        "{refused:?}"
    );
    assert_eq!(auth_server.metadata_requests.load(SeqCst), 0);
    assert_eq!(auth_server.registrations.load(SeqCst), 0);
    assert!(!credentials.exists());

    // Log in, playing the browser.
    log_in(&credentials, &url, &issuer).await;

    // The stored login is used: order_book (orders:write) works, status says so.
    let ordered = cli_with(&credentials, &call);
    assert_eq!(ordered.status.code(), Some(0), "{ordered:?}");
    assert!(
        String::from_utf8_lossy(&ordered.stdout).contains("Ordered 'Dune'; it arrives tomorrow."),
        "{ordered:?}"
    );
    let shown = cli_with(&credentials, &["auth", "status", "--url", &url]);
    let shown_text = String::from_utf8_lossy(&shown.stdout).to_string();
    assert_eq!(shown.status.code(), Some(0), "{shown:?}");
    assert!(shown_text.contains("orders:write"), "{shown_text}");

    // Logged out: back to exit 3.
    let out = cli_with(&credentials, &["auth", "logout", "--url", &url]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let again = cli_with(&credentials, &call);
    assert_eq!(again.status.code(), Some(3), "{again:?}");
    let status = cli_with(&credentials, &["auth", "status", "--url", &url]);
    assert_eq!(status.status.code(), Some(3), "{status:?}");

    // A login whose token has expired, with no refresh token: exit 3, saying to log in again.
    auth_server.expired.store(true, SeqCst);
    log_in(&credentials, &url, &issuer).await;
    let stale = cli_with(&credentials, &call);
    assert_eq!(stale.status.code(), Some(3), "{stale:?}");
    let said = String::from_utf8_lossy(&stale.stderr);
    assert!(
        said.contains("login expired") && said.contains("auth login"),
        "{said}"
    );
}

/// Runs `auth login --url URL`, playing the browser: follows the printed URL to the
/// authorization server and its redirect back to the CLI's listener; the login must succeed.
async fn log_in(credentials: &Path, url: &str, issuer: &str) {
    let mut login = cli()
        .env("MCPWIRE_CLI_CREDENTIALS", credentials)
        .env_remove("BROWSER")
        .args(["auth", "login", "--url", url])
        .stdin(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = BufReader::new(login.stderr.take().unwrap());
    let (lines_tx, lines_rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in stderr.lines().map_while(Result::ok) {
            let _ = lines_tx.send(line);
        }
    });
    let login_url = loop {
        let line = lines_rx
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("the CLI prints the login URL");
        if let Some(url) = line.trim().strip_prefix("http") {
            break format!("http{url}");
        }
    };
    assert!(
        login_url.starts_with(&format!("{issuer}/authorize?")),
        "{login_url}"
    );
    let browser = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap();
    let redirect = browser.get(&login_url).send().await.unwrap();
    assert_eq!(redirect.status(), 302);
    let back = redirect.headers()[LOCATION.as_str()]
        .to_str()
        .unwrap()
        .to_owned();
    // Requests that are not the login's redirect are turned away; the listener keeps waiting.
    let callback = back.split('?').next().unwrap();
    for stray in ["", "?code=stolen", "?code=stolen&state=guessed"] {
        let turned_away = browser
            .get(format!("{callback}{stray}"))
            .send()
            .await
            .unwrap();
        assert_eq!(turned_away.status(), 400, "{stray}");
    }
    let landed = browser.get(&back).send().await.unwrap();
    assert_eq!(landed.status(), 200);
    let status = tokio::task::spawn_blocking(move || login.wait())
        .await
        .unwrap()
        .unwrap();
    // The reader thread may still be passing the last lines on: read until it ends (at the
    // pipe's end, now that the CLI exited), within a bound.
    let mut told = Vec::new();
    while let Ok(line) = lines_rx.recv_timeout(std::time::Duration::from_secs(10)) {
        told.push(line);
    }
    assert!(status.success(), "{told:?}");
    assert!(told.iter().any(|l| l.contains("Logged in to")), "{told:?}");
}

#[test]
fn auth_is_for_url_targets() {
    let dir = tempfile::tempdir().unwrap();
    let run = cli_with(
        &dir.path().join("c.json"),
        &["auth", "status", "--stdio", "true"],
    );
    assert_eq!(run.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--url"));
}

/// The protected bookshop on a free port, trusting `issuer`'s keys in `jwks`; its URL.
fn protected_bookshop(issuer: &str, jwks: &Path) -> (HttpServer, String) {
    let port = free_port();
    let url = format!("http://127.0.0.1:{port}/mcp");
    let mut shop = Command::new(example_bin("bookshop"));
    shop.args(["--http", &format!("127.0.0.1:{port}")])
        .args([
            "--auth-issuer",
            issuer,
            "--auth-audience",
            &url,
            "--auth-jwks",
        ])
        .arg(jwks);
    (HttpServer::start(shop), url)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_command_refreshes_with_the_client_registered_at_login() {
    let dir = tempfile::tempdir().unwrap();
    let credentials = dir.path().join("credentials.json");
    let (issuer, jwks, auth_server) = start_auth_server(dir.path()).await;
    let (_shop, url) = protected_bookshop(&issuer, &jwks);
    // The login's access token has already expired; its refresh token gets a good one.
    auth_server.refreshable.store(true, SeqCst);
    log_in(&credentials, &url, &issuer).await;
    assert_eq!(auth_server.registrations.load(SeqCst), 1);

    let call = ["call", "--url", &url, "order_book", "title=Dune"];
    let ordered = cli_with(&credentials, &call);
    assert_eq!(ordered.status.code(), Some(0), "{ordered:?}");
    // The command's listener-less redirect URI differs from the login's port: no new
    // registration for a refresh.
    assert_eq!(auth_server.registrations.load(SeqCst), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_url_that_is_not_https_is_never_opened() {
    let dir = tempfile::tempdir().unwrap();
    let credentials = dir.path().join("credentials.json");
    let (issuer, jwks, auth_server) = start_auth_server(dir.path()).await;
    let (_shop, url) = protected_bookshop(&issuer, &jwks);
    // TEST-NET-1 (RFC 5737): plain http, not loopback.
    *auth_server.endpoints.lock().unwrap() = Some("http://192.0.2.1:9".into());
    let opened = dir.path().join("opened");
    let browser = dir.path().join("browser.sh");
    std::fs::write(
        &browser,
        format!("#!/bin/sh\necho \"$1\" > {}\n", opened.display()),
    )
    .unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&browser, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let login = cli()
        .env("MCPWIRE_CLI_CREDENTIALS", &credentials)
        .env("BROWSER", &browser)
        .args(["auth", "login", "--url", &url])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&login.stderr);
    assert_eq!(login.status.code(), Some(3), "{said}");
    assert!(
        said.contains("http://192.0.2.1:9/") && said.contains("not https"),
        "{said}"
    );
    assert!(!said.contains("Open this URL"), "{said}");
    assert!(!opened.exists(), "the browser was started");
    assert_eq!(auth_server.registrations.load(SeqCst), 0);
}
