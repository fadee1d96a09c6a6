//! Where a [`JwtVerifier`](super::JwtVerifier)'s keys come from, and their cache.

use super::TokenError;
use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{Jwk, JwkSet};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{Mutex, RwLock};

/// The most a JWKS document may weigh.
const MAX_JWKS_BYTES: usize = 1024 * 1024;

/// How long fetching a JWKS URL may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The least time between two fetches prompted by unknown key ids (unless
/// [`JwtVerifier::refetch_cooldown`](super::JwtVerifier::refetch_cooldown) says otherwise), so a
/// stream of tokens with made-up `kid`s cannot make the server hammer its authorization server.
pub(super) const REFETCH_COOLDOWN: Duration = Duration::from_secs(30);

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
    /// A file, read when first needed and read again on an unknown key id.
    File(PathBuf),
    /// An `http://` or `https://` URL, fetched when first needed and again on an unknown key id.
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
                    .map_err(|e| unavailable(format!("fetching {url}: {e}")))?;
                if response.content_length().unwrap_or(0) > MAX_JWKS_BYTES as u64 {
                    return Err(unavailable(format!("{url} is too large")));
                }
                let body = response
                    .bytes()
                    .await
                    .map_err(|e| unavailable(format!("fetching {url}: {e}")))?;
                body.to_vec()
            }
        };
        if bytes.len() > MAX_JWKS_BYTES {
            return Err(unavailable("the key set is too large".into()));
        }
        serde_json::from_slice(&bytes).map_err(|e| unavailable(format!("not a JWK set: {e}")))
    }
}

/// The key set last fetched (decoded), and when.
struct Fetched {
    keys: Vec<Key>,
    at: Instant,
}

/// The keys of one source: fetched when first needed, again when a token names a key id the
/// cached set lacks (at most once per cooldown).
pub(super) struct KeyCache {
    source: JwksSource,
    pub(super) cooldown: Duration,
    http: reqwest::Client,
    fetched: RwLock<Option<Fetched>>,
    fetching: Mutex<()>,
}

impl KeyCache {
    pub(super) fn new(source: JwksSource) -> Self {
        Self {
            source,
            cooldown: REFETCH_COOLDOWN,
            http: reqwest::Client::new(),
            fetched: RwLock::new(None),
            fetching: Mutex::new(()),
        }
    }

    /// The key named `kid` (or the only key, for a token that names none).
    pub(super) async fn key(&self, kid: Option<&str>) -> Result<Arc<DecodingKey>, TokenError> {
        if let Some(key) = self.cached(kid).await {
            return Ok(key);
        }
        let _one_fetch_at_a_time = self.fetching.lock().await;
        // Another task may have fetched while this one waited.
        if let Some(key) = self.cached(kid).await {
            return Ok(key);
        }
        let recent = self
            .fetched
            .read()
            .await
            .as_ref()
            .is_some_and(|f| f.at.elapsed() < self.cooldown);
        if !recent {
            let keys = decoded(&self.source.fetch(&self.http).await?);
            *self.fetched.write().await = Some(Fetched {
                keys,
                at: Instant::now(),
            });
        }
        self.cached(kid).await.ok_or_else(|| {
            TokenError::Invalid(match kid {
                Some(kid) => format!("no key with id {kid:?}"),
                None => "the token names no key id and the key set has several keys".into(),
            })
        })
    }

    async fn cached(&self, kid: Option<&str>) -> Option<Arc<DecodingKey>> {
        let fetched = self.fetched.read().await;
        let keys = &fetched.as_ref()?.keys;
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
