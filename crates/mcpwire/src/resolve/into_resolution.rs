//! `IntoResolution`: what a resolver's body may return, and what that becomes.

use super::question::Question;
use crate::error::ToolError;

/// What one run of a resolver's body produced.
///
/// # Examples
///
/// ```
/// use mcpwire::ToolError;
/// use mcpwire::resolve::Resolution;
///
/// fn lookup(title: &str) -> Resolution<u32> {
///     match title {
///         "Dune" => Resolution::Ready(7),
///         _ => Resolution::Failed(ToolError::new(format!("unknown title {title:?}"))),
///     }
/// }
/// assert!(matches!(lookup("Dune"), Resolution::Ready(7)));
/// assert!(matches!(lookup("Dun"), Resolution::Failed(e) if e.message() == r#"unknown title "Dun""#));
/// ```
pub enum Resolution<V> {
    /// A value for the consumers.
    Ready(V),
    /// A failure: the call ends with an `isError` result.
    Failed(ToolError),
    /// A question for the client (the user, its LLM, its roots); the answer becomes the value.
    Ask(Question),
}

/// The former name of [`Resolution`] (one `Outcome` is left: how a request ended, as
/// [`layer::Outcome`](crate::layer::Outcome) tells a layer).
#[deprecated(since = "0.1.0", note = "renamed to `Resolution`")]
pub type Outcome<V> = Resolution<V>;

impl<V> Resolution<V> {
    /// Converts the value, keeping failures and questions.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::resolve::Resolution;
    ///
    /// let copies: Resolution<u32> = Resolution::Ready(7);
    /// assert!(matches!(copies.map(|n| n > 0), Resolution::Ready(true)));
    /// ```
    pub fn map<W>(self, f: impl FnOnce(V) -> W) -> Resolution<W> {
        match self {
            Resolution::Ready(value) => Resolution::Ready(f(value)),
            Resolution::Failed(error) => Resolution::Failed(error),
            Resolution::Ask(question) => Resolution::Ask(question),
        }
    }
}

/// A resolver's return value turned into its outcome. Implemented for `Result<T, E>` (an `Err`
/// fails the call with `E`'s message), for the question kinds (`Elicit`, `ElicitUrl`, `Sample`,
/// `ListRoots`) and, through `#[resolver]`, for any plain value.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::resolve::{IntoResolution, Resolution};
///
/// /// A lookup that may find nothing; consumers get the `u32`.
/// struct Found(Option<u32>);
///
/// impl IntoResolution for Found {
///     type Value = u32;
///     fn into_resolution(self) -> Resolution<u32> {
///         match self.0 {
///             Some(copies) => Resolution::Ready(copies),
///             None => Resolution::Failed(ToolError::new("no such book")),
///         }
///     }
/// }
///
/// #[resolver]
/// async fn copies(title: String) -> Found { Found((title == "Dune").then_some(7)) }
///
/// /// Reserves a book.
/// #[tool]
/// async fn reserve(title: String, #[resolve(copies)] copies: u32) -> String {
///     format!("{title}: {copies} left")
/// }
///
/// assert!(McpServer::new("shop").tool(reserve).is_ok());
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not something a resolver can resolve to",
    note = "a resolver returns a value, a `Result<T, E>`, or a question (`Elicit`, `ElicitUrl`, `Sample`, `ListRoots`); implement `mcpwire::resolve::IntoResolution` for your own kind"
)]
pub trait IntoResolution: Send + 'static {
    /// The value consumers receive.
    type Value: Send + Sync + 'static;

    /// The outcome.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::resolve::{IntoResolution, Resolution};
    ///
    /// assert!(matches!(Ok::<u32, String>(3).into_resolution(), Resolution::Ready(3)));
    /// let failed = Err::<u32, _>("database down").into_resolution();
    /// assert!(matches!(failed, Resolution::Failed(e) if e.message() == "database down"));
    /// ```
    fn into_resolution(self) -> Resolution<Self::Value>;

    /// Checked once, when a tool using the resolver is registered (e.g. an elicitation form
    /// must render as a flat schema). The error says what is wrong.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::resolve::IntoResolution;
    ///
    /// #[derive(Clone, Deserialize, JsonSchema)]
    /// struct Confirm { ok: bool }
    ///
    /// assert!(<Elicit<Confirm> as IntoResolution>::prepare().is_ok());
    /// // A form must be a flat object: a list is refused when the tool is registered.
    /// assert!(<Elicit<Vec<String>> as IntoResolution>::prepare().is_err());
    /// ```
    fn prepare() -> Result<(), String> {
        Ok(())
    }
}

/// A plain value returned by a resolver: always a success.
#[doc(hidden)]
pub struct Ready<T>(pub T);

impl<T: Send + Sync + 'static> IntoResolution for Ready<T> {
    type Value = T;

    fn into_resolution(self) -> Resolution<T> {
        Resolution::Ready(self.0)
    }
}

impl<T, E> IntoResolution for Result<T, E>
where
    T: Send + Sync + 'static,
    E: std::fmt::Display + Send + 'static,
{
    type Value = T;

    fn into_resolution(self) -> Resolution<T> {
        match self {
            Ok(value) => Resolution::Ready(value),
            Err(error) => Resolution::Failed(ToolError::new(error.to_string())),
        }
    }
}
