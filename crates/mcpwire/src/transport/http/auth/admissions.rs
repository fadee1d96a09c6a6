//! What the gate decided for the tokens its verifier shares, made once per verified token.
//!
//! A verifier that keeps verified tokens ([`JwtVerifier`](super::JwtVerifier),
//! [`IntrospectionVerifier`](super::IntrospectionVerifier)) hands the same `Arc` to every
//! request with the same token until it verifies that token again. The gate keys what it made
//! for a token by that `Arc` (its address, the `Arc` held here so the address cannot be reused
//! while kept), so a request admitted by a kept token builds nothing. Whether a token is good is
//! still the verifier's answer on every request: this is only looked up once the verifier has
//! answered with that very token.
//!
//! Only tokens someone else shares (the verifier's cache holds a reference) are kept: a
//! verifier that makes a new token per request has nothing to reuse. At most [`CAPACITY`] are
//! kept; when full, all are dropped and made again as requests come.

use super::VerifiedToken;
use crate::transport::http::caller::Admitted;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The most tokens whose admission is kept.
const CAPACITY: usize = 1024;

/// A token, and what it was admitted as.
type Kept = (Arc<VerifiedToken>, Arc<Admitted>);

/// The admissions made, by the shared token's address.
#[derive(Default)]
pub(super) struct Admissions {
    kept: Mutex<HashMap<usize, Kept>>,
}

impl Admissions {
    /// The admission of `token`: the one made before for this very token, else `make(token)`
    /// (kept when the token is shared).
    pub(super) fn of(
        &self,
        token: &Arc<VerifiedToken>,
        make: impl FnOnce(&VerifiedToken) -> Admitted,
    ) -> Arc<Admitted> {
        let address = Arc::as_ptr(token) as usize;
        let shared = Arc::strong_count(token) > 1;
        if shared {
            let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((kept_token, admitted)) = kept.get(&address)
                && Arc::ptr_eq(kept_token, token)
            {
                return Arc::clone(admitted);
            }
        }
        let admitted = Arc::new(make(token));
        if shared {
            let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            let mut dropped = Vec::new();
            if kept.len() >= CAPACITY {
                // First the admissions of tokens the verifier no longer keeps (this map holds
                // their only reference: never found again); all of them only when that frees
                // nothing. What is dropped is freed after the lock.
                let stale: Vec<usize> = (kept.iter())
                    .filter(|(_, (kept_token, _))| Arc::strong_count(kept_token) == 1)
                    .map(|(address, _)| *address)
                    .collect();
                dropped.extend(stale.iter().filter_map(|address| kept.remove(address)));
                if kept.len() >= CAPACITY {
                    dropped.extend(kept.drain().map(|(_, entry)| entry));
                }
            }
            kept.insert(address, (Arc::clone(token), Arc::clone(&admitted)));
            drop(kept);
            drop(dropped);
        }
        admitted
    }

    /// How many admissions are kept.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.kept.lock().unwrap().len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::context::Identity;

    fn admitted(token: &VerifiedToken) -> Admitted {
        Admitted {
            principal: Arc::from(token.subject.as_str()),
            subject: Identity::new(token.subject.as_str()),
            grant: Arc::default(),
        }
    }

    #[test]
    fn a_shared_token_is_admitted_once() {
        let admissions = Admissions::default();
        let kept = Arc::new(VerifiedToken::new("iss", "alice"));
        let handed_out = Arc::clone(&kept);
        let first = admissions.of(&handed_out, admitted);
        let second = admissions.of(&handed_out, |_| unreachable!("made again"));
        assert!(Arc::ptr_eq(&first, &second));
        assert_eq!(admissions.len(), 1);
    }

    #[test]
    fn another_token_of_the_same_subject_is_admitted_anew() {
        let admissions = Admissions::default();
        let (a, b) = (
            Arc::new(VerifiedToken::new("iss", "alice")),
            Arc::new(VerifiedToken::new("iss", "alice")),
        );
        let (_keep_a, _keep_b) = (Arc::clone(&a), Arc::clone(&b));
        let first = admissions.of(&a, admitted);
        let second = admissions.of(&b, admitted);
        assert!(!Arc::ptr_eq(&first, &second));
    }

    #[test]
    fn a_token_nobody_else_holds_is_not_kept() {
        let admissions = Admissions::default();
        let once = Arc::new(VerifiedToken::new("iss", "bob"));
        let made = admissions.of(&once, admitted);
        assert_eq!(made.subject.subject(), "bob");
        assert_eq!(admissions.len(), 0);
    }

    #[test]
    fn when_full_everything_is_dropped() {
        let admissions = Admissions::default();
        let tokens: Vec<_> = (0..=CAPACITY)
            .map(|n| Arc::new(VerifiedToken::new("iss", n.to_string())))
            .collect();
        let _held: Vec<_> = tokens.iter().map(Arc::clone).collect();
        for token in &tokens {
            admissions.of(token, admitted);
        }
        assert_eq!(
            admissions.len(),
            1,
            "cleared at {CAPACITY}, then the last one kept"
        );
    }

    #[test]
    fn when_full_the_tokens_nobody_holds_go_first() {
        let admissions = Admissions::default();
        let tokens: Vec<_> = (0..CAPACITY)
            .map(|n| Arc::new(VerifiedToken::new("iss", n.to_string())))
            .collect();
        let mut held: Vec<_> = tokens.iter().map(Arc::clone).collect();
        for token in &tokens {
            admissions.of(token, admitted);
        }
        // The verifier lets go of all but the first ten.
        held.truncate(10);
        drop(tokens);
        let newcomer = Arc::new(VerifiedToken::new("iss", "new"));
        let _held_newcomer = Arc::clone(&newcomer);
        admissions.of(&newcomer, admitted);
        assert_eq!(admissions.len(), 11, "the ten still held, and the newcomer");
        let again = admissions.of(&held[0], |_| {
            unreachable!("a held token's admission was dropped")
        });
        assert_eq!(again.subject.subject(), "0");
    }
}
