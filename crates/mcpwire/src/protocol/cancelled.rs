//! `notifications/cancelled`.

use super::jsonrpc::RequestId;
use serde::{Deserialize, Serialize};

/// `notifications/cancelled` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::CancelledParams;
/// use mcpwire::protocol::RequestId;
/// use serde_json::json;
///
/// let params: CancelledParams =
///     serde_json::from_value(json!({"requestId": 7, "reason": "user stopped"})).unwrap();
/// assert_eq!(params.request_id, Some(RequestId::Number(7)));
/// assert_eq!(params.reason.as_deref(), Some("user stopped"));
/// ```
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

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn cancelled() {
        let line =
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}"#;
        let Ok(Incoming::Notification(notification)) = Incoming::parse(line) else {
            panic!()
        };
        let params: CancelledParams =
            serde_json::from_str(notification.params.unwrap().get()).unwrap();
        assert_eq!(params.request_id.unwrap().to_string(), "3");
    }
}
