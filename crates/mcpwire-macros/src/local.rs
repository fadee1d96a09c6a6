//! The locals the generated code binds (`call`, `inputs`, `__arguments`, `__output`, …).
//!
//! They are hygienic: made with `Span::mixed_site()`, they never meet a name the user wrote, so
//! a parameter named `call` or `__output` is its own variable. The items the generated code
//! declares beside them (`__call`, `__output`, `__Arguments`, `PARAMS`) are not hygienic, but
//! a parameter named like a function (`__call`, tested) is a local that shadows it, and a
//! snake_case parameter is never named like the type `__Arguments` or the constant `PARAMS`.

use proc_macro2::{Ident, Span};

/// The local `name`, out of reach of the user's names.
pub(crate) fn local(name: &str) -> Ident {
    Ident::new(name, Span::mixed_site())
}
