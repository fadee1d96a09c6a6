//! The options of `#[resource]`.

use super::{Listing, OptionValue, parse};
use proc_macro2::{Span, TokenStream};

/// `cache = "…"`: who may reuse a read.
#[derive(Clone, Copy, Default)]
pub(crate) enum CacheOption {
    /// Only the caller (the default).
    #[default]
    Private,
    /// Anyone.
    Public,
}

/// The options of `#[resource(…)]`.
pub(crate) struct ResourceOptions {
    pub(crate) listing: Listing,
    /// The URI, or URI template with `{variables}`.
    pub(crate) uri: String,
    pub(crate) mime_type: Option<String>,
    /// How long a client may reuse a read, in milliseconds (0: not cached).
    pub(crate) ttl_ms: u64,
    pub(crate) cache: CacheOption,
}

const KEYS: &[&str] = &[
    "uri",
    "name",
    "title",
    "description",
    "scopes",
    "mime_type",
    "ttl_ms",
    "cache",
];

#[derive(Default)]
struct Given {
    listing: Listing,
    uri: Option<String>,
    mime_type: Option<String>,
    ttl_ms: u64,
    cache: CacheOption,
}

impl ResourceOptions {
    pub(crate) fn parse(attr: TokenStream) -> syn::Result<Self> {
        let mut given = Given::default();
        parse(attr, "resource", KEYS, |key, value| given.read(key, value))?;
        let Some(uri) = given.uri else {
            return Err(syn::Error::new(
                Span::call_site(),
                "#[resource] needs a `uri = \"…\"`",
            ));
        };
        Ok(Self {
            listing: given.listing,
            uri,
            mime_type: given.mime_type,
            ttl_ms: given.ttl_ms,
            cache: given.cache,
        })
    }
}

impl Given {
    fn read(&mut self, key: &str, value: &OptionValue<'_, '_>) -> syn::Result<bool> {
        match key {
            "uri" => self.uri = Some(value.string()?),
            "mime_type" => self.mime_type = Some(value.string()?),
            "ttl_ms" => self.ttl_ms = value.integer()?,
            "cache" => self.cache = cache(value)?,
            _ => return self.listing.read(key, value),
        }
        Ok(true)
    }
}

fn cache(value: &OptionValue<'_, '_>) -> syn::Result<CacheOption> {
    let literal = value.literal()?;
    match literal.value().as_str() {
        "private" => Ok(CacheOption::Private),
        "public" => Ok(CacheOption::Public),
        other => Err(syn::Error::new(
            literal.span(),
            format!("#[resource] `cache = \"{other}\"`: expected \"public\" or \"private\""),
        )),
    }
}
