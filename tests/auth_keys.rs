//! Where a protected server's token checks meet the authorization server: the JWKS a
//! `JwtVerifier` fetches and the introspection endpoint an `IntrospectionVerifier` asks, both
//! local HTTP endpoints here that count what they are asked. Keys are fetched again when
//! older than their maximum age; a failed fetch counts toward the cooldown; answers without a
//! `Content-Length` are cut off at the cap while they stream in; introspection refusals are
//! cached briefly.

use axum::extract::State;
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcpwire::auth::{IntrospectionVerifier, JwksSource, JwtVerifier, TokenError, TokenVerifier};
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const ISSUER: &str = "https://auth.test";
const AUDIENCE: &str = "https://mcp.test/mcp";

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
            getrandom::fill(&mut bytes).unwrap();
            if let Ok(secret) = p256::SecretKey::from_slice(&bytes) {
                break secret;
            }
        };
        let der = secret.to_pkcs8_der().unwrap();
        let mut jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string()).unwrap();
        jwk["kid"] = json!(kid);
        jwk["alg"] = json!("ES256");
        Key {
            kid: kid.to_owned(),
            private: EncodingKey::from_ec_der(der.as_bytes()),
            jwk,
        }
    }

    /// A token for alice, valid for ten minutes.
    fn token(&self) -> String {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        let claims = json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "exp": now + 600});
        let mut header = Header::new(Algorithm::ES256);
        header.kid = Some(self.kid.clone());
        encode(&header, &claims, &self.private).unwrap()
    }
}

/// What the local endpoint serves, and how often it was asked.
#[derive(Default)]
struct Endpoint {
    /// The JSON answered; `None`: `500`.
    answer: Mutex<Option<Value>>,
    asked: AtomicUsize,
}

async fn answer(State(endpoint): State<Arc<Endpoint>>) -> Response {
    endpoint.asked.fetch_add(1, SeqCst);
    match endpoint.answer.lock().unwrap().clone() {
        Some(body) => ([(CONTENT_TYPE, "application/json")], body.to_string()).into_response(),
        None => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// Serves `endpoint` at `/jwks` (GET) and `/introspect` (POST) on a free loopback port.
async fn serve(endpoint: Arc<Endpoint>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let app = axum::Router::new()
        .route("/jwks", get(answer))
        .route("/introspect", post(answer))
        .with_state(endpoint);
    tokio::spawn(async move { axum::serve(listener, app).await });
    base
}

fn jwks(keys: &[&Key]) -> Value {
    json!({"keys": keys.iter().map(|k| k.jwk.clone()).collect::<Vec<_>>()})
}

fn verifier(base: &str) -> JwtVerifier {
    JwtVerifier::new(ISSUER, AUDIENCE, JwksSource::Url(format!("{base}/jwks")))
}

#[tokio::test]
async fn keys_older_than_their_maximum_age_are_fetched_again() {
    let old = Key::new("k1");
    let endpoint = Arc::new(Endpoint::default());
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&old]));
    let base = serve(endpoint.clone()).await;
    let aging = verifier(&base)
        .keys_max_age(Duration::ZERO)
        .refetch_cooldown(Duration::ZERO);
    let default = verifier(&base);
    assert!(aging.verify(&old.token()).await.is_ok());
    assert!(default.verify(&old.token()).await.is_ok());
    assert_eq!(endpoint.asked.load(SeqCst), 2);

    // The authorization server withdraws the key (its successor takes the same key id).
    let new = Key::new("k1");
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&new]));
    // Past their age, the keys are fetched again: the withdrawn key no longer verifies,
    // although no token named an unknown key id.
    let refused = aging.verify(&old.token()).await.unwrap_err();
    assert!(matches!(refused, TokenError::Invalid(_)), "{refused:?}");
    assert!(aging.verify(&new.token()).await.is_ok());
    assert_eq!(endpoint.asked.load(SeqCst), 4);
    // Within the default hour, the keys fetched are used as they are.
    assert!(default.verify(&old.token()).await.is_ok());
    assert_eq!(endpoint.asked.load(SeqCst), 4);
}

/// A token from `key` for alice, expiring `seconds` from now.
fn expiring_token(key: &Key, seconds: u64) -> String {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "alice", "exp": now + seconds});
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some(key.kid.clone());
    encode(&header, &claims, &key.private).unwrap()
}

#[tokio::test]
async fn a_reused_token_is_refused_once_it_expires() {
    let key = Key::new("k1");
    let endpoint = Arc::new(Endpoint::default());
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&key]));
    let base = serve(endpoint.clone()).await;
    let checks = verifier(&base).leeway(0);
    let token = expiring_token(&key, 2);
    assert!(checks.verify(&token).await.is_ok());
    assert!(checks.verify(&token).await.is_ok(), "reused");
    tokio::time::sleep(Duration::from_millis(3100)).await;
    let refused = checks.verify(&token).await.unwrap_err();
    assert!(matches!(refused, TokenError::Invalid(_)), "{refused:?}");
}

#[tokio::test]
async fn a_changed_key_set_drops_the_tokens_verified_with_the_old_one() {
    let old = Key::new("k1");
    let endpoint = Arc::new(Endpoint::default());
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&old]));
    let base = serve(endpoint.clone()).await;
    let checks = verifier(&base).refetch_cooldown(Duration::ZERO);
    let token = old.token();
    assert!(checks.verify(&token).await.is_ok());
    // The authorization server replaces its key; a token naming the new one makes the server
    // fetch the set again.
    let new = Key::new("k2");
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&new]));
    assert!(checks.verify(&token).await.is_ok(), "no fetch yet");
    assert!(checks.verify(&new.token()).await.is_ok());
    assert_eq!(endpoint.asked.load(SeqCst), 2);
    let refused = checks.verify(&token).await.unwrap_err();
    assert!(matches!(refused, TokenError::Invalid(_)), "{refused:?}");
}

#[tokio::test]
async fn failed_fetches_count_toward_the_cooldown() {
    let key = Key::new("k1");
    let endpoint = Arc::new(Endpoint::default());
    let base = serve(endpoint.clone()).await;
    let checks = verifier(&base);
    // The key set's host is down: one fetch, then no more until the cooldown ends.
    for _ in 0..5 {
        let error = checks.verify(&key.token()).await.unwrap_err();
        assert!(matches!(error, TokenError::Unavailable(_)), "{error:?}");
    }
    assert_eq!(endpoint.asked.load(SeqCst), 1);
    // Tokens naming made-up key ids do not get through either.
    for kid in ["a", "b", "c"] {
        assert!(checks.verify(&Key::new(kid).token()).await.is_err());
    }
    assert_eq!(endpoint.asked.load(SeqCst), 1);

    // With no cooldown, the next token fetches again and passes once the host is back.
    let eager = verifier(&base).refetch_cooldown(Duration::ZERO);
    assert!(eager.verify(&key.token()).await.is_err());
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&key]));
    assert!(eager.verify(&key.token()).await.is_ok());
    assert_eq!(endpoint.asked.load(SeqCst), 3);
}

/// An HTTP endpoint whose answers are endless chunked bodies (no `Content-Length`); counts the
/// bytes it managed to send. Each connection ends when the client hangs up.
async fn endless(sent: Arc<AtomicU64>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let sent = sent.clone();
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                let head = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n";
                if socket.write_all(head.as_bytes()).await.is_err() {
                    return;
                }
                let mut chunk = format!("{:x}\r\n", 8192).into_bytes();
                chunk.extend(std::iter::repeat_n(b' ', 8192));
                chunk.extend_from_slice(b"\r\n");
                while socket.write_all(&chunk).await.is_ok() {
                    sent.fetch_add(8192, SeqCst);
                }
            });
        }
    });
    base
}

/// More than any cap, less than what an uncapped read would take in by its timeout.
const FAR_PAST_THE_CAPS: u64 = 64 * 1024 * 1024;

#[tokio::test]
async fn a_key_set_without_content_length_is_cut_off_at_the_cap() {
    let sent = Arc::new(AtomicU64::new(0));
    let base = endless(sent.clone()).await;
    let error = verifier(&base)
        .verify(&Key::new("k1").token())
        .await
        .unwrap_err();
    match &error {
        TokenError::Unavailable(why) => assert!(why.contains("larger than"), "{why}"),
        other => panic!("expected Unavailable, got {other:?}"),
    }
    assert!(
        sent.load(SeqCst) < FAR_PAST_THE_CAPS,
        "{}",
        sent.load(SeqCst)
    );
}

fn introspection(base: &str) -> IntrospectionVerifier {
    IntrospectionVerifier::new(format!("{base}/introspect"), "rs", "rs-secret", AUDIENCE)
}

#[tokio::test]
async fn an_introspection_answer_without_content_length_is_cut_off_at_the_cap() {
    let sent = Arc::new(AtomicU64::new(0));
    let base = endless(sent.clone()).await;
    let error = introspection(&base).verify("opaque").await.unwrap_err();
    match &error {
        TokenError::Unavailable(why) => assert!(why.contains("larger than"), "{why}"),
        other => panic!("expected Unavailable, got {other:?}"),
    }
    assert!(
        sent.load(SeqCst) < FAR_PAST_THE_CAPS,
        "{}",
        sent.load(SeqCst)
    );
}

#[tokio::test]
async fn introspection_refusals_are_cached_briefly() {
    let endpoint = Arc::new(Endpoint::default());
    *endpoint.answer.lock().unwrap() = Some(json!({"active": false}));
    let base = serve(endpoint.clone()).await;
    let checks = introspection(&base);
    // The same bogus token, again and again: the authorization server is asked once.
    for _ in 0..20 {
        let error = checks.verify("bogus").await.unwrap_err();
        assert!(matches!(error, TokenError::Invalid(_)), "{error:?}");
    }
    assert_eq!(endpoint.asked.load(SeqCst), 1);
    // Another token is asked about.
    assert!(checks.verify("another").await.is_err());
    assert_eq!(endpoint.asked.load(SeqCst), 2);

    // An endpoint that cannot answer is not a refusal: nothing is cached.
    *endpoint.answer.lock().unwrap() = None;
    for _ in 0..2 {
        let error = checks.verify("third").await.unwrap_err();
        assert!(matches!(error, TokenError::Unavailable(_)), "{error:?}");
    }
    assert_eq!(endpoint.asked.load(SeqCst), 4);

    // Without the refusal cache, every time.
    *endpoint.answer.lock().unwrap() = Some(json!({"active": false}));
    let uncached = introspection(&base).cache_refusals_for(Duration::ZERO);
    for _ in 0..3 {
        assert!(uncached.verify("bogus").await.is_err());
    }
    assert_eq!(endpoint.asked.load(SeqCst), 7);
}

#[tokio::test]
async fn a_kept_token_stops_working_once_its_withdrawn_keys_age() {
    let old = Key::new("k1");
    let endpoint = Arc::new(Endpoint::default());
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&old]));
    let base = serve(endpoint.clone()).await;
    // Tokens are kept for a minute, the keys for a second.
    let checks = verifier(&base)
        .keys_max_age(Duration::from_secs(1))
        .refetch_cooldown(Duration::ZERO);
    let token = old.token();
    assert!(checks.verify(&token).await.is_ok());
    // The authorization server withdraws the key; no token names another.
    *endpoint.answer.lock().unwrap() = Some(jwks(&[&Key::new("k2")]));
    assert!(
        checks.verify(&token).await.is_ok(),
        "kept, the keys still young"
    );
    assert_eq!(endpoint.asked.load(SeqCst), 1);
    // Past the keys' age the kept token is not reused: the set is fetched again and the
    // withdrawn key no longer verifies it.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let refused = checks.verify(&token).await.unwrap_err();
    assert!(matches!(refused, TokenError::Invalid(_)), "{refused:?}");
    assert_eq!(endpoint.asked.load(SeqCst), 2);
}

#[tokio::test]
async fn a_key_removed_from_a_jwks_file_stops_working_within_the_keys_age() {
    let (old, other) = (Key::new("k1"), Key::new("k2"));
    let dir = std::env::temp_dir().join(format!("mcpwire-jwks-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("removed-key.json");
    std::fs::write(&path, jwks(&[&old, &other]).to_string()).unwrap();
    let checks = JwtVerifier::new(ISSUER, AUDIENCE, JwksSource::File(path.clone()))
        .keys_max_age(Duration::from_secs(1))
        .refetch_cooldown(Duration::ZERO);
    let token = old.token();
    assert!(checks.verify(&token).await.is_ok());
    std::fs::write(&path, jwks(&[&other]).to_string()).unwrap();
    assert!(
        checks.verify(&token).await.is_ok(),
        "kept, the keys still young"
    );
    tokio::time::sleep(Duration::from_millis(1100)).await;
    let refused = checks.verify(&token).await.unwrap_err();
    assert!(matches!(refused, TokenError::Invalid(_)), "{refused:?}");
    assert!(
        checks.verify(&other.token()).await.is_ok(),
        "the key left in the file"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
