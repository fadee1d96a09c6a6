//! `notifications/cancelled`.

use super::jsonrpc::RequestId;
use serde::{Deserialize, Serialize};

/// `notifications/cancelled` params.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CancelledParams {
    /// The request to stop (required on 2026-07-28, optional before).
    #[serde(default)]
    pub request_id: Option<RequestId>,
    /// Why, for logs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}
