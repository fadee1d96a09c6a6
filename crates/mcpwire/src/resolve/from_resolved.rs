//! `FromResolved`: which parameter types may consume which resolver outputs.

use crate::error::ToolError;

/// A parameter type that can be filled from a resolver's output `O`.
///
/// Every `T: Clone` consumes a resolver whose output is `T`. Question kinds add their own
/// consumers (e.g. the model `M` of an elicitation, or the whole outcome).
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::resolve::{FromResolved, UrlConsent};
///
/// /// Whether the user agreed: a parameter type that consumes a URL elicitation.
/// #[derive(Clone, Debug, PartialEq)]
/// struct Agreed(bool);
///
/// impl FromResolved<UrlConsent> for Agreed {
///     fn from_resolved(output: &UrlConsent, _param: &'static str) -> Result<Self, ToolError> {
///         Ok(Agreed(matches!(output, UrlConsent::Accepted | UrlConsent::NotNeeded)))
///     }
/// }
///
/// assert_eq!(Agreed::from_resolved(&UrlConsent::Declined, "agreed").unwrap(), Agreed(false));
/// ```
#[diagnostic::on_unimplemented(
    message = "a resolver whose output is `{O}` cannot fill a parameter of type `{Self}`",
    label = "this parameter's type does not match the resolver's output",
    note = "change the parameter to the resolver's output type `{O}` (or the resolver's return type)",
    note = "a resolver returning `Result<T, E>` outputs `T`"
)]
pub trait FromResolved<O>: Sized {
    /// Builds the parameter's value; `param` names the consuming parameter for error messages.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::resolve::FromResolved;
    ///
    /// #[derive(Clone, Debug, Deserialize, JsonSchema)]
    /// struct Confirm { ok: bool }
    ///
    /// assert_eq!(u32::from_resolved(&7, "copies").unwrap(), 7);
    /// let refused = Confirm::from_resolved(&ElicitationResult::Decline, "confirm").unwrap_err();
    /// assert_eq!(
    ///     refused.message(),
    ///     "Resolver for parameter 'confirm' could not resolve: elicitation was decline"
    /// );
    /// ```
    fn from_resolved(output: &O, param: &'static str) -> Result<Self, ToolError>;

    /// Whether `output` already fails this parameter, checked as soon as the output exists
    /// (e.g. a declined elicitation consumed as its model): the call then fails in that round,
    /// asking no further question. `None` by default.
    fn refuses(output: &O, param: &'static str) -> Option<ToolError> {
        let _ = (output, param);
        None
    }
}

/// A check of a resolver's output against one consuming parameter ([`FromResolved::refuses`]).
#[doc(hidden)]
pub type ConsumerCheck = fn(&(dyn std::any::Any + Send + Sync), &'static str) -> Option<ToolError>;

/// The [`ConsumerCheck`] of a parameter of type `P` fed by a resolver whose output is `O` (the
/// witness names `O`, see `return_probe`).
#[doc(hidden)]
pub fn consumer_check<O: 'static, P: FromResolved<O>>(
    _output: std::marker::PhantomData<O>,
) -> ConsumerCheck {
    |value, param| {
        value
            .downcast_ref::<O>()
            .and_then(|output| P::refuses(output, param))
    }
}

impl<T: Clone> FromResolved<T> for T {
    fn from_resolved(output: &T, _param: &'static str) -> Result<Self, ToolError> {
        Ok(output.clone())
    }
}
