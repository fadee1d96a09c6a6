//! The resource URIs a 2025-11-25 session (`resources/subscribe`) or a 2026-07-28 listen stream
//! (`resourceSubscriptions`) watches: admitted only when a registered resource or template
//! serves them, no longer than [`Limits::max_subscription_uri_bytes`], and no more of them than
//! [`Limits::max_subscriptions`]. A change is matched by hash lookups of its URI and of each of
//! its parent paths (a change to `a/b/c` reaches a watcher of `a/b` or `a/b/`), never by a scan
//! of the set.

use super::errors::not_found;
use crate::protocol::{Era, ErrorObject};
use crate::server::core::{Limits, ServerCore};
use serde_json::json;
use std::collections::HashSet;

/// A set of watched URIs.
#[derive(Default)]
pub(crate) struct Watched {
    uris: HashSet<Box<str>>,
    /// The length of the longest URI ever watched: no longer parent path can match.
    longest: usize,
}

/// The set already holds as many URIs as it may.
pub(crate) struct Full;

impl Watched {
    /// Watches `uri`; watching a URI twice takes no room.
    pub(crate) fn insert(&mut self, uri: &str, cap: usize) -> Result<(), Full> {
        if self.uris.contains(uri) {
            return Ok(());
        }
        if self.uris.len() >= cap {
            return Err(Full);
        }
        self.longest = self.longest.max(uri.len());
        self.uris.insert(uri.into());
        Ok(())
    }

    #[cfg(feature = "http")]
    /// The watched URIs, in no order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &str> {
        self.uris.iter().map(|uri| &**uri)
    }

    /// Stops watching `uri`.
    pub(crate) fn remove(&mut self, uri: &str) {
        self.uris.remove(uri);
    }

    /// Whether a change to `changed` concerns a watched URI: the URI itself, or a parent path of
    /// it (cut at a `/`, with or without that `/`).
    pub(crate) fn covers(&self, changed: &str) -> bool {
        if self.uris.is_empty() {
            return false;
        }
        if self.uris.contains(changed) {
            return true;
        }
        changed
            .match_indices('/')
            .map(|(at, _)| at)
            .take_while(|&at| at <= self.longest)
            .any(|at| self.uris.contains(&changed[..at]) || self.uris.contains(&changed[..=at]))
    }
}

/// Checks that a client may watch `uri`: short enough, and served by a registered resource or
/// template (the revision's not-found error otherwise). Returns the scopes that resource needs,
/// for the caller's authorization decision.
pub(crate) fn admit(
    core: &ServerCore,
    era: Era,
    uri: &str,
) -> Result<&'static [&'static str], ErrorObject> {
    let limit = core.limits.max_subscription_uri_bytes;
    if uri.len() > limit {
        return Err(ErrorObject::invalid_params(format!(
            "Invalid params: a subscribed URI may be at most {limit} bytes long"
        ))
        .with_data(json!({ "limit": limit })));
    }
    match core.snapshot().resources.find(uri) {
        Some((resource, _)) => Ok(resource.definition.scopes),
        None => Err(not_found(era, uri)),
    }
}

/// The error for a subscription over the cap; `per` names what the cap applies to.
pub(crate) fn over_the_cap(limits: &Limits, per: &str) -> ErrorObject {
    let limit = limits.max_subscriptions;
    ErrorObject::invalid_params(format!("Invalid params: at most {limit} {per}"))
        .with_data(json!({ "limit": limit }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_uri_and_its_parent_paths_only() {
        let mut watched = Watched::default();
        assert!(!watched.covers("a://x"));
        watched.insert("shop://books/1", 10).ok().unwrap();
        watched.insert("shop://files/", 10).ok().unwrap();
        assert!(watched.covers("shop://books/1"));
        assert!(watched.covers("shop://books/1/cover.png"));
        assert!(!watched.covers("shop://books/10"));
        assert!(!watched.covers("shop://books"));
        assert!(watched.covers("shop://files/a.txt"));
        assert!(!watched.covers("shop://filesystem"));
        watched.remove("shop://books/1");
        assert!(!watched.covers("shop://books/1"));
    }

    #[test]
    fn holds_at_most_the_cap() {
        let mut watched = Watched::default();
        assert!(watched.insert("a", 2).is_ok());
        assert!(watched.insert("b", 2).is_ok());
        assert!(watched.insert("a", 2).is_ok(), "already watched");
        assert!(watched.insert("c", 2).is_err());
        watched.remove("a");
        assert!(watched.insert("c", 2).is_ok());
    }
}
