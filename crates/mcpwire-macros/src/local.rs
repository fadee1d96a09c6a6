//! The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, …).
//!
//! They are hygienic: made with `Span::mixed_site()`, they never meet a name the user wrote, so
//! a parameter named `call` or `__output` is its own variable and no name is reserved. Items
//! the generated code declares (`__Arguments`, `__call`, `PARAMS`) are not locals: they live in
//! a scope of their own, apart from the user's body.

use proc_macro2::{Ident, Span};

/// The local `name`, out of reach of the user's names.
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}

/// The local `name`, reported at `span` when an error involves it (a value passed to a trait
/// method reports there), still out of reach of the user's names.
pub(crate) fn local_at(name: &str, span: Span) -> Ident {
    Ident::new(name, Span::mixed_site().located_at(span))
}
