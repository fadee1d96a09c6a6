//! Cache hints of 2026-07-28 cacheable results (`ttlMs`, `cacheScope`): declared per resource,
//! set by the server for lists and `server/discover`, and narrowed per request.

use super::lifecycle::CacheScope;
use std::time::Duration;

/// How long, and by whom, a result may be reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct CacheHint {
    pub(crate) ttl_ms: u64,
    pub(crate) scope: CacheScope,
}

impl CacheHint {
    /// Not to be reused: what a result gets that must not be cached but has to carry hints.
    pub(crate) const NONE: Self = Self {
        ttl_ms: 0,
        scope: CacheScope::Private,
    };

    /// Reusable by anyone for `ttl`.
    pub(crate) fn public(ttl: Duration) -> Self {
        Self {
            ttl_ms: u64::try_from(ttl.as_millis()).unwrap_or(u64::MAX),
            scope: CacheScope::Public,
        }
    }

    /// The hint for a request that may carry a principal: what was served to an authenticated
    /// caller may be reused by that caller only.
    pub(crate) fn for_principal(self, principal: Option<&str>) -> Self {
        match principal {
            Some(_) => Self {
                scope: CacheScope::Private,
                ..self
            },
            None => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_principal_makes_a_hint_private_and_keeps_its_ttl() {
        let public = CacheHint::public(Duration::from_secs(60));
        assert_eq!(public.ttl_ms, 60_000);
        assert_eq!(public.for_principal(None), public);
        let private = public.for_principal(Some("alice"));
        assert_eq!(private.scope, CacheScope::Private);
        assert_eq!(private.ttl_ms, 60_000);
    }
}
