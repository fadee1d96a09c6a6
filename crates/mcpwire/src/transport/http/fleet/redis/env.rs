//! [`RedisBackend::from_env`]: the one place the library reads a fleet's configuration from the
//! environment (`MCP_REDIS_URL`, `MCP_REPLICA_ID`). The other variables a replica needs are
//! read where they are used: `MCP_REQUEST_STATE_KEYS` by `KeyRing::from_env`;
//! `MCP_TRUSTED_PROXIES` and `MCP_FORWARDING_HEADER` by `HttpServer::proxies_from_env`.

use super::super::super::shared::Unavailable;
use super::connection::RedisBackend;

/// The Redis URL: `redis://[:password@]host:port[/db]`, `rediss://…` or `unix:///path`.
const REDIS_URL_VAR: &str = "MCP_REDIS_URL";
/// This process's replica id, unique per process.
const REPLICA_ID_VAR: &str = "MCP_REPLICA_ID";

impl RedisBackend {
    /// The backend of a fleet configured by the environment, or `None` when `MCP_REDIS_URL` is
    /// unset or empty (one process, nothing shared):
    ///
    /// | variable | what | default |
    /// |---|---|---|
    /// | `MCP_REDIS_URL` | `redis://[:password@]host:port[/db]`, `rediss://…`, or `unix:///path/redis.sock` | unset: no fleet |
    /// | `MCP_REPLICA_ID` | this process's id ([`with_replica_id`](RedisBackend::with_replica_id)); unique per process | random per process |
    ///
    /// The prefix is `mcp:{server_name}:`: give every replica of a server the same name.
    ///
    /// # Errors
    ///
    /// As [`RedisBackend::connect`].
    ///
    /// ```no_run
    /// use mcpwire::McpServer;
    /// use mcpwire::transport::http::RedisBackend;
    ///
    /// # async fn run() -> mcpwire::Result<()> {
    /// let mut http = McpServer::new("shop").http();
    /// if let Some(backend) = RedisBackend::from_env("shop").await? {
    ///     http = http.fleet(&backend);
    /// }
    /// http.serve("0.0.0.0:8080").await
    /// # }
    /// ```
    pub async fn from_env(server_name: &str) -> Result<Option<Self>, Unavailable> {
        let url = match std::env::var(REDIS_URL_VAR) {
            Ok(url) if !url.is_empty() => url,
            _ => return Ok(None),
        };
        let backend = Self::connect(&url, format!("mcp:{server_name}:")).await?;
        Ok(Some(match std::env::var(REPLICA_ID_VAR) {
            Ok(id) if !id.is_empty() => backend.with_replica_id(id),
            _ => backend,
        }))
    }
}
