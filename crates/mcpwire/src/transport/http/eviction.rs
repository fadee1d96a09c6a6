//! Which session makes room for a new one when the table is full: taken from the owner holding
//! the most sessions, so a caller opening sessions by the thousand evicts its own first and
//! never pushes anyone below its own share.
//!
//! - An idle session (no client connection open on it) is taken before a busy one of the same
//!   owner, and the longest idle first.
//! - A busy session is taken only from the newcomer's own owner, or from an owner that still
//!   holds more sessions than the newcomer's after the swap; otherwise, with nothing idle to
//!   take, the newcomer is refused.
//! - Anonymous callers take room only from anonymous sessions (see `sessions.rs`).

/// A session that could make room.
#[derive(Clone, Copy, Debug)]
pub(super) struct Candidate {
    /// How many sessions its owner holds.
    pub(super) owner_sessions: usize,
    /// Whether its owner is the newcomer's.
    pub(super) own: bool,
    /// Whether a client connection is open on it.
    pub(super) busy: bool,
    /// When its client was last active (larger is more recent).
    pub(super) last_seen: u64,
}

impl Candidate {
    /// Whether it may be evicted for a newcomer whose owner holds `newcomer_sessions`.
    fn allowed(&self, newcomer_sessions: usize) -> bool {
        !self.busy || self.own || self.owner_sessions > newcomer_sessions + 1
    }

    /// Higher is evicted first: the largest owner, then idle before busy, then the least
    /// recently active.
    fn rank(&self) -> (usize, bool, std::cmp::Reverse<u64>) {
        (
            self.owner_sessions,
            !self.busy,
            std::cmp::Reverse(self.last_seen),
        )
    }
}

/// The candidate to evict (its key), if any may be.
pub(super) fn victim<K>(
    candidates: impl IntoIterator<Item = (K, Candidate)>,
    newcomer_sessions: usize,
) -> Option<K> {
    candidates
        .into_iter()
        .filter(|(_, candidate)| candidate.allowed(newcomer_sessions))
        .max_by_key(|(_, candidate)| candidate.rank())
        .map(|(key, _)| key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn candidate(owner_sessions: usize, own: bool, busy: bool, last_seen: u64) -> Candidate {
        Candidate {
            owner_sessions,
            own,
            busy,
            last_seen,
        }
    }

    #[test]
    fn the_largest_owner_gives_up_its_idlest_session_first() {
        let chosen = victim(
            [
                ("small, long idle", candidate(1, false, false, 1)),
                ("large, recent", candidate(5, false, false, 90)),
                ("large, older", candidate(5, false, false, 50)),
                ("large, busy", candidate(5, false, true, 10)),
            ],
            0,
        );
        assert_eq!(chosen, Some("large, older"));
    }

    #[test]
    fn a_busy_session_goes_only_to_its_own_owner_or_from_a_larger_one() {
        let busy_peer = [("peer", candidate(2, false, true, 1))];
        assert_eq!(victim(busy_peer, 1), None, "2 is not more than 1 + 1");
        assert_eq!(victim(busy_peer, 0), Some("peer"));
        let own = [("own", candidate(2, true, true, 1))];
        assert_eq!(victim(own, 2), Some("own"));
        let mixed = [
            ("peer busy", candidate(1, false, true, 1)),
            ("peer idle", candidate(1, false, false, 5)),
        ];
        assert_eq!(victim(mixed, 0), Some("peer idle"));
    }
}
