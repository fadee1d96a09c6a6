//! [`HttpServer`]'s fleet settings: the session store and bus that let replicas share
//! 2025-11-25 sessions, and this replica's id.

use super::builder::HttpServer;
use super::shared::{FleetBus, SessionStore};
use std::sync::Arc;

impl HttpServer {
    /// Keeps 2025-11-25 sessions in `store`, shared with the other replicas that use it, so any
    /// replica serves any request of any session (see [`SessionStore`]). Pair it with a
    /// [`fleet_bus`](HttpServer::fleet_bus) (ended sessions, changes, the client's answers) and
    /// a shared [`event_store`](HttpServer::event_store) (resumable streams); `RedisFleet`
    /// (feature `redis`) sets all three with `HttpServer::fleet`.
    ///
    /// See [`SessionStore`] for an example.
    pub fn session_store(mut self, store: impl SessionStore) -> Self {
        self.settings.fleet.sessions = Some(Arc::new(store));
        self
    }

    /// Carries changes, ended sessions and the client's answers and cancellations between the
    /// replicas on `bus` (see [`FleetBus`]).
    ///
    /// See [`FleetBus`] for an example.
    pub fn fleet_bus(mut self, bus: impl FleetBus) -> Self {
        self.settings.fleet.bus = Some(Arc::new(bus));
        self
    }

    /// The largest client answer (a JSON-RPC response to one of the server's requests) passed
    /// on to the other replicas when this one is not waiting for it (default 1 MiB). Only an
    /// answer whose id has the form of another replica's request is passed on at all; a larger
    /// one is refused with `413` and the replica waiting for it gets a JSON-RPC error in its
    /// place (`-32600`, naming the size and the limit), never the answer itself.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_relayed_response_bytes(256 * 1024);
    /// # drop(server);
    /// ```
    pub fn max_relayed_response_bytes(mut self, bytes: usize) -> Self {
        self.settings.fleet.max_relayed_bytes = Some(bytes);
        self
    }

    /// This replica's id among the fleet's (default: random, drawn at start), as it tags its
    /// messages on the bus. Each process must have its own: two replicas with one id ignore
    /// each other's messages.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().replica_id("replica-1");
    /// # drop(server);
    /// ```
    pub fn replica_id(mut self, id: impl Into<String>) -> Self {
        self.settings.fleet.replica = Arc::from(id.into());
        self
    }
}
