//! The `Resolver` trait that `#[resolver]` implements, and what a resolver declares about itself.

use super::inputs::ResolverInputs;
use super::into_resolution::Outcome;
use std::any::{Any, TypeId};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

/// A value computed by a resolver, shared by all its consumers within one round.
#[doc(hidden)]
pub type ResolvedValue = Arc<dyn Any + Send + Sync>;

/// What running a resolver's body produced.
#[doc(hidden)]
pub type ResolverOutcome = Outcome<ResolvedValue>;

/// The future a resolver's body runs as.
#[doc(hidden)]
pub type ResolverFuture = Pin<Box<dyn Future<Output = ResolverOutcome> + Send>>;

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

/// Where one parameter of a tool or resolver gets its value.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum ParamSpec {
    /// The request's [`Context`](crate::Context).
    Context,
    /// A tool argument. On a tool: a visible argument, in the input schema. On a resolver: the
    /// tool argument of the same name, which must have the same type.
    Argument {
        /// The parameter's (wire) name.
        name: &'static str,
        /// The Rust type, checked against the tool's argument at registration.
        type_id: fn() -> TypeId,
        /// The Rust type's name, for error messages.
        type_name: &'static str,
    },
    /// The value of another resolver.
    Resolved {
        /// The parameter's name, used in error messages.
        name: &'static str,
        /// The resolver that fills it.
        resolver: fn() -> ResolverDefinition,
    },
}

/// Everything the engine knows about one resolver.
#[doc(hidden)]
#[derive(Clone, Copy)]
pub struct ResolverDefinition {
    /// Identity: the resolver's own type (a resolver runs at most once per round, however many
    /// parameters consume it).
    pub id: fn() -> TypeId,
    /// The function's name, for error messages.
    pub name: &'static str,
    /// A stable key (`module::path::name`), the same in every process that runs this code.
    pub key: &'static str,
    /// Where each parameter comes from, in declaration order.
    pub params: &'static [ParamSpec],
    /// The type consumers receive, so an override can be checked against the original.
    pub output_type: fn() -> TypeId,
    /// That type's name, for error messages.
    pub output_type_name: fn() -> &'static str,
    /// Runs the body with its inputs gathered.
    pub run: fn(ResolverInputs<'_>) -> ResolverFuture,
    /// Checks, at registration, what the resolver may ask (e.g. that its form renders).
    pub prepare: fn() -> Result<(), String>,
}

impl std::fmt::Debug for ResolverDefinition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ResolverDefinition")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}
