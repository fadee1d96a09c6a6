//! Exit codes, as the MCP Inspector CLI's: 0 success, 1 a protocol or usage error, 3
//! authorization required, 4 server unreachable or the child exited, 5 the tool returned
//! `isError`.

use mcpwire::client::ClientError;
use mcpwire::client::auth::AuthError;
use std::process::ExitCode;

/// Why the command failed, and the exit code that says so.
#[derive(Debug)]
pub struct Failure {
    /// The exit code.
    pub code: u8,
    /// What to print on stderr (empty: nothing more to say).
    pub message: String,
}

/// A protocol or usage error.
pub const USAGE: u8 = 1;
/// Authorization required (HTTP 401).
pub const AUTH_REQUIRED: u8 = 3;
/// The server is unreachable, or the child exited.
pub const UNREACHABLE: u8 = 4;
/// The tool returned `isError`.
pub const TOOL_ERROR: u8 = 5;
/// Interrupted by Ctrl-C (the shell's convention, 128 + SIGINT).
pub const INTERRUPTED: u8 = 130;

impl Failure {
    /// A usage or protocol error with `message`.
    pub fn usage(message: impl Into<String>) -> Self {
        Failure {
            code: USAGE,
            message: message.into(),
        }
    }

    /// stdout was closed by its reader (`| head -1`): nothing more to print, and nothing wrong.
    pub fn stdout_closed() -> Self {
        Failure {
            code: 0,
            message: String::new(),
        }
    }

    /// The exit code to return.
    pub fn exit_code(&self) -> ExitCode {
        ExitCode::from(self.code)
    }
}

impl From<ClientError> for Failure {
    fn from(error: ClientError) -> Self {
        let code = match &error {
            ClientError::Http { status: 401, .. } | ClientError::Auth(_) => AUTH_REQUIRED,
            ClientError::Closed(_) | ClientError::Transport(_) => UNREACHABLE,
            ClientError::Tool(_) => TOOL_ERROR,
            _ => USAGE,
        };
        if let ClientError::Auth(auth @ AuthError::LoginRequired(_)) = error {
            return auth.into();
        }
        Failure {
            code,
            message: error.to_string(),
        }
    }
}

impl From<AuthError> for Failure {
    fn from(error: AuthError) -> Self {
        let message = match &error {
            AuthError::LoginRequired(url) => {
                format!("{error}: run `mcpwire-cli auth login --url {url}`")
            }
            _ => error.to_string(),
        };
        Failure {
            code: AUTH_REQUIRED,
            message,
        }
    }
}

impl From<serde_json::Error> for Failure {
    fn from(error: serde_json::Error) -> Self {
        Failure::usage(error.to_string())
    }
}
