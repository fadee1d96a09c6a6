//! A server protected with `mcpwire::auth` over real HTTP, with real tokens: an ES256 key made
//! here signs them, its public half is the JWKS file the server reads. Every way a token can be
//! wrong gets `401 invalid_token` with the challenge; a missing scope gets `403`; the metadata is
//! published at both well-known paths; the verified subject is the principal, so another subject
//! can neither resume a multi-round call nor use a 2025-11-25 session.

mod common;
#[path = "http_auth/front.rs"]
mod front;

use common::{HttpExample, example_bin, free_port};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcpwire::auth::{
    Authorization, IntrospectionVerifier, JwksSource, JwtVerifier, ProtectedResource,
};
use mcpwire::prelude::*;
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const ISSUER: &str = "https://auth.test";

/// A signing key and the JWK of its public half.
struct Key {
    kid: String,
    private: EncodingKey,
    jwk: Value,
}

impl Key {
    fn new(kid: &str) -> Self {
        let mut bytes = [0u8; 32];
        let secret = loop {
            getrandom::fill(&mut bytes).expect("random bytes");
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let der = secret.to_pkcs8_der().expect("pkcs8");
        let mut jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string()).unwrap();
        jwk["kid"] = json!(kid);
        jwk["alg"] = json!("ES256");
        jwk["use"] = json!("sig");
        Key {
            kid: kid.to_owned(),
            private: EncodingKey::from_ec_der(der.as_bytes()),
            jwk,
        }
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        encode(&header, claims, &self.private).expect("a signed token")
    }
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
}

fn write_jwks(path: &PathBuf, keys: &[&Key]) {
    let set = json!({"keys": keys.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>()});
    std::fs::write(path, set.to_string()).expect("write the JWKS");
}

/// Who is calling.
#[tool]
async fn whoami(ctx: Context) -> String {
    ctx.principal()
        .map_or("nobody", |who| who.subject())
        .to_owned()
}

/// Places an order: only for tokens granting `orders:write`.
#[tool(scopes = ["orders:write"])]
async fn place_order(ctx: Context) -> String {
    let scopes = ctx.grant().map(|g| g.scopes.join(" ")).unwrap_or_default();
    format!("ordered (scopes: {scopes})")
}

/// The price list: only for tokens granting `prices:read`.
#[prompt(scopes = ["prices:read"])]
async fn price_list() -> String {
    "Dune: 9.99".into()
}

/// The stock room: only for tokens granting `stock:read`.
#[resource(uri = "shop://stock", scopes = ["stock:read"])]
async fn stock() -> String {
    "Dune: 7".into()
}

/// The user's answer.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
struct Confirmation {
    /// Go ahead?
    confirm: bool,
}

#[resolver]
async fn ask() -> Elicit<Confirmation> {
    Elicit::ask("Go ahead?")
}

/// Asks once, then answers.
#[tool]
async fn confirmed(#[resolve(ask)] answer: Confirmation) -> String {
    format!("confirm={}", answer.confirm)
}

/// A protected server on a free port, its URL, and its JWKS file.
struct Protected {
    url: String,
    jwks: PathBuf,
    _dir: TempDir,
}

/// A directory removed when dropped.
struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

async fn serve(keys: &[&Key], required: &[&str]) -> Protected {
    serve_with(keys, required, Duration::from_secs(30)).await
}

async fn serve_with(keys: &[&Key], required: &[&str], cooldown: Duration) -> Protected {
    let dir = std::env::temp_dir().join(format!(
        "mcpwire-auth-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let jwks = dir.join("jwks.json");
    write_jwks(&jwks, keys);
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let resource = ProtectedResource::new(&url, ISSUER).scopes_supported(["mcp:tools"]);
    let verifier = JwtVerifier::new(ISSUER, resource.resource(), JwksSource::File(jwks.clone()))
        .refetch_cooldown(cooldown);
    let authorization =
        Authorization::new(verifier, resource).required_scopes(required.iter().copied());
    let server = McpServer::new("protected")
        .tool(whoami)
        .unwrap()
        .tool(confirmed)
        .unwrap()
        .tool(place_order)
        .unwrap()
        .prompt(price_list)
        .unwrap()
        .resource(stock)
        .unwrap()
        .http()
        .authorization(authorization);
    tokio::spawn(server.serve_listener(listener, std::future::pending()));
    Protected {
        url,
        jwks,
        _dir: TempDir(dir),
    }
}

fn rand_suffix() -> u64 {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes).unwrap();
    u64::from_le_bytes(bytes)
}

/// Claims of a good token for `url`, for `subject`, with `scope`.
fn claims(url: &str, subject: &str, scope: &str) -> Value {
    json!({"iss": ISSUER, "aud": url, "sub": subject, "scope": scope,
           "iat": now(), "exp": now() + 300})
}

struct Answer {
    status: u16,
    challenge: Option<String>,
    session: Option<String>,
    body: Value,
}

const MODERN_META: &str = "2026-07-28";

/// POSTs one JSON-RPC message (a 2026-07-28 call unless `session` says 2025-11-25), with the
/// headers a well-behaved client sends.
async fn post(url: &str, token: Option<&str>, body: Value, session: Option<&str>) -> Answer {
    let method = body["method"].as_str().unwrap_or_default().to_owned();
    let mut headers = Vec::new();
    match session {
        Some(session) => {
            headers.push(("mcp-protocol-version", "2025-11-25".to_owned()));
            headers.push(("mcp-session-id", session.to_owned()));
        }
        None if method != "initialize" => {
            headers.push(("mcp-protocol-version", MODERN_META.to_owned()));
            headers.push(("mcp-method", method));
            let target = body["params"]["name"].as_str();
            if let Some(name) = target.or(body["params"]["uri"].as_str()) {
                headers.push(("mcp-name", name.to_owned()));
            }
        }
        None => {}
    }
    post_with(url, token, body, &headers).await
}

/// POSTs one JSON-RPC message with exactly `headers` (besides the content type, `Accept` and
/// the token).
async fn post_with(
    url: &str,
    token: Option<&str>,
    body: Value,
    headers: &[(&'static str, String)],
) -> Answer {
    let mut request = reqwest::Client::new()
        .post(url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream");
    if let Some(token) = token {
        request = request.header("authorization", format!("Bearer {token}"));
    }
    for (name, value) in headers {
        request = request.header(*name, value);
    }
    let response = request.json(&body).send().await.expect("a response");
    let status = response.status().as_u16();
    let header = |name: &str| {
        response
            .headers()
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let (challenge, session) = (header("www-authenticate"), header("mcp-session-id"));
    let text = response.text().await.unwrap_or_default();
    let json_text = text
        .lines()
        .find_map(|line| line.strip_prefix("data: "))
        .unwrap_or(&text);
    let body = serde_json::from_str(json_text).unwrap_or(Value::Null);
    Answer {
        status,
        challenge,
        session,
        body,
    }
}

/// Opens a 2025-11-25 session with `token` (`initialize`, `notifications/initialized`).
async fn open_session(url: &str, token: &str) -> String {
    let initialize = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"}}});
    let opened = post(url, Some(token), initialize, None).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    let session = opened.session.expect("a session id");
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let note = post(url, Some(token), initialized, Some(&session)).await;
    assert_eq!(note.status, 202);
    session
}

fn call(tool: &str, extra: Value) -> Value {
    let mut params = json!({"name": tool, "arguments": {},
        "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN_META,
                  "io.modelcontextprotocol/clientCapabilities": {"elicitation": {"form": {}}},
                  "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}});
    if let (Some(params), Some(extra)) = (params.as_object_mut(), extra.as_object()) {
        params.extend(extra.clone());
    }
    json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
}

fn text(answer: &Answer) -> &str {
    answer.body["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{} {}", answer.status, answer.body))
}

#[tokio::test]
async fn a_valid_token_reaches_the_tool_as_its_principal() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let token = key.sign(&claims(&server.url, "alice", "mcp:tools"));
    let answer = post(&server.url, Some(&token), call("whoami", json!({})), None).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(text(&answer), "alice");
}

#[tokio::test]
async fn no_token_gets_401_naming_the_metadata() {
    let key = Key::new("k1");
    let server = serve(&[&key], &["mcp:tools"]).await;
    let answer = post(&server.url, None, call("whoami", json!({})), None).await;
    assert_eq!(answer.status, 401);
    let origin = server.url.trim_end_matches("/mcp");
    let expected = format!(
        r#"Bearer resource_metadata="{origin}/.well-known/oauth-protected-resource/mcp", scope="mcp:tools""#
    );
    assert_eq!(answer.challenge.as_deref(), Some(expected.as_str()));
    assert_eq!(answer.body["error"], "unauthorized");
}

#[tokio::test]
async fn every_bad_token_gets_401_invalid_token() {
    let key = Key::new("k1");
    let foreign = Key::new("k1"); // same key id, another key: the signature does not verify
    let server = serve(&[&key], &[]).await;
    let url = server.url.as_str();
    let good = claims(url, "alice", "mcp:tools");
    let with = |change: Value| {
        let mut claims = good.clone();
        claims
            .as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        claims
    };
    let public_jwk = key.jwk.to_string();
    let hmac_with_public_key = {
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some("k1".into());
        encode(
            &header,
            &good,
            &EncodingKey::from_secret(public_jwk.as_bytes()),
        )
        .unwrap()
    };
    let unsigned = {
        use base64::Engine as _;
        let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
        let header = b64.encode(r#"{"alg":"none","typ":"JWT","kid":"k1"}"#);
        format!("{header}.{}.", b64.encode(good.to_string()))
    };
    let cases = [
        ("expired", key.sign(&with(json!({"exp": now() - 3600})))),
        (
            "not yet valid",
            key.sign(&with(json!({"nbf": now() + 3600}))),
        ),
        (
            "wrong audience",
            key.sign(&with(json!({"aud": "http://other.test/mcp"}))),
        ),
        ("no audience", {
            let mut claims = good.clone();
            claims.as_object_mut().unwrap().remove("aud");
            key.sign(&claims)
        }),
        (
            "wrong issuer",
            key.sign(&with(json!({"iss": "https://evil.test"}))),
        ),
        ("foreign key", foreign.sign(&good)),
        ("unknown key id", Key::new("k9").sign(&good)),
        ("alg none", unsigned),
        ("HMAC with the public key", hmac_with_public_key),
        ("garbage", "not.a.token".to_owned()),
    ];
    for (case, token) in cases {
        let answer = post(url, Some(&token), call("whoami", json!({})), None).await;
        assert_eq!(answer.status, 401, "{case}: {}", answer.body);
        let challenge = answer.challenge.unwrap_or_default();
        assert!(
            challenge.starts_with(r#"Bearer error="invalid_token", resource_metadata=""#),
            "{case}: {challenge}"
        );
        assert_eq!(answer.body["error"], "invalid_token", "{case}");
    }
    // The server still serves a good token afterwards.
    let answer = post(url, Some(&key.sign(&good)), call("whoami", json!({})), None).await;
    assert_eq!(text(&answer), "alice");
}

#[tokio::test]
async fn a_missing_scope_gets_403_naming_every_scope_needed() {
    let key = Key::new("k1");
    let server = serve(&[&key], &["mcp:tools", "mcp:read"]).await;
    let partial = key.sign(&claims(&server.url, "alice", "mcp:tools"));
    let answer = post(&server.url, Some(&partial), call("whoami", json!({})), None).await;
    assert_eq!(answer.status, 403);
    let challenge = answer.challenge.unwrap_or_default();
    assert!(
        challenge.starts_with(r#"Bearer error="insufficient_scope""#),
        "{challenge}"
    );
    assert!(
        challenge.contains(r#"scope="mcp:tools mcp:read""#),
        "{challenge}"
    );
    let granted = key.sign(&claims(&server.url, "alice", "mcp:read mcp:tools"));
    let answer = post(&server.url, Some(&granted), call("whoami", json!({})), None).await;
    assert_eq!(text(&answer), "alice");
}

#[tokio::test]
async fn the_metadata_is_published_at_both_well_known_paths() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let origin = server.url.trim_end_matches("/mcp").to_owned();
    for path in [
        "/.well-known/oauth-protected-resource/mcp",
        "/.well-known/oauth-protected-resource",
    ] {
        let response = reqwest::get(format!("{origin}{path}")).await.unwrap();
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(
            response.headers()["access-control-allow-origin"],
            "*",
            "{path}"
        );
        let metadata: Value = response.json().await.unwrap();
        assert_eq!(metadata["resource"], server.url, "{path}");
        assert_eq!(metadata["authorization_servers"], json!([ISSUER]));
        // Named by the metadata, and derived from the tools' own scopes.
        assert_eq!(
            metadata["scopes_supported"],
            json!(["mcp:tools", "orders:write", "prices:read", "stock:read"])
        );
    }
}

#[tokio::test]
async fn a_rotated_key_is_fetched_when_a_token_names_it() {
    let old = Key::new("old");
    let server = serve_with(&[&old], &[], Duration::from_millis(500)).await;
    let first = post(
        &server.url,
        Some(&old.sign(&claims(&server.url, "alice", ""))),
        call("whoami", json!({})),
        None,
    )
    .await;
    assert_eq!(text(&first), "alice");
    let new = Key::new("new");
    write_jwks(&server.jwks, &[&old, &new]);
    let token = new.sign(&claims(&server.url, "bob", ""));
    // Within the cooldown of the last fetch, an unknown key id is not fetched again.
    let early = post(&server.url, Some(&token), call("whoami", json!({})), None).await;
    assert_eq!(early.status, 401, "{}", early.body);
    tokio::time::sleep(Duration::from_millis(600)).await;
    let answer = post(&server.url, Some(&token), call("whoami", json!({})), None).await;
    assert_eq!(text(&answer), "bob");
}

#[tokio::test]
async fn another_subject_cannot_resume_a_multi_round_call() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let alice = key.sign(&claims(&server.url, "alice", ""));
    let bob = key.sign(&claims(&server.url, "bob", ""));
    let first = post(
        &server.url,
        Some(&alice),
        call("confirmed", json!({})),
        None,
    )
    .await;
    let result = &first.body["result"];
    assert_eq!(result["resultType"], "input_required", "{}", first.body);
    let (asked, state) = (
        result["inputRequests"].as_object().unwrap(),
        &result["requestState"],
    );
    let answers: serde_json::Map<String, Value> = asked
        .keys()
        .map(|k| {
            (
                k.clone(),
                json!({"action": "accept", "content": {"confirm": true}}),
            )
        })
        .collect();
    let retry = json!({"inputResponses": answers, "requestState": state});
    let stolen = post(
        &server.url,
        Some(&bob),
        call("confirmed", retry.clone()),
        None,
    )
    .await;
    assert_eq!(stolen.body["error"]["code"], -32602, "{}", stolen.body);
    assert_eq!(
        stolen.body["error"]["message"],
        "Invalid or expired requestState"
    );
    let resumed = post(&server.url, Some(&alice), call("confirmed", retry), None).await;
    assert_eq!(text(&resumed), "confirm=true");
}

#[tokio::test]
async fn another_subject_cannot_use_a_session() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let alice = key.sign(&claims(&server.url, "alice", ""));
    let bob = key.sign(&claims(&server.url, "bob", ""));
    let session = open_session(&server.url, &alice).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let stolen = post(&server.url, Some(&bob), list.clone(), Some(&session)).await;
    assert_eq!(stolen.status, 404, "{}", stolen.body);
    let own = post(&server.url, Some(&alice), list, Some(&session)).await;
    assert_eq!(own.status, 200, "{}", own.body);
}

fn list_request() -> Value {
    json!({"jsonrpc": "2.0", "id": 3, "method": "tools/list", "params": {
        "_meta": {"io.modelcontextprotocol/protocolVersion": MODERN_META,
                  "io.modelcontextprotocol/clientCapabilities": {},
                  "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}}}})
}

fn listed_names(answer: &Answer) -> Vec<String> {
    answer.body["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{} {}", answer.status, answer.body))
        .iter()
        .map(|tool| tool["name"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[tokio::test]
async fn a_tool_with_scopes_is_listed_and_called_only_with_them() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let reader = key.sign(&claims(&server.url, "alice", "books:read"));
    let writer = key.sign(&claims(&server.url, "bob", "books:read orders:write"));

    let listed = post(&server.url, Some(&reader), list_request(), None).await;
    assert!(!listed_names(&listed).contains(&"place_order".to_owned()));
    assert!(listed_names(&listed).contains(&"whoami".to_owned()));
    assert_eq!(
        listed.body["result"]["cacheScope"], "private",
        "{}",
        listed.body
    );
    let listed = post(&server.url, Some(&writer), list_request(), None).await;
    assert!(listed_names(&listed).contains(&"place_order".to_owned()));

    let refused = post(
        &server.url,
        Some(&reader),
        call("place_order", json!({})),
        None,
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let challenge = refused.challenge.unwrap_or_default();
    assert!(
        challenge.starts_with(r#"Bearer error="insufficient_scope""#),
        "{challenge}"
    );
    assert!(challenge.contains(r#"scope="orders:write""#), "{challenge}");

    let placed = post(
        &server.url,
        Some(&writer),
        call("place_order", json!({})),
        None,
    )
    .await;
    assert_eq!(text(&placed), "ordered (scopes: books:read orders:write)");
}

#[tokio::test]
async fn a_session_call_needs_the_tools_scopes_too() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let reader = key.sign(&claims(&server.url, "alice", "books:read"));
    let session = open_session(&server.url, &reader).await;
    let call = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                      "params": {"name": "place_order", "arguments": {}}});
    let refused = post(&server.url, Some(&reader), call, Some(&session)).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused
            .challenge
            .unwrap_or_default()
            .contains(r#"scope="orders:write""#)
    );
    let whoami = json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                        "params": {"name": "whoami", "arguments": {}}});
    let allowed = post(&server.url, Some(&reader), whoami, Some(&session)).await;
    assert_eq!(text(&allowed), "alice");
}

/// The bookshop example protected by tokens of `key` (`--auth-*`): its process, its JWKS
/// directory and its audience (the endpoint's URL).
struct ProtectedShop {
    shop: HttpExample,
    audience: String,
    _dir: TempDir,
}

impl ProtectedShop {
    fn spawn(key: &Key) -> Self {
        let dir = TempDir(std::env::temp_dir().join(format!("mcpwire-shop-{}", rand_suffix())));
        std::fs::create_dir_all(&dir.0).unwrap();
        let jwks = dir.0.join("jwks.json");
        write_jwks(&jwks, &[key]);
        let port = free_port();
        let audience = format!("http://127.0.0.1:{port}/mcp");
        let mut command = std::process::Command::new(example_bin("bookshop"));
        command.args(["--http", &format!("127.0.0.1:{port}")]);
        command.args([
            "--auth-issuer",
            ISSUER,
            "--auth-audience",
            &audience,
            "--auth-jwks",
        ]);
        command.arg(&jwks);
        let shop = HttpExample::spawn(command, "the protected bookshop");
        ProtectedShop {
            shop,
            audience,
            _dir: dir,
        }
    }
}

#[tokio::test]
async fn the_bookshop_takes_auth_options_and_order_book_needs_orders_write() {
    let key = Key::new("shop");
    let ProtectedShop { shop, audience, .. } = &ProtectedShop::spawn(&key);
    let order = |extra| call("order_book", extra);
    let args = json!({"arguments": {"title": "Dune"}});

    let anonymous = post(&shop.url, None, order(args.clone()), None).await;
    assert_eq!(anonymous.status, 401);
    let reader = key.sign(&claims(audience, "alice", "books:read"));
    let refused = post(&shop.url, Some(&reader), order(args.clone()), None).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert!(
        refused
            .challenge
            .unwrap_or_default()
            .contains(r#"scope="orders:write""#)
    );
    let info = post(
        &shop.url,
        Some(&reader),
        call("book_info", json!({"arguments": {"title": "Dune"}})),
        None,
    )
    .await;
    assert_eq!(info.status, 200, "{}", info.body);
    let writer = key.sign(&claims(audience, "bob", "orders:write"));
    let ordered = post(&shop.url, Some(&writer), order(args), None).await;
    assert_eq!(text(&ordered), "Ordered 'Dune'; it arrives tomorrow.");
}

/// An RFC 7662 endpoint for the client `rs`/`rs-secret`: `good-*` tokens are active for
/// `audience`, `inactive` is not, `elsewhere` is for another audience. Counts its calls.
async fn introspection_endpoint(
    audience: String,
) -> (String, std::sync::Arc<std::sync::atomic::AtomicUsize>) {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let asked = std::sync::Arc::new(AtomicUsize::new(0));
    let count = asked.clone();
    let app = axum::Router::new().route(
        "/introspect",
        axum::routing::post(
            move |headers: axum::http::HeaderMap,
                  axum::extract::Form(form): axum::extract::Form<
                std::collections::HashMap<String, String>,
            >| {
                let (audience, count) = (audience.clone(), count.clone());
                async move {
                    count.fetch_add(1, Ordering::SeqCst);
                    use base64::Engine as _;
                    let expected = format!(
                        "Basic {}",
                        base64::engine::general_purpose::STANDARD.encode("rs:rs-secret")
                    );
                    if headers.get("authorization").and_then(|v| v.to_str().ok())
                        != Some(expected.as_str())
                    {
                        return (axum::http::StatusCode::UNAUTHORIZED, String::new());
                    }
                    let token = form.get("token").cloned().unwrap_or_default();
                    let answer = match token.as_str() {
                        t if t.starts_with("good-") => json!({"active": true,
                            "sub": t.trim_start_matches("good-"), "aud": audience,
                            "iss": ISSUER, "scope": "mcp:tools", "exp": now() + 300}),
                        "elsewhere" => json!({"active": true, "sub": "eve",
                            "aud": "http://other.test/mcp", "exp": now() + 300}),
                        _ => json!({"active": false}),
                    };
                    (axum::http::StatusCode::OK, answer.to_string())
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/introspect", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await });
    (url, asked)
}

#[tokio::test]
async fn opaque_tokens_are_introspected_and_cached() {
    use std::sync::atomic::Ordering;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (endpoint, asked) = introspection_endpoint(url.clone()).await;
    let resource = ProtectedResource::new(&url, ISSUER);
    let verifier = IntrospectionVerifier::new(&endpoint, "rs", "rs-secret", resource.resource())
        .issuer(ISSUER);
    let server = McpServer::new("opaque")
        .tool(whoami)
        .unwrap()
        .http()
        .authorization(Authorization::new(verifier, resource));
    tokio::spawn(server.serve_listener(listener, std::future::pending()));

    for _ in 0..2 {
        let answer = post(&url, Some("good-alice"), call("whoami", json!({})), None).await;
        assert_eq!(text(&answer), "alice");
    }
    assert_eq!(
        asked.load(Ordering::SeqCst),
        1,
        "the second call used the cached answer"
    );
    for token in ["inactive", "elsewhere"] {
        let answer = post(&url, Some(token), call("whoami", json!({})), None).await;
        assert_eq!(answer.status, 401, "{token}: {}", answer.body);
        assert_eq!(answer.body["error"], "invalid_token", "{token}");
    }
}

#[tokio::test]
async fn an_introspection_endpoint_that_refuses_the_server_is_a_503_not_a_401() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let (endpoint, _) = introspection_endpoint(url.clone()).await;
    let resource = ProtectedResource::new(&url, ISSUER);
    let verifier = IntrospectionVerifier::new(&endpoint, "rs", "wrong", resource.resource());
    let server = McpServer::new("opaque")
        .tool(whoami)
        .unwrap()
        .http()
        .authorization(Authorization::new(verifier, resource));
    tokio::spawn(server.serve_listener(listener, std::future::pending()));
    let answer = post(&url, Some("good-alice"), call("whoami", json!({})), None).await;
    assert_eq!(answer.status, 503);
}

/// Sends `request` with `without`'s token (refused: `403` naming `scope`), then with `with`'s;
/// returns the second answer.
async fn refused_then_served(
    url: &str,
    request: Value,
    scope: &str,
    without: &str,
    with: &str,
) -> Answer {
    let refused = post(url, Some(without), request.clone(), None).await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    let challenge = refused.challenge.unwrap_or_default();
    assert!(
        challenge.contains(&format!("scope=\"{scope}\"")),
        "{challenge}"
    );
    post(url, Some(with), request, None).await
}

fn modern(method: &str, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion": MODERN_META,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"}});
    json!({"jsonrpc": "2.0", "id": 5, "method": method, "params": params})
}

#[tokio::test]
async fn prompts_and_resources_with_scopes_are_listed_and_served_only_with_them() {
    let key = Key::new("k1");
    let server = serve(&[&key], &[]).await;
    let nobody = key.sign(&claims(&server.url, "alice", ""));
    let shopper = key.sign(&claims(&server.url, "bob", "prices:read stock:read"));
    let url = server.url.as_str();

    let prompts = post(url, Some(&nobody), modern("prompts/list", json!({})), None).await;
    assert_eq!(
        prompts.body["result"]["prompts"],
        json!([]),
        "{}",
        prompts.body
    );
    let prompts = post(url, Some(&shopper), modern("prompts/list", json!({})), None).await;
    assert_eq!(prompts.body["result"]["prompts"][0]["name"], "price_list");
    let resources = post(
        url,
        Some(&nobody),
        modern("resources/list", json!({})),
        None,
    )
    .await;
    assert_eq!(
        resources.body["result"]["resources"],
        json!([]),
        "{}",
        resources.body
    );
    let resources = post(
        url,
        Some(&shopper),
        modern("resources/list", json!({})),
        None,
    )
    .await;
    assert_eq!(
        resources.body["result"]["resources"][0]["uri"],
        "shop://stock"
    );

    let get = modern("prompts/get", json!({"name": "price_list"}));
    let got = refused_then_served(url, get, "prices:read", &nobody, &shopper).await;
    assert_eq!(got.status, 200, "{}", got.body);
    let read = modern("resources/read", json!({"uri": "shop://stock"}));
    let read_ok = refused_then_served(url, read, "stock:read", &nobody, &shopper).await;
    assert_eq!(
        read_ok.body["result"]["contents"][0]["text"], "Dune: 7",
        "{}",
        read_ok.body
    );
}

/// A request for `order_book` the `profile` token may not make: refused with `403
/// insufficient_scope` naming `orders:write`, and nothing was ordered.
fn assert_refused_order(answer: &Answer, how: &str) {
    assert_eq!(answer.status, 403, "{how}: {}", answer.body);
    let challenge = answer.challenge.clone().unwrap_or_default();
    assert!(
        challenge.starts_with(r#"Bearer error="insufficient_scope""#)
            && challenge.contains(r#"scope="orders:write""#),
        "{how}: {challenge}"
    );
    assert_eq!(
        answer.body["error"]["code"], -32003,
        "{how}: {}",
        answer.body
    );
    assert!(
        !answer.body.to_string().contains("Ordered"),
        "{how}: {}",
        answer.body
    );
}

fn legacy_order(params: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": params})
}

#[tokio::test]
async fn a_session_request_with_a_lying_mcp_method_header_is_refused() {
    let key = Key::new("shop");
    let protected = ProtectedShop::spawn(&key);
    let url = protected.shop.url.as_str();
    let profile = key.sign(&claims(&protected.audience, "mallory", "profile"));
    let session = open_session(url, &profile).await;
    let headers = [
        ("mcp-protocol-version", "2025-11-25".to_owned()),
        ("mcp-session-id", session.clone()),
        ("mcp-method", "tools/list".to_owned()),
    ];
    let body = legacy_order(json!({"name": "order_book", "arguments": {"title": "Dune"}}));
    let answer = post_with(url, Some(&profile), body.clone(), &headers).await;
    assert_refused_order(&answer, "lying Mcp-Method");
    // A lying header on a request the caller may make is a mismatch, as on 2026-07-28.
    let info = legacy_order(json!({"name": "book_info", "arguments": {"title": "Dune"}}));
    let answer = post_with(url, Some(&profile), info, &headers).await;
    assert_eq!(answer.body["error"]["code"], -32020, "{}", answer.body);
    // The session goes on.
    let info = legacy_order(json!({"name": "book_info", "arguments": {"title": "Dune"}}));
    let answer = post(url, Some(&profile), info, Some(&session)).await;
    assert_eq!(answer.status, 200, "{}", answer.body);
}

#[tokio::test]
async fn a_session_request_with_an_extra_field_in_params_is_refused() {
    let key = Key::new("shop");
    let protected = ProtectedShop::spawn(&key);
    let url = protected.shop.url.as_str();
    let profile = key.sign(&claims(&protected.audience, "mallory", "profile"));
    let session = open_session(url, &profile).await;
    let body =
        legacy_order(json!({"name": "order_book", "arguments": {"title": "Dune"}, "uri": 0}));
    let answer = post(url, Some(&profile), body, Some(&session)).await;
    assert_refused_order(&answer, "extra uri field");
}

#[tokio::test]
async fn a_modern_request_naming_the_tool_in_base64_is_refused() {
    let key = Key::new("shop");
    let protected = ProtectedShop::spawn(&key);
    let url = protected.shop.url.as_str();
    let profile = key.sign(&claims(&protected.audience, "mallory", "profile"));
    let headers = [
        ("mcp-protocol-version", MODERN_META.to_owned()),
        ("mcp-method", "tools/call".to_owned()),
        ("mcp-name", "=?base64?b3JkZXJfYm9vaw==?=".to_owned()),
    ];
    let body = call("order_book", json!({"arguments": {"title": "Dune"}}));
    let answer = post_with(url, Some(&profile), body.clone(), &headers).await;
    assert_refused_order(&answer, "base64 Mcp-Name");
    let writer = key.sign(&claims(&protected.audience, "bob", "orders:write"));
    let ordered = post_with(url, Some(&writer), body, &headers).await;
    assert_eq!(text(&ordered), "Ordered 'Dune'; it arrives tomorrow.");
}

/// Accepts `ISSUER|SUBJECT` tokens from two issuers (as a server trusting two authorization
/// servers does).
struct TwoIssuers;

impl mcpwire::auth::TokenVerifier for TwoIssuers {
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> std::pin::Pin<
        Box<
            dyn std::future::Future<
                    Output = Result<mcpwire::auth::VerifiedToken, mcpwire::auth::TokenError>,
                > + Send
                + 'a,
        >,
    > {
        let verified = match token.split_once('|') {
            Some((issuer @ ("https://a.test" | "https://b.test"), subject)) => {
                Ok(mcpwire::auth::VerifiedToken::new(issuer, subject))
            }
            _ => Err(mcpwire::auth::TokenError::Invalid("unknown".into())),
        };
        Box::pin(std::future::ready(verified))
    }
}

#[tokio::test]
async fn the_same_subject_from_another_issuer_is_another_caller() {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}/mcp", listener.local_addr().unwrap());
    let resource = ProtectedResource::new(&url, "https://a.test");
    let server = McpServer::new("two issuers")
        .tool(whoami)
        .unwrap()
        .tool(confirmed)
        .unwrap()
        .http()
        .authorization(Authorization::new(TwoIssuers, resource));
    tokio::spawn(server.serve_listener(listener, std::future::pending()));
    let (from_a, from_b) = ("https://a.test|alice", "https://b.test|alice");

    // Both are "alice" to the tool.
    for token in [from_a, from_b] {
        let answer = post(&url, Some(token), call("whoami", json!({})), None).await;
        assert_eq!(text(&answer), "alice");
    }
    // A session of alice@a is not alice@b's.
    let session = open_session(&url, from_a).await;
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let stolen = post(&url, Some(from_b), list.clone(), Some(&session)).await;
    assert_eq!(stolen.status, 404, "{}", stolen.body);
    let own = post(&url, Some(from_a), list, Some(&session)).await;
    assert_eq!(own.status, 200, "{}", own.body);
    // Nor is a round of alice@a's multi-round call.
    let first = post(&url, Some(from_a), call("confirmed", json!({})), None).await;
    let result = &first.body["result"];
    let key = result["inputRequests"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap();
    let retry = json!({
        "inputResponses": {key.as_str(): {"action": "accept", "content": {"confirm": true}}},
        "requestState": result["requestState"],
    });
    let stolen = post(&url, Some(from_b), call("confirmed", retry.clone()), None).await;
    assert_eq!(stolen.body["error"]["code"], -32602, "{}", stolen.body);
    let resumed = post(&url, Some(from_a), call("confirmed", retry), None).await;
    assert_eq!(text(&resumed), "confirm=true");
}
