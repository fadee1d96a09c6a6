//! `IntoResolution`: what a resolver's body may return, and what that becomes.

use super::question::Question;
use crate::error::ToolError;

/// What one run of a resolver's body produced.
///
/// # Examples
///
/// ```
/// use mcpwire::ToolError;
/// use mcpwire::resolve::Outcome;
///
/// fn lookup(title: &str) -> Outcome<u32> {
///     match title {
///         "Dune" => Outcome::Ready(7),
///         _ => Outcome::Failed(ToolError::new(format!("unknown title {title:?}"))),
///     }
/// }
/// assert!(matches!(lookup("Dune"), Outcome::Ready(7)));
/// assert!(matches!(lookup("Dun"), Outcome::Failed(e) if e.message() == r#"unknown title "Dun""#));
/// ```
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
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::resolve::Outcome;
    ///
    /// let copies: Outcome<u32> = Outcome::Ready(7);
    /// assert!(matches!(copies.map(|n| n > 0), Outcome::Ready(true)));
    /// ```
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
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::resolve::{IntoResolution, Outcome};
///
/// /// A lookup that may find nothing; consumers get the `u32`.
/// struct Found(Option<u32>);
///
/// impl IntoResolution for Found {
///     type Value = u32;
///     fn into_resolution(self) -> Outcome<u32> {
///         match self.0 {
///             Some(copies) => Outcome::Ready(copies),
///             None => Outcome::Failed(ToolError::new("no such book")),
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
    /// use mcpwire::resolve::{IntoResolution, Outcome};
    ///
    /// assert!(matches!(Ok::<u32, String>(3).into_resolution(), Outcome::Ready(3)));
    /// let failed = Err::<u32, _>("database down").into_resolution();
    /// assert!(matches!(failed, Outcome::Failed(e) if e.message() == "database down"));
    /// ```
    fn into_resolution(self) -> Outcome<Self::Value>;

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
