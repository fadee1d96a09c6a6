//! `Snapshot`: the tools, prompts and resources requests are served from, as last published.
//! Immutable; a change publishes a new one (rebuilding only the view that changed) and requests
//! in flight finish with the one they loaded.

use super::prompt_kind::PromptView;
use super::resource_kind::ResourceView;
use super::tool_kind::ToolView;
use std::sync::Arc;

/// The enabled tools, prompts and resources, and their list pages.
#[derive(Clone, Default)]
pub(crate) struct Snapshot {
    pub(crate) tools: Arc<ToolView>,
    pub(crate) prompts: Arc<PromptView>,
    pub(crate) resources: Arc<ResourceView>,
}
