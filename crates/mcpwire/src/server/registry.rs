//! `Registry`: the tools (or prompts, or resources) of a server in registration order, enabled
//! or not, and the view of the enabled ones that requests read, rebuilt once per change.

use super::entries::Entries;
use super::kind::{Kind, Registered};
use crate::error::InvalidSignature;
use crate::resolve::plan::Overrides;
use serde_json::{Map, Value};
use std::sync::Arc;

/// Why `_meta` could not be added to an entry's listing.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum MetaRefused {
    /// No entry is registered under the key.
    Unknown,
    /// The listing's `_meta` has this key already.
    Taken(String),
}

/// The registered entries of one kind.
pub(crate) struct Registry<K: Kind> {
    entries: Entries<Arc<Registered<K>>>,
}

impl<K: Kind> Default for Registry<K> {
    fn default() -> Self {
        Self {
            entries: Entries::default(),
        }
    }
}

impl<K: Kind> Registry<K> {
    /// Registers `definition`, enabled; refused when its key is taken (by an enabled or a
    /// disabled entry) or the definition is broken.
    pub(crate) fn add(
        &mut self,
        definition: K,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        let key = definition.key();
        if self.entries.contains(key) {
            return Err(InvalidSignature::new(format!(
                "{} '{key}' is registered twice",
                K::NOUN
            )));
        }
        let entry = definition.register(overrides)?;
        self.entries.push(key, Arc::new(entry));
        Ok(())
    }

    #[cfg(feature = "gateway")]
    /// Registers `definition` like [`add`](Registry::add), listed as `listed` instead of what
    /// registration derives (an entry defined at run time, e.g. a gateway's proxied tool), with
    /// what the listing says requests need ([`Kind::listed_extra`]), and also called by
    /// `aliases` (never listed; see [`NamedView`](super::named_view::NamedView)).
    pub(crate) fn add_listed(
        &mut self,
        definition: K,
        overrides: &Overrides,
        listed: K::Listing,
        aliases: Vec<&'static str>,
    ) -> Result<(), InvalidSignature> {
        let extra = K::listed_extra(&listed)?;
        let key = definition.key();
        self.add(definition, overrides)?;
        let entry = self.entries.get_mut(key).expect("just added");
        let mut relisted = entry.relisted(listed);
        if let Some(extra) = extra {
            relisted.extra = extra;
        }
        relisted.aliases = aliases;
        *entry = Arc::new(relisted);
        Ok(())
    }

    /// Every entry, with whether it is enabled, in registration order.
    pub(crate) fn all(&self) -> Vec<(Arc<Registered<K>>, bool)> {
        (self.entries.all())
            .map(|(entry, enabled)| (Arc::clone(entry), enabled))
            .collect()
    }

    /// Registers another server's `entry` as `key`, enabled or not as it was there, listed as
    /// it was but for the key; refused when `key` is taken.
    pub(crate) fn adopt(
        &mut self,
        entry: &Registered<K>,
        key: &'static str,
        enabled: bool,
        overrides: &Overrides,
    ) -> Result<(), InvalidSignature> {
        self.add(entry.definition.renamed(key), overrides)?;
        let mut listed = entry.listed.clone();
        K::rename_listing(&mut listed, key);
        let adopted = self.entries.get_mut(key).expect("just added");
        *adopted = Arc::new(adopted.relisted(listed));
        if !enabled {
            self.entries.set_enabled(key, false);
        }
        Ok(())
    }

    /// Rebuilds every resolver graph, after the overrides changed.
    pub(crate) fn replan(&mut self, overrides: &Overrides) -> Result<(), InvalidSignature> {
        for entry in self.entries.values_mut() {
            *entry = Arc::new(entry.replanned(overrides)?);
        }
        Ok(())
    }

    /// Forgets the entry `key`; `false` when there is none.
    pub(crate) fn remove(&mut self, key: &str) -> bool {
        self.entries.remove(key)
    }

    /// Enables or disables the entry `key`; `false` when there is none or it already is.
    pub(crate) fn set_enabled(&mut self, key: &str, enabled: bool) -> bool {
        self.entries.set_enabled(key, enabled)
    }

    /// Adds the entries of `meta` to the `_meta` of the entry `key`'s listing (enabled or not).
    pub(crate) fn add_listing_meta(
        &mut self,
        key: &str,
        meta: Map<String, Value>,
    ) -> Result<(), MetaRefused> {
        let entry = self.entries.get_mut(key).ok_or(MetaRefused::Unknown)?;
        if meta.is_empty() {
            return Ok(());
        }
        let mut listed = entry.listed.clone();
        let existing = K::listing_meta(&mut listed).get_or_insert_with(Map::new);
        if let Some(taken) = meta.keys().find(|name| existing.contains_key(*name)) {
            return Err(MetaRefused::Taken(taken.clone()));
        }
        existing.extend(meta);
        *entry = Arc::new(entry.relisted(listed));
        Ok(())
    }

    /// Changes the `_meta` of the entry `key`'s listing with `edit`; `false` when there is no
    /// such entry.
    pub(crate) fn edit_listing_meta(
        &mut self,
        key: &str,
        edit: impl FnOnce(&mut Map<String, Value>),
    ) -> bool {
        let Some(entry) = self.entries.get_mut(key) else {
            return false;
        };
        let mut listed = entry.listed.clone();
        let meta = K::listing_meta(&mut listed);
        let mut edited = meta.take().unwrap_or_default();
        edit(&mut edited);
        *meta = (!edited.is_empty()).then_some(edited);
        *entry = Arc::new(entry.relisted(listed));
        true
    }

    /// Lets the entry `key` also be called `alias` (never listed; see
    /// [`NamedView`](super::named_view::NamedView)); `false` when there is no such entry.
    pub(crate) fn add_alias(&mut self, key: &str, alias: &'static str) -> bool {
        let Some(entry) = self.entries.get_mut(key) else {
            return false;
        };
        let mut aliased = entry.relisted(entry.listed.clone());
        aliased.aliases.push(alias);
        *entry = Arc::new(aliased);
        true
    }

    /// Whether an entry (enabled or not) is registered as `key`.
    pub(crate) fn contains(&self, key: &str) -> bool {
        self.entries.contains(key)
    }

    /// Whether nothing is registered, enabled or not.
    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// What requests see: the enabled entries.
    pub(crate) fn view(&self, page_size: usize) -> K::View {
        K::view(self.entries.enabled().collect(), page_size)
    }
}
