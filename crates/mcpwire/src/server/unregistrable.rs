//! What makes a wrong value passed to `McpServer::tool` (`prompt`, `resource`) read well.
//!
//! `IntoTool<Kind>` has, besides the implementations that register, one that every value
//! matches (kind [`Unregistrable`]) and none satisfies ([`Never`] has no implementation). A
//! registration method leaves `Kind` to inference, so the compiler weighs every candidate: for
//! a `#[tool]` function one remains; for a plain function none does, and the error is the
//! trait's own (`` `plain` is not a tool ``, with the hint to add `#[tool]`) rather than a
//! mismatch with the generated function's signature.

/// The kind of the implementation that matches every value and applies to none.
#[doc(hidden)]
#[derive(Debug)]
pub enum Unregistrable {}

/// Implemented by no type.
#[doc(hidden)]
pub trait Never {
    /// Cannot be called: there is no value of a type implementing `Never`.
    fn never(&self) -> !;
}
