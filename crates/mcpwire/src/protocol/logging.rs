//! Log levels and `notifications/message`.

use serde::{Deserialize, Serialize};

/// Syslog severities, lowest first, so that `a >= b` means "at least as severe".
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
#[derive(Clone, Debug, Deserialize)]
pub struct SetLevelParams {
    /// The lowest level the client wants.
    pub level: LoggingLevel,
}

/// `notifications/message` params.
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
