//! Progress tokens and `notifications/progress`.

use serde::{Deserialize, Serialize};

/// A progress token chosen by the client (string or integer), echoed in every notification.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::ProgressToken;
///
/// let token: ProgressToken = serde_json::from_str(r#""upload-1""#).unwrap();
/// assert_eq!(token, ProgressToken::String("upload-1".into()));
/// assert_eq!(serde_json::to_string(&ProgressToken::Number(9)).unwrap(), "9");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ProgressToken {
    /// A numeric token.
    Number(i64),
    /// A string token.
    String(String),
}

/// `notifications/progress` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::{ProgressParams, ProgressToken};
/// use serde_json::json;
///
/// let params = ProgressParams {
///     progress_token: ProgressToken::Number(1),
///     progress: 50.0,
///     total: Some(100.0),
///     message: None,
/// };
/// assert_eq!(
///     serde_json::to_value(&params).unwrap(),
///     json!({"progressToken": 1, "progress": 50.0, "total": 100.0})
/// );
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProgressParams {
    /// The token of the request this reports on.
    pub progress_token: ProgressToken,
    /// Progress so far; increases with every notification.
    pub progress: f64,
    /// The total, when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total: Option<f64>,
    /// A human-readable status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn progress() {
        let params = ProgressParams {
            progress_token: ProgressToken::String("upload-1".into()),
            progress: 1.0,
            total: Some(4.0),
            message: Some("1 of 4 files".into()),
        };
        assert_eq!(
            notification_line("notifications/progress", &params),
            r#"{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":"upload-1","progress":1.0,"total":4.0,"message":"1 of 4 files"}}"#
        );
    }
}
