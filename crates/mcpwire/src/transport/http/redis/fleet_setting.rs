//! [`HttpServer::fleet`]: one call that shares a server's sessions, streams, questions and
//! changes through a [`RedisFleet`].

use super::super::builder::HttpServer;
use super::bus::RedisBus;
use super::connection::RedisFleet;
use super::events::RedisEvents;
use super::sessions::RedisSessions;

impl HttpServer {
    /// Shares this server's 2025-11-25 sessions, resumable streams, questions to the client and
    /// change notifications with every replica using the same [`RedisFleet`] (same Redis, same
    /// prefix): sets its [`session_store`](HttpServer::session_store),
    /// [`fleet_bus`](HttpServer::fleet_bus), [`event_store`](HttpServer::event_store) and
    /// [`replica_id`](HttpServer::replica_id). *Available with the `redis` feature.*
    ///
    /// See [`RedisFleet`] for an example.
    pub fn fleet(self, fleet: &RedisFleet) -> Self {
        let inner = fleet.inner.clone();
        self.replica_id(fleet.process())
            .session_store(RedisSessions::new(inner.clone()))
            .fleet_bus(RedisBus::new(inner.clone()))
            .event_store(RedisEvents::new(inner))
    }
}
