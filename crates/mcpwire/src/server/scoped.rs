//! Entries that need OAuth scopes (`scopes = […]` on `#[tool]`, `#[prompt]`, `#[resource]`):
//! which need any, and the list a caller's grant may see.

use super::named_view::NamedView;
use crate::context::Grant;
use serde::Serialize;
use std::sync::Arc;

/// An entry of a by-name registry (a tool, a prompt) that may need scopes.
pub(crate) trait Scoped {
    /// How its list shows it.
    type Listing: Serialize;
    /// The scopes a caller needs.
    fn scopes(&self) -> &'static [&'static str];
    /// Its list entry.
    fn listing(&self) -> &Self::Listing;
}

impl<T: Scoped> NamedView<T> {
    /// Whether any entry needs scopes (else lists need no filtering); worked out once per view,
    /// not per request.
    pub(crate) fn any_scoped(&self) -> bool {
        *self
            .any_scoped
            .get_or_init(|| any_scoped(self.entries(), |entry| entry.scopes()))
    }

    /// The list result under `key` as `grant` may see it, in one page.
    pub(crate) fn page_for(&self, key: &str, grant: &Grant) -> String {
        let entries = self.entries().iter();
        page_for(key, entries, |entry| entry.scopes(), listing_of::<T>, grant)
    }

    /// Adds every scope some entry needs to `all`.
    #[cfg(all(feature = "auth", feature = "http"))]
    pub(crate) fn collect_scopes(&self, all: &mut Vec<&'static str>) {
        collect_scopes(self.entries(), |entry| entry.scopes(), all);
    }
}

fn listing_of<T: Scoped>(entry: &Arc<T>) -> &T::Listing {
    entry.listing()
}

/// Whether any of the entries needs scopes (else lists need no filtering).
pub(crate) fn any_scoped<'a, T: 'a>(
    entries: impl IntoIterator<Item = &'a T>,
    scopes: impl Fn(&T) -> &'static [&'static str],
) -> bool {
    entries.into_iter().any(|entry| !scopes(entry).is_empty())
}

/// A list result as `grant` may see it: the entries whose scopes it holds, under `key`, in one
/// page (no cursor).
pub(crate) fn page_for<'a, T: 'a, L: Serialize>(
    key: &str,
    entries: impl IntoIterator<Item = &'a T>,
    scopes: impl Fn(&T) -> &'static [&'static str],
    listing: impl Fn(&'a T) -> L,
    grant: &Grant,
) -> String {
    let listed: Vec<L> = entries
        .into_iter()
        .filter(|entry| grant.allows(scopes(entry)))
        .map(listing)
        .collect();
    let mut page = serde_json::Map::new();
    page.insert(key.to_owned(), serde_json::json!(listed));
    serde_json::Value::Object(page).to_string()
}

/// Adds every scope the entries need to `all`, each once, in order.
#[cfg(all(feature = "auth", feature = "http"))]
pub(crate) fn collect_scopes<'a, T: 'a>(
    entries: impl IntoIterator<Item = &'a T>,
    scopes: impl Fn(&T) -> &'static [&'static str],
    all: &mut Vec<&'static str>,
) {
    for entry in entries {
        for scope in scopes(entry) {
            if !all.contains(scope) {
                all.push(*scope);
            }
        }
    }
}
