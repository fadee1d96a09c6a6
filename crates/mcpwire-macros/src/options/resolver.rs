//! The options of `#[resolver]`.

use super::parse;
use proc_macro2::TokenStream;

/// The options of `#[resolver(…)]`.
pub(crate) struct ResolverOptions {
    /// `key = "…"`: the key its questions and answers travel under; never empty.
    pub(crate) key: Option<String>,
}

impl ResolverOptions {
    pub(crate) fn parse(attr: TokenStream) -> syn::Result<Self> {
        let mut key = None;
        parse(attr, "resolver", &["key"], |name, value| {
            if name != "key" {
                return Ok(false);
            }
            let literal = value.literal()?;
            if literal.value().is_empty() {
                return Err(syn::Error::new(
                    literal.span(),
                    "#[resolver(key = \"…\")] must not be empty",
                ));
            }
            key = Some(literal.value());
            Ok(true)
        })?;
        Ok(Self { key })
    }
}
