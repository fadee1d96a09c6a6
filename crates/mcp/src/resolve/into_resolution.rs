//! `IntoResolution`: what a resolver's body may return.

use crate::error::ToolError;

/// A resolver's return value turned into its outcome. Implemented for `Result<T, E>` (an `Err`
/// fails the call with `E`'s message) and, through `#[resolver]`, for any plain value.
pub trait IntoResolution: Send + 'static {
    /// The value consumers receive.
    type Value: Send + Sync + 'static;

    /// The outcome.
    fn into_resolution(self) -> Result<Self::Value, ToolError>;
}

/// A plain value returned by a resolver: always a success.
#[doc(hidden)]
pub struct Ready<T>(pub T);

impl<T: Send + Sync + 'static> IntoResolution for Ready<T> {
    type Value = T;

    fn into_resolution(self) -> Result<T, ToolError> {
        Ok(self.0)
    }
}

impl<T, E> IntoResolution for Result<T, E>
where
    T: Send + Sync + 'static,
    E: std::fmt::Display + Send + 'static,
{
    type Value = T;

    fn into_resolution(self) -> Result<T, ToolError> {
        self.map_err(|e| ToolError::new(e.to_string()))
    }
}
