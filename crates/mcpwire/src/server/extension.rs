//! [`Extension`]: a module that plugs an MCP extension into a server, and [`Install`], what it
//! plugs in with ([`McpServer::extension`]).

use super::builder::McpServer;
use super::prompt::IntoPrompt;
use super::registry::MetaRefused;
use super::resource::IntoResource;
use super::tool::IntoTool;
use crate::error::InvalidSignature;
use crate::extension::registry::Binding;
use crate::extension::{Eras, ExtensionMethod};
use crate::protocol::list_changed::ChangedList;
use serde_json::{Map, Value};
use std::sync::Arc;

/// An MCP extension as a module: it declares its identifier and, when installed
/// ([`McpServer::extension`]), contributes its capability entry, its methods, and the tools,
/// prompts and resources it serves. See [`mcpwire::extension`](crate::extension) for an example.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not an MCP extension",
    label = "`McpServer::extension` takes an `Extension`",
    note = "implement `mcpwire::server::Extension` for `{Self}`: its `ID` and an `install` that \
            adds its settings and methods"
)]
pub trait Extension {
    /// The identifier clients negotiate (`io.modelcontextprotocol/skills`).
    const ID: &'static str;

    /// Adds the extension to the server being built.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when something it adds is refused (a method another extension
    /// serves, a tool whose name is taken, a broken folder of content): the server is not built.
    fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature>;
}

/// What an [`Extension`] installs itself with: the server being built, on behalf of one
/// extension.
pub struct Install<'a> {
    pub(super) id: &'static str,
    pub(super) server: &'a mut McpServer,
    settings: Value,
    eras: Eras,
    methods: Vec<(&'static str, Binding)>,
}

impl Install<'_> {
    /// The extension's settings object, declared as its capability entry (default `{}`).
    pub fn settings(&mut self, settings: Value) -> &mut Self {
        self.settings = settings;
        self
    }

    /// The revisions the extension is offered on (default [`Eras::BOTH`]).
    pub fn offered_on(&mut self, eras: Eras) -> &mut Self {
        self.eras = eras;
        self
    }

    /// Serves `method` with `handler`, on the revisions the extension is offered on. Installing
    /// fails when `method` is one of the core protocol's, or another extension serves it.
    pub fn method(&mut self, method: &'static str, handler: impl ExtensionMethod) -> &mut Self {
        let handler = Arc::new(handler);
        let cacheable = false;
        self.methods.push((method, Binding { handler, cacheable }));
        self
    }

    /// Serves `method` with `handler`, as [`method`](Install::method) does, for a method whose
    /// results clients may reuse like a list's: on 2026-07-28 they carry `ttlMs` (the server's
    /// [`list_ttl`](McpServer::list_ttl)) and `cacheScope` (`private` for an authenticated
    /// caller, `public` otherwise).
    pub fn cacheable_method(
        &mut self,
        method: &'static str,
        handler: impl ExtensionMethod,
    ) -> &mut Self {
        let handler = Arc::new(handler);
        let cacheable = true;
        self.methods.push((method, Binding { handler, cacheable }));
        self
    }

    /// Registers a tool, as [`McpServer::tool`] does.
    ///
    /// # Errors
    ///
    /// As [`McpServer::tool`].
    pub fn tool<Kind>(&mut self, tool: impl IntoTool<Kind>) -> Result<&mut Self, InvalidSignature> {
        self.server.add_tool(tool.into_tool())?;
        Ok(self)
    }

    /// Registers a prompt, as [`McpServer::prompt`] does.
    ///
    /// # Errors
    ///
    /// As [`McpServer::prompt`].
    pub fn prompt<Kind>(
        &mut self,
        prompt: impl IntoPrompt<Kind>,
    ) -> Result<&mut Self, InvalidSignature> {
        self.server.add_prompt(prompt.into_prompt())?;
        Ok(self)
    }

    /// Registers a resource or resource template, as [`McpServer::resource`] does.
    ///
    /// # Errors
    ///
    /// As [`McpServer::resource`].
    pub fn resource<Kind>(
        &mut self,
        resource: impl IntoResource<Kind>,
    ) -> Result<&mut Self, InvalidSignature> {
        self.server.add_resource(resource.into_resource())?;
        Ok(self)
    }

    /// Adds the entries of `meta` to the `_meta` of the tool `name` as `tools/list` shows it
    /// (MCP Apps points a tool at its view so: `_meta.ui.resourceUri`). The tool must be
    /// registered already, by the server or by this extension; its other `_meta` entries stay.
    ///
    /// The entries belong to the tool's registration: disabling and enabling it keeps them; a
    /// tool removed and added again through a [`Catalog`](super::Catalog) is listed without
    /// them.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when no tool is registered as `name` (register it before installing
    /// the extension), or its `_meta` has one of the keys already.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::server::{Extension, Install};
    /// use serde_json::json;
    ///
    /// /// Tags one tool with its owner (`_meta["example.com/owner"]`).
    /// struct Owner(&'static str, &'static str);
    ///
    /// impl Extension for Owner {
    ///     const ID: &'static str = "example.com/owner";
    ///
    ///     fn install(self, install: &mut Install<'_>) -> Result<(), InvalidSignature> {
    ///         let meta = json!({ "example.com/owner": self.1 });
    ///         install.tool_meta(self.0, meta.as_object().unwrap().clone())?;
    ///         Ok(())
    ///     }
    /// }
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let server = McpServer::new("calc").tool(add)?.extension(Owner("add", "maths"))?;
    /// # drop(server);
    /// let early = McpServer::new("calc").extension(Owner("add", "maths")).err().unwrap();
    /// assert!(early.message().contains("register it first"), "{early}");
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn tool_meta(
        &mut self,
        name: &str,
        meta: Map<String, Value>,
    ) -> Result<&mut Self, InvalidSignature> {
        self.add_listing_meta(ChangedList::Tools, "tool", name, meta)
    }

    /// Adds the entries of `meta` to the `_meta` of the resource (or resource template)
    /// registered as `uri`, as `resources/list` (or `resources/templates/list`) shows it, as
    /// [`tool_meta`](Install::tool_meta) does for a tool.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when no resource is registered as `uri`, or its `_meta` has one of
    /// the keys already.
    pub fn resource_meta(
        &mut self,
        uri: &str,
        meta: Map<String, Value>,
    ) -> Result<&mut Self, InvalidSignature> {
        self.add_listing_meta(ChangedList::Resources, "resource", uri, meta)
    }

    fn add_listing_meta(
        &mut self,
        list: ChangedList,
        noun: &str,
        key: &str,
        meta: Map<String, Value>,
    ) -> Result<&mut Self, InvalidSignature> {
        let id = self.id;
        let refused = |why: String| InvalidSignature::new(format!("extension '{id}': {why}"));
        match self.server.registries().add_listing_meta(list, key, meta) {
            Ok(()) => Ok(self),
            Err(MetaRefused::Unknown) => Err(refused(format!(
                "no {noun} is registered as '{key}' (register it first, before installing the \
                 extension)"
            ))),
            Err(MetaRefused::Taken(name)) => Err(refused(format!(
                "the {noun} '{key}' has '{name}' in its _meta already"
            ))),
        }
    }

    /// Registers a resource built by the crate's own extensions (not by `#[resource]`).
    pub(crate) fn resource_definition(
        &mut self,
        resource: super::resource::ResourceDefinition,
    ) -> Result<&mut Self, InvalidSignature> {
        self.server.add_resource(resource)?;
        Ok(self)
    }

    /// What the extension does when its server is mounted in another
    /// ([`McpServer::mount`]): carry what it keeps by name over to the names its entries have
    /// there. Without a hook, a server with the extension cannot be mounted.
    pub(crate) fn on_mount(
        &mut self,
        hook: impl Fn(&mut super::remount::Remount<'_>) -> Result<(), String> + Send + Sync + 'static,
    ) -> &mut Self {
        self.server.mount_hooks.add(self.id, Arc::new(hook));
        self
    }

    /// Marks the resource (or template) `key`, registered by the extension, as one it registers
    /// the same in every server that has it, its handler reading the server's shared state:
    /// a server mounted without a namespace in one that registers it too leaves its copy out
    /// ([`MountHooks::add_shared`](super::remount::MountHooks::add_shared)).
    #[cfg_attr(not(feature = "skills"), allow(dead_code))]
    pub(crate) fn shared_on_mount(&mut self, key: &'static str) -> &mut Self {
        self.server.mount_hooks.add_shared(key);
        self
    }

    /// Shares `value` with every handler and resolver, as [`McpServer::state`] does.
    pub fn state<T: Send + Sync + 'static>(&mut self, value: T) -> &mut Self {
        self.server.insert_state(value);
        self
    }
}

impl std::fmt::Debug for Install<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Install")
            .field("extension", &self.id)
            .field("eras", &self.eras)
            .finish_non_exhaustive()
    }
}

impl McpServer {
    /// Installs the extension `extension`: its capability entry (under
    /// `capabilities.extensions`, in `initialize` and `server/discover` on the revisions it is
    /// offered on), its methods, and what it registers.
    ///
    /// # Errors
    ///
    /// [`InvalidSignature`] when the extension is installed twice, one of its methods is a core
    /// method or another extension's, or something it registers is refused.
    ///
    /// # Examples
    ///
    /// See [`mcpwire::extension`](crate::extension).
    pub fn extension<E: Extension>(mut self, extension: E) -> Result<Self, InvalidSignature> {
        self.check_new_extension(E::ID)?;
        let mut install = Install {
            id: E::ID,
            server: &mut self,
            settings: Value::Object(Default::default()),
            eras: Eras::BOTH,
            methods: Vec::new(),
        };
        extension.install(&mut install)?;
        let Install {
            settings,
            eras,
            methods,
            ..
        } = install;
        self.declare_extension(E::ID, settings, eras)?;
        for (method, handler) in methods {
            self.bind_extension_method(E::ID, method, eras, handler)?;
        }
        Ok(self)
    }

    /// Whether the extension `id` is installed: with [`McpServer::extension`], or with a
    /// server mounted in this one. What code that installs an extension on a server it did
    /// not build asks first (a gateway, before it serves the skills of the servers behind it).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    /// use mcpwire::server::{Extension, Install};
    ///
    /// /// An extension that declares itself and adds nothing.
    /// struct Marker;
    ///
    /// impl Extension for Marker {
    ///     const ID: &'static str = "example.com/marker";
    ///
    ///     fn install(self, _: &mut Install<'_>) -> Result<(), InvalidSignature> {
    ///         Ok(())
    ///     }
    /// }
    ///
    /// let server = McpServer::new("shop");
    /// assert!(!server.offers_extension(Marker::ID));
    /// let server = server.extension(Marker)?;
    /// assert!(server.offers_extension(Marker::ID));
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn offers_extension(&self, id: &str) -> bool {
        self.extensions.ids().contains(&id)
    }
}
