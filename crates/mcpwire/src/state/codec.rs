//! Sealing and opening `requestState` tokens: AES-256-GCM over the claims, bound to the method,
//! the tool (or prompt, or resource), a digest of the arguments, the audience, the principal and
//! an expiry. Every failure to open is the same error; the reason goes to the server log only.

use super::keys::{KeyRing, b64, unb64};
use aes_gcm::Nonce;
use aes_gcm::aead::{Aead, OsRng, Payload, rand_core::RngCore};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::borrow::Cow;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const PREFIX: &str = "v1.";

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
    iat: u64,
    exp: u64,
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

impl StateCodec {
    /// A codec for the server `audience`, with a 10-minute expiry and a 64 KiB limit.
    pub fn new(keys: KeyRing, audience: impl Into<String>) -> Self {
        Self {
            keys,
            audience: audience.into(),
            ttl: Duration::from_secs(600),
            max_bytes: 64 * 1024,
        }
    }

    /// How long a token stays valid (renewed each round).
    pub fn with_ttl(mut self, ttl: Duration) -> Self {
        self.ttl = ttl;
        self
    }

    /// The longest token accepted.
    pub fn with_max_bytes(mut self, max_bytes: usize) -> Self {
        self.max_bytes = max_bytes;
        self
    }

    /// Seals `state` (the engine's plaintext) for `binding`.
    pub fn seal(&self, binding: Binding<'_>, state: &str) -> String {
        let now = now();
        let claims = Claims {
            v: 1,
            iat: now,
            exp: now + self.ttl.as_secs(),
            m: binding.method.into(),
            t: binding.target.into(),
            a: binding.arguments.into(),
            aud: self.audience.as_str().into(),
            p: binding.principal.map(principal_tag),
            s: state.into(),
        };
        let plaintext = serde_json::to_vec(&claims).expect("claims serialize");
        let key = self.keys.sealing();
        let mut nonce = [0u8; 12];
        OsRng.fill_bytes(&mut nonce);
        let aad = aad(&key.id);
        let sealed = key
            .cipher
            .encrypt(
                Nonce::from_slice(&nonce),
                Payload {
                    msg: &plaintext,
                    aad: &aad,
                },
            )
            .expect("AES-GCM encryption of a bounded message succeeds");
        let mut body = Vec::with_capacity(4 + 12 + sealed.len());
        body.extend_from_slice(&key.id);
        body.extend_from_slice(&nonce);
        body.extend_from_slice(&sealed);
        format!("{PREFIX}{}", b64(&body))
    }

    /// Opens `token` for `binding`, returning the engine's plaintext state.
    ///
    /// # Errors
    ///
    /// The reason it was refused (for the log).
    pub fn open(&self, token: &str, binding: Binding<'_>) -> Result<String, Refusal> {
        if token.len() > self.max_bytes {
            return Err(Refusal::Oversized);
        }
        let body = token
            .strip_prefix(PREFIX)
            .and_then(unb64)
            .ok_or(Refusal::Malformed)?;
        if body.len() < 4 + 12 + 16 {
            return Err(Refusal::Malformed);
        }
        let (id, rest) = body.split_at(4);
        let (nonce, sealed) = rest.split_at(12);
        let key = self.keys.find(id).ok_or(Refusal::UnknownKey)?;
        let aad = aad(&key.id);
        let plaintext = key
            .cipher
            .decrypt(
                Nonce::from_slice(nonce),
                Payload {
                    msg: sealed,
                    aad: &aad,
                },
            )
            .map_err(|_| Refusal::Seal)?;
        let claims: Claims<'_> =
            serde_json::from_slice(&plaintext).map_err(|_| Refusal::Malformed)?;
        if claims.v != 1 {
            return Err(Refusal::Malformed);
        }
        if now() >= claims.exp {
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
        Ok(claims.s.into_owned())
    }
}

/// A digest of a request's arguments: SHA-256 over their JSON with sorted keys, 16 bytes,
/// base64url.
pub fn arguments_digest(arguments: Option<&serde_json::value::RawValue>) -> String {
    let value: serde_json::Value = arguments
        .and_then(|raw| serde_json::from_str(raw.get()).ok())
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

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
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
        let token = codec.seal(binding("a1"), r#"{"secret":"answer"}"#);
        assert!(token.starts_with("v1."));
        assert!(!token.contains("secret"));
        assert_eq!(
            codec.open(&token, binding("a1")).unwrap(),
            r#"{"secret":"answer"}"#
        );
    }

    #[test]
    fn refuses_every_kind_of_bad_token() {
        let first = codec(1, "Bookshop");
        let token = first.seal(binding("a1"), "{}");
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
        let oversized = "v1.".to_owned() + &"A".repeat(70 * 1024);
        assert_eq!(
            first.open(&oversized, binding("a1")),
            Err(Refusal::Oversized)
        );
        let expired = first.with_ttl(Duration::ZERO);
        let old = expired.seal(binding("a1"), "{}");
        assert_eq!(expired.open(&old, binding("a1")), Err(Refusal::Expired));
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
        let token = codec.seal(alice, "{}");
        assert!(codec.open(&token, alice).is_ok());
        assert_eq!(codec.open(&token, bob), Err(Refusal::Principal));
        assert_eq!(codec.open(&token, binding("a")), Err(Refusal::Principal));
    }

    #[test]
    fn rotation_opens_with_any_key_and_seals_with_the_first() {
        let old = codec(1, "S");
        let token = old.seal(binding("a"), "{}");
        let rotated = StateCodec::new(KeyRing::new([[3u8; 32], [1u8; 32]]).unwrap(), "S");
        assert!(rotated.open(&token, binding("a")).is_ok());
        let fresh = rotated.seal(binding("a"), "{}");
        assert_eq!(old.open(&fresh, binding("a")), Err(Refusal::UnknownKey));
    }

    #[test]
    fn the_arguments_digest_ignores_key_order() {
        let a = serde_json::value::RawValue::from_string(r#"{"b":1,"a":{"y":2,"x":3}}"#.into())
            .unwrap();
        let b = serde_json::value::RawValue::from_string(r#"{"a":{"x":3,"y":2},"b":1}"#.into())
            .unwrap();
        assert_eq!(arguments_digest(Some(&a)), arguments_digest(Some(&b)));
        assert_ne!(arguments_digest(Some(&a)), arguments_digest(None));
    }
}
