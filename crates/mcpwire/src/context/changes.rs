//! Change notifications: a tool, prompt or resource list changed, or a resource was updated.
//! Published by handlers ([`Context`](crate::Context)) or by the application
//! ([`McpServer::notifier`](crate::McpServer::notifier)); delivered on 2026-07-28 to the
//! `subscriptions/listen` streams that asked for them, and on 2025-11-25 to each session
//! (stdio, or the HTTP GET stream).

use crate::protocol::list_changed::ChangedList;
use tokio::sync::broadcast;

/// How many changes a slow listener may fall behind before it misses some.
const BACKLOG: usize = 256;

/// One change.
///
/// # Examples
///
/// ```
/// use mcpwire::context::Change;
/// use mcpwire::protocol::ChangedList;
///
/// let changes = [
///     Change::List(ChangedList::Tools),
///     Change::ResourceUpdated("notes://today".into()),
/// ];
/// let described: Vec<String> = changes
///     .iter()
///     .map(|change| match change {
///         Change::List(list) => list.method().to_owned(),
///         Change::ResourceUpdated(uri) => format!("updated {uri}"),
///     })
///     .collect();
/// assert_eq!(described, ["notifications/tools/list_changed", "updated notes://today"]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// A list of tools, prompts or resources changed.
    List(ChangedList),
    /// The resource with this URI changed.
    ResourceUpdated(String),
}

/// Publishes changes to every connected client that wants them. Cheap to clone.
///
/// ```
/// use mcpwire::prelude::*;
/// use mcpwire::protocol::ChangedList;
///
/// let server = McpServer::new("shop");
/// let notifier = server.notifier();
/// // Later, e.g. from a background task that reloaded the catalogue:
/// notifier.resource_updated("shop://catalogue");
/// notifier.list_changed(ChangedList::Resources);
/// ```
#[derive(Clone, Debug)]
pub struct Notifier {
    /// Every change, wherever it was made.
    sender: broadcast::Sender<Change>,
    /// The changes made in this process, for the fleet bus to pass to other replicas.
    local: broadcast::Sender<Change>,
}

impl Default for Notifier {
    fn default() -> Self {
        Self {
            sender: broadcast::channel(BACKLOG).0,
            local: broadcast::channel(BACKLOG).0,
        }
    }
}

impl Notifier {
    /// Announces that a list changed. Clients hear it only from a server that declares
    /// `listChanged`, that is one that holds a [`Catalog`](crate::server::Catalog), whose own
    /// changes are announced without this call; a server without one never changes its lists,
    /// and the announcement goes nowhere.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use mcpwire::protocol::ChangedList;
    ///
    /// let server = McpServer::new("plugins");
    /// let notifier = server.notifier();
    /// // A plugin was loaded: its tools appear.
    /// notifier.list_changed(ChangedList::Tools);
    /// ```
    pub fn list_changed(&self, list: ChangedList) {
        self.announce(Change::List(list));
    }

    /// Announces that the resource `uri` changed.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// let notifier = McpServer::new("files").notifier();
    /// // A file watcher saw a change.
    /// notifier.resource_updated("file:///project/README.md");
    /// ```
    pub fn resource_updated(&self, uri: impl Into<String>) {
        self.announce(Change::ResourceUpdated(uri.into()));
    }

    /// A change made here: to this process's listeners, and to the fleet's.
    fn announce(&self, change: Change) {
        if self.local.receiver_count() > 0 {
            let _ = self.local.send(change.clone());
        }
        let _ = self.sender.send(change);
    }

    #[cfg(feature = "http")]
    /// A change another replica made: to this process's listeners only.
    pub(crate) fn deliver_from_fleet(&self, change: Change) {
        let _ = self.sender.send(change);
    }

    #[cfg(feature = "http")]
    /// The changes made in this process from now on.
    pub(crate) fn subscribe_local(&self) -> broadcast::Receiver<Change> {
        self.local.subscribe()
    }

    /// Every change from now on.
    pub(crate) fn subscribe(&self) -> broadcast::Receiver<Change> {
        self.sender.subscribe()
    }
}
