//! What an extension of a mounted server does when its server is mounted in another
//! ([`McpServer::mount`](super::McpServer::mount)): its capability entry and methods join the
//! outer server's (`Extensions::adopt`), and its mount hook, registered when it was installed
//! ([`Install::on_mount`](super::Install)), carries what it keeps by name (an Apps view's
//! document, a tool's reference to it) over to the names its entries have now.

use super::registries::Registries;
use crate::context::SharedState;
use crate::layer::service::HandlerKind;
use crate::protocol::list_changed::ChangedList;
use serde_json::{Map, Value};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

/// An extension's mount hook: what it does when its server is mounted in another. Why not, on
/// an error (the mount is refused with it).
pub(crate) type MountHook = Arc<dyn Fn(&mut Remount<'_>) -> Result<(), String> + Send + Sync>;

/// The mount hooks of a server's extensions, one per extension (those of servers mounted in it
/// included, so a mount of a mount carries them on), and the resources extensions register the
/// same in every server that has them.
#[derive(Clone, Default)]
pub(crate) struct MountHooks {
    hooks: HashMap<&'static str, MountHook>,
    shared: BTreeSet<&'static str>,
}

impl MountHooks {
    /// Registers `hook` for the extension `id` (its first hook stays).
    pub(crate) fn add(&mut self, id: &'static str, hook: MountHook) {
        self.hooks.entry(id).or_insert(hook);
    }

    /// Records `key` as a resource (or template) an extension registers the same in every
    /// server that has it, its handler reading the server's shared state (what its mount hook
    /// carries over): mounted without a namespace where it is registered already, the mounted
    /// server's copy is left out, and the one registered here serves both.
    pub(crate) fn add_shared(&mut self, key: &'static str) {
        self.shared.insert(key);
    }

    /// Whether the extension `id` has a hook.
    pub(crate) fn has(&self, id: &str) -> bool {
        self.hooks.contains_key(id)
    }

    /// The resources (and templates) registered the same in every server (`add_shared`).
    pub(crate) fn shared(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.shared.iter().copied()
    }

    /// Every hook, with its extension, and the shared resources.
    pub(crate) fn into_parts(
        self,
    ) -> (
        impl Iterator<Item = (&'static str, MountHook)>,
        BTreeSet<&'static str>,
    ) {
        (self.hooks.into_iter(), self.shared)
    }
}

/// A mount, as an extension's hook sees it: its namespace, the names the mounted entries had and have now,
/// the mounted server's shared state (before it joins the outer server's), and the outer
/// server's state and registries.
pub(crate) struct Remount<'a> {
    pub(super) namespace: &'a str,
    pub(super) adopted: &'a Adopted,
    pub(super) mounted_state: &'a mut SharedState,
    pub(super) outer_state: &'a mut SharedState,
    pub(super) outer_registries: &'a Registries,
}

impl Remount<'_> {
    /// The namespace the server is mounted under (empty: none).
    #[cfg_attr(not(feature = "skills"), allow(dead_code))]
    pub(crate) fn namespace(&self) -> &str {
        self.namespace
    }

    /// The key the mounted resource (or template) `uri` is registered under now.
    pub(crate) fn resource(&self, uri: &str) -> Option<&'static str> {
        renamed(self.adopted, HandlerKind::Resource, uri)
    }

    /// Each mounted tool, as `(its name there, its name here)`.
    pub(crate) fn tools(&self) -> Vec<(&'static str, &'static str)> {
        of_kind(self.adopted, HandlerKind::Tool).collect()
    }

    /// Takes the mounted server's shared value of type `T` (it does not join the outer
    /// server's state then).
    pub(crate) fn take_state<T: Send + Sync + 'static>(&mut self) -> Option<T> {
        self.mounted_state.take()
    }

    /// The outer server's shared value of type `T`, to add to.
    pub(crate) fn outer_state<T: Send + Sync + 'static>(&mut self) -> Option<&mut T> {
        self.outer_state.get_mut()
    }

    /// Shares `value` in the outer server.
    pub(crate) fn insert_outer_state<T: Send + Sync + 'static>(&mut self, value: T) {
        self.outer_state.insert(value);
    }

    /// Lets the tool registered here as `name` also be called `alias` (never listed, found
    /// while unambiguous): the name a mounted server's view calls it by.
    pub(crate) fn alias_tool(&mut self, name: &str, alias: &'static str) {
        (self.outer_registries).add_tool_alias(name, alias);
    }

    /// Changes the `_meta` of the listing of the tool registered here as `name`.
    pub(crate) fn edit_tool_meta(
        &mut self,
        name: &str,
        edit: impl FnOnce(&mut Map<String, Value>),
    ) {
        (self.outer_registries).edit_listing_meta(ChangedList::Tools, name, edit);
    }
}

/// What a mount registered, as `(kind, key there, key here)` for each entry
/// (`Registries::adopt`).
pub(crate) type Adopted = [(HandlerKind, &'static str, &'static str)];

/// The key the mounted entry of `kind` registered as `key` has here.
pub(crate) fn renamed(adopted: &Adopted, kind: HandlerKind, key: &str) -> Option<&'static str> {
    (adopted.iter())
        .find(|(of, there, _)| *of == kind && *there == key)
        .map(|(_, _, here)| *here)
}

/// The mounted entries of `kind`, as `(key there, key here)`.
pub(crate) fn of_kind(
    adopted: &Adopted,
    kind: HandlerKind,
) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    (adopted.iter())
        .filter(move |(of, _, _)| *of == kind)
        .map(|(_, there, here)| (*there, *here))
}
