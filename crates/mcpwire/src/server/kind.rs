//! What tools, prompts and resources have in common as registry entries: the [`Kind`] of an
//! entry, implemented by its definition type, and the [`Registered`] entry requests read.

use super::handler::Handler;
use crate::error::InvalidSignature;
use crate::resolve::ParamSpec;
use crate::resolve::plan::{Overrides, ToolPlan};
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::Arc;

/// A kind of registry entry (a tool, a prompt, a resource), implemented by its definition type:
/// how an entry is keyed, registered, listed and found.
pub(crate) trait Kind: Clone + Sized + 'static {
    /// How its list shows an entry (`tools/list` shows a `Tool`).
    type Listing: Serialize + Clone;
    /// What else registration derives that requests need (a tool's header parameters, a
    /// resource's URI template).
    type Extra: Clone;
    /// What requests read of the enabled entries: how each is found, and the list pages.
    type View: Default;
    /// The kind, in registration errors (`tool`).
    const NOUN: &'static str;

    /// Whether `extra` asks anything of a request (a tool's header parameters do when there
    /// are any). A view knows whether any entry's does, so that requests skip looking.
    fn extra_asks(_extra: &Self::Extra) -> bool {
        true
    }

    /// What every definition has.
    fn common(&self) -> Common;
    /// Checks a new definition and derives its entry.
    fn register(self, overrides: &Overrides) -> Result<Registered<Self>, InvalidSignature>;
    /// The view of the enabled entries, given in registration order.
    fn view(enabled: Vec<&Arc<Registered<Self>>>, page_size: usize) -> Self::View;
    /// The `_meta` of an entry's listing (what an extension adds to with
    /// [`Install::tool_meta`](super::Install::tool_meta)).
    fn listing_meta(listing: &mut Self::Listing) -> &mut Option<Map<String, Value>>;
    /// The same definition, registered as `key` (a mounted server's entry, under its
    /// namespace).
    fn renamed(&self, key: &'static str) -> Self;
    /// Its listing, showing the entry as `key`.
    fn rename_listing(listing: &mut Self::Listing, key: &str);

    /// What registration derives for an entry listed as `listed` rather than as its
    /// definition says (an entry defined at run time: a gateway's proxied tool, whose header
    /// parameters are its listing's); `None` when it is what the definition derives.
    #[cfg(feature = "gateway")]
    fn listed_extra(listed: &Self::Listing) -> Result<Option<Self::Extra>, InvalidSignature> {
        let _ = listed;
        Ok(None)
    }

    /// What the entry is registered, removed and toggled by.
    fn key(&self) -> &'static str {
        self.common().key
    }

    /// The OAuth scopes a caller needs to see and use it.
    fn scopes(&self) -> &'static [&'static str] {
        self.common().scopes
    }

    /// Its resolver graph, with `overrides` in place.
    fn plan(&self, overrides: &Overrides) -> Result<ToolPlan, InvalidSignature> {
        let common = self.common();
        ToolPlan::build(common.key, common.params, overrides)
    }
}

/// What every definition has, whatever its kind.
pub(crate) struct Common {
    /// What the entry is registered, removed and toggled by: a name, or a URI (template).
    pub(crate) key: &'static str,
    /// Where each parameter of its function gets its value.
    pub(crate) params: &'static [ParamSpec],
    /// The OAuth scopes a caller needs to see and use it; empty for everyone.
    pub(crate) scopes: &'static [&'static str],
}

impl Common {
    pub(crate) fn new(
        key: &'static str,
        params: &'static [ParamSpec],
        scopes: &'static [&'static str],
    ) -> Self {
        Self {
            key,
            params,
            scopes,
        }
    }
}

/// A registered tool, prompt or resource: its definition and what registration derived from it.
pub(crate) struct Registered<K: Kind> {
    pub(crate) definition: K,
    pub(crate) handler: Arc<Handler>,
    /// How its list shows it.
    pub(crate) listed: K::Listing,
    /// What else registration derived (see [`Kind::Extra`]).
    pub(crate) extra: K::Extra,
    /// Names it is also called by, never listed: the names a mounted server's MCP Apps views
    /// were written with, under a namespace (see [`NamedView`](super::named_view::NamedView)).
    pub(crate) aliases: Vec<&'static str>,
}

impl<K: Kind> Registered<K> {
    /// The same entry listed as `listed`.
    pub(crate) fn relisted(&self, listed: K::Listing) -> Self {
        Self {
            definition: self.definition.clone(),
            handler: Arc::clone(&self.handler),
            listed,
            extra: self.extra.clone(),
            aliases: self.aliases.clone(),
        }
    }

    /// The same entry with its resolver graph rebuilt (the overrides changed).
    pub(crate) fn replanned(&self, overrides: &Overrides) -> Result<Self, InvalidSignature> {
        let plan = self.definition.plan(overrides)?;
        Ok(Self {
            definition: self.definition.clone(),
            handler: Arc::new(self.handler.replanned(plan)),
            listed: self.listed.clone(),
            extra: self.extra.clone(),
            aliases: self.aliases.clone(),
        })
    }
}
