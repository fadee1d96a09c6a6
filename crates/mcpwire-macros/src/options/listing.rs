//! The options tools, prompts and resources share: how they are listed, and who may use them.

use super::{OptionValue, option_str};
use proc_macro2::TokenStream;
use quote::quote;

/// `name`, `title`, `description` and `scopes`.
#[derive(Default)]
pub(crate) struct Listing {
    /// The name clients know it by; the function's name when not given.
    pub(crate) name: Option<String>,
    pub(crate) title: Option<String>,
    /// The description; the doc comment when not given.
    pub(crate) description: Option<String>,
    /// The OAuth scopes a caller needs.
    pub(crate) scopes: Vec<String>,
}

impl Listing {
    /// The keys [`Listing::read`] knows.
    pub(crate) const KEYS: [&'static str; 4] = ["name", "title", "description", "scopes"];

    /// Takes one option; `false` when `key` is not one of [`Listing::KEYS`].
    pub(crate) fn read(&mut self, key: &str, value: &OptionValue<'_, '_>) -> syn::Result<bool> {
        match key {
            "name" => self.name = Some(value.string()?),
            "title" => self.title = Some(value.string()?),
            "description" => self.description = Some(value.string()?),
            "scopes" => self.scopes = value.strings()?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The fields `name`, `title`, `description` and `scopes` of a definition, for the
    /// function `function` whose doc comment is `docs`.
    pub(crate) fn fields(&self, function: &syn::Ident, docs: Option<String>) -> TokenStream {
        let name = self.name.clone().unwrap_or_else(|| function.to_string());
        let title = option_str(self.title.as_deref());
        let description = option_str(self.description.clone().or(docs).as_deref());
        let scopes = &self.scopes;
        quote! {
            name: #name,
            title: #title,
            description: #description,
            scopes: &[#(#scopes),*],
        }
    }
}
