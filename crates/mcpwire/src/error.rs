//! Errors a server author meets: registration failures, serving failures, and tool failures.

use std::fmt;

/// A tool or resolver graph that cannot be served, found at registration, before any client
/// connects. The message names the culprit (tool, resolver, parameter or cycle).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidSignature {
    message: String,
}

impl InvalidSignature {
    /// An error with the given message.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message, naming the culprit.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for InvalidSignature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for InvalidSignature {}

/// Why a server could not start or stopped serving.
///
/// Its `Debug` output is its message, so `main` returning `mcpwire::Result<()>` prints a readable
/// error.
#[derive(thiserror::Error)]
pub enum Error {
    /// The tool or resolver graph is invalid.
    #[error("invalid signature: {0}")]
    InvalidSignature(#[from] InvalidSignature),
    /// Reading or writing the transport failed.
    #[error("transport I/O failed: {0}")]
    Io(#[from] std::io::Error),
    /// Building the shared state at start-up failed.
    #[error("start-up failed: {0}")]
    Startup(String),
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// `Result` with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failure the model should see: bad arguments, a resolver that failed, a tool that returned
/// `Err`. The client receives `isError: true` with `Error executing tool <tool>: <message>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolError {
    message: String,
}

impl ToolError {
    /// An error with a message for the model.
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message.
    pub fn message(&self) -> &str {
        &self.message
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for ToolError {}
