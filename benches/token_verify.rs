//! What checking a bearer token costs a `JwtVerifier`: an ES256 token's first verification (its
//! signature checked, the keys already loaded from a JWKS file), and a token it keeps (the
//! default: its SHA-256 looked up, `exp`/`nbf` checked again). With `--features auth-aws-lc` the
//! signatures are checked by aws-lc-rs instead of RustCrypto. Results are recorded in
//! `docs/benchmarks.md`.

use criterion::{Criterion, criterion_group, criterion_main};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use mcpwire::auth::{JwksSource, JwtVerifier, TokenVerifier};
use p256::pkcs8::EncodePrivateKey;
use serde_json::{Value, json};
use std::hint::black_box;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const ISSUER: &str = "https://auth.bench";
const AUDIENCE: &str = "https://mcp.bench/mcp";

fn bench(c: &mut Criterion) {
    let secret = p256::SecretKey::from_slice(&[7u8; 32]).expect("a P-256 scalar");
    let mut jwk: Value = serde_json::from_str(&secret.public_key().to_jwk_string()).unwrap();
    jwk["kid"] = json!("bench");
    jwk["alg"] = json!("ES256");
    let dir = std::env::temp_dir().join(format!("mcpwire-token-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("jwks.json");
    std::fs::write(&path, json!({"keys": [jwk]}).to_string()).unwrap();
    // The verifiers first: with `auth-aws-lc` the first one picks jsonwebtoken's backend.
    let verifier = || JwtVerifier::new(ISSUER, AUDIENCE, JwksSource::File(path.clone()));
    let first = verifier().cache_for(Duration::ZERO);
    let kept = verifier();
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let claims = json!({"iss": ISSUER, "aud": AUDIENCE, "sub": "bench", "scope": "orders:write",
                        "iat": now, "exp": now + 3600});
    let mut header = Header::new(Algorithm::ES256);
    header.kid = Some("bench".into());
    let der = secret.to_pkcs8_der().unwrap();
    let token = encode(&header, &claims, &EncodingKey::from_ec_der(der.as_bytes())).unwrap();

    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    // Loads the keys (and keeps the token, for `kept`).
    runtime.block_on(async {
        first.verify(&token).await.unwrap();
        kept.verify_shared(&token).await.unwrap();
    });
    let mut group = c.benchmark_group("token_verify");
    group.bench_function("es256_first_verification", |b| {
        b.to_async(&runtime)
            .iter(|| async { first.verify(black_box(&token)).await.unwrap() })
    });
    group.bench_function("es256_kept_token", |b| {
        b.to_async(&runtime)
            .iter(|| async { kept.verify_shared(black_box(&token)).await.unwrap() })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&dir);
}

criterion_group!(benches, bench);
criterion_main!(benches);
