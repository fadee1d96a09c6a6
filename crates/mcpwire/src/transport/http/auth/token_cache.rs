//! Verified tokens kept for a while, by a SHA-256 of the token, so that a client sending the
//! same bearer token with every request pays for its verification once (a signature check or an
//! introspection round trip), not once per request.
//!
//! An entry lasts until the earlier of the token's `exp` and the cache bound, and is checked
//! again on every hit: `exp` and `nbf` against the clock (with the verifier's leeway), and the
//! generation of the verifier's keys (a changed key set drops every entry made with the old
//! one). Only verified tokens enter, so a flood of distinct invalid tokens costs one verification
//! each and evicts nothing. A token longer than [`MAX_TOKEN_BYTES`] is never kept.

use super::VerifiedToken;
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The most tokens kept, unless the verifier says otherwise.
pub(super) const CAPACITY: usize = 10_000;
/// How long a verified token is reused at most, unless the verifier says otherwise.
pub(super) const KEPT_FOR: Duration = Duration::from_secs(60);
/// The longest token kept; a longer one is verified every time.
pub(super) const MAX_TOKEN_BYTES: usize = 4 * 1024;

/// What a cache is keyed by: a SHA-256 of the token.
pub(super) type TokenKey = [u8; 32];

/// The verified tokens of one verifier.
pub(super) struct TokenCache {
    entries: Mutex<HashMap<TokenKey, Entry>>,
    pub(super) capacity: usize,
    pub(super) kept_for: Duration,
}

struct Entry {
    /// Shared with every request it admits (a hit copies nothing).
    token: Arc<VerifiedToken>,
    until: SystemTime,
    /// The verifier's key generation the token was verified with.
    generation: u64,
}

impl TokenCache {
    pub(super) fn new() -> Self {
        Self {
            entries: Mutex::new(HashMap::new()),
            capacity: CAPACITY,
            kept_for: KEPT_FOR,
        }
    }

    /// The key `token` is kept under; `None` when it is never kept (too long, or caching off).
    pub(super) fn key(&self, token: &str) -> Option<TokenKey> {
        if token.len() > MAX_TOKEN_BYTES || self.kept_for.is_zero() || self.capacity == 0 {
            return None;
        }
        Some(Sha256::digest(token.as_bytes()).into())
    }

    /// The token kept under `key`, when it is still good: kept with `generation`, within its
    /// bound, and its `exp`/`nbf` hold now (give or take `leeway` seconds).
    pub(super) fn get(
        &self,
        key: &TokenKey,
        generation: u64,
        leeway: u64,
    ) -> Option<Arc<VerifiedToken>> {
        let now = SystemTime::now();
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        let entry = entries.get(key)?;
        if entry.generation != generation
            || entry.until <= now
            || !in_time(&entry.token, now, leeway)
        {
            entries.remove(key);
            return None;
        }
        Some(Arc::clone(&entry.token))
    }

    /// Keeps `token`, verified with `generation`, until the earliest of its `exp` (plus
    /// `leeway`), the bound and `at_most` from now (how long what verified it may be used).
    /// When full, entries past their time or of an older generation go first, then the one
    /// that would expire soonest.
    pub(super) fn insert(
        &self,
        key: TokenKey,
        token: &Arc<VerifiedToken>,
        generation: u64,
        leeway: u64,
        at_most: Duration,
    ) {
        let now = SystemTime::now();
        let mut until = now + self.kept_for.min(at_most);
        if let Some(exp) = token.expires_at {
            until = until.min(UNIX_EPOCH + Duration::from_secs(exp.saturating_add(leeway)));
        }
        if until <= now {
            return;
        }
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if entries.len() >= self.capacity && !entries.contains_key(&key) {
            entries.retain(|_, e| e.until > now && e.generation == generation);
            if entries.len() >= self.capacity {
                let soonest = entries
                    .iter()
                    .min_by_key(|(_, e)| e.until)
                    .map(|(key, _)| *key);
                if let Some(soonest) = soonest {
                    entries.remove(&soonest);
                }
            }
        }
        entries.insert(
            key,
            Entry {
                token: Arc::clone(token),
                until,
                generation,
            },
        );
    }

    /// How many tokens are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.lock().unwrap().len()
    }
}

/// Whether `token`'s `exp` and `nbf` claims hold at `now`, give or take `leeway` seconds.
fn in_time(token: &VerifiedToken, now: SystemTime, leeway: u64) -> bool {
    let now = now.duration_since(UNIX_EPOCH).unwrap_or_default().as_secs();
    let claim = |name: &str| token.claims.get(name).and_then(serde_json::Value::as_u64);
    let exp = token.expires_at.or_else(|| claim("exp"));
    if exp.is_some_and(|exp| exp.saturating_add(leeway) <= now) {
        return false;
    }
    claim("nbf").is_none_or(|nbf| nbf <= now.saturating_add(leeway))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn now() -> u64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs()
    }

    fn token(subject: &str, exp: Option<u64>) -> Arc<VerifiedToken> {
        let mut token = VerifiedToken::new("iss", subject);
        token.expires_at = exp;
        Arc::new(token)
    }

    #[test]
    fn a_kept_token_is_found_until_its_generation_changes() {
        let cache = TokenCache::new();
        let key = cache.key("a.b.c").unwrap();
        cache.insert(key, &token("alice", Some(now() + 600)), 1, 0, Duration::MAX);
        assert_eq!(cache.get(&key, 1, 0).unwrap().subject, "alice");
        assert!(cache.get(&key, 2, 0).is_none(), "another key set");
        assert!(cache.get(&key, 1, 0).is_none(), "dropped on the miss");
    }

    #[test]
    fn a_hit_shares_the_token_instead_of_copying_it() {
        let cache = TokenCache::new();
        let key = cache.key("a.b.c").unwrap();
        let mut kept = token("alice", Some(now() + 600));
        Arc::make_mut(&mut Arc::make_mut(&mut kept).claims).insert("tenant".into(), "t1".into());
        cache.insert(key, &kept, 1, 0, Duration::MAX);
        let (first, second) = (
            cache.get(&key, 1, 0).unwrap(),
            cache.get(&key, 1, 0).unwrap(),
        );
        assert_eq!(first.claims["tenant"], "t1");
        assert!(Arc::ptr_eq(&first, &second), "the token itself is shared");
    }

    #[test]
    fn exp_and_nbf_are_checked_again_on_every_hit() {
        let cache = TokenCache::new();
        let key = cache.key("expired").unwrap();
        // Verified a moment ago within its leeway, expired by now without one.
        let mut stale = token("bob", Some(now() - 5));
        cache.insert(key, &stale, 1, 30, Duration::MAX);
        assert!(cache.get(&key, 1, 30).is_some());
        assert!(cache.get(&key, 1, 0).is_none());
        let changed = Arc::make_mut(&mut stale);
        changed.expires_at = None;
        Arc::make_mut(&mut changed.claims).insert("nbf".into(), (now() + 120).into());
        cache.insert(key, &stale, 1, 30, Duration::MAX);
        assert!(cache.get(&key, 1, 30).is_none(), "not valid yet");
    }

    #[test]
    fn long_tokens_and_a_zero_bound_are_never_kept() {
        let mut cache = TokenCache::new();
        assert!(cache.key(&"x".repeat(MAX_TOKEN_BYTES + 1)).is_none());
        assert!(cache.key(&"x".repeat(MAX_TOKEN_BYTES)).is_some());
        cache.kept_for = Duration::ZERO;
        assert!(cache.key("a.b.c").is_none());
    }

    #[test]
    fn when_full_the_soonest_to_expire_goes_first() {
        let mut cache = TokenCache::new();
        cache.capacity = 3;
        let keys: Vec<_> = (0..4)
            .map(|n| cache.key(&format!("t{n}")).unwrap())
            .collect();
        cache.insert(
            keys[0],
            &token("soon", Some(now() + 10)),
            1,
            0,
            Duration::MAX,
        );
        cache.insert(
            keys[1],
            &token("late", Some(now() + 600)),
            1,
            0,
            Duration::MAX,
        );
        cache.insert(keys[2], &token("later", None), 1, 0, Duration::MAX);
        cache.insert(
            keys[3],
            &token("new", Some(now() + 600)),
            1,
            0,
            Duration::MAX,
        );
        assert_eq!(cache.len(), 3);
        assert!(cache.get(&keys[0], 1, 0).is_none());
        for key in &keys[1..] {
            assert!(cache.get(key, 1, 0).is_some());
        }
    }
}
