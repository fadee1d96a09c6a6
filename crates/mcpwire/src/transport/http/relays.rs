//! The live listener of each running stream of a 2025-11-25 session: where the relay of a
//! resumable stream hands its events ([`resume`](super::resume)).

use std::collections::HashMap;
use std::sync::Mutex;
use tokio::sync::mpsc::Sender;

/// `(event id, line)`.
pub(super) type Event = (String, String);

/// The live listener of each of a session's running streams.
#[derive(Default)]
pub(super) struct Relays {
    listeners: Mutex<HashMap<u64, Option<Sender<Event>>>>,
}

impl Relays {
    pub(super) fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Option<Sender<Event>>>> {
        self.listeners.lock().unwrap_or_else(|e| e.into_inner())
    }
}
