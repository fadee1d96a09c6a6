//! [`HttpServer`]'s bound on what one 2025-11-25 session keeps.

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
}
