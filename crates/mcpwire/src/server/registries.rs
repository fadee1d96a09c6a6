//! `Registries`: the server's tools, prompts and resources, shared by the builder, every
//! [`Catalog`](super::Catalog) handle and the running server. Edits are serialized under a
//! lock; once the server serves, each edit that changes a list publishes a new [`Snapshot`]
//! (only the changed view is rebuilt) and then announces the change. Requests load the
//! snapshot without taking any lock.

use super::kind::Kind;
use super::prompt::PromptDefinition;
use super::registry::{MetaRefused, Registry};
use super::resource::ResourceDefinition;
use super::snapshot::Snapshot;
use super::tool::ToolDefinition;
use crate::context::Notifier;
use crate::error::InvalidSignature;
use crate::layer::service::HandlerKind;
use crate::protocol::list_changed::ChangedList;
use crate::resolve::param_spec::ResolverDefinition;
use crate::resolve::plan::Overrides;
use arc_swap::ArcSwap;
use serde_json::{Map, Value};
use std::any::TypeId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

pub(crate) struct Registries {
    editor: Mutex<Editor>,
    live: ArcSwap<Snapshot>,
    notifier: Notifier,
    /// Whether a `Catalog` was handed out: the lists may then change while the server serves.
    changeable: AtomicBool,
}

/// The editable form of the registries, and how to publish them.
struct Editor {
    tools: Registry<ToolDefinition>,
    prompts: Registry<PromptDefinition>,
    resources: Registry<ResourceDefinition>,
    overrides: Overrides,
    page_size: usize,
    /// Set when the server starts: from then on every change is published and announced.
    serving: bool,
}

/// What the registries offer when the server starts.
pub(crate) struct Offered {
    pub(crate) tools: bool,
    pub(crate) prompts: bool,
    pub(crate) resources: bool,
    /// Whether the lists may change while serving (a `Catalog` exists).
    pub(crate) changeable: bool,
}

impl Registries {
    pub(crate) fn new(notifier: Notifier, page_size: usize) -> Self {
        Self {
            editor: Mutex::new(Editor {
                tools: Registry::default(),
                prompts: Registry::default(),
                resources: Registry::default(),
                overrides: Overrides::new(),
                page_size,
                serving: false,
            }),
            live: ArcSwap::from_pointee(Snapshot::default()),
            notifier,
            changeable: AtomicBool::new(false),
        }
    }

    /// What requests are served from right now.
    pub(crate) fn snapshot(&self) -> arc_swap::Guard<Arc<Snapshot>> {
        self.live.load()
    }

    fn editor(&self) -> MutexGuard<'_, Editor> {
        self.editor.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(crate) fn set_page_size(&self, page_size: usize) {
        self.editor().page_size = page_size;
    }

    /// Records that a `Catalog` was handed out.
    pub(crate) fn make_changeable(&self) {
        self.changeable.store(true, Ordering::Release);
    }

    /// Publishes the first snapshot; every later change is published and announced.
    pub(crate) fn start(&self) -> Offered {
        let mut editor = self.editor();
        editor.serving = true;
        let page_size = editor.page_size;
        self.live.store(Arc::new(Snapshot {
            tools: Arc::new(editor.tools.view(page_size)),
            prompts: Arc::new(editor.prompts.view(page_size)),
            resources: Arc::new(editor.resources.view(page_size)),
        }));
        Offered {
            tools: !editor.tools.is_empty(),
            prompts: !editor.prompts.is_empty(),
            resources: !editor.resources.is_empty(),
            changeable: self.changeable.load(Ordering::Acquire),
        }
    }

    /// Replaces the resolver `original` everywhere (before serving).
    pub(crate) fn override_resolver(
        &self,
        original: TypeId,
        replacement: ResolverDefinition,
    ) -> Result<(), InvalidSignature> {
        let mut editor = self.editor();
        let editor = &mut *editor;
        editor.overrides.insert(original, replacement);
        editor.tools.replan(&editor.overrides)?;
        editor.prompts.replan(&editor.overrides)?;
        editor.resources.replan(&editor.overrides)
    }

    /// Registers every entry of `mounted` (another server's registries, enabled or not as
    /// there) under the key `rename` gives it (or leaves it out, on `None`); what each was and
    /// is now registered as. A key
    /// that is taken here refuses the mount, naming both; so does a resolver override of the
    /// mounted server (overrides are server-wide: make them on this one).
    pub(crate) fn adopt(
        &self,
        mounted: &Registries,
        rename: impl Fn(HandlerKind, &str) -> Option<&'static str>,
    ) -> Result<Vec<(HandlerKind, &'static str, &'static str)>, InvalidSignature> {
        let from = mounted.editor();
        if !from.overrides.is_empty() {
            return Err(InvalidSignature::new(
                "the mounted server overrides a resolver: overrides apply to a whole server, \
                 so make them on the server it is mounted in",
            ));
        }
        let mut editor = self.editor();
        let editor = &mut *editor;
        let mut adopted = Vec::new();
        adopt_all(
            &from.tools,
            &mut editor.tools,
            HandlerKind::Tool,
            &rename,
            &editor.overrides,
            &mut adopted,
        )?;
        adopt_all(
            &from.prompts,
            &mut editor.prompts,
            HandlerKind::Prompt,
            &rename,
            &editor.overrides,
            &mut adopted,
        )?;
        adopt_all(
            &from.resources,
            &mut editor.resources,
            HandlerKind::Resource,
            &rename,
            &editor.overrides,
            &mut adopted,
        )?;
        Ok(adopted)
    }

    /// Whether a handler of `kind` (enabled or not) is registered as `key` (a tool's or a
    /// prompt's name, a resource's URI or URI template as registered).
    pub(crate) fn contains(&self, kind: HandlerKind, key: &str) -> bool {
        let editor = self.editor();
        match kind {
            HandlerKind::Tool => editor.tools.contains(key),
            HandlerKind::Prompt => editor.prompts.contains(key),
            HandlerKind::Resource => editor.resources.contains(key),
        }
    }

    pub(crate) fn add_tool(&self, definition: ToolDefinition) -> Result<(), InvalidSignature> {
        self.change(ChangedList::Tools, |e| {
            let added = e.tools.add(definition, &e.overrides);
            let changed = added.is_ok();
            (added, changed)
        })
    }

    pub(crate) fn add_prompt(&self, definition: PromptDefinition) -> Result<(), InvalidSignature> {
        self.change(ChangedList::Prompts, |e| {
            let added = e.prompts.add(definition, &e.overrides);
            let changed = added.is_ok();
            (added, changed)
        })
    }

    pub(crate) fn add_resource(
        &self,
        definition: ResourceDefinition,
    ) -> Result<(), InvalidSignature> {
        self.change(ChangedList::Resources, |e| {
            let added = e.resources.add(definition, &e.overrides);
            let changed = added.is_ok();
            (added, changed)
        })
    }

    /// Whether each registered tool may run as a task, in registration order.
    pub(crate) fn task_support(&self) -> Vec<crate::protocol::tasks::TaskSupport> {
        let editor = self.editor();
        let tools = editor.tools.all();
        tools
            .into_iter()
            .map(|(tool, _)| tool.definition.task)
            .collect()
    }

    #[cfg(feature = "gateway")]
    /// Registers the tool `definition`, listed as `listed` and also called by `aliases` (see
    /// [`super::listed`]).
    pub(crate) fn add_listed_tool(
        &self,
        definition: ToolDefinition,
        listed: crate::protocol::tools::Tool,
        aliases: Vec<&'static str>,
    ) -> Result<(), InvalidSignature> {
        self.change(ChangedList::Tools, |e| {
            let added = e
                .tools
                .add_listed(definition, &e.overrides, listed, aliases);
            let changed = added.is_ok();
            (added, changed)
        })
    }

    #[cfg(feature = "gateway")]
    /// Registers the prompt `definition`, listed as `listed`.
    pub(crate) fn add_listed_prompt(
        &self,
        definition: PromptDefinition,
        listed: crate::protocol::prompts::Prompt,
    ) -> Result<(), InvalidSignature> {
        self.change(ChangedList::Prompts, |e| {
            let added = e
                .prompts
                .add_listed(definition, &e.overrides, listed, Vec::new());
            let changed = added.is_ok();
            (added, changed)
        })
    }

    #[cfg(feature = "gateway")]
    /// Registers the resource (or template) `definition`, listed as `listed`.
    pub(crate) fn add_listed_resource(
        &self,
        definition: ResourceDefinition,
        listed: super::resource_kind::ResourceListing,
    ) -> Result<(), InvalidSignature> {
        self.change(ChangedList::Resources, |e| {
            let added = e
                .resources
                .add_listed(definition, &e.overrides, listed, Vec::new());
            let changed = added.is_ok();
            (added, changed)
        })
    }

    /// Adds the entries of `meta` to the `_meta` of the listing of `list`'s entry `key`.
    pub(crate) fn add_listing_meta(
        &self,
        list: ChangedList,
        key: &str,
        meta: Map<String, Value>,
    ) -> Result<(), MetaRefused> {
        self.change(list, |e| {
            let added = match list {
                ChangedList::Tools => e.tools.add_listing_meta(key, meta),
                ChangedList::Prompts => e.prompts.add_listing_meta(key, meta),
                ChangedList::Resources => e.resources.add_listing_meta(key, meta),
            };
            let changed = added.is_ok();
            (added, changed)
        })
    }

    /// Lets the tool `key` also be called `alias` (never listed); `false` when there is no such
    /// tool.
    pub(crate) fn add_tool_alias(&self, key: &str, alias: &'static str) -> bool {
        self.change(ChangedList::Tools, |e| {
            let added = e.tools.add_alias(key, alias);
            (added, added)
        })
    }

    /// Changes the `_meta` of the listing of the entry `key` of `list` with `edit`; `false`
    /// when there is no such entry.
    pub(crate) fn edit_listing_meta(
        &self,
        list: ChangedList,
        key: &str,
        edit: impl FnOnce(&mut Map<String, Value>),
    ) -> bool {
        self.change(list, |e| {
            let edited = match list {
                ChangedList::Tools => e.tools.edit_listing_meta(key, edit),
                ChangedList::Prompts => e.prompts.edit_listing_meta(key, edit),
                ChangedList::Resources => e.resources.edit_listing_meta(key, edit),
            };
            (edited, edited)
        })
    }

    /// Forgets the entry `key` of `list`; `false` when there is none.
    pub(crate) fn remove(&self, list: ChangedList, key: &str) -> bool {
        self.change(list, |e| {
            let removed = match list {
                ChangedList::Tools => e.tools.remove(key),
                ChangedList::Prompts => e.prompts.remove(key),
                ChangedList::Resources => e.resources.remove(key),
            };
            (removed, removed)
        })
    }

    /// Enables or disables the entry `key` of `list`; `false` when there is none or it already
    /// is.
    pub(crate) fn set_enabled(&self, list: ChangedList, key: &str, enabled: bool) -> bool {
        self.change(list, |e| {
            let changed = match list {
                ChangedList::Tools => e.tools.set_enabled(key, enabled),
                ChangedList::Prompts => e.prompts.set_enabled(key, enabled),
                ChangedList::Resources => e.resources.set_enabled(key, enabled),
            };
            (changed, changed)
        })
    }

    /// Runs `edit` (which says whether it changed `list`); once serving, publishes the changed
    /// view and then announces the change.
    fn change<R>(&self, list: ChangedList, edit: impl FnOnce(&mut Editor) -> (R, bool)) -> R {
        let mut editor = self.editor();
        let (outcome, changed) = edit(&mut editor);
        let announce = changed && editor.serving;
        if announce {
            self.publish(&editor, list);
        }
        drop(editor);
        if announce {
            self.notifier.list_changed(list);
        }
        outcome
    }

    /// Publishes a snapshot with `list`'s view rebuilt (called with the editor locked, so
    /// publications follow the order of the edits).
    fn publish(&self, editor: &Editor, list: ChangedList) {
        let mut next = Snapshot::clone(&self.live.load());
        let page_size = editor.page_size;
        match list {
            ChangedList::Tools => next.tools = Arc::new(editor.tools.view(page_size)),
            ChangedList::Prompts => next.prompts = Arc::new(editor.prompts.view(page_size)),
            ChangedList::Resources => next.resources = Arc::new(editor.resources.view(page_size)),
        }
        self.live.store(Arc::new(next));
    }
}

/// Registers every entry of `from` into `into` under its new key (none: left out, served here
/// already), recording what became what.
fn adopt_all<K: Kind>(
    from: &Registry<K>,
    into: &mut Registry<K>,
    kind: HandlerKind,
    rename: &impl Fn(HandlerKind, &str) -> Option<&'static str>,
    overrides: &Overrides,
    adopted: &mut Vec<(HandlerKind, &'static str, &'static str)>,
) -> Result<(), InvalidSignature> {
    for (entry, enabled) in from.all() {
        let was = entry.definition.key();
        let Some(key) = rename(kind, was) else {
            continue;
        };
        if into.contains(key) {
            return Err(InvalidSignature::new(format!(
                "the mounted {noun} '{was}' would be '{key}', and this server has a {noun} '{key}' \
                 already",
                noun = K::NOUN
            )));
        }
        into.adopt(&entry, key, enabled, overrides)?;
        adopted.push((kind, was, key));
    }
    Ok(())
}
