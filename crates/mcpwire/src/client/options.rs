//! Per-call options: a timeout, a progress callback (progress extends the timeout), the
//! call's own answerer of the server's questions, and its own log messages.

use super::question::{QuestionAnswerer, ServerQuestion};
use crate::protocol::progress::ProgressParams;
use crate::protocol::{ClientCapabilities, ErrorObject, LoggingLevel, LoggingMessageParams};
use serde_json::Value;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// A progress callback.
pub(crate) type ProgressCallback = Arc<dyn Fn(ProgressParams) + Send + Sync>;

/// A callback of a call's log messages.
pub(crate) type LogCallback = Arc<dyn Fn(LoggingMessageParams) + Send + Sync>;

/// Options for one call.
///
/// # Examples
///
/// ```
/// use mcpwire::client::CallOptions;
/// use std::time::Duration;
///
/// let options = CallOptions::new()
///     .timeout(Duration::from_secs(5))
///     .on_progress(|p| eprintln!("{}/{:?}", p.progress, p.total));
/// # drop(options);
/// ```
#[derive(Clone, Default)]
pub struct CallOptions {
    pub(crate) timeout: Option<Duration>,
    pub(crate) max_total: Option<Duration>,
    pub(crate) progress: Option<ProgressCallback>,
    pub(crate) questions: Option<QuestionAnswerer>,
    pub(crate) capabilities: Option<ClientCapabilities>,
    pub(crate) log: Option<LogCallback>,
    pub(crate) log_level: Option<LoggingLevel>,
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout", &self.timeout)
            .field("max_total", &self.max_total)
            .field("on_progress", &self.progress.is_some())
            .field("on_question", &self.questions.is_some())
            .field("capabilities", &self.capabilities)
            .field("on_log", &self.log.is_some())
            .field("log_level", &self.log_level)
            .finish()
    }
}

impl CallOptions {
    /// The defaults: the client's timeout, no progress callback.
    ///
    /// # Examples
    ///
    /// ```
    /// let options = mcpwire::client::CallOptions::new();
    /// # drop(options);
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// How long to wait without an answer or a progress notification (each progress
    /// notification starts the wait again).
    ///
    /// # Examples
    ///
    /// ```
    /// let options = mcpwire::client::CallOptions::new().timeout(std::time::Duration::from_secs(1));
    /// # drop(options);
    /// ```
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.timeout = Some(timeout);
        self
    }

    /// A ceiling on the whole wait, however much progress the server reports (default: none).
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Duration;
    ///
    /// let options = mcpwire::client::CallOptions::new()
    ///     .timeout(Duration::from_secs(10))
    ///     .max_total(Duration::from_secs(600));
    /// # drop(options);
    /// ```
    pub fn max_total(mut self, ceiling: Duration) -> Self {
        self.max_total = Some(ceiling);
        self
    }

    /// Called with every progress notification of the call.
    ///
    /// # Examples
    ///
    /// ```
    /// let options = mcpwire::client::CallOptions::new().on_progress(|p| println!("{}", p.progress));
    /// # drop(options);
    /// ```
    pub fn on_progress(
        mut self,
        callback: impl Fn(ProgressParams) + Send + Sync + 'static,
    ) -> Self {
        self.progress = Some(Arc::new(callback));
        self
    }

    /// Answers the questions the server asks during this call (elicitation, sampling, roots)
    /// instead of the client's handlers; what a gateway uses to pass them on to its own caller.
    ///
    /// On 2026-07-28 it answers every `inputRequests` entry of the call's `input_required`
    /// rounds. On 2025-11-25 a server's request names no call: over HTTP it is given to the call
    /// on whose event stream it came; otherwise (stdio, in memory, or on the session's own
    /// stream) to this answerer only while this is the one call with an answerer of its own in
    /// flight on the connection. A request the client cannot tie to a call (several such calls
    /// at once) is answered by the client's handlers.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::CallOptions;
    /// use mcpwire::protocol::ErrorObject;
    ///
    /// let options = CallOptions::new().on_question(|question| async move {
    ///     match question.method.as_str() {
    ///         "roots/list" => Ok(serde_json::json!({"roots": []})),
    ///         other => Err(ErrorObject::method_not_found(other)),
    ///     }
    /// });
    /// # drop(options);
    /// ```
    pub fn on_question<F, Fut>(mut self, answer: F) -> Self
    where
        F: Fn(ServerQuestion) -> Fut + Send + Sync + 'static,
        Fut: Future<Output = Result<Value, ErrorObject>> + Send + 'static,
    {
        self.questions = Some(Arc::new(move |question| Box::pin(answer(question))));
        self
    }

    /// 2026-07-28: the client capabilities this call declares in its `_meta`, instead of those
    /// of the client's handlers (a gateway declares its caller's). Ignored on 2025-11-25, where
    /// capabilities are declared once, at `initialize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::CallOptions;
    /// use mcpwire::protocol::ClientCapabilities;
    ///
    /// let capabilities = ClientCapabilities {
    ///     roots: Some(serde_json::json!({})),
    ///     ..ClientCapabilities::default()
    /// };
    /// let options = CallOptions::new().capabilities(capabilities);
    /// # drop(options);
    /// ```
    pub fn capabilities(mut self, capabilities: ClientCapabilities) -> Self {
        self.capabilities = Some(capabilities);
        self
    }

    /// Called with the server's log messages (`notifications/message`) of this call, instead of
    /// their going to [`Client::notifications`](super::Client::notifications); what a gateway
    /// uses to pass a backend's log messages on to its own caller.
    ///
    /// A log message names no call. Over HTTP it is this call's when it came on the call's own
    /// event stream; otherwise (stdio, in memory, or on a 2025-11-25 session's own stream) while
    /// this is the one call with a log callback of its own in flight on the connection. One
    /// the client cannot tie to a call goes to `Client::notifications`.
    ///
    /// # Examples
    ///
    /// ```
    /// let options = mcpwire::client::CallOptions::new()
    ///     .on_log(|message| eprintln!("{:?}: {}", message.level, message.data));
    /// # drop(options);
    /// ```
    pub fn on_log(
        mut self,
        callback: impl Fn(LoggingMessageParams) + Send + Sync + 'static,
    ) -> Self {
        self.log = Some(Arc::new(callback));
        self
    }

    /// 2026-07-28: the lowest level of log messages this call asks for (its `_meta`
    /// `io.modelcontextprotocol/logLevel`), instead of the client's
    /// ([`Client::set_logging_level`](super::Client::set_logging_level)). Ignored on
    /// 2025-11-25, where the level is the session's (`logging/setLevel`).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::protocol::LoggingLevel;
    ///
    /// let options = mcpwire::client::CallOptions::new().log_level(LoggingLevel::Info);
    /// # drop(options);
    /// ```
    pub fn log_level(mut self, level: LoggingLevel) -> Self {
        self.log_level = Some(level);
        self
    }
}
