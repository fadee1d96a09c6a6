//! The bridge's 2025-11-25 sessions: one server process each, by `Mcp-Session-Id`, at most
//! [`MAX_SESSIONS`]; a new one beyond stops the oldest (clients that vanish without DELETE
//! leave theirs behind).

use std::collections::HashMap;

/// The most sessions open at once.
pub const MAX_SESSIONS: usize = 32;

/// The open sessions, each with its start number (the oldest goes first).
pub struct Sessions<L> {
    links: HashMap<String, (u64, L)>,
    started: u64,
}

impl<L> Default for Sessions<L> {
    fn default() -> Self {
        Sessions {
            links: HashMap::new(),
            started: 0,
        }
    }
}

impl<L: Clone> Sessions<L> {
    /// The session's server.
    pub fn get(&self, id: &str) -> Option<L> {
        self.links.get(id).map(|(_, link)| link.clone())
    }

    /// Ends a session; its server, to stop.
    pub fn remove(&mut self, id: &str) -> Option<L> {
        self.links.remove(id).map(|(_, link)| link)
    }

    /// Adds a session; returns the server of the one it pushed out, if the table was full.
    pub fn insert(&mut self, id: String, link: L) -> Option<L> {
        let mut evicted = None;
        if self.links.len() >= MAX_SESSIONS {
            let oldest = self
                .links
                .iter()
                .min_by_key(|(_, (n, _))| *n)
                .map(|(id, _)| id.clone());
            evicted = oldest.and_then(|id| self.remove(&id));
        }
        self.started += 1;
        self.links.insert(id, (self.started, link));
        evicted
    }

    /// Ends every session; their servers, to stop.
    pub fn drain(&mut self) -> Vec<L> {
        self.links.drain().map(|(_, (_, link))| link).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_table_pushes_out_the_oldest_session() {
        let mut sessions = Sessions::default();
        for n in 0..MAX_SESSIONS {
            assert_eq!(sessions.insert(format!("s{n}"), n), None);
        }
        assert_eq!(sessions.get("s0"), Some(0));
        assert_eq!(sessions.remove("s1"), Some(1));
        assert_eq!(
            sessions.insert("again".into(), 100),
            None,
            "a freed place is reused"
        );
        assert_eq!(
            sessions.insert("new".into(), 101),
            Some(0),
            "the oldest goes"
        );
        assert_eq!(sessions.get("s0"), None);
        assert_eq!(sessions.insert("newer".into(), 102), Some(2));
        assert_eq!(sessions.drain().len(), MAX_SESSIONS);
        assert_eq!(sessions.get("new"), None);
    }
}
