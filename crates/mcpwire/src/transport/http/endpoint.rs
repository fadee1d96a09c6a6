//! [`Endpoint`]: what every HTTP request of the MCP endpoint is served with.

use super::events::EventStore;
use super::fleet::Fleet;
use super::origin::HostPolicy;
use super::proxies::TrustedProxies;
use super::sessions::{SessionLimits, Sessions};
use crate::dispatch::handshake::Handshake;
use crate::server::core::ServerCore;
use std::sync::Arc;
use std::time::Duration;
use tokio_util::sync::{CancellationToken, DropGuard};

/// What every HTTP request is served with.
pub(super) struct Endpoint {
    pub(super) core: Arc<ServerCore>,
    pub(super) sessions: Sessions,
    /// The session of stateless (2026-07-28) requests: never named, never used for state.
    pub(super) stateless: Arc<Handshake>,
    pub(super) hosts: HostPolicy,
    pub(super) max_body_bytes: usize,
    /// How much of a refused body is still read (and dropped), so its client reads the `413`.
    pub(super) max_drained_body_bytes: usize,
    pub(super) keep_alive: Duration,
    /// The recent events of resumable session streams.
    pub(super) events: Arc<dyn EventStore>,
    /// The most resumed GETs open on one session (on this replica).
    pub(super) max_resumed_streams: usize,
    /// The proxies whose forwarding headers name the client.
    pub(super) trusted_proxies: TrustedProxies,
    /// The other replicas, when sessions are shared with them.
    pub(super) fleet: Fleet,
    /// The fleet's tasks, stopped when the endpoint is dropped (not at shutdown: requests in
    /// their grace period may still wait for the bus); the bus subscription ends with them.
    fleet_tasks: std::sync::OnceLock<DropGuard>,
}

/// The settings an endpoint is built from.
pub(super) struct Settings {
    pub(super) hosts: HostPolicy,
    pub(super) max_body_bytes: Option<usize>,
    pub(super) max_drained_body_bytes: usize,
    pub(super) sessions: SessionLimits,
    pub(super) keep_alive: Duration,
    pub(super) events: Arc<dyn EventStore>,
    pub(super) max_resumed_streams: usize,
    pub(super) trusted_proxies: TrustedProxies,
    pub(super) fleet: Fleet,
}

impl Endpoint {
    /// An endpoint whose sessions and streams end when `shutdown` is cancelled.
    pub(super) fn new(
        core: Arc<ServerCore>,
        settings: Settings,
        shutdown: CancellationToken,
    ) -> Self {
        let max_body_bytes = settings
            .max_body_bytes
            .unwrap_or(core.limits.max_message_bytes);
        let max_subscriptions = core.limits.max_subscriptions;
        let session_ends = core.session_ends.clone();
        Self {
            core,
            sessions: Sessions::new(
                settings.sessions,
                shutdown,
                settings.events.clone(),
                settings.fleet.clone(),
                (max_subscriptions, session_ends),
            ),
            stateless: Arc::new(Handshake::default()),
            hosts: settings.hosts,
            max_body_bytes,
            max_drained_body_bytes: settings.max_drained_body_bytes,
            keep_alive: settings.keep_alive,
            events: settings.events,
            max_resumed_streams: settings.max_resumed_streams.max(1),
            trusted_proxies: settings.trusted_proxies,
            fleet: settings.fleet,
            fleet_tasks: std::sync::OnceLock::new(),
        }
    }

    /// Starts passing changes and messages to and from the fleet (when there is one), and logs
    /// what replicas must agree on: the replica id, whether sessions are shared, the ids of the
    /// `requestState` keys (never the keys) and their audience.
    pub(super) fn join_fleet(self: &Arc<Self>) {
        let (keys, audience) = self.core.state_codec.describe();
        tracing::info!(
            replica = %self.fleet.replica,
            shared_sessions = self.fleet.shares_sessions(),
            request_state_keys = ?keys,
            audience,
            "serving Streamable HTTP"
        );
        if let Some(tasks) = self.fleet.start(&self.core.notifier, Arc::downgrade(self)) {
            let _ = self.fleet_tasks.set(tasks);
        }
    }
}
