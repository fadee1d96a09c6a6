//! The stdio transport: one JSON-RPC message per line on stdin and stdout. Nothing else is
//! written to stdout; logs go to stderr.

use super::stdio_threads::{stdin_lines, stdout_writer};
use crate::context::Outbound;
use crate::dispatch::connection::serve;
use crate::error::Result;
use crate::server::McpServer;
use crate::wire::lines::{read_lines, write_lines};

impl McpServer {
    /// Serves one client over stdin/stdout until stdin closes, then lets in-flight requests
    /// finish and returns.
    ///
    /// # Errors
    ///
    /// When start-up (a lifespan builder) fails, or writing to stdout fails.
    ///
    /// # Examples
    ///
    /// ```no_run
    /// use mcpwire::prelude::*;
    ///
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> &'static str { "hello" }
    ///
    /// #[tokio::main]
    /// async fn main() -> mcpwire::Result<()> {
    ///     McpServer::new("hello").tool(hello)?.serve_stdio().await
    /// }
    /// ```
    pub async fn serve_stdio(self) -> Result<()> {
        let core = self.build().await?;
        let (outbound, lines) = Outbound::channel(core.limits.max_queued_messages);
        // stdin and stdout on threads of their own; tokio's, should a thread not start.
        let written = match stdout_writer(lines) {
            Ok(ended) => Written::Thread(ended),
            Err(lines) => Written::Task(tokio::spawn(write_lines(tokio::io::stdout(), lines))),
        };
        match stdin_lines(core.limits.max_message_bytes) {
            Some(input) => serve(core, input, outbound).await,
            None => {
                let input = read_lines(tokio::io::stdin(), core.limits.max_message_bytes);
                serve(core, input, outbound).await
            }
        }
        written.ended().await
    }

    /// Serves one client over any pair of byte streams (a socket, a pipe), newline-delimited as
    /// on stdio.
    ///
    /// # Errors
    ///
    /// When start-up fails, or writing to `writer` fails.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    /// use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() {
    /// let (client, server_end) = tokio::io::duplex(64 * 1024);
    /// let (reader, writer) = tokio::io::split(server_end);
    /// tokio::spawn(McpServer::new("piped").serve_streams(reader, writer));
    /// let (client_reader, mut client_writer) = tokio::io::split(client);
    /// let ping = b"{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    /// client_writer.write_all(ping).await.unwrap();
    /// let reply = BufReader::new(client_reader).lines().next_line().await.unwrap();
    /// assert_eq!(reply.as_deref(), Some(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
    /// # }
    /// ```
    pub async fn serve_streams<R, W>(self, reader: R, writer: W) -> Result<()>
    where
        R: tokio::io::AsyncRead + Unpin + Send + 'static,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let core = self.build().await?;
        let (outbound, lines) = Outbound::channel(core.limits.max_queued_messages);
        let written = Written::Task(tokio::spawn(write_lines(writer, lines)));
        let input = read_lines(reader, core.limits.max_message_bytes);
        serve(core, input, outbound).await;
        written.ended().await
    }
}

/// Where the server's lines are written out: a task, or stdout's own thread.
enum Written {
    Task(tokio::task::JoinHandle<std::io::Result<()>>),
    Thread(tokio::sync::oneshot::Receiver<std::io::Result<()>>),
}

impl Written {
    /// How writing ended, once every line is out.
    async fn ended(self) -> Result<()> {
        let ended = match self {
            Written::Task(task) => task.await.map_err(|join| join.to_string()),
            Written::Thread(thread) => thread.await.map_err(|_| "the stdout thread ended".into()),
        };
        match ended {
            Ok(result) => result.map_err(Into::into),
            Err(why) => Err(std::io::Error::other(why).into()),
        }
    }
}
