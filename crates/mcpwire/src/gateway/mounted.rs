//! What a running gateway shares with its handlers: the links to the backends, the routing
//! tables, and the catalog its entries are registered in. Mounting a backend lists its tools,
//! prompts, resources and templates and registers each under its front name.

use super::error::GatewayError;
use super::link::Link;
use super::names::{front_uri, rewrite_tool_meta, split_front_uri};
use super::routes::{Route, Table};
use crate::client::Client;
use crate::protocol::apps::UiToolMeta;
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
    /// Backend calls held open between a 2026-07-28 caller's rounds (`held.rs`).
    pub(crate) held: super::held::Held,
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
    /// The backend a read of `uri` leads to, and its URI there, found by `key`: the URI (or
    /// URI template) the catalog matched `uri` against, as the entry was registered.
    pub(crate) fn route_uri(&self, key: &str, uri: &str) -> Option<Route> {
        if let Some(route) = self.resources.route(key) {
            return Some(route);
        }
        let route = self.templates.route(key)?;
        let namespace = self.links[route.backend].backend.namespace.as_str();
        if namespace.is_empty() {
            return Some(Route {
                backend: route.backend,
                name: uri.to_owned(),
            });
        }
        let (shown, back) = split_front_uri(uri)?;
        (shown == namespace).then_some(Route {
            backend: route.backend,
            name: back,
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
            let tools: Vec<_> = (tools.into_iter())
                .filter(|t| settings.shows_tool(&t.name))
                .collect();
            // A backend's MCP Apps views call its tools by the names they were written with,
            // which the gateway cannot rewrite in their scripts: under a prefix, those names
            // are kept as aliases (never listed, found only while unambiguous).
            let views_call_own_names =
                !namespace.is_empty() && tools.iter().any(|t| UiToolMeta::of(t).is_some());
            for mut tool in tools {
                let front = settings.front_name(&tool.name);
                let original = std::mem::replace(&mut tool.name, front);
                if let Some(meta) = &mut tool.meta {
                    rewrite_tool_meta(namespace, meta);
                }
                let aliases = match views_call_own_names {
                    true => vec![original.clone()],
                    false => Vec::new(),
                };
                let front = tool.name.clone();
                self.add(
                    &self.tools,
                    "tool",
                    &front,
                    backend,
                    original,
                    on_collision,
                    || (self.catalog).add_listed_tool(tool, self.handlers.tool, &aliases),
                )?;
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
                let front = prompt.name.clone();
                self.add(
                    &self.prompts,
                    "prompt",
                    &front,
                    backend,
                    original,
                    on_collision,
                    || self.catalog.add_listed_prompt(prompt, self.handlers.prompt),
                )?;
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
                let front = resource.uri.clone();
                self.add(
                    &self.resources,
                    "resource",
                    &front,
                    backend,
                    original,
                    on_collision,
                    || {
                        self.catalog
                            .add_listed_resource(resource, self.handlers.resource)
                    },
                )?;
            }
            let templates = (client.list_resource_templates().await)
                .map_err(|e| listing("resource templates", e))?;
            for mut template in templates {
                let original = std::mem::take(&mut template.uri_template);
                template.uri_template = front_uri(namespace, &original);
                let front = template.uri_template.clone();
                // A template the front cannot register (one it cannot parse, one the front
                // serves itself) is left out, not fatal.
                self.add(
                    &self.templates,
                    "resource template",
                    &front,
                    backend,
                    original,
                    OnCollision::Skip,
                    || {
                        self.catalog
                            .add_listed_template(template, self.handlers.resource)
                    },
                )?;
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

    /// Claims `front` and registers it with `register`. When the catalog refuses it (the
    /// front server serves that name itself, or the listing is invalid) the claim is undone,
    /// so that [`unmount`](Mounted::unmount) never removes an entry the gateway did not
    /// register; the entry is then refused or (on `Skip`) logged and left out.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn add(
        &self,
        table: &Table,
        noun: &str,
        front: &str,
        backend: usize,
        original: String,
        on_collision: OnCollision,
        register: impl FnOnce() -> Result<(), crate::error::InvalidSignature>,
    ) -> Result<(), GatewayError> {
        if !self.claim(table, noun, front, backend, original, on_collision)? {
            return Ok(());
        }
        let Err(why) = register() else {
            return Ok(());
        };
        table.unclaim(front);
        let message = format!(
            "backend '{}': {noun} '{front}' is not served: {}",
            self.links[backend].backend.name,
            why.message()
        );
        match on_collision {
            OnCollision::Refuse => Err(GatewayError(message)),
            OnCollision::Skip => {
                tracing::warn!("{message}");
                Ok(())
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::gateway::Backend;
    use crate::protocol::tools::Tool;

    /// A gateway state over `backends` (never connected), in front of `server`.
    pub(crate) fn mounted(server: &crate::McpServer, backends: Vec<Backend>) -> Mounted {
        Mounted {
            links: backends.into_iter().map(Link::new).collect(),
            tools: Table::default(),
            prompts: Table::default(),
            resources: Table::default(),
            templates: Table::default(),
            catalog: server.catalog(),
            handlers: Handlers {
                tool: super::super::proxy::call_tool,
                prompt: super::super::proxy::get_prompt,
                resource: super::super::proxy::read_resource,
            },
            held: Default::default(),
        }
    }

    fn tool(name: &str) -> Tool {
        serde_json::from_value(serde_json::json!({"name": name, "inputSchema": {"type": "object"}}))
            .unwrap()
    }

    #[test]
    fn a_backend_cannot_take_over_or_remove_the_fronts_own_tool() {
        let server = crate::McpServer::new("front");
        let front = server.catalog();
        (front.add_listed_tool(tool("search"), super::super::proxy::call_tool, &[])).unwrap();
        let gateway = mounted(
            &server,
            vec![Backend::http("b", "http://127.0.0.1:1/mcp").namespace("")],
        );
        let add = |name: &str, on_collision| {
            gateway.add(
                &gateway.tools,
                "tool",
                name,
                0,
                name.to_owned(),
                on_collision,
                || front.add_listed_tool(tool(name), super::super::proxy::call_tool, &[]),
            )
        };
        let refused = add("search", OnCollision::Refuse).unwrap_err().to_string();
        assert!(
            refused.contains("'search'") && refused.contains("'b'"),
            "{refused}"
        );
        // On a reconnect the entry is skipped, and the others are still mounted.
        add("search", OnCollision::Skip).unwrap();
        add("other", OnCollision::Skip).unwrap();
        assert!(gateway.tools.route("search").is_none());
        assert!(gateway.tools.route("other").is_some());
        gateway.unmount(0);
        assert!(
            front.remove_tool("search"),
            "the front's own tool is still there"
        );
        assert!(
            !front.remove_tool("other"),
            "the backend's tool was removed"
        );
    }

    #[test]
    fn a_template_read_goes_to_the_backend_whose_template_matched() {
        let server = crate::McpServer::new("front");
        let backends = vec![
            Backend::http("plain", "http://127.0.0.1:1/mcp").namespace(""),
            Backend::http("shop", "http://127.0.0.1:1/mcp"),
        ];
        let gateway = mounted(&server, backends);
        let route = |backend, name: &str| Route {
            backend,
            name: name.to_owned(),
        };
        // The un-namespaced backend's template `docs://{owner}/{path}` matches
        // `docs://shop/readme` too: the matched template, not the first segment, decides.
        (gateway
            .templates
            .claim("docs://{owner}/{path}", route(0, "docs://{owner}/{path}")))
        .unwrap();
        (gateway
            .templates
            .claim("books://shop/{id}", route(1, "books://{id}")))
        .unwrap();
        let read = gateway
            .route_uri("docs://{owner}/{path}", "docs://shop/readme")
            .unwrap();
        assert_eq!(
            (read.backend, read.name.as_str()),
            (0, "docs://shop/readme")
        );
        let read = gateway
            .route_uri("books://shop/{id}", "books://shop/7")
            .unwrap();
        assert_eq!((read.backend, read.name.as_str()), (1, "books://7"));
        assert!(gateway.route_uri("nope://{x}", "nope://1").is_none());
    }
}
