//! The extensions a server offers: their capability entries and the methods they serve, as the
//! builder records them and the router looks methods up.

use super::eras::Eras;
use super::intercept::{CalledTool, ToolCallInterceptor};
use super::listen::ListenHook;
use super::method::ExtensionMethod;
use crate::error::InvalidSignature;
use crate::protocol::methods::Method;
use crate::protocol::{Era, ServerCapabilities};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::Arc;

/// One extension's capability entry.
struct Declared {
    id: &'static str,
    settings: Value,
    eras: Eras,
}

/// One extension method, bound.
#[derive(Clone)]
pub(crate) struct Bound {
    pub(crate) method: &'static str,
    pub(crate) extension: &'static str,
    pub(crate) eras: Eras,
    /// Its results may be reused like a list's (2026-07-28 `ttlMs`/`cacheScope`).
    pub(crate) cacheable: bool,
    pub(crate) handler: Arc<dyn ExtensionMethod>,
}

/// The code of a method being bound, and whether its results are cacheable.
pub(crate) struct Binding {
    pub(crate) handler: Arc<dyn ExtensionMethod>,
    pub(crate) cacheable: bool,
}

/// The extensions a server offers.
#[derive(Default)]
pub(crate) struct Extensions {
    declared: Vec<Declared>,
    methods: HashMap<&'static str, Bound>,
    /// The `tools/call` hooks, asked in the order they were installed.
    interceptors: Vec<Arc<dyn ToolCallInterceptor>>,
    /// The `subscriptions/listen` hooks, asked in the order they were installed.
    listen_hooks: Vec<Arc<dyn ListenHook>>,
}

impl Extensions {
    /// Declares the extension `id` with `settings`, offered on `eras`.
    pub(crate) fn declare(
        &mut self,
        id: &'static str,
        settings: Value,
        eras: Eras,
    ) -> Result<(), InvalidSignature> {
        self.check_new(id)?;
        self.declared.push(Declared { id, settings, eras });
        Ok(())
    }

    /// `Ok` when the extension `id` is not installed yet.
    pub(crate) fn check_new(&self, id: &str) -> Result<(), InvalidSignature> {
        match self.declared.iter().any(|declared| declared.id == id) {
            true => Err(InvalidSignature::new(format!(
                "extension '{id}' is installed twice"
            ))),
            false => Ok(()),
        }
    }

    /// Binds `method` to the extension `extension`, offered on `eras`. A method the core serves
    /// itself, or one already bound, is refused.
    pub(crate) fn bind(
        &mut self,
        extension: &'static str,
        method: &'static str,
        eras: Eras,
        Binding { handler, cacheable }: Binding,
    ) -> Result<(), InvalidSignature> {
        let core_method = Method::of(method).is_some_and(|known| !known.is_extension_method());
        if core_method {
            return Err(InvalidSignature::new(format!(
                "extension '{extension}': '{method}' is a method of the core protocol"
            )));
        }
        if let Some(taken) = self.methods.get(method) {
            return Err(InvalidSignature::new(format!(
                "extension '{extension}': '{method}' is served by '{}' already",
                taken.extension
            )));
        }
        let bound = Bound {
            method,
            extension,
            eras,
            cacheable,
            handler,
        };
        self.methods.insert(method, bound);
        Ok(())
    }

    /// The extensions declared, by identifier.
    pub(crate) fn ids(&self) -> Vec<&'static str> {
        self.declared.iter().map(|declared| declared.id).collect()
    }

    /// Adds a `tools/call` hook.
    pub(crate) fn intercept_tool_calls(&mut self, interceptor: Arc<dyn ToolCallInterceptor>) {
        self.interceptors.push(interceptor);
    }

    /// Adds a `subscriptions/listen` hook.
    pub(crate) fn listen_to(&mut self, hook: Arc<dyn ListenHook>) {
        self.listen_hooks.push(hook);
    }

    /// The `subscriptions/listen` hooks.
    pub(crate) fn listen_hooks(&self) -> &[Arc<dyn ListenHook>] {
        &self.listen_hooks
    }

    /// The `tools/call` hooks that want calls of `tool` on `era`.
    pub(crate) fn interceptors_of(
        &self,
        tool: &CalledTool,
        era: Era,
    ) -> Option<Vec<Arc<dyn ToolCallInterceptor>>> {
        let wanting: Vec<_> = (self.interceptors.iter())
            .filter(|interceptor| interceptor.wants(tool, era))
            .cloned()
            .collect();
        (!wanting.is_empty()).then_some(wanting)
    }

    /// The method `name` as served on `era`, when an extension offered there binds it.
    pub(crate) fn method(&self, name: &str, era: Era) -> Option<&Bound> {
        self.methods
            .get(name)
            .filter(|bound| bound.eras.contains(era))
    }

    /// Declares every extension offered on `era` in `capabilities.extensions`.
    pub(crate) fn advertise(&self, capabilities: &mut ServerCapabilities, era: Era) {
        for declared in self.declared.iter().filter(|d| d.eras.contains(era)) {
            capabilities
                .extensions
                .get_or_insert_with(Default::default)
                .insert(declared.id.to_owned(), declared.settings.clone());
        }
    }

    /// Takes in the extensions of a mounted server: one this server does not offer joins it
    /// with its methods; one it offers already stays as it is here, if it is declared the same
    /// (settings and revisions), and its methods here serve both. Why not, naming the
    /// extension: the same one declared otherwise, or a method another extension here serves.
    pub(crate) fn adopt(&mut self, mounted: Extensions) -> Result<(), String> {
        if !mounted.interceptors.is_empty() || !mounted.listen_hooks.is_empty() {
            return Err("its extensions hook into calls: install them on this server".into());
        }
        for declared in mounted.declared {
            match self.declared.iter().find(|d| d.id == declared.id) {
                Some(here) if here.settings == declared.settings && here.eras == declared.eras => {}
                Some(_) => {
                    return Err(format!(
                        "extension '{}' is installed here with other settings",
                        declared.id
                    ));
                }
                None => {
                    let id = declared.id;
                    let methods = (mounted.methods.values()).filter(|b| b.extension == id);
                    for bound in methods {
                        if let Some(taken) = self.methods.get(bound.method) {
                            return Err(format!(
                                "extension '{id}': '{}' is served by '{}' here",
                                bound.method, taken.extension
                            ));
                        }
                        self.methods.insert(bound.method, bound.clone());
                    }
                    self.declared.push(declared);
                }
            }
        }
        Ok(())
    }
}
