//! Registered items in registration order, each enabled or disabled, found by key (a tool's or
//! prompt's name, a resource's URI): what the tool, prompt and resource registries are made of.

use std::collections::HashMap;

pub(crate) struct Entries<T> {
    items: Vec<Entry<T>>,
    /// The position of each key in `items`.
    index: HashMap<&'static str, usize>,
}

struct Entry<T> {
    value: T,
    enabled: bool,
}

impl<T> Default for Entries<T> {
    fn default() -> Self {
        Self {
            items: Vec::new(),
            index: HashMap::new(),
        }
    }
}

impl<T> Entries<T> {
    /// Every item, with whether it is enabled, in registration order.
    pub(crate) fn all(&self) -> impl Iterator<Item = (&T, bool)> {
        self.items.iter().map(|entry| (&entry.value, entry.enabled))
    }

    /// Whether `key` is registered, enabled or not.
    pub(crate) fn contains(&self, key: &str) -> bool {
        self.index.contains_key(key)
    }

    /// Registers `value`, enabled, under a key the caller checked is free.
    pub(crate) fn push(&mut self, key: &'static str, value: T) {
        debug_assert!(!self.contains(key));
        self.index.insert(key, self.items.len());
        self.items.push(Entry {
            value,
            enabled: true,
        });
    }

    /// Forgets `key`; `false` when it was not registered.
    pub(crate) fn remove(&mut self, key: &str) -> bool {
        let Some(at) = self.index.remove(key) else {
            return false;
        };
        self.items.remove(at);
        for position in self.index.values_mut() {
            if *position > at {
                *position -= 1;
            }
        }
        true
    }

    /// Enables or disables `key`; `false` when it is not registered or already so.
    pub(crate) fn set_enabled(&mut self, key: &str, enabled: bool) -> bool {
        match self.index.get(key) {
            Some(&at) if self.items[at].enabled != enabled => {
                self.items[at].enabled = enabled;
                true
            }
            _ => false,
        }
    }

    /// The enabled values, in registration order.
    pub(crate) fn enabled(&self) -> impl Iterator<Item = &T> {
        self.items
            .iter()
            .filter(|entry| entry.enabled)
            .map(|entry| &entry.value)
    }

    /// The value registered as `key`, enabled or not.
    pub(crate) fn get_mut(&mut self, key: &str) -> Option<&mut T> {
        let at = *self.index.get(key)?;
        Some(&mut self.items[at].value)
    }

    /// Every value, enabled or not.
    pub(crate) fn values_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.items.iter_mut().map(|entry| &mut entry.value)
    }

    /// Whether nothing is registered.
    pub(crate) fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enabled(entries: &Entries<u32>) -> Vec<u32> {
        entries.enabled().copied().collect()
    }

    #[test]
    fn keeps_registration_order_through_removals_and_toggles() {
        let mut entries = Entries::default();
        entries.push("a", 1);
        entries.push("b", 2);
        entries.push("c", 3);
        assert!(entries.set_enabled("b", false));
        assert!(!entries.set_enabled("b", false), "already disabled");
        assert_eq!(enabled(&entries), [1, 3]);
        assert!(entries.contains("b"), "a disabled entry stays registered");
        assert!(entries.remove("a"));
        assert!(!entries.remove("a"));
        assert!(entries.set_enabled("b", true));
        assert!(entries.set_enabled("c", false), "found after the shift");
        assert_eq!(enabled(&entries), [2]);
        entries.push("a", 4);
        assert_eq!(enabled(&entries), [2, 4]);
        assert!(!entries.set_enabled("z", true));
    }
}
