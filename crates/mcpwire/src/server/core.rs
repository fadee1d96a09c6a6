//! `ServerCore`: the built server the dispatcher serves from; immutable while serving.

use super::completion::Completer;
use super::pages::Pages;
use super::prompt::PromptRegistry;
use super::registry::ToolRegistry;
use super::resource::ResourceRegistry;
use crate::context::{Notifier, SharedState};
use crate::protocol::Implementation;
use crate::protocol::capabilities::{ListChanged, ResourcesCapability, ServerCapabilities};
use crate::protocol::meta::SERVER_INFO;
use crate::state::StateCodec;
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
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_message_bytes: 4 * 1024 * 1024,
            list_ttl: Duration::from_secs(60),
            shutdown_grace: Duration::from_secs(5),
            client_request_timeout: Duration::from_secs(300),
        }
    }
}

pub(crate) struct ServerCore {
    pub(crate) info: Implementation,
    pub(crate) instructions: Option<String>,
    pub(crate) capabilities: ServerCapabilities,
    pub(crate) tools: ToolRegistry,
    pub(crate) tool_pages: Pages,
    pub(crate) prompts: PromptRegistry,
    pub(crate) prompt_pages: Pages,
    pub(crate) resources: ResourceRegistry,
    pub(crate) resource_pages: Pages,
    pub(crate) template_pages: Pages,
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
    pub(crate) replay_guard: Arc<dyn crate::state::ReplayGuard>,
}

impl ServerCore {
    /// Says loudly, once at start-up, when rounds can only resume on this process: behind a
    /// load balancer every 2026-07-28 round that lands on another replica would fail.
    #[cfg(feature = "http")]
    pub(crate) fn warn_if_ephemeral_keys(&self) {
        if self.ephemeral_keys {
            tracing::warn!(
                "requestState is sealed with a random key of this process: a multi-round call \
                 can only finish on this process, so replicas behind a load balancer refuse each \
                 other's rounds. Set {} (or McpServer::request_state_keys) to the same keys on \
                 every replica.",
                crate::state::KEYS_ENV
            );
        }
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        info: Implementation,
        instructions: Option<String>,
        tools: ToolRegistry,
        prompts: PromptRegistry,
        resources: ResourceRegistry,
        state: SharedState,
        limits: Limits,
        page_size: usize,
        state_codec: StateCodec,
        notifier: Notifier,
    ) -> Self {
        let capabilities = ServerCapabilities {
            tools: (!tools.is_empty()).then_some(ListChanged {
                list_changed: Some(true),
            }),
            prompts: (!prompts.is_empty()).then_some(ListChanged {
                list_changed: Some(true),
            }),
            resources: (!resources.is_empty()).then_some(ResourcesCapability {
                subscribe: Some(true),
                list_changed: Some(true),
            }),
            logging: Some(Default::default()),
            ..ServerCapabilities::default()
        };
        let server_info_meta = format!(
            r#""_meta":{{{}:{}}}"#,
            serde_json::to_string(SERVER_INFO).expect("strings serialize"),
            serde_json::to_string(&info).expect("implementation serializes")
        );
        let tool_pages = Pages::new("tools", tools.listed(), page_size);
        let prompt_pages = Pages::new("prompts", prompts.listed(), page_size);
        let resource_pages = Pages::new("resources", resources.listed(), page_size);
        let template_pages = Pages::new("resourceTemplates", resources.templates(), page_size);
        Self {
            info,
            instructions,
            capabilities,
            tools,
            tool_pages,
            prompts,
            prompt_pages,
            resources,
            resource_pages,
            template_pages,
            state: Arc::new(state),
            limits,
            server_info_meta,
            state_codec,
            notifier,
            completer: None,
            ephemeral_keys: false,
            replay_guard: Arc::new(crate::state::MemoryReplayGuard::default()),
        }
    }
}
