//! What a tool or resolver declares about its parameters ([`ParamSpec`]) and what the engine
//! knows about one resolver ([`ResolverDefinition`]), as the macros generate them.

use super::from_request::FromRequest;
use super::inputs::ResolverInputs;
use super::into_resolution::Resolution;
use super::resolved_value::ResolvedValue;
use std::any::TypeId;
use std::future::Future;
use std::pin::Pin;

/// What running a resolver's body produced.
#[doc(hidden)]
pub type ResolverOutcome = Resolution<ResolvedValue>;

/// The future a resolver's body runs as.
#[doc(hidden)]
pub type ResolverFuture = Pin<Box<dyn Future<Output = ResolverOutcome> + Send>>;

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

/// How the engine sees a parameter filled from the request: the context, or an argument named
/// `name` of type `T`.
#[doc(hidden)]
pub const fn request_param_spec<T: FromRequest>(
    name: &'static str,
    type_name: &'static str,
) -> ParamSpec {
    if T::INJECTED {
        ParamSpec::Context
    } else {
        ParamSpec::Argument {
            name,
            type_id: TypeId::of::<T>,
            type_name,
        }
    }
}
