//! A 2025-11-25 session: what `initialize` negotiated, held for the connection (stdio) or the
//! `Mcp-Session-Id` (HTTP).

use crate::protocol::logging::LoggingLevel;
use crate::protocol::version::LATEST_LEGACY;
use crate::protocol::{ClientCapabilities, Implementation};
use std::sync::{Arc, Mutex, RwLock};

/// What the handshake fixed for the session.
pub(crate) struct Handshake {
    pub(crate) protocol_version: Arc<str>,
    pub(crate) capabilities: Arc<ClientCapabilities>,
    pub(crate) client_info: Arc<Implementation>,
}

impl Default for Handshake {
    /// A session that never sent `initialize`: served leniently, with no client capabilities.
    fn default() -> Self {
        Self {
            protocol_version: Arc::from(LATEST_LEGACY),
            capabilities: Arc::new(ClientCapabilities::default()),
            client_info: Arc::new(Implementation::default()),
        }
    }
}

#[derive(Default)]
pub(crate) struct Session {
    handshake: RwLock<Arc<Handshake>>,
    /// From `logging/setLevel`; until then every level is sent.
    log_level: Mutex<Option<LoggingLevel>>,
}

impl Session {
    pub(crate) fn handshake(&self) -> Arc<Handshake> {
        self.handshake
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub(crate) fn set_handshake(&self, handshake: Handshake) {
        *self.handshake.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(handshake);
    }

    pub(crate) fn log_level(&self) -> LoggingLevel {
        self.log_level
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .unwrap_or(LoggingLevel::Debug)
    }

    pub(crate) fn set_log_level(&self, level: LoggingLevel) {
        *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = Some(level);
    }
}
