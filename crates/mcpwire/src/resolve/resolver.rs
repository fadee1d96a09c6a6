//! The `Resolver` trait that `#[resolver]` implements.

use super::param_spec::ResolverDefinition;

/// A function that fills a tool parameter before the tool runs. Implemented by `#[resolver]`;
/// consumed with `#[resolve(path::to::resolver)]` on a tool or resolver parameter.
///
/// ```
/// use mcpwire::prelude::*;
///
/// #[resolver]
/// async fn price(title: String) -> u32 {
///     if title == "Dune" { 12 } else { 9 }
/// }
///
/// /// Quotes a book's price.
/// #[tool]
/// async fn quote(title: String, #[resolve(price)] price: u32) -> String {
///     format!("{title}: {price} EUR")
/// }
///
/// let server = McpServer::new("shop").tool(quote).unwrap();
/// # drop(server);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a resolver",
    label = "not a resolver",
    note = "annotate the function with `#[mcpwire::resolver]` to use it in `#[resolve(..)]`"
)]
pub trait Resolver: Send + Sync + 'static {
    /// The function's return type as written. What consumers receive follows from it by trait:
    /// a type that implements [`IntoResolution`](super::IntoResolution) (`Result<T, E>` under
    /// any alias, and the question kinds) gives its `Value` (`T` for a `Result`); any other type
    /// is given as it is.
    type Returns;

    /// The resolver's name, parameters and body, read once at registration.
    #[doc(hidden)]
    fn definition() -> ResolverDefinition;
}
