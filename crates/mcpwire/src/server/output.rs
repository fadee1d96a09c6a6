//! What a tool may return, and how it becomes a `CallToolResult` (or, for structured output,
//! its JSON: [`ToolOutput`]).
//!
//! Text-like values (strings, content blocks, a `CallToolResult`) become `content`. Any other
//! `Serialize + JsonSchema` value becomes `structuredContent` (wrapped as `{"result": …}` when its
//! schema's root is not an object), with an `outputSchema` and a text copy. `Result<T, E>` turns
//! `Err(e)` into an `isError` result with `e`'s message. `#[tool]` picks the conversion from the
//! declared return type, at compile time.

use super::handler::HandlerCall;
use crate::error::ToolError;
use crate::protocol::content::Content;
use crate::protocol::tools::CallToolResult;
use crate::server::tool_output::ToolOutput;
use schemars::JsonSchema;
use serde::Serialize;
use std::fmt::Display;
use std::marker::PhantomData;

/// A return value that is content for the model, not structured output.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::server::IntoCallToolResult;
///
/// /// Content blocks are returned as they are.
/// #[tool]
/// async fn logo() -> Vec<Content> {
///     vec![Content::text("Our logo:"), Content::image("iVBORw0KGgo=", "image/png")]
/// }
///
/// let result = "Reserved.".into_call_tool_result().unwrap();
/// assert_eq!(result, CallToolResult::text("Reserved."));
/// let failed: Result<String, std::io::Error> = Err(std::io::Error::other("disk full"));
/// assert_eq!(failed.into_call_tool_result().unwrap_err().message(), "disk full");
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be returned from a tool",
    label = "not a tool result",
    note = "implement `mcpwire::server::IntoCallToolResult` for content (text, images, a `CallToolResult`), or derive `serde::Serialize` and `schemars::JsonSchema` for structured output",
    note = "a tool may also return `Result<T, E>` of those, with `E: Display`"
)]
pub trait IntoCallToolResult {
    /// The result (or the tool's failure).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::{CallToolResult, Content};
    /// use mcpwire::server::IntoCallToolResult;
    ///
    /// let block = Content::text("3 copies left");
    /// assert_eq!(block.clone().into_call_tool_result().unwrap().content, vec![block]);
    /// assert_eq!(().into_call_tool_result().unwrap(), CallToolResult::default());
    /// ```
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError>;
}

impl IntoCallToolResult for CallToolResult {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(self)
    }
}

impl IntoCallToolResult for String {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoCallToolResult for &'static str {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::text(self))
    }
}

impl IntoCallToolResult for Content {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult {
            content: vec![self],
            ..CallToolResult::default()
        })
    }
}

impl IntoCallToolResult for Vec<Content> {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult {
            content: self,
            ..CallToolResult::default()
        })
    }
}

impl IntoCallToolResult for () {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        Ok(CallToolResult::default())
    }
}

impl<T: IntoCallToolResult, E: Display + 'static> IntoCallToolResult for Result<T, E> {
    fn into_call_tool_result(self) -> Result<CallToolResult, ToolError> {
        self.map_err(tool_error)?.into_call_tool_result()
    }
}

/// `error` as a `ToolError`: itself when it is one (a [`ToolError::protocol`] stays one), its
/// text otherwise.
fn tool_error<E: Display + 'static>(error: E) -> ToolError {
    match (&error as &dyn std::any::Any).downcast_ref::<ToolError>() {
        Some(error) => error.clone(),
        None => ToolError::new(error.to_string()),
    }
}

/// Whether a tool has structured output, decided once at registration.
#[derive(Clone, Debug)]
pub enum OutputShape {
    /// Content only; no `outputSchema`.
    Content,
    /// Structured output with this schema (before any `{"result": …}` wrapping).
    Structured(schemars::Schema),
}

/// Compile-time dispatch on a tool's return type (see the module docs). Used by `#[tool]`,
/// through `&&&&`: content first ([`ViaContent`]), then a structured `Result`, then a structured
/// value, and last [`ViaUnsupported`], whose bound names what to implement.
#[doc(hidden)]
pub struct Probe<T>(PhantomData<fn() -> T>);

impl<T> Probe<T> {
    #[doc(hidden)]
    pub const fn new() -> Self {
        Probe(PhantomData)
    }
}

impl<T> Default for Probe<T> {
    fn default() -> Self {
        Self::new()
    }
}

#[doc(hidden)]
pub trait ViaContent {
    type Value;
    fn output_shape(&self) -> OutputShape;
    fn tool_result(&self, value: Self::Value, call: &HandlerCall) -> ToolOutput;
}

impl<T: IntoCallToolResult> ViaContent for &&&Probe<T> {
    type Value = T;
    fn output_shape(&self) -> OutputShape {
        OutputShape::Content
    }
    fn tool_result(&self, value: T, call: &HandlerCall) -> ToolOutput {
        value
            .into_call_tool_result()
            .unwrap_or_else(|error| call.failed(error))
            .into()
    }
}

#[doc(hidden)]
pub trait ViaStructuredResult {
    type Value;
    fn output_shape(&self) -> OutputShape;
    fn tool_result(&self, value: Self::Value, call: &HandlerCall) -> ToolOutput;
}

impl<T: Serialize + JsonSchema, E: Display + 'static> ViaStructuredResult
    for &&Probe<Result<T, E>>
{
    type Value = Result<T, E>;
    fn output_shape(&self) -> OutputShape {
        OutputShape::Structured(crate::schema::schema_for::<T>())
    }
    fn tool_result(&self, value: Result<T, E>, call: &HandlerCall) -> ToolOutput {
        match value {
            Ok(value) => structured(&value, call),
            Err(error) => call.failed(tool_error(error)).into(),
        }
    }
}

#[doc(hidden)]
pub trait ViaStructured {
    type Value;
    fn output_shape(&self) -> OutputShape;
    fn tool_result(&self, value: Self::Value, call: &HandlerCall) -> ToolOutput;
}

impl<T: Serialize + JsonSchema> ViaStructured for &Probe<T> {
    type Value = T;
    fn output_shape(&self) -> OutputShape {
        OutputShape::Structured(crate::schema::schema_for::<T>())
    }
    fn tool_result(&self, value: T, call: &HandlerCall) -> ToolOutput {
        structured(&value, call)
    }
}

/// The last resort of the dispatch, for a type none of the others take: its methods require
/// `T: IntoCallToolResult`, so the compiler's error names that trait (and its hint) at the
/// tool's return type, rather than listing the dispatch's traits.
#[doc(hidden)]
pub trait ViaUnsupported<T> {
    /// Content: the call is refused at compile time anyway (by [`ViaUnsupported::tool_result`],
    /// whose error is enough).
    fn output_shape(&self) -> OutputShape;
    fn tool_result(&self, value: T, call: &HandlerCall) -> ToolOutput
    where
        T: IntoCallToolResult;
}

impl<T> ViaUnsupported<T> for Probe<T> {
    fn output_shape(&self) -> OutputShape {
        OutputShape::Content
    }
    fn tool_result(&self, value: T, call: &HandlerCall) -> ToolOutput
    where
        T: IntoCallToolResult,
    {
        <&&&Probe<T> as ViaContent>::tool_result(&&&self, value, call)
    }
}

fn structured<T: Serialize>(value: &T, call: &HandlerCall) -> ToolOutput {
    // Through a `Value`, whose maps keep their keys sorted: what a result built as a
    // `CallToolResult` carries, and what clients saw before it was written directly.
    match serde_json::to_value(value) {
        Ok(value) => ToolOutput::structured(value, call.wraps_output()),
        Err(error) => {
            tracing::error!(%error, "structured tool output failed to serialize");
            call.failed(ToolError::new("the tool's output could not be serialized"))
                .into()
        }
    }
}
