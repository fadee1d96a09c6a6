//! `auth login|status|logout` against a local authorization server made here (OAuth 2.1 with
//! dynamic registration, PKCE and ES256 access tokens), and the protected bookshop example
//! (`--auth-issuer/--auth-audience/--auth-jwks`; `order_book` needs `orders:write`). The test
//! plays the browser: it reads the login URL the CLI prints, follows it to the authorization
//! server, and delivers the redirect to the CLI's loopback listener.

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
}

type Shared = Arc<AuthServer>;

async fn metadata(State(auth): State<Shared>) -> Response {
    let issuer = &auth.issuer;
    axum_json(json!({
        "issuer": issuer,
        "authorization_endpoint": format!("{issuer}/authorize"),
        "token_endpoint": format!("{issuer}/token"),
        "registration_endpoint": format!("{issuer}/register"),
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

async fn register(body: String) -> Response {
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
    let Some((challenge, scope, resource)) = auth.codes.lock().unwrap().remove(&field("code"))
    else {
        return (StatusCode::BAD_REQUEST, r#"{"error":"invalid_grant"}"#).into_response();
    };
    if URL_SAFE_NO_PAD.encode(Sha256::digest(field("code_verifier"))) != challenge {
        return (StatusCode::BAD_REQUEST, r#"{"error":"invalid_grant"}"#).into_response();
    }
    let expired = auth.expired.load(std::sync::atomic::Ordering::SeqCst);
    let exp = if expired { now() - 60 } else { now() + 600 };
    let claims = json!({"iss": auth.issuer, "aud": resource, "sub": "alice", "scope": scope,
                        "iat": now(), "exp": exp});
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("as-key".into());
    let access_token = encode(&header, &claims, &auth.key).unwrap();
    axum_json(json!({"access_token": access_token, "token_type": "Bearer",
                     "expires_in": 600, "scope": scope}))
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

    // Not logged in: a call fails with exit 3, saying how to log in.
    let call = ["call", "--url", &url, "order_book", "title=Dune"];
    let refused = cli_with(&credentials, &call);
    assert_eq!(refused.status.code(), Some(3), "{refused:?}");
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("auth login"),
        "{refused:?}"
    );

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
    auth_server
        .expired
        .store(true, std::sync::atomic::Ordering::SeqCst);
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
    let landed = browser.get(&back).send().await.unwrap();
    assert_eq!(landed.status(), 200);
    let status = tokio::task::spawn_blocking(move || login.wait())
        .await
        .unwrap()
        .unwrap();
    let told: Vec<String> = lines_rx.try_iter().collect();
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
