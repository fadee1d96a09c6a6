//! `IntoResolution`: what a resolver's body may return, and what that becomes.

use super::question::Question;
use crate::error::ToolError;

/// What one run of a resolver's body produced.
pub enum Outcome<V> {
    /// A value for the consumers.
    Ready(V),
    /// A failure: the call ends with an `isError` result.
    Failed(ToolError),
    /// A question for the client (the user, its LLM, its roots); the answer becomes the value.
    Ask(Question),
}

impl<V> Outcome<V> {
    /// Converts the value, keeping failures and questions.
    pub fn map<W>(self, f: impl FnOnce(V) -> W) -> Outcome<W> {
        match self {
            Outcome::Ready(value) => Outcome::Ready(f(value)),
            Outcome::Failed(error) => Outcome::Failed(error),
            Outcome::Ask(question) => Outcome::Ask(question),
        }
    }
}

/// A resolver's return value turned into its outcome. Implemented for `Result<T, E>` (an `Err`
/// fails the call with `E`'s message), for the question kinds (`Elicit`, `ElicitUrl`, `Sample`,
/// `ListRoots`) and, through `#[resolver]`, for any plain value.
pub trait IntoResolution: Send + 'static {
    /// The value consumers receive.
    type Value: Send + Sync + 'static;

    /// The outcome.
    fn into_resolution(self) -> Outcome<Self::Value>;

    /// Checked once, when a tool using the resolver is registered (e.g. an elicitation form
    /// must render as a flat schema). The error says what is wrong.
    fn prepare() -> Result<(), String> {
        Ok(())
    }
}

/// A plain value returned by a resolver: always a success.
#[doc(hidden)]
pub struct Ready<T>(pub T);

impl<T: Send + Sync + 'static> IntoResolution for Ready<T> {
    type Value = T;

    fn into_resolution(self) -> Outcome<T> {
        Outcome::Ready(self.0)
    }
}

impl<T, E> IntoResolution for Result<T, E>
where
    T: Send + Sync + 'static,
    E: std::fmt::Display + Send + 'static,
{
    type Value = T;

    fn into_resolution(self) -> Outcome<T> {
        match self {
            Ok(value) => Outcome::Ready(value),
            Err(error) => Outcome::Failed(ToolError::new(error.to_string())),
        }
    }
}
