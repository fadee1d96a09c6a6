//! How a resolver's return type is classified, by trait: a type that implements
//! [`IntoResolution`] (`Result<T, E>` under any alias, `Elicit`, `ElicitUrl`, `Sample`,
//! `ListRoots`) resolves itself; any other type is a plain value. The `#[resolver]` macro
//! picks between the two with method resolution (autoref), never by the type's name.

use super::into_resolution::{IntoResolution, Ready, Resolution};
use super::resolved_value::ResolvedValue;
use std::any::TypeId;
use std::marker::PhantomData;

/// A zero-sized stand-in for a resolver's return type `R`; call its methods through `&&`.
#[doc(hidden)]
pub struct ReturnProbe<R>(PhantomData<fn() -> R>);

impl<R> ReturnProbe<R> {
    /// The probe.
    pub const fn new() -> Self {
        Self(PhantomData)
    }
}

impl<R> Default for ReturnProbe<R> {
    fn default() -> Self {
        Self::new()
    }
}

/// How a return type that resolves itself is taken (see the module docs).
#[doc(hidden)]
pub trait ViaIntoResolution {
    /// The return type as written.
    type Return;
    /// What the consumers receive.
    type Value: Send + Sync + 'static;
    /// A value whose type says what consumers receive.
    fn witness(&self) -> PhantomData<Self::Value> {
        PhantomData
    }
    /// The `TypeId` of what consumers receive.
    fn value_type_id(&self) -> TypeId {
        TypeId::of::<Self::Value>()
    }
    /// The name of what consumers receive, for error messages.
    fn value_type_name(&self) -> &'static str {
        std::any::type_name::<Self::Value>()
    }
    /// The outcome of one run that returned `value`, its value shared with the consumers.
    fn outcome(&self, value: Self::Return) -> Resolution<ResolvedValue>;
    /// The registration-time check of what the resolver may ask.
    fn prepare(&self) -> fn() -> Result<(), String>;
}

impl<R: IntoResolution> ViaIntoResolution for &ReturnProbe<R> {
    type Return = R;
    type Value = R::Value;

    fn outcome(&self, value: R) -> Resolution<ResolvedValue> {
        value.into_resolution().map(shared)
    }

    fn prepare(&self) -> fn() -> Result<(), String> {
        R::prepare
    }
}

/// What a resolver may return as a plain value: every consumer of the resolver receives the one
/// value it computed, from any thread, so it must be `Send + Sync + 'static`. Every such type is
/// one, and no other can be; the trait exists to name the rule when a resolver breaks it.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::resolve::ResolverValue;
/// use std::sync::Arc;
///
/// /// An `Arc` is shared as it is (an `Rc` would be refused at compile time).
/// #[resolver]
/// async fn shelf(title: String) -> Arc<String> {
///     Arc::new(format!("shelf of {title}"))
/// }
///
/// fn shareable<T: ResolverValue>() {}
/// shareable::<Arc<String>>();
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be the value of a resolver",
    label = "not shareable between the resolver's consumers",
    note = "a resolver's value is shared by all its consumers, across threads: it must be `Send + Sync + 'static` (an `Arc`, not an `Rc`; a `Mutex`, not a `RefCell`)",
    note = "a type implementing `mcpwire::resolve::IntoResolution` (a `Result`, a question) resolves to its own value instead"
)]
pub trait ResolverValue: Send + Sync + 'static {}

/// Not recommended in errors, so that the trait's own message is shown.
#[diagnostic::do_not_recommend]
impl<T: Send + Sync + 'static> ResolverValue for T {}

/// How any other return type is taken: as the value itself. Tried last; its `outcome` requires
/// [`ResolverValue`], so a type that cannot be shared is reported once, by that trait's message,
/// at the resolver's return type.
#[doc(hidden)]
pub trait ViaPlainValue<R> {
    /// A value whose type says what consumers receive.
    fn witness(&self) -> PhantomData<R> {
        PhantomData
    }
    /// The `TypeId` of what consumers receive.
    fn value_type_id(&self) -> TypeId
    where
        R: 'static,
    {
        TypeId::of::<R>()
    }
    /// The name of what consumers receive, for error messages.
    fn value_type_name(&self) -> &'static str {
        std::any::type_name::<R>()
    }
    /// The outcome of one run that returned `value`, shared with the consumers.
    fn outcome(&self, value: R) -> Resolution<ResolvedValue>
    where
        R: ResolverValue,
    {
        Ready(value).into_resolution().map(shared)
    }
    /// The registration-time check of what the resolver may ask: a plain value asks nothing.
    fn prepare(&self) -> fn() -> Result<(), String> {
        asks_nothing
    }
}

fn asks_nothing() -> Result<(), String> {
    Ok(())
}

/// `value`, as its consumers receive it.
fn shared<T: ResolverValue>(value: T) -> ResolvedValue {
    std::sync::Arc::new(value)
}

impl<R> ViaPlainValue<R> for ReturnProbe<R> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ToolError;

    type Fallible<T> = Result<T, ToolError>;

    #[test]
    fn a_result_under_an_alias_resolves_itself_and_a_plain_value_is_ready() {
        let fallible = (&&ReturnProbe::<Fallible<u32>>::new()).value_type_id();
        assert_eq!(fallible, TypeId::of::<u32>());
        #[allow(clippy::needless_borrow)] // the borrows are what the macro writes
        let plain = (&&ReturnProbe::<String>::new()).value_type_id();
        assert_eq!(plain, TypeId::of::<String>());
        let failed = (&&ReturnProbe::<Fallible<u32>>::new()).outcome(Err(ToolError::new("no")));
        assert!(matches!(failed, Resolution::Failed(_)));
    }
}
