//! [`HttpServer`]'s bounds on connections: how many the accept loop holds in total and from one
//! peer, and how long a connection may take to send a request's head (see
//! [`super::connections`]). They bound what [`HttpServer::serve`] and its kin accept; an
//! application that serves [`HttpServer::into_router`] itself sets its own.

use super::builder::HttpServer;
use std::time::Duration;

impl HttpServer {
    /// The most connections held at once (default 1 024; at least 1). Beyond it no connection
    /// is accepted until one ends: new ones wait in the listener's backlog. Keep it below the
    /// process's open-file limit (`ulimit -n`).
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_connections(10_000);
    /// # drop(server);
    /// ```
    pub fn max_connections(mut self, connections: usize) -> Self {
        self.connections.max = connections;
        self
    }

    /// The most connections held at once from one peer network: an IPv4 address, or an IPv6
    /// /64 (default 256; at least 1). One more is answered `503 Service Unavailable` with
    /// `Retry-After: 1` and closed before anything of it is read, so that one host cannot take
    /// every connection. Connections from a [trusted proxy](HttpServer::trusted_proxies) count
    /// in [`HttpServer::max_connections`] only: every client behind it shares its address.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// // Clients on one NAT'ed network share an address: give it more room.
    /// let server = McpServer::new("demo").http().max_connections(4_096).max_connections_per_peer(1_024);
    /// # drop(server);
    /// ```
    pub fn max_connections_per_peer(mut self, connections: usize) -> Self {
        self.connections.max_per_peer = connections;
        self
    }

    /// How long a connection may take to send a request's head (its request line and headers),
    /// counted from when the server waits for one, and how long a request's body may go without
    /// a byte (default 30 s). A connection that takes longer (sending its head a byte at a
    /// time, nothing between requests, or a body that stops halfway) is closed within twice
    /// the timeout. A body that keeps coming is read to its end (its size is bounded by
    /// [`HttpServer::max_body_bytes`]), and an answer runs as long as its handler.
    ///
    /// A [trusted proxy](HttpServer::trusted_proxies)'s connections are not timed out: the proxy
    /// reads each request's head whole before it forwards it, and closes the connections it
    /// keeps idle itself (closing one here would race the proxy's next request on it).
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// use std::time::Duration;
    ///
    /// let server = McpServer::new("demo").http().header_read_timeout(Duration::from_secs(10));
    /// # drop(server);
    /// ```
    pub fn header_read_timeout(mut self, timeout: Duration) -> Self {
        self.connections.header_read_timeout = timeout;
        self
    }
}
