//! What can go wrong on the client side.

use crate::protocol::{CallToolResult, ErrorObject};
use std::time::Duration;

/// Why a client call failed.
///
/// # Examples
///
/// ```
/// use mcpwire::client::ClientError;
/// use mcpwire::protocol::ErrorObject;
///
/// let error = ClientError::Rpc(ErrorObject::invalid_params("Unknown tool: frobnicate"));
/// assert_eq!(error.to_string(), "the server answered with an error: Unknown tool: frobnicate (-32602)");
/// assert_eq!(error.rpc_code(), Some(-32602));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ClientError {
    /// The server answered the request with a JSON-RPC error.
    #[error("the server answered with an error: {0}")]
    Rpc(ErrorObject),
    /// No answer within the timeout (progress notifications extend it).
    #[error("no answer within {0:?}")]
    Timeout(Duration),
    /// The connection is gone (the child exited, the stream ended); `detail` holds what is known,
    /// e.g. the end of the child's stderr.
    #[error("the connection is closed{}", detail_suffix(.0))]
    Closed(Option<String>),
    /// The transport failed (I/O, HTTP, spawning the server).
    #[error("transport error: {0}")]
    Transport(String),
    /// The HTTP server answered with a status and no JSON-RPC message.
    #[error("HTTP {status}: {body}")]
    Http {
        /// The status code.
        status: u16,
        /// The start of the body.
        body: String,
    },
    /// The server sent a message (an HTTP body, an event of an event stream, or a line of it)
    /// larger than the client's [`max_message_bytes`](super::ClientBuilder::max_message_bytes):
    /// it was not read further, and its connection was closed.
    #[error(
        "the server sent a message larger than {limit} bytes (the client's max_message_bytes); its connection was closed"
    )]
    TooLarge {
        /// The limit, in bytes.
        limit: usize,
    },
    /// The server's message did not have the expected shape.
    #[error("unexpected answer from the server: {0}")]
    Protocol(String),
    /// The server kept answering `input_required` beyond the round cap.
    #[error("the server asked for input more than {0} rounds in a row")]
    TooManyRounds(u32),
    /// A listing had more pages than the page cap.
    #[error("the listing has more than {0} pages")]
    TooManyPages(usize),
    /// The method does not exist in the era the client speaks.
    #[error("{0} is not available on this protocol revision")]
    Unsupported(&'static str),
    /// The server asked a question no handler answers, or a handler failed.
    #[error("cannot answer the server's {method}: {error}")]
    Question {
        /// The question's method (`elicitation/create`, …).
        method: String,
        /// Why.
        error: ErrorObject,
    },
    /// A typed tool call returned `isError: true`; the result is attached.
    #[error("the tool failed: {}", first_text(.0))]
    Tool(Box<CallToolResult>),
    /// A result did not deserialize into the requested type.
    #[error("cannot decode the result: {0}")]
    Decode(#[from] serde_json::Error),
    /// The HTTP server no longer knows the session (`404`), and a new one could not be opened.
    #[error("the server lost the session")]
    SessionExpired,
    /// Neither era could be negotiated.
    #[error("cannot agree on a protocol revision: {0}")]
    Negotiation(String),
    /// The HTTP server wants a token the client could not obtain (feature `auth`).
    #[cfg(feature = "auth")]
    #[error("authorization failed: {0}")]
    Auth(#[from] super::auth::AuthError),
}

impl ClientError {
    /// The JSON-RPC error code, when the server answered with an error.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::ClientError;
    ///
    /// assert_eq!(ClientError::Closed(None).rpc_code(), None);
    /// ```
    pub fn rpc_code(&self) -> Option<i32> {
        match self {
            ClientError::Rpc(error) => Some(error.code),
            _ => None,
        }
    }
}

fn detail_suffix(detail: &Option<String>) -> String {
    match detail {
        Some(detail) if !detail.is_empty() => format!(": {detail}"),
        _ => String::new(),
    }
}

fn first_text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .find_map(|c| {
            serde_json::to_value(c)
                .ok()?
                .get("text")?
                .as_str()
                .map(str::to_owned)
        })
        .unwrap_or_default()
}
