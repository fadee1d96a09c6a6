//! [`McpResponse`]: how a request ended, as a layer sees it (and how a layer refuses one).

use super::result_json::ResultJson;
use crate::protocol::jsonrpc::code;
use crate::protocol::result_kind::ResultKind;
use crate::protocol::{CallToolResult, ErrorObject};

/// How a request's handling ended: a result, or a JSON-RPC error. A layer reads it on the way
/// back ([`McpResponse::outcome`]), or makes one to refuse a request
/// ([`McpResponse::error`], [`McpResponse::tool_error`]) without calling the handler.
///
/// # Examples
///
/// ```
/// use mcpwire::layer::{self, McpRequest, McpResponse, Next, Outcome};
///
/// let errors = layer::from_fn(|request: McpRequest, next: Next| async move {
///     let response = next.run(request).await;
///     if let Outcome::Error { code } = response.outcome() {
///         eprintln!("answered with JSON-RPC error {code}");
///     }
///     response
/// });
/// # let _ = mcpwire::McpServer::new("demo").layer(errors);
/// ```
#[derive(Debug)]
pub struct McpResponse {
    pub(crate) answer: Answer,
    /// The request reached its method: authorization admitted it, and what it names exists
    /// (what the outer tier's layers learn of it on the way back; see
    /// [`McpServer::outer_layer`](crate::McpServer::outer_layer)).
    pub(crate) reached: bool,
}

/// What a response holds.
#[derive(Debug)]
pub(crate) enum Answer {
    /// A result object of the given kind.
    Result {
        json: ResultJson,
        kind: ResultKind,
        /// A tool's `isError` result.
        tool_error: bool,
    },
    /// A response line the method wrote itself (methods other than the handler methods, and
    /// every request at the outer tier), and how the request ended.
    Line { line: String, outcome: Outcome },
    /// A JSON-RPC error.
    Error(ErrorObject),
    /// A layer's refusal as a tool's `isError` result with the error's message; this JSON-RPC
    /// error on other methods.
    Refused(ErrorObject),
}

/// How a request ended, as [`McpResponse::outcome`] tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Outcome {
    /// A complete result.
    Complete,
    /// A tool's result with `isError: true`: the tool failed (or a layer refused the call that
    /// way); the model sees why.
    ToolError,
    /// `input_required` (2026-07-28): questions for the client, which calls again with the
    /// answers (a new request, a new pass through the layers).
    InputRequired,
    /// The call became a task of the tasks extension (2026-07-28): its body runs on in the
    /// background after this response (a built-in
    /// [`ConcurrencyLimit`](super::ConcurrencyLimit) keeps its place until the body ends).
    TaskCreated,
    /// A JSON-RPC error with this code.
    Error {
        /// The JSON-RPC error code (`-32602`, `-32003`, …).
        code: i32,
    },
}

impl Outcome {
    /// A short name for logs and metrics: `complete`, `tool_error`, `input_required`,
    /// `task_created` or `error`.
    ///
    /// ```
    /// use mcpwire::layer::Outcome;
    /// assert_eq!(Outcome::InputRequired.as_str(), "input_required");
    /// assert_eq!(Outcome::Error { code: -32602 }.as_str(), "error");
    /// ```
    pub fn as_str(&self) -> &'static str {
        match self {
            Outcome::Complete => "complete",
            Outcome::ToolError => "tool_error",
            Outcome::InputRequired => "input_required",
            Outcome::TaskCreated => "task_created",
            Outcome::Error { .. } => "error",
        }
    }
}

impl McpResponse {
    /// A JSON-RPC error: how a layer refuses a request of any method.
    ///
    /// ```
    /// use mcpwire::layer::{McpResponse, Outcome};
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let refused = McpResponse::error(ErrorObject::new(-32000, "Server busy: try later"));
    /// assert_eq!(refused.outcome(), Outcome::Error { code: -32000 });
    /// ```
    pub fn error(error: ErrorObject) -> Self {
        Self::of(Answer::Error(error))
    }

    /// A refusal the model sees: on `tools/call`, a tool result with `isError: true` whose text
    /// is `message` (the model may adapt and try again); on any other method, where results
    /// have no `isError`, the JSON-RPC error `-32600` with `message`.
    ///
    /// ```
    /// use mcpwire::layer::{McpResponse, Outcome};
    ///
    /// let refused = McpResponse::tool_error("over quota; try again in a minute");
    /// assert_eq!(refused.outcome(), Outcome::ToolError);
    /// ```
    pub fn tool_error(message: impl Into<String>) -> Self {
        Self::of(Answer::Refused(ErrorObject::new(
            code::INVALID_REQUEST,
            message.into(),
        )))
    }

    /// A refusal made as `refuse_as` says: `error` itself, or (on `tools/call`) an `isError`
    /// result with its message.
    pub(crate) fn refused(refuse_as: RefuseAs, error: ErrorObject) -> Self {
        let answer = match refuse_as {
            RefuseAs::Error => Answer::Error(error),
            RefuseAs::ToolError => Answer::Refused(error),
        };
        Self::of(answer)
    }

    /// A response holding `answer`, for a request that did not reach its method (the core
    /// marks those that did).
    pub(crate) fn of(answer: Answer) -> Self {
        Self {
            answer,
            reached: false,
        }
    }

    /// Whether the request reached its method: authorization admitted it and what it names
    /// exists. An outer-tier layer ([`McpServer::outer_layer`]) sees every request, refused ones
    /// included, with its target as the client sent it; only a response that reached its method
    /// vouches for that target (telemetry keeps the targets of other requests out of its
    /// attributes: a caller could fill them with names of its choosing). A response a layer
    /// makes itself did not.
    ///
    /// ```
    /// use mcpwire::layer::McpResponse;
    /// use mcpwire::protocol::ErrorObject;
    /// assert!(!McpResponse::error(ErrorObject::new(-32000, "busy")).reached());
    /// ```
    ///
    /// [`McpServer::outer_layer`]: crate::McpServer::outer_layer
    pub fn reached(&self) -> bool {
        self.reached
    }

    /// How the request ended.
    ///
    /// ```
    /// use mcpwire::layer::{McpResponse, Outcome};
    /// assert_eq!(McpResponse::tool_error("no").outcome(), Outcome::ToolError);
    /// ```
    pub fn outcome(&self) -> Outcome {
        match &self.answer {
            Answer::Result {
                tool_error: true, ..
            }
            | Answer::Refused(_) => Outcome::ToolError,
            Answer::Result { kind, .. } => match kind {
                ResultKind::Complete | ResultKind::Cacheable(_) => Outcome::Complete,
                ResultKind::InputRequired => Outcome::InputRequired,
                ResultKind::Task => Outcome::TaskCreated,
            },
            Answer::Line { outcome, .. } => *outcome,
            Answer::Error(error) => Outcome::Error { code: error.code },
        }
    }

    /// The JSON-RPC error, when the request ended in one.
    ///
    /// ```
    /// use mcpwire::layer::McpResponse;
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let refused = McpResponse::error(ErrorObject::invalid_params("no such book"));
    /// assert_eq!(refused.as_error().unwrap().message, "no such book");
    /// ```
    pub fn as_error(&self) -> Option<&ErrorObject> {
        match &self.answer {
            Answer::Error(error) => Some(error),
            _ => None,
        }
    }

    /// The result object as JSON (read-only), for `tools/call`, `prompts/get` and
    /// `resources/read` (an `input_required` or task result included); `None` for an error,
    /// a layer's refusal, and the results of other methods.
    ///
    /// ```
    /// use mcpwire::layer::McpResponse;
    /// assert_eq!(McpResponse::tool_error("no").result_json(), None);
    /// ```
    pub fn result_json(&self) -> Option<&str> {
        match &self.answer {
            Answer::Result { json, .. } => Some(json.as_str()),
            _ => None,
        }
    }

    /// The `isError` result of a layer's refusal on `tools/call`.
    pub(crate) fn refusal_result(message: &str) -> String {
        serde_json::to_string(&CallToolResult::error(message)).expect("results serialize")
    }
}

/// How a built-in layer refuses a request (a rate limit, a timeout, a full concurrency limit).
///
/// ```
/// use mcpwire::layer::{RefuseAs, Timeout};
/// use std::time::Duration;
///
/// // The model reads "timed out" and may try a smaller request.
/// let timeout = Timeout::new(Duration::from_secs(5)).refuse_as(RefuseAs::ToolError);
/// # let _ = mcpwire::McpServer::new("demo").layer(timeout);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RefuseAs {
    /// A JSON-RPC error (the default): the client's code sees it, the model usually does not.
    #[default]
    Error,
    /// On `tools/call`, a tool result with `isError: true` carrying the error's message, which
    /// the model sees; on other methods, the JSON-RPC error.
    ToolError,
}
