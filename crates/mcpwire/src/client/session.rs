//! The conversation over one peer: what the server said when it opened, and on 2025-11-25 its
//! session, reopened when the server lost it (HTTP `404`): `initialize` again on the same
//! connection, then the request once more. One caller reopens a lost session; the others that
//! met the same loss find it reopened and only send again.

use super::error::ClientError;
use super::negotiate;
use super::options::CallOptions;
use super::peer::Peer;
use super::server_details::ServerDetails;
use crate::protocol::methods::INITIALIZE;
use serde_json::value::RawValue;
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, RwLock};

/// An open conversation.
pub(crate) struct Session {
    peer: Arc<Peer>,
    /// Counts 2025-11-25 sessions: a request that met a loss names the one it was sent in.
    number: AtomicU64,
    /// Serializes re-initialization after a lost session.
    reopening: tokio::sync::Mutex<()>,
    /// What the server said when the conversation (or the last reopened session) opened.
    details: RwLock<ServerDetails>,
}

impl Session {
    /// The conversation `peer` opened, the server having said `details`.
    pub(crate) fn new(peer: Arc<Peer>, details: ServerDetails) -> Self {
        Self {
            peer,
            number: AtomicU64::new(0),
            reopening: tokio::sync::Mutex::new(()),
            details: RwLock::new(details),
        }
    }

    /// The connection underneath.
    pub(crate) fn peer(&self) -> &Arc<Peer> {
        &self.peer
    }

    /// What the server said about itself.
    pub(crate) fn details(&self) -> ServerDetails {
        self.details.read().expect("details lock").clone()
    }

    /// Whether the server declared `logging`, read in place.
    pub(crate) fn declares_logging(&self) -> bool {
        let details = self.details.read().expect("details lock");
        details.capabilities.logging.is_some()
    }

    /// Sends one request and waits for its result; when the server lost the session (`404`, or
    /// a `400` that does not answer the request), reopens it and sends the request once more.
    pub(crate) async fn request(
        &self,
        method: &str,
        params: Map<String, Value>,
        request_state: Option<&RawValue>,
        options: &CallOptions,
    ) -> Result<Box<RawValue>, ClientError> {
        let mut retried = false;
        loop {
            let number = self.number.load(Ordering::Acquire);
            match self
                .peer
                .request(method, params.clone(), request_state, options)
                .await
            {
                Err(ClientError::SessionExpired) if !retried && method != INITIALIZE => {
                    retried = true;
                    self.reopen(number).await?;
                }
                // A `400` that is not the request's own answer: servers on the TypeScript SDK
                // 1.x say so of a session id they do not know (`"id": null`), where the spec
                // says `404`. Reopened once, like a `404`; a second one is the request's error.
                Err(error @ ClientError::Http { status: 400, .. })
                    if !retried && method != INITIALIZE =>
                {
                    retried = true;
                    if self.reopen(number).await.is_err() {
                        return Err(error);
                    }
                }
                outcome => return outcome,
            }
        }
    }

    /// Opens a new 2025-11-25 session after the server lost the one numbered `lost`; when a
    /// concurrent caller already reopened it, nothing is repeated.
    async fn reopen(&self, lost: u64) -> Result<(), ClientError> {
        let _reopening = self.reopening.lock().await;
        if self.number.load(Ordering::Acquire) != lost {
            return Ok(());
        }
        self.peer.transport().forget_session();
        let details = negotiate::initialize(&self.peer)
            .await
            .map_err(|_| ClientError::SessionExpired)?;
        *self.details.write().expect("details lock") = details;
        // The new session has the server's default level until it is asked for another.
        *self.peer.log_level.lock().expect("log level lock") = None;
        self.number.fetch_add(1, Ordering::AcqRel);
        Ok(())
    }
}
