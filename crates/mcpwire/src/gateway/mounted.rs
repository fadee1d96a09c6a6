//! What a running gateway shares with its handlers: the links to the backends, the routing
//! tables, and the catalog its entries are registered in. Mounting a backend lists its tools,
//! prompts, resources and templates and registers each under its front name.

use super::error::GatewayError;
use super::link::Link;
use super::names::{front_uri, rewrite_tool_meta, split_front_uri};
use super::routes::{Route, Table};
use crate::client::Client;
use crate::server::Catalog;
use crate::server::handler::HandlerCall;
use crate::server::prompt::PromptFuture;
use crate::server::resource::ResourceFuture;
use crate::server::tool::ToolFuture;

/// The gateway's shared state, found by its handlers in the server's state.
pub(crate) struct Mounted {
    pub(crate) links: Vec<Link>,
    pub(crate) tools: Table,
    pub(crate) prompts: Table,
    pub(crate) resources: Table,
    pub(crate) templates: Table,
    pub(crate) catalog: Catalog,
    pub(crate) handlers: Handlers,
}

/// The functions the registered entries run (`proxy.rs`).
pub(crate) struct Handlers {
    pub(crate) tool: fn(HandlerCall) -> ToolFuture,
    pub(crate) prompt: fn(HandlerCall) -> PromptFuture,
    pub(crate) resource: fn(HandlerCall) -> ResourceFuture,
}

/// How a collision is handled: refused (at start-up) or logged and skipped (a backend that
/// came back with a new entry).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum OnCollision {
    Refuse,
    Skip,
}

impl Mounted {
    /// The backend a URI shown in front leads to, and its URI there: the backend whose
    /// namespace is the URI's first segment, else the one mounted without a namespace.
    pub(crate) fn route_uri(&self, uri: &str) -> Option<Route> {
        if let Some(route) = self.resources.route(uri) {
            return Some(route);
        }
        if let Some((namespace, back)) = split_front_uri(uri)
            && let Some(backend) = (self.links.iter()).position(|link| {
                !link.backend.namespace.is_empty() && link.backend.namespace == namespace
            })
        {
            return Some(Route {
                backend,
                name: back,
            });
        }
        let backend = (self.links.iter()).position(|link| link.backend.namespace.is_empty())?;
        Some(Route {
            backend,
            name: uri.to_owned(),
        })
    }

    /// Removes the entries of `backend` from the tables and the catalog.
    pub(crate) fn unmount(&self, backend: usize) {
        for name in self.tools.release(backend) {
            self.catalog.remove_tool(&name);
        }
        for name in self.prompts.release(backend) {
            self.catalog.remove_prompt(&name);
        }
        for uri in self.resources.release(backend) {
            self.catalog.remove_resource(&uri);
        }
        for uri in self.templates.release(backend) {
            self.catalog.remove_resource(&uri);
        }
    }

    /// Lists the entries of `backend` (connected as `client`) and registers each under its
    /// front name.
    pub(crate) async fn mount(
        &self,
        backend: usize,
        client: &Client,
        on_collision: OnCollision,
    ) -> Result<(), GatewayError> {
        let settings = &self.links[backend].backend;
        let namespace = settings.namespace.as_str();
        let capabilities = client.server().capabilities;
        let listing = |what: &str, e: crate::client::ClientError| {
            GatewayError(format!(
                "backend '{}': cannot list its {what}: {e}",
                settings.name
            ))
        };
        if capabilities.tools.is_some() {
            let tools = client.list_tools().await.map_err(|e| listing("tools", e))?;
            for mut tool in tools.into_iter().filter(|t| settings.shows_tool(&t.name)) {
                let front = settings.front_name(&tool.name);
                let original = std::mem::replace(&mut tool.name, front);
                if let Some(meta) = &mut tool.meta {
                    rewrite_tool_meta(namespace, meta);
                }
                if self.claim(
                    &self.tools,
                    "tool",
                    &tool.name,
                    backend,
                    original,
                    on_collision,
                )? {
                    self.register(self.catalog.add_listed_tool(tool, self.handlers.tool))?;
                }
            }
        }
        if capabilities.prompts.is_some() {
            let prompts = client
                .list_prompts()
                .await
                .map_err(|e| listing("prompts", e))?;
            for mut prompt in prompts {
                let front = settings.front_name(&prompt.name);
                let original = std::mem::replace(&mut prompt.name, front);
                if self.claim(
                    &self.prompts,
                    "prompt",
                    &prompt.name,
                    backend,
                    original,
                    on_collision,
                )? {
                    self.register(self.catalog.add_listed_prompt(prompt, self.handlers.prompt))?;
                }
            }
        }
        if capabilities.resources.is_some() {
            let resources = client
                .list_resources()
                .await
                .map_err(|e| listing("resources", e))?;
            for mut resource in resources {
                let original = std::mem::take(&mut resource.uri);
                resource.uri = front_uri(namespace, &original);
                if self.claim(
                    &self.resources,
                    "resource",
                    &resource.uri,
                    backend,
                    original,
                    on_collision,
                )? {
                    self.register(
                        self.catalog
                            .add_listed_resource(resource, self.handlers.resource),
                    )?;
                }
            }
            let templates = (client.list_resource_templates().await)
                .map_err(|e| listing("resource templates", e))?;
            for mut template in templates {
                let original = std::mem::take(&mut template.uri_template);
                template.uri_template = front_uri(namespace, &original);
                if self.claim(
                    &self.templates,
                    "resource template",
                    &template.uri_template,
                    backend,
                    original,
                    on_collision,
                )? {
                    // A template the server cannot parse is left out, not fatal.
                    if let Err(why) = self
                        .catalog
                        .add_listed_template(template, self.handlers.resource)
                    {
                        tracing::warn!(backend = %settings.name, %why, "a resource template is not served");
                    }
                }
            }
        }
        Ok(())
    }

    /// Claims `front` for the entry `original` of `backend`; `false` when it is skipped.
    fn claim(
        &self,
        table: &Table,
        noun: &str,
        front: &str,
        backend: usize,
        original: String,
        on_collision: OnCollision,
    ) -> Result<bool, GatewayError> {
        let Err(taken) = table.claim(
            front,
            Route {
                backend,
                name: original.clone(),
            },
        ) else {
            return Ok(true);
        };
        let message = format!(
            "{noun} '{front}' would be served twice: as '{}' of backend '{}' and as '{original}' of backend '{}'; give one of them another namespace",
            taken.name, self.links[taken.backend].backend.name, self.links[backend].backend.name
        );
        match on_collision {
            OnCollision::Refuse => Err(GatewayError(message)),
            OnCollision::Skip => {
                tracing::warn!("{message}");
                Ok(false)
            }
        }
    }

    fn register(
        &self,
        added: Result<(), crate::error::InvalidSignature>,
    ) -> Result<(), GatewayError> {
        added.map_err(|why| GatewayError(why.message().to_owned()))
    }
}
