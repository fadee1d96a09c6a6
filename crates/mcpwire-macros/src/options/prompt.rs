//! The options of `#[prompt]`.

use super::{Listing, parse};
use proc_macro2::TokenStream;

/// The options of `#[prompt(…)]`: how it is listed.
pub(crate) struct PromptOptions {
    pub(crate) listing: Listing,
}

impl PromptOptions {
    pub(crate) fn parse(attr: TokenStream) -> syn::Result<Self> {
        let mut listing = Listing::default();
        parse(attr, "prompt", &Listing::KEYS, |key, value| {
            listing.read(key, value)
        })?;
        Ok(Self { listing })
    }
}
