//! Per-call options: a timeout, and a progress callback (progress extends the timeout).

use crate::protocol::progress::ProgressParams;
use std::sync::Arc;
use std::time::Duration;

/// A progress callback.
pub(crate) type ProgressCallback = Arc<dyn Fn(ProgressParams) + Send + Sync>;

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
}

impl std::fmt::Debug for CallOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CallOptions")
            .field("timeout", &self.timeout)
            .field("max_total", &self.max_total)
            .field("on_progress", &self.progress.is_some())
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
}
