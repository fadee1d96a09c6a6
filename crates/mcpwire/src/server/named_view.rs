//! What requests read of a registry whose entries go by name (tools, prompts): the enabled
//! entries by name, and their list pages serialized once per change.

use super::pages::Pages;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::Arc;

/// The enabled entries of one registry, by name, and their list pages.
pub(crate) struct NamedView<T> {
    by_name: HashMap<&'static str, Arc<T>>,
    /// The entries in list order.
    order: Vec<Arc<T>>,
    pages: Pages,
    /// Whether any entry needs scopes, worked out once per view (see `scoped.rs`).
    pub(super) any_scoped: std::sync::OnceLock<bool>,
}

impl<T> Default for NamedView<T> {
    fn default() -> Self {
        Self {
            by_name: HashMap::new(),
            order: Vec::new(),
            pages: Pages::default(),
            any_scoped: std::sync::OnceLock::new(),
        }
    }
}

impl<T> NamedView<T> {
    /// The view of `entries` (in list order), listed under `key` as `listing` shows each.
    pub(crate) fn new<'a, L: Serialize + 'a>(
        key: &str,
        entries: impl Iterator<Item = &'a Arc<T>>,
        name: impl Fn(&T) -> &'static str,
        listing: impl Fn(&'a T) -> &'a L,
        page_size: usize,
    ) -> Self
    where
        T: 'a,
    {
        let entries: Vec<&'a Arc<T>> = entries.collect();
        let listed: Vec<&L> = entries.iter().map(|entry| listing(entry)).collect();
        Self {
            pages: Pages::new(key, &listed, page_size),
            order: entries.iter().map(|entry| Arc::clone(entry)).collect(),
            any_scoped: std::sync::OnceLock::new(),
            by_name: entries
                .into_iter()
                .map(|entry| (name(entry), entry.clone()))
                .collect(),
        }
    }

    /// The enabled entry `name`.
    pub(crate) fn get(&self, name: &str) -> Option<&Arc<T>> {
        self.by_name.get(name)
    }

    /// The enabled entries, in list order.
    pub(crate) fn entries(&self) -> &[Arc<T>] {
        &self.order
    }

    /// The list's pages.
    pub(crate) fn pages(&self) -> &Pages {
        &self.pages
    }
}
