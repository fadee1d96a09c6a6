//! What a [`RedisBackend`] hands out: every shared store, on its one connection and under its
//! one prefix, each command bounded by its one timeout.

use super::bus::RedisBus;
use super::connection::RedisBackend;
use super::events::RedisEvents;
use super::sessions::RedisSessions;
use crate::layer::{RateBuckets, RedisBuckets};
use crate::request_state::RedisReplayGuard;
use crate::tasks::{RedisStoreOn, RedisTaskStore};
use crate::transport::http::{EventStore, FleetBus, SessionStore};

impl RedisBackend {
    /// The 2025-11-25 session records, shared by every replica on this backend (what
    /// [`HttpServer::fleet`](crate::transport::HttpServer::fleet) sets with
    /// [`HttpServer::session_store`](crate::transport::HttpServer::session_store)).
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::RedisBackend;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = RedisBackend::connect("redis://127.0.0.1:6379", "mcp:shop").await?;
    /// let http = McpServer::new("shop")
    ///     .http()
    ///     .session_store(backend.session_store())
    ///     .fleet_bus(backend.bus())
    ///     .event_store(backend.event_store())
    ///     .replica_id(backend.process());
    /// # drop(http);
    /// # Ok(()) }
    /// ```
    pub fn session_store(&self) -> impl SessionStore {
        RedisSessions::new(self.inner.clone())
    }

    /// The event logs of resumable streams, one Redis stream per session, read by any replica
    /// a client resumes on. See [`RedisBackend::session_store`] for an example.
    pub fn event_store(&self) -> impl EventStore {
        RedisEvents::new(self.inner.clone())
    }

    /// The bus between the replicas: Redis pub/sub on the channel `{prefix}bus`, with a
    /// subscriber connection of its own per subscription. See [`RedisBackend::session_store`]
    /// for an example.
    pub fn bus(&self) -> impl FleetBus {
        RedisBus::new(self.inner.clone())
    }

    /// Tasks shared by every replica on this backend, under `{prefix}task:…` (see
    /// [`RedisTaskStore`]): set it with [`McpServer::task_store`](crate::McpServer::task_store)
    /// to tune it ([`RedisTaskStore::lease`], …); [`HttpServer::fleet`](crate::transport::HttpServer::fleet)
    /// sets one with the defaults. Its signal subscriber and lease refresher run on the runtime
    /// that connected the backend, and stop when the store is dropped.
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::RedisBackend;
    /// use std::time::Duration;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = RedisBackend::connect("redis://127.0.0.1:6379", "mcp:jobs").await?;
    /// let server = McpServer::new("jobs").task_store(backend.task_store().lease(Duration::from_secs(10)));
    /// server.http().fleet(&backend).serve("0.0.0.0:8080").await
    /// # }
    /// ```
    pub fn task_store(&self) -> RedisTaskStore {
        let inner = &self.inner;
        let on = RedisStoreOn {
            client: inner.client.clone(),
            connection: inner.connection.clone(),
            timeout: inner.timeout(),
            runtime: inner.runtime.clone(),
        };
        RedisTaskStore::on(on, self.name_prefix())
    }

    /// The `#[tool(once)]` record, under `{prefix}once:…`, so a call that completed on one
    /// replica is refused on all ([`HttpServer::fleet`](crate::transport::HttpServer::fleet)
    /// sets it unless the server has a guard).
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::RedisBackend;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = RedisBackend::connect("redis://127.0.0.1:6379", "mcp:shop").await?;
    /// let server = McpServer::new("shop").replay_guard(backend.replay_guard());
    /// # drop(server);
    /// # Ok(()) }
    /// ```
    pub fn replay_guard(&self) -> RedisReplayGuard {
        let inner = &self.inner;
        RedisReplayGuard::on(
            inner.connection.clone(),
            self.name_prefix(),
            inner.timeout(),
        )
    }

    /// Token buckets for the rate limit named `limit` (one name per limit: two limits with one
    /// name share their buckets), under `{prefix}rate:{limit}:…`, so every replica enforces one
    /// limit. Set them with [`RateLimit::buckets`](crate::layer::RateLimit::buckets).
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    /// use mcpwire::layer::RateLimit;
    /// use mcpwire::transport::http::RedisBackend;
    /// use std::time::Duration;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let backend = RedisBackend::connect("redis://127.0.0.1:6379", "mcp:shop").await?;
    /// let limit = RateLimit::per_principal(600, Duration::from_secs(60))
    ///     .buckets(backend.rate_limit_buckets("requests"));
    /// let server = McpServer::new("shop").layer(limit);
    /// # drop(server);
    /// # Ok(()) }
    /// ```
    pub fn rate_limit_buckets(&self, limit: &str) -> impl RateBuckets {
        let inner = &self.inner;
        let prefix = format!("{}rate:{limit}", inner.prefix);
        RedisBuckets::on(inner.connection.clone(), prefix, inner.timeout())
    }

    /// The prefix without its trailing `:`, as the stores below the transport write their keys
    /// (`{prefix}:{kind}…`): the same keys.
    fn name_prefix(&self) -> String {
        self.inner.prefix.trim_end_matches(':').to_owned()
    }
}
