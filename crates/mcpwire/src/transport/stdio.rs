//! The stdio transport: one JSON-RPC message per line on stdin and stdout. Nothing else is
//! written to stdout; logs go to stderr.

use super::lines::{read_lines, write_lines};
use crate::context::Outbound;
use crate::dispatch::connection::serve;
use crate::error::Result;
use crate::server::McpServer;

impl McpServer {
    /// Serves one client over stdin/stdout until stdin closes, then lets in-flight requests
    /// finish and returns.
    ///
    /// # Errors
    ///
    /// When start-up (a lifespan builder) fails, or writing to stdout fails.
    pub async fn serve_stdio(self) -> Result<()> {
        self.serve_streams(tokio::io::stdin(), tokio::io::stdout())
            .await
    }

    /// Serves one client over any pair of byte streams (a socket, a pipe), newline-delimited as
    /// on stdio.
    ///
    /// # Errors
    ///
    /// When start-up fails, or writing to `writer` fails.
    pub async fn serve_streams<R, W>(self, reader: R, writer: W) -> Result<()>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let core = self.build().await?;
        let (outbound, lines) = Outbound::channel(core.limits.max_queued_messages);
        let writer = tokio::spawn(write_lines(writer, lines));
        let input = read_lines(reader, core.limits.max_message_bytes);
        serve(core, input, outbound).await;
        match writer.await {
            Ok(result) => result.map_err(Into::into),
            Err(join) => Err(std::io::Error::other(join.to_string()).into()),
        }
    }
}
