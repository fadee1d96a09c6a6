//! `JwtVerifier`: signed JWT access tokens, checked against a JWKS.

use super::jwks::KeyCache;
use super::token_cache::TokenCache;
use super::{JwksSource, TokenError, TokenVerifier, VerifiedToken};
use crate::wire::jwt_backend::{BackendRefused, jwt_backend};
use jsonwebtoken::{Algorithm, Validation, decode, decode_header};
use serde_json::{Map, Value};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// The asymmetric algorithms accepted unless [`JwtVerifier::algorithms`] says otherwise.
const DEFAULT_ALGORITHMS: [Algorithm; 9] = [
    Algorithm::RS256,
    Algorithm::RS384,
    Algorithm::RS512,
    Algorithm::PS256,
    Algorithm::PS384,
    Algorithm::PS512,
    Algorithm::ES256,
    Algorithm::ES384,
    Algorithm::EdDSA,
];

/// Verifies JWT access tokens signed by an authorization server whose public keys are a JWKS.
///
/// A token passes when it is signed by a key of the set with an allowed asymmetric algorithm
/// (never `none` or HMAC), its `iss` is exactly the issuer, its `aud` names the audience (this
/// server's resource URL), it has a `sub`, and `exp`/`nbf` hold within the leeway (30 s unless
/// [`leeway`](JwtVerifier::leeway) says otherwise). Scopes come from `scope` (space-separated)
/// or `scp`.
///
/// ```
/// use mcpwire::auth::{JwksSource, JwtVerifier};
///
/// let verifier = JwtVerifier::new(
///     "https://auth.example.com",
///     "https://books.example.com/mcp",
///     JwksSource::parse("/etc/mcp/jwks.json"),
/// )
/// .leeway(10);
/// # drop(verifier);
/// ```
pub struct JwtVerifier {
    keys: KeyCache,
    algorithms: Vec<Algorithm>,
    /// The claim checks (issuer, audience, required claims, leeway), set up once.
    validation: Validation,
    /// Tokens verified lately.
    verified: TokenCache,
    /// Whether jsonwebtoken has a working crypto backend; when not, every token is answered
    /// `503` (never a panic).
    backend: Result<(), BackendRefused>,
}

impl JwtVerifier {
    /// Tokens from `issuer` for `audience`, signed by a key of `jwks`.
    ///
    /// With `auth-aws-lc` this makes aws-lc-rs jsonwebtoken's backend for the process, unless a
    /// provider was installed before (it stays). When jsonwebtoken was used before any provider
    /// was installed, it is fixed to a placeholder that cannot verify: the verifier then logs
    /// why (and what to install) and answers every token `503`, never a panic.
    pub fn new(issuer: impl Into<String>, audience: impl Into<String>, jwks: JwksSource) -> Self {
        let backend = jwt_backend();
        if let Err(refused) = backend {
            tracing::error!("every token will be answered 503: {refused}");
        }
        let (issuer, audience) = (issuer.into(), audience.into());
        let mut validation = Validation::new(Algorithm::ES256);
        validation.set_issuer(&[&issuer]);
        validation.set_audience(&[&audience]);
        validation.set_required_spec_claims(&["exp", "iss", "aud", "sub"]);
        validation.validate_nbf = true;
        validation.leeway = 30;
        Self {
            keys: KeyCache::new(jwks),
            algorithms: DEFAULT_ALGORITHMS.to_vec(),
            validation,
            verified: TokenCache::new(),
            backend,
        }
    }

    /// How many seconds of clock skew `exp` and `nbf` tolerate.
    ///
    /// ```
    /// # use mcpwire::auth::{JwksSource, JwtVerifier};
    /// let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("jwks.json")).leeway(5);
    /// # drop(verifier);
    /// ```
    pub fn leeway(mut self, seconds: u64) -> Self {
        self.validation.leeway = seconds;
        self
    }

    /// The least time between two fetches of the key set (30 s by default), failed fetches
    /// included: a rotated key is picked up on its first token after that, and made-up key
    /// ids or a key set's host that is down cannot make the server hammer it. While a failed
    /// fetch's cooldown lasts, tokens that need a fetch are answered `503` without one.
    ///
    /// ```
    /// # use mcpwire::auth::{JwksSource, JwtVerifier};
    /// let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("jwks.json"))
    ///     .refetch_cooldown(std::time::Duration::from_secs(300));
    /// # drop(verifier);
    /// ```
    pub fn refetch_cooldown(mut self, cooldown: std::time::Duration) -> Self {
        self.keys.cooldown = cooldown;
        self
    }

    /// How long a fetched key set is used before it is fetched again (1 h by default), so that
    /// a key the authorization server withdrew stops verifying tokens even when no token names
    /// an unknown key id. A fetch is still at most once per
    /// [`refetch_cooldown`](Self::refetch_cooldown); when a due fetch fails, the old keys are
    /// not used (tokens get `503` until a fetch succeeds).
    ///
    /// ```
    /// # use mcpwire::auth::{JwksSource, JwtVerifier};
    /// let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("jwks.json"))
    ///     .keys_max_age(std::time::Duration::from_secs(600));
    /// # drop(verifier);
    /// ```
    pub fn keys_max_age(mut self, max_age: std::time::Duration) -> Self {
        self.keys.max_age = max_age;
        self
    }

    /// Accepts only these signature algorithms. HMAC ones (`HS256`, …) are dropped whatever the
    /// list says: with a public key set they would let anyone who knows the public key sign.
    ///
    /// ```
    /// # use mcpwire::auth::{JwksSource, JwtVerifier};
    /// use mcpwire::auth::Algorithm;
    /// let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("jwks.json"))
    ///     .algorithms([Algorithm::ES256]);
    /// # drop(verifier);
    /// ```
    pub fn algorithms(mut self, algorithms: impl IntoIterator<Item = Algorithm>) -> Self {
        self.algorithms = algorithms
            .into_iter()
            .filter(|a| !matches!(a, Algorithm::HS256 | Algorithm::HS384 | Algorithm::HS512))
            .collect();
        self
    }

    /// How long a verified token is reused without checking its signature again (60 s by
    /// default; never past its `exp`, whose and `nbf`'s checks are made again on every use).
    /// Tokens are kept by a SHA-256 of the token, at most 10,000 of them (the one that would
    /// expire soonest makes room), none longer than 4 KiB; only valid tokens are kept, so
    /// invalid ones cannot push them out. A token is not reused past the
    /// [age](Self::keys_max_age) of the keys that verified it, and when a fetch brings a changed
    /// key set every kept token is verified again on its next use: a withdrawn key stops
    /// working within this bound. Zero verifies every request.
    ///
    /// Most clients send the same token with every request until it expires; verifying an
    /// ES256 signature costs about 20 times what the rest of a small call does.
    ///
    /// ```
    /// # use mcpwire::auth::{JwksSource, JwtVerifier};
    /// let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("jwks.json"))
    ///     .cache_for(std::time::Duration::from_secs(10));
    /// # drop(verifier);
    /// ```
    pub fn cache_for(mut self, duration: std::time::Duration) -> Self {
        self.verified.kept_for = duration;
        self
    }

    /// The most verified tokens kept (10,000 by default; see [`cache_for`](Self::cache_for)).
    ///
    /// ```
    /// # use mcpwire::auth::{JwksSource, JwtVerifier};
    /// let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("jwks.json"))
    ///     .cache_capacity(1_000);
    /// # drop(verifier);
    /// ```
    pub fn cache_capacity(mut self, tokens: usize) -> Self {
        self.verified.capacity = tokens;
        self
    }

    async fn check(&self, token: &str) -> Result<Arc<VerifiedToken>, TokenError> {
        let key = self.verified.key(token);
        let generation = self.keys.generation();
        let leeway = self.validation.leeway;
        if let Some(key) = &key
            && let Some(verified) = self.verified.get(key, generation, leeway)
        {
            return Ok(verified);
        }
        let verified = Arc::new(self.verify_signed(token).await?);
        if let Some(key) = key {
            // The generation read before the keys were: a set fetched meanwhile is newer.
            let fresh_for = self.keys.fresh_for().await;
            self.verified
                .insert(key, &verified, generation, leeway, fresh_for);
        }
        Ok(verified)
    }

    async fn verify_signed(&self, token: &str) -> Result<VerifiedToken, TokenError> {
        (self.backend).map_err(|refused| TokenError::Unavailable(refused.to_string()))?;
        let invalid = |why: String| TokenError::Invalid(why);
        let header = decode_header(token).map_err(|e| invalid(format!("header: {e}")))?;
        if !self.algorithms.contains(&header.alg) {
            return Err(invalid(format!(
                "algorithm {:?} is not allowed",
                header.alg
            )));
        }
        let key = self.keys.key(header.kid.as_deref()).await?;
        // jsonwebtoken wants every listed algorithm to fit the key: list the token's alone.
        let mut validation = self.validation.clone();
        validation.algorithms = vec![header.alg];
        let data = decode::<Map<String, Value>>(token, &key, &validation)
            .map_err(|e| invalid(e.to_string()))?;
        Ok(token_of(data.claims))
    }
}

/// The verified token named by `claims` (already checked to have `iss` and `sub`).
fn token_of(claims: Map<String, Value>) -> VerifiedToken {
    let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
    let scopes = match (claims.get("scope"), claims.get("scp")) {
        (Some(Value::String(scope)), _) | (None, Some(Value::String(scope))) => {
            scope.split_whitespace().map(str::to_owned).collect()
        }
        (None, Some(Value::Array(scopes))) => scopes
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    };
    let mut token = VerifiedToken::new(
        text("iss").unwrap_or_default(),
        text("sub").unwrap_or_default(),
    )
    .with_scopes(scopes);
    token.client_id = text("client_id").or_else(|| text("azp"));
    token.expires_at = claims.get("exp").and_then(Value::as_u64);
    token.claims = Arc::new(claims);
    token
}

impl TokenVerifier for JwtVerifier {
    fn verify<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<VerifiedToken, TokenError>> + Send + 'a>> {
        Box::pin(async move { self.check(token).await.map(Arc::unwrap_or_clone) })
    }

    fn verify_shared<'a>(
        &'a self,
        token: &'a str,
    ) -> Pin<Box<dyn Future<Output = Result<Arc<VerifiedToken>, TokenError>> + Send + 'a>> {
        Box::pin(self.check(token))
    }
}

#[cfg(all(test, feature = "auth-aws-lc"))]
mod tests {
    use super::{JwksSource, JwtVerifier, TokenError, TokenVerifier};
    use std::process::Command;

    /// Set in the child process that runs [`used_before_any_backend_was_chosen`].
    const CHILD: &str = "MCPWIRE_TEST_JWT_BACKEND_CHILD";

    /// jsonwebtoken's backend is fixed once per process, so the case runs in a process of its
    /// own: this test binary again, running only the ignored test below.
    #[test]
    fn a_backend_fixed_before_the_verifier_is_refused_not_a_panic() {
        let output = Command::new(std::env::current_exe().expect("the test binary"))
            .args([
                "--exact",
                "transport::http::auth::jwt::tests::used_before_any_backend_was_chosen",
            ])
            .args(["--include-ignored", "--test-threads=1"])
            .env(CHILD, "1")
            .output()
            .expect("the test binary runs");
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "the child failed: {stdout}");
        assert!(
            stdout.contains("1 passed"),
            "the child ran no test: {stdout}"
        );
    }

    #[test]
    #[ignore = "run in a process of its own by the test above"]
    fn used_before_any_backend_was_chosen() {
        assert_eq!(std::env::var(CHILD).as_deref(), Ok("1"), "run it alone");
        // With both of jsonwebtoken's backends compiled in, a use before any install fixes its
        // placeholder, whose signatures panic.
        let key = jsonwebtoken::EncodingKey::from_secret(b"secret");
        let claims = serde_json::json!({"sub": "someone"});
        let early = std::panic::catch_unwind(|| {
            jsonwebtoken::encode(&jsonwebtoken::Header::default(), &claims, &key)
        });
        assert!(early.is_err(), "the placeholder was not fixed: {early:?}");

        let verifier = JwtVerifier::new("iss", "aud", JwksSource::parse("unused-jwks.json"));
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime");
        let token = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJzb21lb25lIn0.c2ln";
        match runtime.block_on(verifier.verify(token)) {
            Err(TokenError::Unavailable(why)) => {
                assert!(why.contains("install"), "no advice: {why}")
            }
            other => panic!("expected 503's error, got {other:?}"),
        }
    }
}
