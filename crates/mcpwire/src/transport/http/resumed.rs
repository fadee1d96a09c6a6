//! The resumed GETs open on a 2025-11-25 session (on this replica), bounded like its standalone
//! GET: a request stream has one (a new resume of it ends the one open before), and the session
//! holds at most `HttpServer::max_resumed_streams` of them: one more ends the oldest.
//!
//! Ending the oldest, rather than refusing the newcomer, is what a client that reconnects
//! needs: its old connections may not be known dead yet, and refusing would lock it out of its
//! own streams until they are; a client piling GETs up only ends its own.

use std::collections::VecDeque;
use std::sync::Mutex;
use tokio_util::sync::CancellationToken;

/// The resumed GETs open on one session, oldest first.
#[derive(Default)]
pub(super) struct Resumed {
    open: Mutex<Open>,
}

#[derive(Default)]
struct Open {
    /// `(request stream, number, ends it)`, oldest first.
    streams: VecDeque<(u64, u64, CancellationToken)>,
    next: u64,
}

/// One resumed GET: its token is cancelled when it is replaced or pushed out (or the session
/// ends); give it back with [`Resumed::close`] when it ends.
pub(super) struct Opened {
    pub(super) ended: CancellationToken,
    pub(super) number: u64,
}

impl Resumed {
    /// Opens a resumed GET of `stream`, ending the one open on it and, beyond `cap`, the
    /// oldest; its token is a child of `session` (the session's end ends it).
    pub(super) fn open(&self, stream: u64, cap: usize, session: &CancellationToken) -> Opened {
        let ended = session.child_token();
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.streams.retain(|(s, _, token)| {
            if *s == stream {
                token.cancel();
            }
            *s != stream
        });
        while open.streams.len() >= cap.max(1) {
            if let Some((_, _, oldest)) = open.streams.pop_front() {
                oldest.cancel();
            }
        }
        open.next += 1;
        let number = open.next;
        open.streams.push_back((stream, number, ended.clone()));
        Opened { ended, number }
    }

    /// The resumed GET `number` ended.
    pub(super) fn close(&self, number: u64) {
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        open.streams.retain(|(_, n, _)| *n != number);
    }

    /// How many are open.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.open.lock().unwrap().streams.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stream_has_one_and_the_session_at_most_cap() {
        let (resumed, session) = (Resumed::default(), CancellationToken::new());
        let first = resumed.open(1, 2, &session);
        let again = resumed.open(1, 2, &session);
        assert!(first.ended.is_cancelled(), "replaced");
        let other = resumed.open(2, 2, &session);
        assert!(!again.ended.is_cancelled());
        let third = resumed.open(3, 2, &session);
        assert!(again.ended.is_cancelled(), "the oldest went");
        assert!(!other.ended.is_cancelled() && !third.ended.is_cancelled());
        resumed.close(other.number);
        resumed.close(first.number);
        assert_eq!(resumed.len(), 1);
        session.cancel();
        assert!(third.ended.is_cancelled(), "the session's end ends them");
    }
}
