//! [`HttpServer::fleet`]: one call that makes a server one replica of a fleet on a
//! [`RedisBackend`], both halves: the HTTP transport's (sessions, streams, questions, changes)
//! and the server's (tasks, the `#[tool(once)]` record).

use super::builder::HttpServer;
use super::fleet::RedisBackend;

impl HttpServer {
    /// Shares this server's state with every replica using the same [`RedisBackend`] (same
    /// Redis, same prefix), all on the backend's one connection: sets the transport's
    /// [`session_store`](HttpServer::session_store), [`fleet_bus`](HttpServer::fleet_bus),
    /// [`event_store`](HttpServer::event_store) and [`replica_id`](HttpServer::replica_id), and
    /// the server's [`task_store`](crate::McpServer::task_store) and
    /// [`replay_guard`](crate::McpServer::replay_guard) unless the server was given its own.
    /// A shared rate limit takes the backend's buckets
    /// ([`RedisBackend::rate_limit_buckets`]). *Available with the `redis` feature.*
    ///
    /// See [`RedisBackend`] for an example.
    pub fn fleet(mut self, backend: &RedisBackend) -> Self {
        if !self.server.has_task_store() {
            self.server = self.server.task_store(backend.task_store());
        }
        if !self.server.has_replay_guard() {
            self.server = self.server.replay_guard(backend.replay_guard());
        }
        self.replica_id(backend.process())
            .session_store(backend.session_store())
            .fleet_bus(backend.bus())
            .event_store(backend.event_store())
    }
}
