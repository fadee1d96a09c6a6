//! Protocol revisions and how a message picks one.

/// The stateless revision: per-request `_meta`, `server/discover`, `input_required` rounds.
pub const MODERN: &str = "2026-07-28";

/// The newest session revision: `initialize`, sessions, server→client requests.
pub const LATEST_LEGACY: &str = "2025-11-25";

/// Revisions accepted in a request's `_meta` (stateless serving).
pub const MODERN_VERSIONS: &[&str] = &[MODERN];

/// Revisions accepted by `initialize` (session serving), newest first.
pub const LEGACY_VERSIONS: &[&str] = &[LATEST_LEGACY, "2025-06-18", "2025-03-26"];

/// Which family of revisions a request is served under.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Era {
    /// 2025-11-25 and earlier: a session opened by `initialize`.
    Legacy,
    /// 2026-07-28: every request stands alone.
    Modern,
}

/// Picks the revision to answer an `initialize` with: the client's own when served, else the
/// newest legacy revision (the client then decides whether to go on).
pub fn negotiate_legacy(requested: &str) -> &'static str {
    LEGACY_VERSIONS
        .iter()
        .copied()
        .find(|v| *v == requested)
        .unwrap_or(LATEST_LEGACY)
}

/// Every revision this server speaks, modern first, as `server/discover` lists them.
pub fn all_supported() -> Vec<&'static str> {
    MODERN_VERSIONS
        .iter()
        .chain(LEGACY_VERSIONS)
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn echoes_a_served_version_and_falls_back_to_the_newest() {
        assert_eq!(negotiate_legacy("2025-06-18"), "2025-06-18");
        assert_eq!(negotiate_legacy("2024-01-01"), LATEST_LEGACY);
        assert_eq!(negotiate_legacy(MODERN), LATEST_LEGACY);
    }
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn version() {
        assert_eq!(version::MODERN, "2026-07-28");
        assert_eq!(version::MODERN_VERSIONS, [version::MODERN]);
        assert_eq!(version::LATEST_LEGACY, "2025-11-25");
        assert_eq!(version::LEGACY_VERSIONS[0], version::LATEST_LEGACY);
    }

    #[test]
    fn version_era() {
        fn era_of(meta: &RequestMeta) -> Era {
            if meta.protocol_version.is_some() {
                Era::Modern
            } else {
                Era::Legacy
            }
        }
        assert_eq!(era_of(&RequestMeta::default()), Era::Legacy);
    }

    #[test]
    fn version_negotiate_legacy() {
        assert_eq!(negotiate_legacy("2025-06-18"), "2025-06-18");
        assert_eq!(negotiate_legacy("2024-11-05"), "2025-11-25");
    }

    #[test]
    fn version_all_supported() {
        assert_eq!(
            all_supported(),
            ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"]
        );
    }
}
