//! The key ring that seals `requestState`: the first key seals, every key opens (rotation), and
//! keys can come from the environment so replicas resume each other's rounds.
//!
//! A ring key never encrypts a token itself: each token gets its own AES-256-GCM key, derived
//! with HKDF-SHA256 from the ring key and a random 128-bit salt carried in the token. So the
//! 96-bit nonce limit of GCM applies per token, not per ring key, however many rounds a
//! long-lived key seals. Key material is zeroized when dropped.

use aes_gcm::aead::{KeyInit, OsRng, rand_core::RngCore};
use aes_gcm::{Aes256Gcm, Key};
use base64::Engine;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use hkdf::Hkdf;
use sha2::{Digest, Sha256};
use zeroize::Zeroizing;

/// The environment variable [`KeyRing::from_env`] reads: secrets of at least 32 bytes, base64
/// (standard or URL-safe), separated by commas or spaces; the first one seals.
pub const KEYS_ENV: &str = "MCP_REQUEST_STATE_KEYS";

const HKDF_INFO: &[u8] = b"mcp/request-state/v1/aes-256-gcm";
const TOKEN_INFO: &[u8] = b"mcpwire/request-state/v2/token-key";

/// The length of the random salt each token's own key is derived with.
pub(crate) const SALT_BYTES: usize = 16;

/// One ring key (derived from a secret) and its 4-byte id.
pub(crate) struct SealingKey {
    pub(crate) id: [u8; 4],
    master: Zeroizing<[u8; 32]>,
}

impl SealingKey {
    /// The AES-256-GCM cipher of the token whose salt is `salt`.
    pub(crate) fn token_cipher(&self, salt: &[u8; SALT_BYTES]) -> Aes256Gcm {
        let mut key = Zeroizing::new([0u8; 32]);
        Hkdf::<Sha256>::new(Some(salt), self.master.as_slice())
            .expand(TOKEN_INFO, key.as_mut_slice())
            .expect("32 bytes fit HKDF");
        Aes256Gcm::new(Key::<Aes256Gcm>::from_slice(key.as_slice()))
    }
}

/// Keys that seal and open `requestState`.
///
/// # Examples
///
/// ```
/// use mcpwire::request_state::KeyRing;
///
/// let current = [1u8; 32];
/// let previous = [2u8; 32];
/// // `current` seals new rounds; rounds sealed with `previous` still open.
/// let keys = KeyRing::new([current, previous]).unwrap();
/// assert_eq!(format!("{keys:?}"), "KeyRing { keys: 2, .. }");
/// ```
pub struct KeyRing {
    pub(crate) keys: Vec<SealingKey>,
}

/// A secret that cannot be used as a sealing key.
///
/// # Examples
///
/// ```
/// use mcpwire::request_state::{KeyError, KeyRing};
///
/// let short = KeyRing::new([b"too short".to_vec()]).unwrap_err();
/// assert!(matches!(short, KeyError::TooShort { index: 0, len: 9 }));
/// assert_eq!(short.to_string(), "requestState key 0 is 9 bytes; use at least 32 random bytes");
/// let twice = KeyRing::new([[5u8; 32], [5u8; 32]]).unwrap_err();
/// assert!(matches!(twice, KeyError::Duplicate { index: 1 }));
/// assert!(matches!(KeyRing::new(Vec::<Vec<u8>>::new()), Err(KeyError::Empty)));
/// ```
#[derive(Debug, thiserror::Error)]
pub enum KeyError {
    /// The ring has no key.
    #[error("a requestState key ring needs at least one key")]
    Empty,
    /// A secret is shorter than 32 bytes.
    #[error("requestState key {index} is {len} bytes; use at least 32 random bytes")]
    TooShort {
        /// Which key.
        index: usize,
        /// Its length.
        len: usize,
    },
    /// A secret in the environment is not base64.
    #[error("requestState key {index} in {KEYS_ENV} is not base64")]
    NotBase64 {
        /// Which key.
        index: usize,
    },
    /// The same secret appears twice.
    #[error("requestState key {index} repeats an earlier key")]
    Duplicate {
        /// Which key.
        index: usize,
    },
}

impl KeyRing {
    /// A ring of the given secrets (each at least 32 bytes); the first seals, all open.
    ///
    /// # Errors
    ///
    /// When the ring is empty, a secret is too short, or a secret repeats.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::request_state::KeyRing;
    ///
    /// let keys = KeyRing::new([b"0123456789abcdef0123456789abcdef"]);
    /// assert!(keys.is_ok());
    /// assert!(KeyRing::new([b"short"]).is_err());
    /// ```
    pub fn new<I, S>(secrets: I) -> Result<Self, KeyError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<[u8]>,
    {
        let mut keys: Vec<SealingKey> = Vec::new();
        for (index, secret) in secrets.into_iter().enumerate() {
            let secret = secret.as_ref();
            if secret.len() < 32 {
                return Err(KeyError::TooShort {
                    index,
                    len: secret.len(),
                });
            }
            let key = derive(secret);
            if keys.iter().any(|k| k.id == key.id) {
                return Err(KeyError::Duplicate { index });
            }
            keys.push(key);
        }
        if keys.is_empty() {
            return Err(KeyError::Empty);
        }
        Ok(Self { keys })
    }

    /// A ring of one random key held by this process only: rounds resume only on this process.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::request_state::KeyRing;
    ///
    /// // One process, no replicas: a random key is enough.
    /// let server = McpServer::new("local").request_state_keys(KeyRing::ephemeral());
    /// # drop(server);
    /// ```
    pub fn ephemeral() -> Self {
        let mut secret = Zeroizing::new([0u8; 32]);
        OsRng.fill_bytes(secret.as_mut_slice());
        Self::new([secret.as_slice()]).expect("a random 32-byte key is valid")
    }

    /// The ring in [`KEYS_ENV`], or `None` when the variable is unset or empty.
    ///
    /// # Errors
    ///
    /// When a key is not base64, too short, or repeated.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::request_state::KeyRing;
    ///
    /// // MCP_REQUEST_STATE_KEYS="<base64 secret>,<older base64 secret>"
    /// let keys = KeyRing::from_env().expect("valid keys").unwrap_or_else(KeyRing::ephemeral);
    /// let server = McpServer::new("bookshop").request_state_keys(keys);
    /// # drop(server);
    /// ```
    pub fn from_env() -> Result<Option<Self>, KeyError> {
        let Ok(value) = std::env::var(KEYS_ENV) else {
            return Ok(None);
        };
        let parts: Vec<&str> = value
            .split([',', ' ', '\n'])
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if parts.is_empty() {
            return Ok(None);
        }
        let mut secrets = Vec::with_capacity(parts.len());
        for (index, part) in parts.iter().enumerate() {
            let bytes: Zeroizing<Vec<u8>> = STANDARD
                .decode(part)
                .or_else(|_| URL_SAFE_NO_PAD.decode(part.trim_end_matches('=')))
                .map_err(|_| KeyError::NotBase64 { index })?
                .into();
            secrets.push(bytes);
        }
        Self::new(secrets.iter().map(|s| s.as_slice())).map(Some)
    }

    /// The ids of the ring's keys, newest first, as 8 hex digits: not secret (each is derived
    /// from its key one way), so a fleet's operator can see in the logs that every replica
    /// seals with the same ring.
    ///
    /// ```
    /// use mcpwire::request_state::KeyRing;
    ///
    /// let keys = KeyRing::new([[1u8; 32], [2u8; 32]]).unwrap();
    /// let ids = keys.ids();
    /// assert_eq!(ids.len(), 2);
    /// assert!(ids.iter().all(|id| id.len() == 8));
    /// assert_eq!(ids, KeyRing::new([[1u8; 32], [2u8; 32]]).unwrap().ids());
    /// ```
    pub fn ids(&self) -> Vec<String> {
        self.keys
            .iter()
            .map(|key| key.id.iter().map(|b| format!("{b:02x}")).collect())
            .collect()
    }

    pub(crate) fn sealing(&self) -> &SealingKey {
        &self.keys[0]
    }

    pub(crate) fn find(&self, id: &[u8]) -> Option<&SealingKey> {
        self.keys.iter().find(|k| k.id == id)
    }
}

impl std::fmt::Debug for KeyRing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyRing")
            .field("keys", &self.keys.len())
            .finish_non_exhaustive()
    }
}

fn derive(secret: &[u8]) -> SealingKey {
    let mut master = Zeroizing::new([0u8; 32]);
    Hkdf::<Sha256>::new(None, secret)
        .expand(HKDF_INFO, master.as_mut_slice())
        .expect("32 bytes fit HKDF");
    let mut hasher = Sha256::new();
    hasher.update(b"mcp/request-state/v1/kid:");
    hasher.update(master.as_slice());
    let digest = hasher.finalize();
    let id = [digest[0], digest[1], digest[2], digest[3]];
    SealingKey { id, master }
}

/// Encodes bytes the way tokens do (URL-safe base64 without padding).
pub(crate) fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

/// Decodes a token's base64; `None` when it is not canonical URL-safe base64.
pub(crate) fn unb64(text: &str) -> Option<Vec<u8>> {
    let bytes = URL_SAFE_NO_PAD.decode(text).ok()?;
    (URL_SAFE_NO_PAD.encode(&bytes) == text).then_some(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_short_duplicate_and_empty_rings() {
        assert!(matches!(
            KeyRing::new([[7u8; 16]]),
            Err(KeyError::TooShort { index: 0, len: 16 })
        ));
        assert!(matches!(
            KeyRing::new([[7u8; 32], [7u8; 32]]),
            Err(KeyError::Duplicate { index: 1 })
        ));
        assert!(matches!(
            KeyRing::new(Vec::<Vec<u8>>::new()),
            Err(KeyError::Empty)
        ));
    }

    #[test]
    fn ephemeral_rings_hold_different_keys() {
        let (a, b) = (KeyRing::ephemeral(), KeyRing::ephemeral());
        assert_ne!(*a.sealing().master, *b.sealing().master);
        assert_ne!(a.sealing().id, b.sealing().id);
    }

    #[test]
    fn each_salt_gives_its_own_token_key_and_the_same_salt_the_same_key() {
        use aes_gcm::aead::Aead;
        let ring = KeyRing::new([[5u8; 32]]).unwrap();
        let key = ring.sealing();
        let nonce = aes_gcm::Nonce::from_slice(&[0u8; 12]);
        let sealed = key
            .token_cipher(&[1; SALT_BYTES])
            .encrypt(nonce, &b"x"[..])
            .unwrap();
        let same = key
            .token_cipher(&[1; SALT_BYTES])
            .decrypt(nonce, &sealed[..]);
        let other = key
            .token_cipher(&[2; SALT_BYTES])
            .decrypt(nonce, &sealed[..]);
        assert_eq!(same.unwrap(), b"x");
        assert!(other.is_err(), "another salt must derive another key");
    }

    #[test]
    fn ring_keys_come_from_their_secrets() {
        let one = KeyRing::new([[1u8; 32]]).unwrap();
        let again = KeyRing::new([[1u8; 32]]).unwrap();
        let two = KeyRing::new([[2u8; 32]]).unwrap();
        assert_eq!(*one.sealing().master, *again.sealing().master);
        assert_ne!(*one.sealing().master, *two.sealing().master);
    }
}
