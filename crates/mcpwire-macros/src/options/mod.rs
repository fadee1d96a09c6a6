//! The options of the handler attributes (`#[tool(name = "…", read_only)]`), parsed once into
//! typed values: each macro has its own options struct, filled here from `key = value` pairs,
//! flags (optionally `= bool`) and string lists.

mod listing;
mod prompt;
mod resolver;
mod resource;
mod tool;

pub(crate) use listing::Listing;
pub(crate) use prompt::PromptOptions;
pub(crate) use resolver::ResolverOptions;
pub(crate) use resource::{CacheOption, ResourceOptions};
pub(crate) use tool::{TaskOption, ToolOptions};

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;
use syn::meta::ParseNestedMeta;

/// One `key` or `key = value` of an attribute, whose value the caller reads as the key's type.
pub(crate) struct OptionValue<'a, 'm> {
    meta: &'a ParseNestedMeta<'m>,
    what: &'a str,
    key: &'a str,
}

impl OptionValue<'_, '_> {
    /// `key = "…"`.
    pub(crate) fn string(&self) -> syn::Result<String> {
        Ok(self.literal()?.value())
    }

    /// `key = "…"`, with the literal (for errors spanned on it).
    pub(crate) fn literal(&self) -> syn::Result<LitStr> {
        self.meta.value()?.parse::<LitStr>()
    }

    /// `key = 123`.
    pub(crate) fn integer(&self) -> syn::Result<u64> {
        self.meta
            .value()?
            .parse::<syn::LitInt>()?
            .base10_parse::<u64>()
    }

    /// `key` (true) or `key = bool`.
    pub(crate) fn flag(&self) -> syn::Result<bool> {
        if self.meta.input.peek(syn::Token![=]) {
            Ok(self.meta.value()?.parse::<syn::LitBool>()?.value)
        } else {
            Ok(true)
        }
    }

    /// `key = ["…", …]`.
    pub(crate) fn strings(&self) -> syn::Result<Vec<String>> {
        let array = self.meta.value()?.parse::<syn::ExprArray>()?;
        array
            .elems
            .iter()
            .map(|element| match element {
                syn::Expr::Lit(syn::ExprLit {
                    lit: syn::Lit::Str(text),
                    ..
                }) => Ok(text.value()),
                other => Err(syn::Error::new_spanned(
                    other,
                    format!(
                        "#[{}({} = [\"…\", …])] takes string literals",
                        self.what, self.key
                    ),
                )),
            })
            .collect()
    }
}

/// Reads the options of `#[what(…)]`: `read` fills its struct from one option and returns
/// `false` for a key it does not know; `keys` names them all, for the error on an unknown one.
/// An option given twice is refused.
pub(crate) fn parse(
    attr: TokenStream,
    what: &str,
    keys: &[&str],
    mut read: impl FnMut(&str, &OptionValue<'_, '_>) -> syn::Result<bool>,
) -> syn::Result<()> {
    let mut seen: Vec<String> = Vec::new();
    let parser = syn::meta::parser(|meta| {
        let Some(key) = meta.path.get_ident().map(ToString::to_string) else {
            return Err(meta.error("expected an option name"));
        };
        if seen.contains(&key) {
            return Err(meta.error(format!("#[{what}] option `{key}` is given twice")));
        }
        let value = OptionValue {
            meta: &meta,
            what,
            key: &key,
        };
        if !read(&key, &value)? {
            return Err(meta.error(format!(
                "unknown #[{what}] option; expected one of: {}",
                keys.join(", ")
            )));
        }
        seen.push(key);
        Ok(())
    });
    syn::parse::Parser::parse2(parser, attr)
}

/// `Some("…")` or `None` as tokens.
pub(crate) fn option_str(value: Option<&str>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}

/// `Some(true)` or `None` as tokens.
pub(crate) fn option_bool(value: Option<bool>) -> TokenStream {
    match value {
        Some(v) => quote!(::core::option::Option::Some(#v)),
        None => quote!(::core::option::Option::None),
    }
}
