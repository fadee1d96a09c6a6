//! [`HttpServer::proxies_from_env`]: the trusted proxies and their forwarding header as the
//! environment says (`MCP_TRUSTED_PROXIES`, `MCP_FORWARDING_HEADER`), for a server run behind a
//! balancer by its operator (the examples, `mcpwire-cli gateway`).

use super::builder::HttpServer;
use super::proxies::ForwardingHeader;
use crate::error::{Error, Result};

/// Comma-separated addresses or networks of the trusted proxies.
const PROXIES_VAR: &str = "MCP_TRUSTED_PROXIES";
/// `x-forwarded-for` (the default) or `forwarded`.
const HEADER_VAR: &str = "MCP_FORWARDING_HEADER";

impl HttpServer {
    /// [`trusted_proxies`](HttpServer::trusted_proxies) from `MCP_TRUSTED_PROXIES`
    /// (comma-separated addresses or networks, e.g. `127.0.0.1,10.0.0.0/8`), and
    /// [`forwarding_header`](HttpServer::forwarding_header) from `MCP_FORWARDING_HEADER`
    /// (`x-forwarded-for`, the default, or `forwarded`). Unset variables change nothing.
    ///
    /// # Errors
    ///
    /// [`Error::Startup`] naming `MCP_FORWARDING_HEADER` when it is neither header. (An entry of
    /// `MCP_TRUSTED_PROXIES` that is neither an address nor a network fails start-up, as with
    /// [`trusted_proxies`](HttpServer::trusted_proxies).)
    ///
    /// # Examples
    ///
    /// ```
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// // SAFETY: single-threaded doctest.
    /// unsafe {
    ///     std::env::set_var("MCP_TRUSTED_PROXIES", "127.0.0.1, 10.0.0.0/8");
    ///     std::env::set_var("MCP_FORWARDING_HEADER", "forwarded");
    /// }
    /// let router = mcpwire::McpServer::new("demo").http().proxies_from_env()?.into_router().await?;
    /// # drop(router);
    /// unsafe { std::env::set_var("MCP_FORWARDING_HEADER", "x-real-ip") };
    /// assert!(mcpwire::McpServer::new("demo").http().proxies_from_env().is_err());
    /// # Ok(()) }
    /// ```
    pub fn proxies_from_env(self) -> Result<Self> {
        let mut http = self;
        if let Ok(proxies) = std::env::var(PROXIES_VAR) {
            let entries: Vec<&str> = (proxies.split(','))
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .collect();
            http = http.trusted_proxies(entries);
        }
        if let Ok(name) = std::env::var(HEADER_VAR) {
            let header = ForwardingHeader::from_name(&name).ok_or_else(|| {
                Error::Startup(format!(
                    "{HEADER_VAR}={name:?}: expected x-forwarded-for or forwarded"
                ))
            })?;
            http = http.forwarding_header(header);
        }
        Ok(http)
    }
}
