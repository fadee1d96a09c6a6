//! [`HttpServer`]'s bounds on what one 2025-11-25 session keeps, and on how many sessions the
//! anonymous callers of one network hold.

use super::builder::HttpServer;

impl HttpServer {
    /// The most bytes a 2025-11-25 session keeps of its handshake: the client's
    /// `capabilities`, `clientInfo` and protocol version, as JSON (default 16 KiB). Every
    /// replica holds this for the session's life, and a fleet keeps it in its shared record, so
    /// a larger `initialize` is refused with `-32602` naming the size and the limit
    /// (`data.size`, `data.limit`), and no session is opened. Clients send a few hundred bytes.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_handshake_bytes(64 * 1024);
    /// # drop(server);
    /// ```
    pub fn max_handshake_bytes(mut self, bytes: usize) -> Self {
        self.settings.sessions.max_handshake_bytes = bytes;
        self
    }

    /// The most 2025-11-25 sessions the anonymous callers of one network (an IPv4 address, an
    /// IPv6 /64) hold at once (default 100); across the fleet when sessions are shared. Beyond
    /// it, the network's `initialize` replaces its own least recently used session (which ends
    /// on every replica). Behind a proxy, set [`HttpServer::trusted_proxies`], or every client
    /// counts as the proxy's network. Callers whose address is unknown (an application serving
    /// the router without `ConnectInfo`) are not counted per network.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_sessions_per_network(20);
    /// # drop(server);
    /// ```
    pub fn max_sessions_per_network(mut self, sessions: usize) -> Self {
        self.settings.sessions.max_per_network = sessions;
        self
    }
}
