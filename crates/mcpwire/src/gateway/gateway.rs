//! `Gateway`: backends in front of one `McpServer`, and the supervisors that reopen them.

use super::backend::Backend;
use super::changes;
use super::completion;
use super::error::GatewayError;
use super::link::{Link, backoff};
use super::mounted::{Handlers, Mounted, OnCollision};
use super::names;
use super::proxy;
use super::routes::Table;
use super::skills;
use crate::server::McpServer;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// How often a supervisor whose backend is up checks that the gateway still runs.
const WATCH: Duration = Duration::from_secs(5);

/// How long a reopened connection must stay up for the backoff to start again from its first
/// wait; a backend lost sooner (a child that crashes on start) keeps backing off.
const STABLE: Duration = Duration::from_secs(30);

/// The attempts counted before the next reopen, after a connection that stayed up `up`.
fn attempts_after_loss(attempts: u32, up: Duration) -> u32 {
    if up >= STABLE { 0 } else { attempts }
}

/// Many MCP servers served as one: each backend's tools, prompts, resources and templates,
/// under its namespace, on an [`McpServer`] of yours (so its transports, authorization,
/// layers and telemetry apply in front).
///
/// Backends are reached with the crate's own client on the revision each speaks (`Auto`).
/// Names: `{namespace}{separator}{name}` for tools and prompts, `{scheme}://{namespace}/{rest}`
/// for resources and templates (a `ui://` view stays `ui://`, and a tool's reference to it
/// is rewritten). Calls are routed by the name they were registered under, never by splitting
/// a name. Two entries that would have the same name refuse the start, naming both.
///
/// A backend that cannot be reached at start-up, or is lost later, answers its calls with an
/// error naming it while the others serve; it is reopened after a backoff (200 ms doubling to
/// 30 s), and its entries are listed again (clients are told the lists changed).
///
/// # Examples
///
/// ```no_run
/// use mcpwire::McpServer;
/// use mcpwire::client::StdioServer;
/// use mcpwire::gateway::{Backend, Gateway};
///
/// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let server = Gateway::new()
///     .backend(Backend::stdio("everything", StdioServer::new("npx").args(["@modelcontextprotocol/server-everything"])))
///     .backend(Backend::http("shop", "http://127.0.0.1:8000/mcp").header("X-Api-Key", "k"))
///     .start(McpServer::new("gateway"))
///     .await?;
/// server.serve_stdio().await?;
/// # Ok(()) }
/// ```
#[derive(Debug, Default)]
pub struct Gateway {
    backends: Vec<Backend>,
}

impl Gateway {
    /// A gateway with no backend yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a backend.
    pub fn backend(mut self, backend: Backend) -> Self {
        self.backends.push(backend);
        self
    }

    /// Connects to every backend, registers their entries on `server`, and starts a supervisor
    /// per backend that reopens it when lost. Serve the returned server as any other.
    ///
    /// # Errors
    ///
    /// A [`GatewayError`] naming the backend: an invalid namespace or separator, two backends
    /// with one name or one namespace (`""` included), or an entry that would be served twice.
    pub async fn start(self, server: McpServer) -> Result<McpServer, GatewayError> {
        for (index, backend) in self.backends.iter().enumerate() {
            if let Some(why) = names::check(&backend.namespace, &backend.separator) {
                return Err(GatewayError(format!("backend '{}': {why}", backend.name)));
            }
            if let Some(twin) = self.backends[..index]
                .iter()
                .find(|b| b.name == backend.name)
            {
                return Err(GatewayError(format!(
                    "backend '{}' is named twice",
                    twin.name
                )));
            }
            if let Some(twin) = self.backends[..index]
                .iter()
                .find(|b| b.namespace == backend.namespace)
            {
                return Err(GatewayError(format!(
                    "backends '{}' and '{}' have the same namespace '{}'; give one of them another",
                    twin.name, backend.name, backend.namespace
                )));
            }
        }
        let catalog = server.catalog();
        let mounted = Arc::new(Mounted {
            links: self.backends.into_iter().map(Link::new).collect(),
            tools: Table::default(),
            prompts: Table::default(),
            resources: Table::default(),
            templates: Table::default(),
            catalog,
            handlers: Handlers {
                tool: proxy::call_tool,
                prompt: proxy::get_prompt,
                resource: proxy::read_resource,
            },
            held: Default::default(),
        });
        let opened =
            futures_util::future::join_all(mounted.links.iter().map(|link| link.connect(None)))
                .await;
        for (index, opened) in opened.into_iter().enumerate() {
            let link = &mounted.links[index];
            match opened {
                Ok(client) => {
                    mounted.mount(index, &client, OnCollision::Refuse).await?;
                    let opened = link.set_up(client.clone());
                    let follower = changes::follow(Arc::downgrade(&mounted), index, client, opened);
                    tokio::spawn(follower);
                }
                Err(error) => {
                    tracing::warn!(backend = %link.backend.name, %error, "a backend is unavailable; retrying");
                    link.set_down(error.to_string());
                }
            }
        }
        for index in 0..mounted.links.len() {
            tokio::spawn(supervise(Arc::downgrade(&mounted), index));
        }
        let server = skills::offer(server, &mounted)?;
        let (routes, own) = (Arc::downgrade(&mounted), server.completer());
        let server = server.with_completer(Arc::new(move |request, context| {
            Box::pin(completion::complete(
                routes.clone(),
                own.clone(),
                request,
                context,
            ))
        }));
        Ok(server.state(mounted))
    }
}

/// Reopens backend `index` whenever it is lost, after a backoff, and mounts its entries again;
/// ends once the gateway is gone.
async fn supervise(mounted: Weak<Mounted>, index: usize) {
    let mut attempts = 0;
    let mut up_since: Option<std::time::Instant> = None;
    loop {
        let Some(gateway) = mounted.upgrade() else {
            return;
        };
        let link = &gateway.links[index];
        if link.is_up() {
            let lost = Arc::clone(&link.lost);
            drop(gateway);
            let _ = tokio::time::timeout(WATCH, lost.notified()).await;
            continue;
        }
        drop(gateway);
        if let Some(since) = up_since.take() {
            attempts = attempts_after_loss(attempts, since.elapsed());
        }
        tokio::time::sleep(backoff(attempts)).await;
        let Some(gateway) = mounted.upgrade() else {
            return;
        };
        let link = &gateway.links[index];
        match link.connect(None).await {
            Ok(client) => {
                gateway.unmount(index);
                if let Err(error) = gateway.mount(index, &client, OnCollision::Skip).await {
                    tracing::warn!(backend = %link.backend.name, %error, "a reopened backend cannot be listed");
                }
                let opened = link.set_up(client.clone());
                tokio::spawn(changes::follow(mounted.clone(), index, client, opened));
                tracing::info!(backend = %link.backend.name, "a backend is back");
                // Counted until the connection has stayed up a while: a crash loop backs off.
                attempts = attempts.saturating_add(1);
                up_since = Some(std::time::Instant::now());
            }
            Err(error) => {
                attempts = attempts.saturating_add(1);
                tracing::debug!(backend = %link.backend.name, %error, attempts, "a backend is still unavailable");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_restarts_only_after_a_connection_stayed_up() {
        assert_eq!(attempts_after_loss(5, Duration::from_secs(1)), 5);
        assert_eq!(attempts_after_loss(5, STABLE), 0);
    }
}
