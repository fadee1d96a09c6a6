//! [`McpServer::mount`]: another server's tools, prompts and resources (and its extensions'
//! MCP Apps views and skills) served by this one, under a namespace, with their resolvers,
//! scopes, middleware and task support as they were.

use super::builder::McpServer;
use super::lasting::lasting;
use super::namespace::{MAX_NAMESPACE, under_scheme, valid_namespace};
use super::remount::Remount;
use crate::error::InvalidSignature;
use crate::layer::service::HandlerKind;

impl McpServer {
    /// Serves `server`'s tools, prompts and resources (templates included) from this server,
    /// under `namespace`: a tool or prompt `search` as `{namespace}_search`, a resource
    /// `shop://stock/{isbn}` as `shop://{namespace}/stock/{isbn}` (the scheme kept, so `ui://`
    /// views stay `ui://`). An empty namespace mounts them as they are.
    ///
    /// What each entry had stays with it: its resolvers (and the questions they ask, on both
    /// revisions), its scopes, whether it runs as a task, whether it is enabled; and the
    /// mounted server's completer ([`completion`](McpServer::completion)) still answers for its
    /// own prompts and templates, asked under the names they had there, while this server's
    /// answers for the rest. The mounted
    /// server's server-wide layers wrap its own handlers only (inside this server's
    /// server-wide layers), then its per-handler layers; its shared state (`state`,
    /// `lifespan`) and its session-end hooks join this server's. Its name, limits, keys and
    /// task store give way to this server's. Change the mounted entries through this server's
    /// [`Catalog`](crate::server::Catalog) (one taken from the mounted server before mounting
    /// changes nothing that is served).
    ///
    /// Its extensions come along when they can be mounted: MCP Apps (its views served at their
    /// `ui://{namespace}/…` URIs, its tools pointing at them there and also called by their
    /// names in the mounted server, which its views' scripts use: aliases, never listed, found
    /// while no other tool has that name or alias) and Skills (feature
    /// `skills`): its skills at `skill://{namespace}/<skill-path>/…`, the namespace a first
    /// segment before each skill's path as SEP-2640 allows, so each skill keeps its name, front
    /// matter and files (their digests and sizes stay valid); `skills/list`, `skills/get`,
    /// `resources/directory/read` and `resources/read` serve them beside this server's own
    /// skills (install those before mounting). Either extension joins a server that lacks it.
    ///
    /// # Errors
    ///
    /// Refused, naming the cause, when: the namespace is not 0–64 characters of `A-Z a-z 0-9 _
    /// -`; a mounted entry would take a name this server has (naming both); a mounted view or
    /// skill would be served where one of this server's is (a skill at the same folder as
    /// another, or inside another's folder: naming both); both servers hold shared state of one
    /// type; the mounted server has an extension that cannot be mounted (one of your own:
    /// install it on this server; MCP Apps and Skills can), one installed here with other
    /// settings, a resolver override or an outer layer (each belongs to a whole server: set it
    /// on this one).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::prelude::*;
    ///
    /// /// Finds books by title.
    /// #[tool]
    /// async fn search(title: String) -> String { format!("found {title}") }
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// let catalogue = McpServer::new("catalogue").tool(search)?;
    /// let shop = McpServer::new("shop").tool(add)?.mount("books", catalogue)?;
    /// // The shop serves `add` and `books_search`.
    /// # drop(shop);
    /// # Ok::<(), InvalidSignature>(())
    /// ```
    pub fn mount(
        mut self,
        namespace: &str,
        server: McpServer,
    ) -> std::result::Result<Self, InvalidSignature> {
        let refused = |why: String| {
            let name = &server.info.name;
            InvalidSignature::new(format!("mounting '{name}' under '{namespace}': {why}"))
        };
        if let Some(why) = invalid(namespace) {
            return Err(refused(why));
        }
        let unmountable: Vec<&str> = (server.extensions.ids().into_iter())
            .filter(|id| !server.mount_hooks.has(id))
            .collect();
        if !unmountable.is_empty() {
            let why = format!(
                "its extensions {} cannot be mounted: install them on the server it is mounted in",
                unmountable.join(", ")
            );
            return Err(refused(why));
        }
        // An extension's resource registered the same in both servers is served by this one's
        // (its handler reads the state the extension's hook leaves here for both).
        let served_here: Vec<&str> = (server.mount_hooks.shared())
            .filter(|key| {
                namespace.is_empty() && self.registries.contains(HandlerKind::Resource, key)
            })
            .collect();
        let rename = |kind: HandlerKind, key: &str| match kind {
            HandlerKind::Resource if served_here.contains(&key) => None,
            _ if namespace.is_empty() => Some(lasting(key)),
            HandlerKind::Tool | HandlerKind::Prompt => Some(lasting(&format!("{namespace}_{key}"))),
            HandlerKind::Resource => Some(lasting(&namespaced_uri(namespace, key))),
        };
        let adopted = (self.registries)
            .adopt(&server.registries, rename)
            .map_err(|error| refused(error.to_string()))?;
        for task in server.registries.task_support() {
            self.tasks.note_tool(task);
        }
        (self.layers)
            .adopt(server.layers, &adopted)
            .map_err(|why| refused(why.to_owned()))?;
        (self.extensions)
            .adopt(server.extensions)
            .map_err(&refused)?;
        let mut mounted_state = server.state;
        let (hooks, shared) = server.mount_hooks.into_parts();
        for (id, hook) in hooks {
            let mut remount = Remount {
                namespace,
                adopted: &adopted,
                mounted_state: &mut mounted_state,
                outer_state: &mut self.state,
                outer_registries: &self.registries,
            };
            hook(&mut remount).map_err(|why| refused(format!("extension '{id}': {why}")))?;
            self.mount_hooks.add(id, hook);
        }
        for key in shared {
            self.mount_hooks.add_shared(key);
        }
        if !self.state.absorb(mounted_state) {
            let why = "both servers hold shared state of one type (`state`): keep it on one";
            return Err(refused(why.to_owned()));
        }
        (self.mounted_completers).mount(&adopted, server.completer, server.mounted_completers);
        self.startup.extend(server.startup);
        self.session_ends.extend(server.session_ends);
        Ok(self)
    }
}

/// Why `namespace` is refused; `None` when it is fine.
fn invalid(namespace: &str) -> Option<String> {
    (!valid_namespace(namespace)).then(|| {
        format!(
            "the namespace must be up to {MAX_NAMESPACE} characters from A-Z, a-z, 0-9, '_', '-'"
        )
    })
}

/// `uri` under `namespace`: the namespace as the first segment after `scheme://`; a URI
/// without a scheme gets it as its first segment.
fn namespaced_uri(namespace: &str, uri: &str) -> String {
    under_scheme(namespace, uri).unwrap_or_else(|| format!("{namespace}/{uri}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris_keep_their_scheme_under_the_namespace() {
        assert_eq!(
            namespaced_uri("books", "shop://stock/{isbn}"),
            "shop://books/stock/{isbn}"
        );
        assert_eq!(namespaced_uri("apps", "ui://cart"), "ui://apps/cart");
        assert_eq!(namespaced_uri("books", "notes"), "books/notes");
    }

    #[test]
    fn namespaces_are_what_hosts_accept_in_names() {
        assert!(invalid("").is_none());
        assert!(invalid("books-2_x").is_none());
        assert!(invalid("a/b").is_some());
        assert!(invalid(&"n".repeat(65)).is_some());
    }
}
