//! `ServerCore`: the built server the dispatcher serves from; immutable while serving.

use super::completer::Completer;
use super::registries::Registries;
use super::snapshot::Snapshot;
use crate::context::{Notifier, SharedState};
use crate::protocol::Implementation;
use crate::protocol::capabilities::{ListChanged, ResourcesCapability, ServerCapabilities};
use crate::protocol::meta::SERVER_INFO;
use crate::request_state::StateCodec;
use std::sync::Arc;
use std::time::Duration;

/// Limits and tunables of a running server.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    /// The longest message accepted on a line-based transport.
    pub(crate) max_message_bytes: usize,
    /// How long `tools/list` and `server/discover` results may be cached (2026-07-28).
    pub(crate) list_ttl: Duration,
    /// How long in-flight requests may run on after the client closed the connection.
    pub(crate) shutdown_grace: Duration,
    /// How long a request to the client (a legacy question) waits for its answer.
    pub(crate) client_request_timeout: Duration,
    /// The most resource URIs one session (or one listen request) may watch.
    pub(crate) max_subscriptions: usize,
    /// The most `taskIds` one `subscriptions/listen` request may name.
    pub(crate) max_listened_tasks: usize,
    /// The longest resource URI a client may subscribe to.
    pub(crate) max_subscription_uri_bytes: usize,
    /// The most requests one connection (stdio) or session (HTTP) runs at once.
    pub(crate) max_requests_in_flight: usize,
    /// The most outgoing lines queued for one client stream before its sender waits.
    pub(crate) max_queued_messages: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message_bytes: 4 * 1024 * 1024,
            list_ttl: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(5),
            client_request_timeout: Duration::from_secs(300),
            max_subscriptions: 1000,
            max_listened_tasks: 100,
            max_subscription_uri_bytes: 2048,
            max_requests_in_flight: 128,
            max_queued_messages: 1024,
        }
    }
}

pub(crate) struct ServerCore {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) capabilities: ServerCapabilities,
    /// The tools, prompts and resources; read through [`ServerCore::snapshot`].
    registries: Arc<Registries>,
    pub(crate) state: Arc<SharedState>,
    pub(crate) limits: Limits,
    /// `"_meta":{"io.modelcontextprotocol/serverInfo":{…}}`, serialized once.
    pub(crate) server_info_meta: String,
    /// Seals and opens `requestState` (2026-07-28 rounds).
    pub(crate) state_codec: StateCodec,
    /// Where change notifications are published.
    pub(crate) notifier: Notifier,
    /// Answers `completion/complete`, when the server has a completer.
    pub(crate) completer: Option<Completer>,
    /// Whether `requestState` is sealed with a random key of this process (no key configured):
    /// then no other replica can resume this one's rounds.
    pub(crate) ephemeral_keys: bool,
    /// Refuses replayed final rounds of `#[tool(once)]` calls.
    pub(crate) replay_guard: Arc<dyn crate::request_state::ReplayGuard>,
    /// What `server/discover` declares (2026-07-28): `capabilities`, plus the extensions.
    pub(crate) discover_capabilities: ServerCapabilities,
    /// The extensions installed: their methods (their capability entries are in
    /// `capabilities` and `discover_capabilities` already).
    pub(crate) extensions: crate::extension::Extensions,
    /// What hears a 2025-11-25 session end.
    pub(crate) session_ends: crate::context::SessionEndHooks,
    /// The grant stdio and in-memory connections run with ([`McpServer::local_grant`]).
    ///
    /// [`McpServer::local_grant`]: crate::McpServer::local_grant
    pub(crate) local_grant: Option<Arc<crate::context::Grant>>,
    /// The middleware stacks (`mcpwire::layer`) every request runs through (the empty stack
    /// without any layer).
    pub(crate) layers: crate::layer::service::Layers,
}

impl ServerCore {
    /// Says loudly, once at start-up, when this process is one replica of a fleet (`in_fleet`)
    /// yet its rounds can only resume on itself: behind a load balancer every 2026-07-28 round
    /// that lands on another replica would fail. A single process needs no shared keys, and
    /// hears nothing.
    #[cfg(feature = "http")]
    pub(crate) fn warn_if_ephemeral_keys(&self, in_fleet: bool) {
        if in_fleet && self.ephemeral_keys {
            tracing::warn!(
                "requestState is sealed with a random key of this process: a multi-round call \
                 can only finish on this process, so replicas behind a load balancer refuse each \
                 other's rounds. Set {} (or McpServer::request_state_keys) to the same keys on \
                 every replica.",
                crate::request_state::KEYS_ENV
            );
        }
    }

    /// Starts serving `registries`. The capabilities declare each list that has entries, and
    /// `listChanged: true` only when a `Catalog` can change the lists (then every list is
    /// declared, since the catalog may fill an empty one later).
    pub(crate) fn new(
        info: Implementation,
        instructions: Option<String>,
        registries: Arc<Registries>,
        state: SharedState,
        limits: Limits,
        state_codec: StateCodec,
        notifier: Notifier,
    ) -> Self {
        let offered = registries.start();
        let list_changed = offered.changeable.then_some(true);
        let declared = |has_entries: bool| has_entries || offered.changeable;
        let capabilities = ServerCapabilities {
            tools: declared(offered.tools).then_some(ListChanged { list_changed }),
            prompts: declared(offered.prompts).then_some(ListChanged { list_changed }),
            resources: declared(offered.resources).then_some(ResourcesCapability {
                subscribe: Some(true),
                list_changed,
            }),
            logging: Some(Default::default()),
            ..ServerCapabilities::default()
        };
        let server_info_meta = format!(
            r#""_meta":{{{}:{}}}"#,
            serde_json::to_string(SERVER_INFO).expect("strings serialize"),
            serde_json::to_string(&info).expect("implementation serializes")
        );
        Self {
            info,
            instructions,
            capabilities,
            registries,
            state: Arc::new(state),
            limits,
            server_info_meta,
            state_codec,
            notifier,
            completer: None,
            ephemeral_keys: false,
            replay_guard: Arc::new(crate::request_state::MemoryReplayGuard::default()),
            discover_capabilities: ServerCapabilities::default(),
            extensions: Default::default(),
            session_ends: Arc::new([]),
            local_grant: None,
            layers: crate::layer::service::LayerSet::default().build(),
        }
    }

    /// The tools, prompts and resources right now. Loaded without locking; hold it only while
    /// looking something up (clone what must outlive it).
    pub(crate) fn snapshot(&self) -> arc_swap::Guard<Arc<Snapshot>> {
        self.registries.snapshot()
    }

    /// Whether the server offers tools (it may have none right now).
    pub(crate) fn offers_tools(&self) -> bool {
        self.capabilities.tools.is_some()
    }

    /// Whether the server offers prompts (it may have none right now).
    pub(crate) fn offers_prompts(&self) -> bool {
        self.capabilities.prompts.is_some()
    }

    /// Whether the server offers resources (it may have none right now).
    pub(crate) fn offers_resources(&self) -> bool {
        self.capabilities.resources.is_some()
    }
}
