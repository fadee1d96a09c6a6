//! What a 2025-11-25 handshake leaves: what `initialize` negotiated, and the state a session
//! keeps from one request to the next (log level, subscriptions, requests in flight), held for
//! the connection (stdio) or the `Mcp-Session-Id` (HTTP). A 2026-07-28 request is served with
//! an empty one.

use super::in_flight::{InFlight, Refused, Stopper};
use super::watched::{Full, Watched};
use crate::context::{Change, ClientRequests};
use crate::context::{SessionEnd, SessionEndHooks};
use crate::protocol::capabilities::ServerCapabilities;
use crate::protocol::jsonrpc::RequestId;
use crate::protocol::jsonrpc::notification_line;
use crate::protocol::list_changed::ListChangedParams;
use crate::protocol::logging::LoggingLevel;
use crate::protocol::resources::{ResourceUpdatedParams, UPDATED};
use crate::protocol::version::LATEST_LEGACY;
use crate::protocol::{ClientCapabilities, Implementation};
use std::sync::{Arc, Mutex, RwLock};

/// What the handshake fixed for the session.
pub(crate) struct Negotiated {
    pub(crate) protocol_version: Arc<str>,
    pub(crate) capabilities: Arc<ClientCapabilities>,
    pub(crate) client_info: Arc<Implementation>,
}

impl Default for Negotiated {
    /// A session that never sent `initialize`: served leniently, with no client capabilities.
    fn default() -> Self {
        Self {
            protocol_version: Arc::from(LATEST_LEGACY),
            capabilities: Arc::new(ClientCapabilities::default()),
            client_info: Arc::new(Implementation::default()),
        }
    }
}

#[cfg(feature = "http")]
/// What a session carries from one request to the next, as a replica hands it to another
/// (2025-11-25 over HTTP with a shared session store).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub(crate) struct HandshakeState {
    pub(crate) protocol_version: String,
    pub(crate) client_capabilities: ClientCapabilities,
    pub(crate) client_info: Implementation,
    #[serde(default)]
    pub(crate) log_level: Option<LoggingLevel>,
    #[serde(default)]
    pub(crate) subscriptions: Vec<String>,
}

/// What one client's handshake left: what it negotiated, its log level, its requests in flight (so
/// `notifications/cancelled` can stop them) and the server's requests to it.
#[derive(Default)]
pub(crate) struct Handshake {
    handshake: RwLock<Arc<Negotiated>>,
    /// From `logging/setLevel`; until then every level is sent.
    log_level: Mutex<Option<LoggingLevel>>,
    in_flight: InFlight,
    client_requests: Arc<ClientRequests>,
    /// Whether `initialize` opened this session (only then may the server send it unsolicited
    /// notifications).
    initialized: std::sync::atomic::AtomicBool,
    /// URIs subscribed to with `resources/subscribe`.
    subscriptions: Mutex<Watched>,
    /// When `initialize` opened it (or this replica took it over).
    opened: std::sync::OnceLock<std::time::Instant>,
    /// What hears it end.
    ends: std::sync::OnceLock<SessionEndHooks>,
}

impl Handshake {
    #[cfg(feature = "http")]
    /// What a later request of this session needs, wherever it is served.
    pub(crate) fn state(&self) -> HandshakeState {
        let handshake = self.handshake();
        let mut subscriptions: Vec<String> = self
            .subscriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .map(str::to_owned)
            .collect();
        subscriptions.sort_unstable();
        HandshakeState {
            protocol_version: handshake.protocol_version.to_string(),
            client_capabilities: (*handshake.capabilities).clone(),
            client_info: (*handshake.client_info).clone(),
            log_level: *self.log_level.lock().unwrap_or_else(|e| e.into_inner()),
            subscriptions,
        }
    }

    #[cfg(feature = "http")]
    /// A session carrying on from `state` (an initialized one), with nothing in flight;
    /// subscriptions beyond `cap` are dropped.
    pub(crate) fn restored(state: HandshakeState, cap: usize) -> Self {
        let session = Handshake::default();
        session.apply(state, cap);
        session
    }

    #[cfg(feature = "http")]
    /// Takes `state` (changed on another replica) in: handshake, log level, subscriptions.
    pub(crate) fn apply(&self, state: HandshakeState, cap: usize) {
        self.set_handshake(Negotiated {
            protocol_version: Arc::from(state.protocol_version),
            capabilities: Arc::new(state.client_capabilities),
            client_info: Arc::new(state.client_info),
        });
        *self.log_level.lock().unwrap_or_else(|e| e.into_inner()) = state.log_level;
        let mut watched = Watched::default();
        for uri in &state.subscriptions {
            let _ = watched.insert(uri, cap);
        }
        *self.subscriptions.lock().unwrap_or_else(|e| e.into_inner()) = watched;
    }

    pub(crate) fn handshake(&self) -> Arc<Negotiated> {
        self.handshake
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Has `hooks` hear this session end.
    pub(crate) fn watch_end(&self, hooks: &SessionEndHooks) {
        if !hooks.is_empty() {
            let _ = self.ends.set(hooks.clone());
        }
    }

    /// Tells the listeners that the session ended (once `initialize` opened it), served over
    /// `transport` (`tcp`, `pipe`).
    pub(crate) fn record_end(&self, transport: &'static str) {
        let (Some(opened), Some(hooks)) = (self.opened.get(), self.ends.get()) else {
            return;
        };
        let ended = SessionEnd {
            protocol_version: self.handshake().protocol_version.clone(),
            transport,
            duration: opened.elapsed(),
        };
        for hook in hooks.iter() {
            hook(&ended);
        }
    }

    pub(crate) fn set_handshake(&self, handshake: Negotiated) {
        let _ = self.opened.set(std::time::Instant::now());
        *self.handshake.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(handshake);
        self.initialized
            .store(true, std::sync::atomic::Ordering::Release);
    }

    /// Subscribes the session to updates of `uri` (`resources/subscribe`), unless it already
    /// holds `cap` other subscriptions.
    pub(crate) fn subscribe(&self, uri: &str, cap: usize) -> Result<(), Full> {
        self.subscriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(uri, cap)
    }

    /// Ends a subscription (`resources/unsubscribe`).
    pub(crate) fn unsubscribe(&self, uri: &str) {
        self.subscriptions
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(uri);
    }

    /// The notification a 2025-11-25 session gets for `change`, if any: once the session is
    /// initialized, list changes the server's `capabilities` announce, and updates of the URIs
    /// it subscribed to (or of their sub-resources).
    pub(crate) fn change_line(
        &self,
        change: &Change,
        capabilities: &ServerCapabilities,
    ) -> Option<String> {
        if !self.initialized.load(std::sync::atomic::Ordering::Acquire) {
            return None;
        }
        match change {
            Change::List(list) => capabilities
                .announces_list_changed(*list)
                .then(|| notification_line(list.method(), &ListChangedParams {})),
            Change::ResourceUpdated(uri) => self
                .subscriptions
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .covers(uri)
                .then(|| notification_line(UPDATED, &ResourceUpdatedParams { uri: uri.clone() })),
        }
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

    /// Starts a request and remembers what stops it, so the client can cancel it; refused when
    /// a request with the same id is running, or `limit` requests are (see [`InFlight::start`]).
    pub(crate) fn track_with(
        &self,
        id: RequestId,
        limit: usize,
        spawn: impl FnOnce() -> Stopper,
    ) -> Result<(), Refused> {
        self.in_flight.start(id, limit, spawn)
    }

    /// Forgets a finished request; `false` when it was cancelled meanwhile (its response must
    /// not be sent).
    pub(crate) fn finish(&self, id: &RequestId) -> bool {
        self.in_flight.finish(id)
    }

    /// Stops a running request (`notifications/cancelled`); `false` when none with that id
    /// runs here.
    pub(crate) fn cancel(&self, id: &RequestId) -> bool {
        let cancelled = self.in_flight.cancel(id);
        if cancelled {
            tracing::debug!(%id, "request cancelled by the client");
        }
        cancelled
    }

    /// Stops every running request (an HTTP session ended while they ran).
    #[cfg(feature = "http")]
    pub(crate) fn cancel_all(&self) {
        self.in_flight.cancel_all();
    }

    /// The server's requests to this client.
    pub(crate) fn client_requests(&self) -> &Arc<ClientRequests> {
        &self.client_requests
    }

    /// The client left: stop waiting for its answers.
    pub(crate) fn close(&self) {
        self.client_requests.disconnect();
    }
}
