//! Log levels and `notifications/message`.

use serde::{Deserialize, Serialize};

/// Syslog severities, lowest first, so that `a >= b` means "at least as severe".
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::LoggingLevel;
///
/// assert!(LoggingLevel::Error >= LoggingLevel::Warning);
/// assert!(LoggingLevel::Debug < LoggingLevel::Info);
/// assert_eq!(serde_json::to_value(LoggingLevel::Warning).unwrap(), "warning");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LoggingLevel {
    /// Debug detail.
    Debug,
    /// Informational.
    Info,
    /// Normal but significant.
    Notice,
    /// Warning.
    Warning,
    /// Error.
    Error,
    /// Critical.
    Critical,
    /// Action must be taken immediately.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// `logging/setLevel` params (2025-11-25).
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::LoggingLevel;
/// use mcpwire::protocol::SetLevelParams;
///
/// let params: SetLevelParams = serde_json::from_str(r#"{"level":"notice"}"#).unwrap();
/// assert_eq!(params.level, LoggingLevel::Notice);
/// ```
#[derive(Clone, Debug, Deserialize)]
pub struct SetLevelParams {
    /// The lowest level the client wants.
    pub level: LoggingLevel,
}

/// `notifications/message` params.
///
/// # Examples
///
/// ```
/// use mcpwire::protocol::LoggingLevel;
/// use mcpwire::protocol::LoggingMessageParams;
/// use serde_json::json;
///
/// let message = LoggingMessageParams {
///     level: LoggingLevel::Info,
///     logger: Some("db".into()),
///     data: json!({"rows": 3}),
/// };
/// assert_eq!(
///     serde_json::to_value(&message).unwrap(),
///     json!({"level": "info", "logger": "db", "data": {"rows": 3}})
/// );
/// ```
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct LoggingMessageParams {
    /// Severity.
    pub level: LoggingLevel,
    /// The logger's name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub logger: Option<String>,
    /// Any JSON.
    pub data: serde_json::Value,
}

#[cfg(test)]
mod examples {
    //! What the items of this file do, shown on examples (they are internal, so these are
    //! unit tests, not doc tests).
    #![allow(unused_imports)]
    use super::*;
    use crate::protocol::example_scope::*;

    #[test]
    fn logging() {
        use serde_json::json;

        let wanted: SetLevelParams = serde_json::from_str(r#"{"level":"warning"}"#).unwrap();
        let message = LoggingMessageParams {
            level: LoggingLevel::Error,
            logger: None,
            data: json!("disk full"),
        };
        assert!(message.level >= wanted.level);
        assert_eq!(
            notification_line("notifications/message", &message),
            r#"{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"error","data":"disk full"}}"#
        );
    }
}
