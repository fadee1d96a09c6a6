//! `FromRequest`: a parameter filled from the request itself — a tool argument the client
//! sends, or the request's [`Context`].

use crate::context::Context;
use crate::schema::INJECTED_KEYWORD;
use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::de::{DeserializeOwned, Deserializer, IgnoredAny, Visitor};
use std::borrow::Cow;

/// A parameter of a `#[tool]`, `#[prompt]`, `#[resource]` or `#[resolver]` function that is
/// not `#[resolve(..)]`d: either a **tool argument** (any type that is `Deserialize` and
/// `JsonSchema`; it appears in the input schema and the client supplies it) or the request's
/// [`Context`] (injected, never in the schema; a value the client sends under its name is
/// dropped).
///
/// Parameters are classified by this trait, not by how their type is spelled, so an alias
/// works:
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::Context as Ctx;
///
/// /// Says which protocol revision the call came in on.
/// #[tool]
/// async fn revision(ctx: Ctx) -> String {
///     ctx.protocol_version().to_owned()
/// }
///
/// let server = McpServer::new("demo").tool(revision)?;
/// # drop(server);
/// # Ok::<(), mcpwire::InvalidSignature>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be a tool argument or the request's `Context`",
    label = "neither a tool argument nor `mcpwire::Context`",
    note = "a tool argument's type must implement `serde::Deserialize` and `schemars::JsonSchema` (derive both)",
    note = "a value your own function computes is a parameter marked `#[resolve(function)]`"
)]
pub trait FromRequest: sealed::Sealed + Sized + Send + 'static {
    /// What the parsed arguments hold for this parameter.
    #[doc(hidden)]
    type Field: DeserializeOwned + JsonSchema + Send + Sync + 'static;

    /// Whether the server fills it (true for `Context`), rather than the client.
    #[doc(hidden)]
    const INJECTED: bool;

    /// The parameter's value, from its parsed field or the request's context.
    #[doc(hidden)]
    fn from_request(field: Self::Field, context: &dyn Fn() -> Context) -> Self;

    /// The parameter's value when the plan binds it to the context (`Some` for `Context`).
    #[doc(hidden)]
    fn from_context(context: Context) -> Option<Self>;
}

/// Only the SDK implements [`FromRequest`]: a parameter is a tool argument (any type that
/// deserializes and has a schema) or the `Context`, nothing else.
mod sealed {
    pub trait Sealed {}
}

impl<T: DeserializeOwned + JsonSchema + Send + Sync + 'static> sealed::Sealed for T {}
impl sealed::Sealed for Context {}

/// Not recommended in errors: a type that is neither an argument nor the context is reported
/// by the trait's own message, not by the first bound of this impl it misses.
#[diagnostic::do_not_recommend]
impl<T: DeserializeOwned + JsonSchema + Send + Sync + 'static> FromRequest for T {
    type Field = T;
    const INJECTED: bool = false;

    fn from_request(field: T, _context: &dyn Fn() -> Context) -> T {
        field
    }

    fn from_context(_context: Context) -> Option<T> {
        None
    }
}

impl FromRequest for Context {
    type Field = Injected;
    const INJECTED: bool = true;

    fn from_request(_field: Injected, context: &dyn Fn() -> Context) -> Context {
        context()
    }

    fn from_context(context: Context) -> Option<Context> {
        Some(context)
    }
}

/// The parsed-arguments slot of an injected parameter: accepts anything (or nothing) and keeps
/// none of it; its schema is marked so listings leave it out.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Injected;

impl<'de> serde::Deserialize<'de> for Injected {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Dropped;
        impl<'de> Visitor<'de> for Dropped {
            type Value = Injected;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("any value (it is dropped)")
            }
            fn visit_none<E>(self) -> Result<Injected, E> {
                Ok(Injected)
            }
            fn visit_unit<E>(self) -> Result<Injected, E> {
                Ok(Injected)
            }
            fn visit_some<D: Deserializer<'de>>(self, value: D) -> Result<Injected, D::Error> {
                IgnoredAny::deserialize(value).map(|_| Injected)
            }
        }
        use serde::Deserialize as _;
        // `deserialize_option` is what a missing field is read with, so the slot is optional.
        deserializer.deserialize_option(Dropped)
    }
}

impl JsonSchema for Injected {
    fn schema_name() -> Cow<'static, str> {
        Cow::Borrowed("Injected")
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let mut marker = serde_json::Map::new();
        marker.insert(INJECTED_KEYWORD.to_owned(), serde_json::Value::Bool(true));
        Schema::from(marker)
    }
}
