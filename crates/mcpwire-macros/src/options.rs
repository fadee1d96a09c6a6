//! `key = "value"`, `key = 123` and flag options of the handler attributes.

use proc_macro2::TokenStream;
use quote::quote;
use syn::LitStr;

/// The options an attribute was given: strings and integers by key, and flags (optionally
/// `= bool`).
#[derive(Default)]
pub(crate) struct Options {
    strings: Vec<(String, String)>,
    integers: Vec<(String, u64)>,
    flags: Vec<(String, bool)>,
    lists: Vec<(String, Vec<String>)>,
}

/// The keys an attribute accepts, by the kind of their value.
#[derive(Default)]
pub(crate) struct Keys<'a> {
    pub(crate) strings: &'a [&'a str],
    pub(crate) integers: &'a [&'a str],
    pub(crate) flags: &'a [&'a str],
    /// Keys taking `["…", …]`.
    pub(crate) lists: &'a [&'a str],
}

impl Options {
    /// Parses `attr`, accepting the string keys `strings` and the flags `flags`.
    pub(crate) fn parse(
        attr: TokenStream,
        what: &str,
        strings: &[&str],
        flags: &[&str],
    ) -> syn::Result<Self> {
        let keys = Keys {
            strings,
            flags,
            ..Keys::default()
        };
        Self::parse_keys(attr, what, &keys)
    }

    /// Parses `attr`, accepting `keys`.
    pub(crate) fn parse_keys(attr: TokenStream, what: &str, keys: &Keys<'_>) -> syn::Result<Self> {
        let Keys {
            strings,
            integers,
            flags,
            lists,
        } = *keys;
        let mut options = Options::default();
        let parser = syn::meta::parser(|meta| {
            let Some(key) = meta.path.get_ident().map(ToString::to_string) else {
                return Err(meta.error("expected an option name"));
            };
            if strings.contains(&key.as_str()) {
                options
                    .strings
                    .push((key, meta.value()?.parse::<LitStr>()?.value()));
            } else if integers.contains(&key.as_str()) {
                let value = meta
                    .value()?
                    .parse::<syn::LitInt>()?
                    .base10_parse::<u64>()?;
                options.integers.push((key, value));
            } else if lists.contains(&key.as_str()) {
                let array = meta.value()?.parse::<syn::ExprArray>()?;
                let mut values = Vec::new();
                for element in &array.elems {
                    match element {
                        syn::Expr::Lit(syn::ExprLit {
                            lit: syn::Lit::Str(text),
                            ..
                        }) => values.push(text.value()),
                        other => {
                            return Err(syn::Error::new_spanned(
                                other,
                                format!("#[{what}({key} = [\"…\", …])] takes string literals"),
                            ));
                        }
                    }
                }
                options.lists.push((key, values));
            } else if flags.contains(&key.as_str()) {
                let value = if meta.input.peek(syn::Token![=]) {
                    meta.value()?.parse::<syn::LitBool>()?.value
                } else {
                    true
                };
                options.flags.push((key, value));
            } else {
                let mut known: Vec<&str> = strings.to_vec();
                known.extend_from_slice(integers);
                known.extend_from_slice(flags);
                known.extend_from_slice(lists);
                return Err(meta.error(format!(
                    "unknown #[{what}] option; expected one of: {}",
                    known.join(", ")
                )));
            }
            Ok(())
        });
        syn::parse::Parser::parse2(parser, attr)?;
        Ok(options)
    }

    pub(crate) fn string(&self, key: &str) -> Option<String> {
        self.strings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    }

    pub(crate) fn integer(&self, key: &str) -> Option<u64> {
        self.integers
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| *v)
    }

    pub(crate) fn list(&self, key: &str) -> Vec<String> {
        self.lists
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    }

    pub(crate) fn flag(&self, key: &str) -> Option<bool> {
        self.flags.iter().find(|(k, _)| k == key).map(|(_, v)| *v)
    }
}

/// `Some("…")` or `None` as tokens.
pub(crate) fn option_str(value: Option<String>) -> TokenStream {
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
