//! Sealing and opening `requestState` tokens: AES-256-GCM over the claims, bound to the method,
//! the tool (or prompt, or resource), a digest of the arguments, the audience, the principal and
//! an expiry, with a unique id. Each token is sealed under its own key (see `keys`). Every
//! failure to open is the same error; the reason goes to the server log only.
//!
//! Token: `v2.` + base64url(key id (4) ‖ salt (16) ‖ nonce (12) ‖ AES-GCM(claims) (+16)).

use super::keys::{KeyRing, SALT_BYTES, b64, unb64};
use aes_gcm::Nonce;
use aes_gcm::aead::{Aead, OsRng, Payload, rand_core::RngCore};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const PREFIX: &str = "v2.";
const HEADER_BYTES: usize = 4 + SALT_BYTES + 12;
const TAG_BYTES: usize = 16;

/// The longest `requestState` sealed or accepted by default: 64 KiB.
pub(crate) const DEFAULT_MAX_BYTES: usize = 64 * 1024;

/// What a token is bound to: the request that may carry it back.
#[derive(Clone, Copy, Debug)]
pub struct Binding<'a> {
    /// `tools/call`, `prompts/get` or `resources/read`.
    pub method: &'a str,
    /// The tool or prompt name, or the resource URI.
    pub target: &'a str,
    /// [`arguments_digest`] of the request's arguments.
    pub arguments: &'a str,
    /// Who is asking, when the transport authenticated someone.
    pub principal: Option<&'a str>,
}

#[derive(Serialize, Deserialize)]
struct Claims<'a> {
    v: u8,
    /// Issued at, milliseconds since the epoch.
    iat: u64,
    /// Expires at, milliseconds since the epoch.
    exp: u64,
    /// The call's id: minted with its first state, the same in every later round's state (for
    /// replay guards).
    #[serde(borrow)]
    cid: Cow<'a, str>,
    #[serde(borrow)]
    m: Cow<'a, str>,
    #[serde(borrow)]
    t: Cow<'a, str>,
    #[serde(borrow)]
    a: Cow<'a, str>,
    #[serde(borrow)]
    aud: Cow<'a, str>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    p: Option<String>,
    #[serde(borrow)]
    s: Cow<'a, str>,
}

/// Seals and opens `requestState` for one server (the audience).
#[derive(Debug)]
pub struct StateCodec {
    keys: KeyRing,
    audience: String,
    ttl: Duration,
    max_bytes: usize,
}

/// A state that would seal into a token longer than the limit: the server refuses to mint a
/// `requestState` it would then refuse to open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Oversized {
    /// The token's length.
    pub bytes: usize,
    /// The limit.
    pub limit: usize,
}

/// An opened token: the engine's plaintext state, and the token's identity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Opened {
    /// The engine's plaintext state.
    pub state: String,
    /// The id of the call the token belongs to (the same in every round of one call).
    pub call_id: String,
    /// When the token expires, milliseconds since the epoch.
    pub expires_at_ms: u64,
}

/// Why a token was refused; logged, never sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// Longer than the limit.
    Oversized,
    /// Not a token of this format.
    Malformed,
    /// Sealed with a key this server does not hold.
    UnknownKey,
    /// The seal does not verify (tampered, truncated).
    Seal,
    /// Past its expiry.
    Expired,
    /// Minted for another method, target or arguments.
    Binding,
    /// Minted by another server.
    Audience,
    /// Minted for another principal.
    Principal,
}

#[cfg(feature = "http")]
impl StateCodec {
    /// The ids of the ring's keys (never the keys), newest first, and the audience: what a
    /// replica logs at start so a fleet's operator sees that every replica shares them.
    pub(crate) fn describe(&self) -> (Vec<String>, &str) {
        (self.keys.ids(), &self.audience)
    }
}

impl StateCodec {
    /// A codec for the server `audience`, with a 10-minute expiry and a 64 KiB limit.
    pub fn new(keys: KeyRing, audience: impl Into<String>) -> Self {
        Self {
            keys,
            audience: audience.into(),
            ttl: Duration::from_secs(600),
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }

    /// How long a token stays valid (renewed each round), to the millisecond; a TTL too large
    /// to add to the clock means "until the end of time" rather than an overflow.
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The longest token sealed or accepted.
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Seals `state` (the engine's plaintext) of the call `call_id` (see [`new_call_id`]) for
    /// `binding`.
    ///
    /// # Errors
    ///
    /// [`Oversized`] when the token would be longer than the limit (so it would be refused
    /// when it comes back).
    pub fn seal(
        &self,
        binding: Binding<'_>,
        state: &str,
        call_id: &str,
    ) -> Result<String, Oversized> {
        let now = now_ms();
        let ttl_ms = u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX);
        let claims = Claims {
            v: 2,
            iat: now,
            exp: now.saturating_add(ttl_ms),
            cid: call_id.into(),
            m: binding.method.into(),
            t: binding.target.into(),
            a: binding.arguments.into(),
            aud: self.audience.as_str().into(),
            p: binding.principal.map(principal_tag),
            s: state.into(),
        };
        let plaintext =
            zeroize::Zeroizing::new(serde_json::to_vec(&claims).expect("claims serialize"));
        let bytes = token_len(plaintext.len());
        if bytes > self.max_bytes {
            return Err(Oversized {
                bytes,
                limit: self.max_bytes,
            });
        }
        let key = self.keys.sealing();
        let mut salt = [0u8; SALT_BYTES];
        OsRng.fill_bytes(&mut salt);
        let mut nonce = [0u8; 12];
        OsRng.fill_bytes(&mut nonce);
        let aad = aad(&key.id);
        let sealed = key
            .token_cipher(&salt)
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: &plaintext,
                    aad: &aad,
                },
            )
            .expect("AES-GCM encryption of a bounded message succeeds");
        let mut body = Vec::with_capacity(HEADER_BYTES + sealed.len());
        body.extend_from_slice(&key.id);
        body.extend_from_slice(&salt);
        body.extend_from_slice(&nonce);
        body.extend_from_slice(&sealed);
        let token = format!("{PREFIX}{}", b64(&body));
        debug_assert_eq!(token.len(), bytes);
        Ok(token)
    }

    /// Opens `token` for `binding`, returning the engine's plaintext state.
    ///
    /// # Errors
    ///
    /// The reason it was refused (for the log).
    pub fn open(&self, token: &str, binding: Binding<'_>) -> Result<Opened, Refusal> {
        if token.len() > self.max_bytes {
            return Err(Refusal::Oversized);
        }
        let body = token
            .strip_prefix(PREFIX)
            .and_then(unb64)
            .ok_or(Refusal::Malformed)?;
        if body.len() < HEADER_BYTES + TAG_BYTES {
            return Err(Refusal::Malformed);
        }
        let (id, rest) = body.split_at(4);
        let (salt, rest) = rest.split_at(SALT_BYTES);
        let (nonce, sealed) = rest.split_at(12);
        let key = self.keys.find(id).ok_or(Refusal::UnknownKey)?;
        let salt: &[u8; SALT_BYTES] = salt.try_into().expect("split at SALT_BYTES");
        let aad = aad(&key.id);
        let plaintext = key
            .token_cipher(salt)
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: &aad,
                },
            )
            .map_err(|_| Refusal::Seal)?;
        let plaintext = zeroize::Zeroizing::new(plaintext);
        let claims: Claims<'_> =
            serde_json::from_slice(&plaintext).map_err(|_| Refusal::Malformed)?;
        if claims.v != 2 {
            return Err(Refusal::Malformed);
        }
        if now_ms() >= claims.exp {
            return Err(Refusal::Expired);
        }
        if claims.m != binding.method || claims.t != binding.target || claims.a != binding.arguments
        {
            return Err(Refusal::Binding);
        }
        if claims.aud != self.audience {
            return Err(Refusal::Audience);
        }
        let expected = binding.principal.map(principal_tag);
        if claims.p != expected {
            return Err(Refusal::Principal);
        }
        Ok(Opened {
            state: claims.s.into_owned(),
            call_id: claims.cid.into_owned(),
            expires_at_ms: claims.exp,
        })
    }
}

/// A new call id: 128 random bits, base64url.
pub fn new_call_id() -> String {
    let mut id = [0u8; 16];
    OsRng.fill_bytes(&mut id);
    b64(&id)
}

/// The length of the token that seals `plaintext_len` bytes of claims.
fn token_len(plaintext_len: usize) -> usize {
    let body = HEADER_BYTES + plaintext_len + TAG_BYTES;
    PREFIX.len() + (body * 4).div_ceil(3)
}

/// A digest of a request's arguments (their JSON text): SHA-256 over their JSON with sorted
/// keys, 16 bytes, base64url.
pub fn arguments_digest(arguments: Option<&str>) -> String {
    let value: serde_json::Value = arguments
        .and_then(|text| serde_json::from_str(text).ok())
        .unwrap_or_else(|| serde_json::Value::Object(Default::default()));
    digest(&sorted(value).to_string())
}

/// 16 bytes of SHA-256, base64url.
pub(crate) fn digest(text: &str) -> String {
    b64(&Sha256::digest(text.as_bytes())[..16])
}

fn sorted(value: serde_json::Value) -> serde_json::Value {
    match value {
        serde_json::Value::Object(map) => {
            let mut entries: Vec<_> = map.into_iter().collect();
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            serde_json::Value::Object(entries.into_iter().map(|(k, v)| (k, sorted(v))).collect())
        }
        serde_json::Value::Array(items) => items.into_iter().map(sorted).collect(),
        other => other,
    }
}

fn principal_tag(principal: &str) -> String {
    digest(&format!("mcp/request-state/principal:{principal}"))
}

fn aad(id: &[u8; 4]) -> Vec<u8> {
    let mut aad = PREFIX.as_bytes().to_vec();
    aad.extend_from_slice(id);
    aad
}

fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn binding<'a>(arguments: &'a str) -> Binding<'a> {
        Binding {
            method: "tools/call",
            target: "order_book",
            arguments,
            principal: None,
        }
    }

    fn codec(secret: u8, audience: &str) -> StateCodec {
        StateCodec::new(KeyRing::new([[secret; 32]]).unwrap(), audience)
    }

    #[test]
    fn round_trips_and_hides_the_state() {
        let codec = codec(1, "Bookshop");
        let token = codec
            .seal(binding("a1"), r#"{"secret":"answer"}"#, "call")
            .unwrap();
        assert!(token.starts_with("v2."));
        assert!(!token.contains("secret"));
        assert_eq!(
            codec.open(&token, binding("a1")).unwrap().state,
            r#"{"secret":"answer"}"#
        );
    }

    #[test]
    fn refuses_every_kind_of_bad_token() {
        let first = codec(1, "Bookshop");
        let token = first.seal(binding("a1"), "{}", "call").unwrap();
        let mut tampered = token.clone().into_bytes();
        let at = tampered.len() - 5;
        tampered[at] = if tampered[at] == b'A' { b'B' } else { b'A' };
        let tampered = String::from_utf8(tampered).unwrap();
        assert_eq!(first.open(&tampered, binding("a1")), Err(Refusal::Seal));
        assert_eq!(first.open(&token, binding("a2")), Err(Refusal::Binding));
        assert_eq!(first.open("v1.!!", binding("a1")), Err(Refusal::Malformed));
        assert_eq!(
            first.open("garbage", binding("a1")),
            Err(Refusal::Malformed)
        );
        assert_eq!(
            codec(2, "Bookshop").open(&token, binding("a1")),
            Err(Refusal::UnknownKey)
        );
        let other = StateCodec::new(KeyRing::new([[1u8; 32]]).unwrap(), "Other");
        assert_eq!(other.open(&token, binding("a1")), Err(Refusal::Audience));
        let oversized = "v2.".to_owned() + &"A".repeat(70 * 1024);
        assert_eq!(
            first.open(&oversized, binding("a1")),
            Err(Refusal::Oversized)
        );
    }

    #[test]
    fn the_ttl_counts_milliseconds_and_never_overflows() {
        let zero = codec(1, "Bookshop").with_ttl(Duration::ZERO);
        let token = zero.seal(binding("a1"), "{}", "call").unwrap();
        assert_eq!(zero.open(&token, binding("a1")), Err(Refusal::Expired));
        // Under a second is no longer rounded down to "expired at once".
        let short = codec(1, "Bookshop").with_ttl(Duration::from_millis(900));
        let token = short.seal(binding("a1"), "{}", "call").unwrap();
        assert!(short.open(&token, binding("a1")).is_ok());
        let forever = codec(1, "Bookshop").with_ttl(Duration::MAX);
        let token = forever.seal(binding("a1"), "{}", "call").unwrap();
        assert_eq!(
            forever.open(&token, binding("a1")).unwrap().expires_at_ms,
            u64::MAX
        );
    }

    #[test]
    fn a_state_too_big_for_the_limit_is_never_sealed() {
        let codec = codec(1, "Bookshop").with_max_bytes(1024);
        let fits = codec.seal(binding("a1"), &"x".repeat(400), "call").unwrap();
        assert!(fits.len() <= 1024);
        let refused = codec
            .seal(binding("a1"), &"x".repeat(1000), "call")
            .unwrap_err();
        assert_eq!(refused.limit, 1024);
        assert!(refused.bytes > 1024);
        // What is sealed is always accepted back: the limit is the same both ways.
        let exact = (0..2000)
            .map(|n| codec.seal(binding("a1"), &"y".repeat(n), "call"))
            .take_while(Result::is_ok)
            .last()
            .unwrap()
            .unwrap();
        assert!(codec.open(&exact, binding("a1")).is_ok());
    }

    #[test]
    fn every_token_has_its_own_salt_and_carries_its_call_id() {
        let codec = codec(1, "Bookshop");
        let a = codec.seal(binding("a1"), "{}", "call-1").unwrap();
        let b = codec.seal(binding("a1"), "{}", "call-1").unwrap();
        assert_ne!(a, b, "same plaintext, another salt and nonce");
        assert_eq!(codec.open(&a, binding("a1")).unwrap().call_id, "call-1");
        assert_ne!(new_call_id(), new_call_id());
    }

    #[test]
    fn binds_the_principal() {
        let codec = codec(1, "Bookshop");
        let alice = Binding {
            principal: Some("alice"),
            ..binding("a")
        };
        let bob = Binding {
            principal: Some("bob"),
            ..binding("a")
        };
        let token = codec.seal(alice, "{}", "call").unwrap();
        assert!(codec.open(&token, alice).is_ok());
        assert_eq!(codec.open(&token, bob), Err(Refusal::Principal));
        assert_eq!(codec.open(&token, binding("a")), Err(Refusal::Principal));
    }

    #[test]
    fn rotation_opens_with_any_key_and_seals_with_the_first() {
        let old = codec(1, "S");
        let token = old.seal(binding("a"), "{}", "call").unwrap();
        let rotated = StateCodec::new(KeyRing::new([[3u8; 32], [1u8; 32]]).unwrap(), "S");
        assert!(rotated.open(&token, binding("a")).is_ok());
        let fresh = rotated.seal(binding("a"), "{}", "call").unwrap();
        assert_eq!(old.open(&fresh, binding("a")), Err(Refusal::UnknownKey));
    }

    #[test]
    fn the_arguments_digest_ignores_key_order() {
        let a = r#"{"b":1,"a":{"y":2,"x":3}}"#;
        let b = r#"{"a":{"x":3,"y":2},"b":1}"#;
        assert_eq!(arguments_digest(Some(a)), arguments_digest(Some(b)));
        assert_ne!(arguments_digest(Some(a)), arguments_digest(None));
    }
}
