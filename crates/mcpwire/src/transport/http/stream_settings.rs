//! [`HttpServer`]'s bound on resumed streams: how many `GET`s with `Last-Event-ID` one
//! 2025-11-25 session holds open on a replica.

use super::builder::HttpServer;

impl HttpServer {
    /// The most resumed request streams (`GET` with `Last-Event-ID`) one session holds open on
    /// this replica (default 8; at least 1). One more ends the oldest, as a new standalone GET
    /// ends the one before; a new resume of a stream already resumed ends that one whatever
    /// the count. With a fleet, each replica follows a stream another one runs for at most
    /// that many GETs of the session, all on one Redis connection.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// let server = McpServer::new("demo").http().max_resumed_streams(4);
    /// # drop(server);
    /// ```
    pub fn max_resumed_streams(mut self, streams: usize) -> Self {
        self.settings.max_resumed_streams = streams;
        self
    }
}
