//! Where a [`JwtVerifier`](super::JwtVerifier)'s keys come from, and their cache.

use super::TokenError;
use super::body::read_capped;
use crate::wire::http_error::described;
use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, RwLock};

/// The most a JWKS document may weigh.
const MAX_JWKS_BYTES: usize = 1024 * 1024;

/// How long fetching a JWKS URL may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time between two fetches, failed ones included (unless
/// [`JwtVerifier::refetch_cooldown`](super::JwtVerifier::refetch_cooldown) says otherwise), so a
/// stream of tokens with made-up `kid`s, or an authorization server that is down, cannot make
/// the server hammer it.
pub(super) const REFETCH_COOLDOWN: Duration = Duration::from_secs(30);

/// How long a fetched key set is used before it is fetched again (unless
/// [`JwtVerifier::keys_max_age`](super::JwtVerifier::keys_max_age) says otherwise), so a key
/// the authorization server withdrew stops verifying tokens.
pub(super) const KEYS_MAX_AGE: Duration = Duration::from_secs(3600);

/// Where the authorization server's public keys (a JSON Web Key Set, RFC 7517) are.
///
/// ```
/// use mcpwire::auth::JwksSource;
///
/// assert!(matches!(JwksSource::parse("https://auth.example.com/jwks.json"), JwksSource::Url(_)));
/// assert!(matches!(JwksSource::parse("keys/jwks.json"), JwksSource::File(_)));
/// ```
#[derive(Clone, Debug)]
#[non_exhaustive]
pub enum JwksSource {
    /// A file, read when first needed and read again on an unknown key id or when the keys are
    /// older than their maximum age.
    File(PathBuf),
    /// An `http://` or `https://` URL, fetched when first needed and again on an unknown key id
    /// or when the keys are older than their maximum age (1 h unless
    /// [`JwtVerifier::keys_max_age`](super::JwtVerifier::keys_max_age) says otherwise). The
    /// answer is read up to 1 MiB, with or without `Content-Length`.
    /// (`https` needs a TLS feature of `reqwest` enabled in your application, e.g. `rustls`.)
    Url(String),
}

impl JwksSource {
    /// A URL when `path_or_url` starts with `http://` or `https://`, else a file path.
    pub fn parse(path_or_url: &str) -> Self {
        if path_or_url.starts_with("http://") || path_or_url.starts_with("https://") {
            JwksSource::Url(path_or_url.to_owned())
        } else {
            JwksSource::File(PathBuf::from(path_or_url))
        }
    }

    async fn fetch(&self, http: &reqwest::Client) -> Result<JwkSet, TokenError> {
        let unavailable = |what: String| TokenError::Unavailable(what);
        let bytes = match self {
            JwksSource::File(path) => tokio::fs::read(path)
                .await
                .map_err(|e| unavailable(format!("reading {}: {e}", path.display())))?,
            JwksSource::Url(url) => {
                let response = http
                    .get(url)
                    .timeout(FETCH_TIMEOUT)
                    .send()
                    .await
                    .and_then(reqwest::Response::error_for_status)
                    .map_err(|e| unavailable(format!("fetching {url}: {}", described(&e))))?;
                read_capped(response, MAX_JWKS_BYTES)
                    .await
                    .map_err(|e| unavailable(format!("fetching {url}: {e}")))?
            }
        };
        if bytes.len() > MAX_JWKS_BYTES {
            return Err(unavailable("the key set is too large".into()));
        }
        serde_json::from_slice(&bytes).map_err(|e| unavailable(format!("not a JWK set: {e}")))
    }
}

/// The key set last fetched (decoded) and when, and the last attempt (failed ones too).
#[derive(Default)]
struct Fetched {
    keys: Vec<Key>,
    /// A SHA-256 of the set as fetched, to tell a changed set from the same one again.
    digest: [u8; 32],
    /// When `keys` were fetched (`None`: never).
    at: Option<Instant>,
    /// When a fetch was last tried, and why it failed if it did.
    tried: Option<(Instant, Option<String>)>,
}

/// The keys of one source: fetched when first needed, again when they are older than the
/// maximum age or a token names a key id the set lacks; at most one fetch per cooldown,
/// whether it succeeded or not.
pub(super) struct KeyCache {
    source: JwksSource,
    pub(super) cooldown: Duration,
    pub(super) max_age: Duration,
    http: reqwest::Client,
    fetched: RwLock<Fetched>,
    fetching: Mutex<()>,
    /// Counts the changes of the key set: tokens verified with an older one are verified again.
    generation: AtomicU64,
}

impl KeyCache {
    pub(super) fn new(source: JwksSource) -> Self {
        Self {
            source,
            cooldown: REFETCH_COOLDOWN,
            max_age: KEYS_MAX_AGE,
            http: reqwest::Client::new(),
            fetched: RwLock::new(Fetched::default()),
            fetching: Mutex::new(()),
            generation: AtomicU64::new(0),
        }
    }

    /// How much longer the keys fetched may be used before they are fetched again (zero when
    /// none are): a token verified with them is not reused past that.
    pub(super) async fn fresh_for(&self) -> Duration {
        match self.fetched.read().await.at {
            Some(at) => self.max_age.saturating_sub(at.elapsed()),
            None => Duration::ZERO,
        }
    }

    /// The key set's generation: it changes whenever a fetch brings a set that differs from
    /// the one before.
    pub(super) fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// The key named `kid` (or the only key, for a token that names none).
    pub(super) async fn key(&self, kid: Option<&str>) -> Result<Arc<DecodingKey>, TokenError> {
        if let Some(key) = self.cached(kid, self.max_age).await {
            return Ok(key);
        }
        let _one_fetch_at_a_time = self.fetching.lock().await;
        // Another task may have fetched while this one waited.
        if let Some(key) = self.cached(kid, self.max_age).await {
            return Ok(key);
        }
        // Keys are used past their age only while the cooldown forbids fetching them again.
        let usable_for = self.max_age.max(self.cooldown);
        let last_try = self.fetched.read().await.tried.clone();
        let (limit, failure) = match last_try {
            Some((at, failure)) if at.elapsed() < self.cooldown => (usable_for, failure),
            _ => {
                self.fetch().await?;
                // Just fetched: usable whatever the maximum age.
                (Duration::MAX, None)
            }
        };
        if let Some(key) = self.cached(kid, limit).await {
            return Ok(key);
        }
        // Fail closed: no usable key, and no fetch until the cooldown ends.
        Err(match (failure, kid) {
            (Some(why), _) => TokenError::Unavailable(why),
            (None, Some(kid)) => TokenError::Invalid(format!("no key with id {kid:?}")),
            (None, None) => TokenError::Invalid(
                "the token names no key id and the key set has several keys".into(),
            ),
        })
    }

    /// Fetches the set; the attempt counts toward the cooldown whatever its outcome.
    async fn fetch(&self) -> Result<(), TokenError> {
        let fetched = self.source.fetch(&self.http).await;
        let mut state = self.fetched.write().await;
        let now = Instant::now();
        match fetched {
            Ok(set) => {
                let digest: [u8; 32] =
                    Sha256::digest(serde_json::to_vec(&set).unwrap_or_default()).into();
                if state.at.is_none() || digest != state.digest {
                    self.generation.fetch_add(1, Ordering::AcqRel);
                }
                state.digest = digest;
                state.keys = decoded(&set);
                state.at = Some(now);
                state.tried = Some((now, None));
                Ok(())
            }
            Err(error) => {
                let why = match &error {
                    TokenError::Unavailable(why) | TokenError::Invalid(why) => why.clone(),
                };
                state.tried = Some((now, Some(why)));
                Err(error)
            }
        }
    }

    /// The key named `kid` in the cached set, if the set was fetched less than `limit` ago.
    async fn cached(&self, kid: Option<&str>, limit: Duration) -> Option<Arc<DecodingKey>> {
        let fetched = self.fetched.read().await;
        if fetched.at?.elapsed() >= limit {
            return None;
        }
        let keys = &fetched.keys;
        match kid {
            Some(kid) => keys.iter().find(|key| key.kid.as_deref() == Some(kid)),
            None if keys.len() == 1 => keys.first(),
            None => None,
        }
        .map(|key| key.decoding.clone())
    }
}

/// One key of the set, decoded once when the set is fetched (not per token).
struct Key {
    kid: Option<String>,
    decoding: Arc<DecodingKey>,
}

/// The keys of `set` that decode; one that does not (an unknown type, bad parameters) is left
/// out, so a token naming it is refused like one naming no known key.
fn decoded(set: &JwkSet) -> Vec<Key> {
    set.keys
        .iter()
        .filter_map(|jwk: &Jwk| {
            let decoding = DecodingKey::from_jwk(jwk).ok()?;
            Some(Key {
                kid: jwk.common.key_id.clone(),
                decoding: Arc::new(decoding),
            })
        })
        .collect()
}
