//! `IntrospectionVerifier`: opaque tokens, asked of the authorization server (RFC 7662).

use super::body::read_capped;
use super::token_cache::{TokenCache, TokenKey};
use super::{TokenError, TokenVerifier, VerifiedToken};
use crate::wire::http_error::described;
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// How long asking the introspection endpoint may take.
const TIMEOUT: Duration = Duration::from_secs(10);

/// The largest introspection answer read.
const MAX_ANSWER_BYTES: usize = 64 * 1024;

/// The most refusals kept (by a hash of the token).
const MAX_REFUSED: usize = 10_000;

/// How long a refusal is reused unless [`IntrospectionVerifier::cache_refusals_for`] says
/// otherwise.
const REFUSALS_FOR: Duration = Duration::from_secs(10);

/// Verifies opaque (or any) access tokens by asking the authorization server's introspection
/// endpoint (RFC 7662), authenticating as a client with `client_secret_basic`.
///
/// A token passes when the answer says `active: true`, names a subject (`sub`, else
/// `username`), its `aud` names the audience, `iss` (when given) is the issuer, and `exp` (when
/// given) is in the future. Answers are cached by a SHA-256 of the token until the earlier of
/// its `exp` and the cache time (60 s by default), at most 10,000 of them (the one that would
/// expire soonest makes room; a token over 4 KiB is asked about every time), `exp` checked
/// again on every use, as [`JwtVerifier`](super::JwtVerifier) keeps its tokens. Refusals (an
/// inactive token, another audience, …) are cached too, briefly (10 s by default, at most
/// 10,000), so that the same bogus token sent again and again is asked about once; an
/// endpoint that could not be reached is never cached. Answers are read up to 64 KiB, with or
/// without `Content-Length`.
///
/// ```
/// use mcpwire::auth::IntrospectionVerifier;
///
/// let verifier = IntrospectionVerifier::new(
///     "https://auth.example.com/introspect",
///     "books-server",
///     "its-secret",
///     "https://books.example.com/mcp",
/// )
/// .issuer("https://auth.example.com")
/// .cache_for(std::time::Duration::from_secs(30));
/// # drop(verifier);
/// ```
pub struct IntrospectionVerifier {
    endpoint: String,
    client_id: String,
    client_secret: String,
    audience: String,
    issuer: Option<String>,
    refusals_for: Duration,
    http: reqwest::Client,
    /// Answers that passed.
    verified: TokenCache,
    /// Refusals: why, and until when.
    refused: Mutex<HashMap<TokenKey, (String, Instant)>>,
}

impl IntrospectionVerifier {
    /// Asks `endpoint` as the client `client_id`/`client_secret`; tokens must be for
    /// `audience` (this server's resource URL).
    pub fn new(
        endpoint: impl Into<String>,
        client_id: impl Into<String>,
        client_secret: impl Into<String>,
        audience: impl Into<String>,
    ) -> Self {
        Self {
            endpoint: endpoint.into(),
            client_id: client_id.into(),
            client_secret: client_secret.into(),
            audience: audience.into(),
            issuer: None,
            refusals_for: REFUSALS_FOR,
            http: reqwest::Client::new(),
            verified: TokenCache::new(),
            refused: Mutex::new(HashMap::new()),
        }
    }

    /// Also requires `iss`, when the answer has one, to be exactly `issuer`.
    ///
    /// ```
    /// # use mcpwire::auth::IntrospectionVerifier;
    /// let v = IntrospectionVerifier::new("https://a/introspect", "id", "secret", "https://h/mcp")
    ///     .issuer("https://a");
    /// # drop(v);
    /// ```
    pub fn issuer(mut self, issuer: impl Into<String>) -> Self {
        self.issuer = Some(issuer.into());
        self
    }

    /// How long an answer is reused (never past the token's `exp`); zero asks every time.
    ///
    /// ```
    /// # use mcpwire::auth::IntrospectionVerifier;
    /// let v = IntrospectionVerifier::new("https://a/introspect", "id", "secret", "https://h/mcp")
    ///     .cache_for(std::time::Duration::ZERO);
    /// # drop(v);
    /// ```
    pub fn cache_for(mut self, duration: Duration) -> Self {
        self.verified.kept_for = duration;
        self
    }

    /// How long a refusal (the endpoint answered, and the token does not pass) is reused
    /// without asking again (10 s by default; zero asks every time). At most 10,000 are kept.
    ///
    /// ```
    /// # use mcpwire::auth::IntrospectionVerifier;
    /// let v = IntrospectionVerifier::new("https://a/introspect", "id", "secret", "https://h/mcp")
    ///     .cache_refusals_for(std::time::Duration::from_secs(5));
    /// # drop(v);
    /// ```
    pub fn cache_refusals_for(mut self, duration: Duration) -> Self {
        self.refusals_for = duration;
        self
    }

    async fn check(&self, token: &str) -> Result<Arc<VerifiedToken>, TokenError> {
        let key: TokenKey = Sha256::digest(token.as_bytes()).into();
        let kept = self.verified.key(token);
        if let Some(kept) = &kept
            && let Some(verified) = self.verified.get(kept, 0, 0)
        {
            return Ok(verified);
        }
        if let Some((why, until)) = self.refused.lock().expect("cache lock").get(&key)
            && *until > Instant::now()
        {
            return Err(TokenError::Invalid(why.clone()));
        }
        let answer = self.ask(token).await?;
        let verified = match self.judge(answer) {
            Ok(verified) => Arc::new(verified),
            Err(refusal) => {
                if let TokenError::Invalid(why) = &refusal {
                    self.remember_refusal(key, why);
                }
                return Err(refusal);
            }
        };
        if let Some(kept) = kept {
            self.verified.insert(kept, &verified, 0, 0, Duration::MAX);
        }
        Ok(verified)
    }

    /// Keeps a refusal for a while (when there is room, after dropping the expired ones).
    fn remember_refusal(&self, key: TokenKey, why: &str) {
        if self.refusals_for.is_zero() {
            return;
        }
        let now = Instant::now();
        let mut refused = self.refused.lock().expect("cache lock");
        if refused.len() >= MAX_REFUSED {
            refused.retain(|_, (_, until)| *until > now);
        }
        if refused.len() < MAX_REFUSED {
            refused.insert(key, (why.to_owned(), now + self.refusals_for));
        }
    }

    async fn ask(&self, token: &str) -> Result<Map<String, Value>, TokenError> {
        let unavailable = |why: String| TokenError::Unavailable(why);
        let response = self
            .http
            .post(&self.endpoint)
            .basic_auth(&self.client_id, Some(&self.client_secret))
            .header("content-type", "application/x-www-form-urlencoded")
            .header("accept", "application/json")
            .body(format!(
                "token={}&token_type_hint=access_token",
                form(token)
            ))
            .timeout(TIMEOUT)
            .send()
            .await
            .and_then(reqwest::Response::error_for_status)
            .map_err(|e| unavailable(format!("introspection: {}", described(&e))))?;
        let body = read_capped(response, MAX_ANSWER_BYTES)
            .await
            .map_err(|e| unavailable(format!("introspection: {e}")))?;
        serde_json::from_slice(&body)
            .map_err(|_| unavailable("introspection: the answer is not a JSON object".into()))
    }

    fn judge(&self, claims: Map<String, Value>) -> Result<VerifiedToken, TokenError> {
        let invalid = |why: &str| Err(TokenError::Invalid(why.to_owned()));
        if claims.get("active") != Some(&Value::Bool(true)) {
            return invalid("the token is not active");
        }
        let audience_ok = match claims.get("aud") {
            Some(Value::String(aud)) => *aud == self.audience,
            Some(Value::Array(auds)) => auds.iter().any(|a| a.as_str() == Some(&self.audience)),
            _ => false,
        };
        if !audience_ok {
            return invalid("the token is for another audience");
        }
        let issuer = claims.get("iss").and_then(Value::as_str);
        if let (Some(expected), Some(issuer)) = (&self.issuer, issuer)
            && expected != issuer
        {
            return invalid("the token is from another issuer");
        }
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let exp = claims.get("exp").and_then(Value::as_u64);
        if exp.is_some_and(|exp| exp <= now.as_secs()) {
            return invalid("the token has expired");
        }
        let text = |name: &str| claims.get(name).and_then(Value::as_str).map(str::to_owned);
        let Some(subject) = text("sub").or_else(|| text("username")) else {
            return invalid("the token names no subject");
        };
        let scopes = text("scope").unwrap_or_default();
        let mut verified = VerifiedToken::new(issuer.unwrap_or_default(), subject)
            .with_scopes(scopes.split_whitespace());
        verified.client_id = text("client_id");
        verified.expires_at = exp;
        verified.claims = Arc::new(claims);
        Ok(verified)
    }
}

/// `value` as an `application/x-www-form-urlencoded` value.
fn form(value: &str) -> String {
    let mut encoded = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                encoded.push(byte as char)
            }
            _ => encoded.push_str(&format!("%{byte:02X}")),
        }
    }
    encoded
}

impl TokenVerifier for IntrospectionVerifier {
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
