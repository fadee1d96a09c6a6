//! Errors a server author meets: registration failures, serving failures, and tool failures.

use std::fmt;

/// A tool or resolver graph that cannot be served, found at registration, before any client
/// connects. The message names the culprit (tool, resolver, parameter or cycle).
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// let error = McpServer::new("calc").tool(add).unwrap().tool(add).err().unwrap();
/// assert!(error.message().contains("add"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidSignature {
    message: String,
}

impl InvalidSignature {
    /// An error with the given message.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::InvalidSignature;
    ///
    /// let error = InvalidSignature::new("tool 'search': no source fills parameter 'index'");
    /// assert_eq!(error.to_string(), "tool 'search': no source fills parameter 'index'");
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }

    /// The message, naming the culprit.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::InvalidSignature;
    ///
    /// let error = InvalidSignature::new("resolver cycle: a -> b -> a");
    /// assert_eq!(error.message(), "resolver cycle: a -> b -> a");
    /// ```
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
///
/// # Examples
///
/// ```
/// use mcpwire::McpServer;
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() {
/// let server = McpServer::new("db").lifespan(|| async { Err::<(), _>("no database") });
/// let error = server.serve_memory().await.err().unwrap();
/// assert!(matches!(error, mcpwire::Error::Startup(ref why) if why == "no database"));
/// assert_eq!(format!("{error:?}"), "start-up failed: no database");
/// # }
/// ```
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
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// fn build() -> mcpwire::Result<McpServer> {
///     Ok(McpServer::new("calc").tool(add)?) // an InvalidSignature becomes an Error
/// }
/// assert!(build().is_ok());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failure the model should see: bad arguments, a resolver that failed, a tool that returned
/// `Err`. The client receives `isError: true` with `Error executing tool <tool>: <message>`.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// Divides `a` by `b`.
/// #[tool]
/// async fn divide(a: f64, b: f64) -> Result<f64, ToolError> {
///     if b == 0.0 {
///         return Err(ToolError::new("cannot divide by zero"));
///     }
///     Ok(a / b)
/// }
///
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// assert_eq!(divide::call(1.0, 0.0).await.unwrap_err().message(), "cannot divide by zero");
/// # });
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ToolError {
    message: String,
    /// The JSON-RPC error the call ends with instead of an `isError` result.
    protocol: Option<Box<crate::protocol::ErrorObject>>,
}

impl ToolError {
    /// An error with a message for the model.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::ToolError;
    ///
    /// let error = ToolError::new("no book titled 'Dun'; did you mean 'Dune'?");
    /// assert_eq!(error.to_string(), "no book titled 'Dun'; did you mean 'Dune'?");
    /// ```
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            protocol: None,
        }
    }

    /// A failure that ends the call with the JSON-RPC error `error` instead of an `isError`
    /// result: the request is answered with that error, and a task ends `failed` with it in
    /// `tasks/get`. For protocol-level failures only (the model cannot act on them); a failure the
    /// model should read is [`ToolError::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::ToolError;
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let error = ToolError::protocol(ErrorObject::new(-32603, "the job's worker is gone"));
    /// assert_eq!(error.message(), "the job's worker is gone");
    /// assert_eq!(error.protocol_error().map(|e| e.code), Some(-32603));
    /// assert!(ToolError::new("out of stock").protocol_error().is_none());
    /// ```
    pub fn protocol(error: crate::protocol::ErrorObject) -> Self {
        Self {
            message: error.message.to_string(),
            protocol: Some(Box::new(error)),
        }
    }

    /// The JSON-RPC error of a [`ToolError::protocol`] failure.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::ToolError;
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let error = ToolError::protocol(ErrorObject::internal());
    /// assert_eq!(error.protocol_error().unwrap().code, -32603);
    /// ```
    pub fn protocol_error(&self) -> Option<&crate::protocol::ErrorObject> {
        self.protocol.as_deref()
    }

    /// The message.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::ToolError;
    ///
    /// assert_eq!(ToolError::new("out of stock").message(), "out of stock");
    /// ```
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
