//! `NamedView`: what requests read of the enabled entries of one list (tools, prompts, plain
//! resources, resource templates): each found by its key, the list's pages serialized once per
//! change, and the list as a caller's grant may see it (`scopes = […]` on `#[tool]`,
//! `#[prompt]`, `#[resource]`). An entry is also found by its aliases (never listed) when no
//! entry has that key and no other entry has that alias: an alias two entries claim finds
//! neither, so a call never reaches an entry by a guess.

use super::kind::{Kind, Registered};
use super::pages::Pages;
use crate::context::Grant;
use crate::wire::fast_map::FastMap;
use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

/// Entries by name: a call looks its tool up by the name it sends ([`FastMap`]).
type ByName<K> = FastMap<&'static str, Arc<Registered<K>>>;

/// The enabled entries of one list, by key, and its pages.
pub(crate) struct NamedView<K: Kind> {
    by_key: ByName<K>,
    /// The entries' unambiguous aliases.
    by_alias: ByName<K>,
    /// The entries in list order.
    order: Vec<Arc<Registered<K>>>,
    pages: Pages,
    /// Whether any entry needs scopes, worked out once per view, not per request.
    any_scoped: OnceLock<bool>,
    /// Whether any entry's extra asks something of requests ([`Kind::extra_asks`]).
    #[cfg_attr(
        not(feature = "http"),
        allow(dead_code, reason = "read by the HTTP transport's header check")
    )]
    any_extra_asks: bool,
}

impl<K: Kind> Default for NamedView<K> {
    fn default() -> Self {
        Self {
            by_key: ByName::default(),
            by_alias: ByName::default(),
            order: Vec::new(),
            pages: Pages::default(),
            any_scoped: OnceLock::new(),
            any_extra_asks: false,
        }
    }
}

impl<K: Kind> NamedView<K> {
    /// The view of `entries` (in list order), listed under `list` (`"tools"`).
    pub(crate) fn new(list: &str, entries: Vec<&Arc<Registered<K>>>, page_size: usize) -> Self {
        let listed: Vec<&K::Listing> = entries.iter().map(|entry| &entry.listed).collect();
        let by_key: ByName<K> = entries
            .iter()
            .map(|entry| (entry.definition.key(), Arc::clone(entry)))
            .collect();
        let any_extra_asks = entries.iter().any(|entry| K::extra_asks(&entry.extra));
        Self {
            pages: Pages::new(list, &listed, page_size),
            by_alias: unambiguous_aliases(&entries, &by_key),
            by_key,
            order: entries.into_iter().cloned().collect(),
            any_scoped: OnceLock::new(),
            any_extra_asks,
        }
    }

    /// The enabled entry `key`, or the one whose alias `key` is.
    pub(crate) fn get(&self, key: &str) -> Option<&Arc<Registered<K>>> {
        self.by_key.get(key).or_else(|| self.by_alias.get(key))
    }

    /// The enabled entries, in list order.
    pub(crate) fn entries(&self) -> &[Arc<Registered<K>>] {
        &self.order
    }

    /// The list's pages.
    pub(crate) fn pages(&self) -> &Pages {
        &self.pages
    }

    /// Whether any entry's extra asks something of requests ([`Kind::extra_asks`]).
    #[cfg(feature = "http")]
    pub(crate) fn any_extra_asks(&self) -> bool {
        self.any_extra_asks
    }

    /// Whether any entry needs scopes (else lists need no filtering).
    pub(crate) fn any_scoped(&self) -> bool {
        *self.any_scoped.get_or_init(|| {
            let scoped = |entry: &Arc<Registered<K>>| !entry.definition.scopes().is_empty();
            self.order.iter().any(scoped)
        })
    }

    /// The list result under `list` as `grant` may see it: the entries whose scopes it holds,
    /// in one page (no cursor).
    pub(crate) fn page_for(&self, list: &str, grant: &Grant) -> String {
        let listed: Vec<&K::Listing> = self
            .order
            .iter()
            .filter(|entry| grant.allows(entry.definition.scopes()))
            .map(|entry| &entry.listed)
            .collect();
        let mut page = serde_json::Map::new();
        page.insert(list.to_owned(), serde_json::json!(listed));
        serde_json::Value::Object(page).to_string()
    }

    /// Adds every scope some entry needs to `all`, each once, in order.
    #[cfg(all(feature = "auth", feature = "http"))]
    pub(crate) fn collect_scopes(&self, all: &mut Vec<&'static str>) {
        for entry in &self.order {
            for scope in entry.definition.scopes() {
                if !all.contains(scope) {
                    all.push(*scope);
                }
            }
        }
    }
}

/// The aliases of `entries` that are no entry's key and only one entry's alias, each with its
/// entry.
fn unambiguous_aliases<K: Kind>(entries: &[&Arc<Registered<K>>], by_key: &ByName<K>) -> ByName<K> {
    let mut claimed: HashMap<&'static str, Option<&Arc<Registered<K>>>> = HashMap::new();
    for entry in entries {
        for alias in entry.aliases.iter().filter(|a| !by_key.contains_key(*a)) {
            claimed
                .entry(alias)
                .and_modify(|first| {
                    if !first.is_some_and(|first| Arc::ptr_eq(first, entry)) {
                        *first = None;
                    }
                })
                .or_insert(Some(*entry));
        }
    }
    (claimed.into_iter())
        .filter_map(|(alias, entry)| Some((alias, Arc::clone(entry?))))
        .collect()
}
