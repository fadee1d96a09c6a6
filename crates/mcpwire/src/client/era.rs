//! Which protocol revision the client speaks, and the `Auto` verdicts remembered per URL.

use crate::protocol::Era;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// How the client picks the era.
///
/// # Examples
///
/// ```
/// use mcpwire::client::EraChoice;
///
/// assert_eq!(EraChoice::default(), EraChoice::Auto);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EraChoice {
    /// Probe with `server/discover` and use 2026-07-28 when the server speaks it, else
    /// `initialize`, on the same connection (or process). A refusal (an error, an HTTP 4xx but
    /// 401/403), or no answer within [`probe_timeout`](super::ClientBuilder::probe_timeout),
    /// means 2025-11-25. Over stdio the wait is measured from the server's first output
    /// (stdout or stderr), so a server that starts slowly is not mistaken for a silent one; a
    /// server that exits on the probe is started once more and spoken to with `initialize`.
    /// Over HTTP the verdict is kept per URL by the builder (and its clones): connecting again
    /// does not probe again.
    ///
    /// A server with side effects when it starts should answer `server/discover` (with its
    /// result, or with `-32601` like any unknown method) rather than exit, so that it is started
    /// only once; or its users pin the era.
    #[default]
    Auto,
    /// 2025-11-25: the `initialize` handshake and a session.
    Legacy,
    /// 2026-07-28: stateless requests with `_meta`; fails if the server does not speak it.
    Modern,
}

/// The `Auto` verdicts over HTTP, per server URL, shared by a builder and its clones. At most
/// [`MAX_REMEMBERED`] URLs are kept (the table is emptied when full).
#[derive(Clone, Debug, Default)]
pub(crate) struct Verdicts(Arc<Mutex<HashMap<String, Era>>>);

/// How many URLs [`Verdicts`] remembers.
const MAX_REMEMBERED: usize = 64;

impl Verdicts {
    /// The era to open `url` with: the remembered verdict, else `choice`.
    pub(crate) fn choice(&self, url: &str, choice: EraChoice) -> EraChoice {
        if choice != EraChoice::Auto {
            return choice;
        }
        match self.0.lock().expect("verdicts lock").get(url) {
            Some(Era::Legacy) => EraChoice::Legacy,
            Some(Era::Modern) => EraChoice::Modern,
            None => EraChoice::Auto,
        }
    }

    /// Remembers that `url` speaks `era`.
    pub(crate) fn remember(&self, url: &str, era: Era) {
        let mut verdicts = self.0.lock().expect("verdicts lock");
        if verdicts.len() >= MAX_REMEMBERED && !verdicts.contains_key(url) {
            verdicts.clear();
        }
        verdicts.insert(url.to_owned(), era);
    }
}
