//! An in-memory transport for tests and benchmarks: the client side exchanges JSON strings with
//! a server running in the same process.
//!
//! # Examples
//!
//! ```
//! use mcpwire::McpServer;
//!
//! # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
//! let mut client = McpServer::new("demo").serve_memory().await?;
//! let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).await;
//! assert_eq!(reply.as_deref(), Some(r#"{"jsonrpc":"2.0","id":1,"result":{}}"#));
//! # Ok(()) }
//! ```

use crate::context::Outbound;
use crate::dispatch::connection::{ReadError, serve};
use crate::error::Result;
use crate::server::McpServer;
use tokio::sync::mpsc;
use tokio_stream_shim::ReceiverStream;

/// The client end of an in-memory connection. Dropping it closes the connection.
///
/// # Examples
///
/// ```
/// use mcpwire::prelude::*;
///
/// /// Adds two numbers.
/// #[tool]
/// async fn add(a: i64, b: i64) -> i64 { a + b }
///
/// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
/// let mut client = McpServer::new("calc").tool(add)?.serve_memory().await?;
/// let reply = client
///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2,"b":3}}}"#)
///     .await
///     .unwrap();
/// let reply: serde_json::Value = serde_json::from_str(&reply).unwrap();
/// assert_eq!(reply["result"]["structuredContent"], serde_json::json!({"result": 5}));
/// # Ok(()) }
/// ```
pub struct MemoryClient {
    to_server: mpsc::UnboundedSender<String>,
    from_server: mpsc::Receiver<String>,
}

impl MemoryClient {
    /// Sends one message (a JSON-RPC request, notification or response, serialized).
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("demo").serve_memory().await?;
    /// client.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#); // no answer
    /// client.send(r#"{"jsonrpc":"2.0","id":7,"method":"ping"}"#);
    /// assert_eq!(client.recv().await.as_deref(), Some(r#"{"jsonrpc":"2.0","id":7,"result":{}}"#));
    /// # Ok(()) }
    /// ```
    pub fn send(&self, message: impl Into<String>) {
        let _ = self.to_server.send(message.into());
    }

    /// The next message from the server, or `None` once the server is gone.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("demo").serve_memory().await?;
    /// client.send(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
    /// client.send(r#"{"jsonrpc":"2.0","id":2,"method":"ping"}"#);
    /// let (first, second) = (client.recv().await.unwrap(), client.recv().await.unwrap());
    /// assert!(first.contains(r#""id":1"#) && second.contains(r#""id":2"#));
    /// # Ok(()) }
    /// ```
    pub async fn recv(&mut self) -> Option<String> {
        self.from_server.recv().await
    }

    /// Sends a request and returns the next message: its response when the tool sends no
    /// notifications first.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::McpServer;
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("demo").serve_memory().await?;
    /// let reply = client.request(r#"{"jsonrpc":"2.0","id":1,"method":"no/such/method"}"#).await.unwrap();
    /// assert!(reply.contains(r#""code":-32601"#));
    /// # Ok(()) }
    /// ```
    pub async fn request(&mut self, message: impl Into<String>) -> Option<String> {
        self.send(message);
        self.recv().await
    }
}

#[cfg(feature = "client")]
impl MemoryClient {
    /// Both channel ends, for the client's in-memory transport.
    pub(crate) fn into_parts(self) -> (mpsc::UnboundedSender<String>, mpsc::Receiver<String>) {
        (self.to_server, self.from_server)
    }
}

impl McpServer {
    /// Starts serving one in-memory connection on the current runtime and returns its client
    /// end.
    ///
    /// ```
    /// # use mcpwire::prelude::*;
    /// /// Says hello.
    /// #[tool]
    /// async fn hello() -> String { "hello".into() }
    ///
    /// # #[tokio::main(flavor = "current_thread")] async fn main() -> mcpwire::Result<()> {
    /// let mut client = McpServer::new("demo").tool(hello)?.serve_memory().await?;
    /// let reply = client
    ///     .request(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"hello"}}"#)
    ///     .await
    ///     .unwrap();
    /// assert!(reply.contains(r#""text":"hello""#));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// When start-up (a lifespan builder) fails.
    pub async fn serve_memory(self) -> Result<MemoryClient> {
        let core = self.build().await?;
        let (to_server, incoming) = mpsc::unbounded_channel::<String>();
        let (outbound, from_server) = Outbound::channel(core.limits.max_queued_messages);
        let input = ReceiverStream(incoming);
        tokio::spawn(serve(core, input, outbound));
        Ok(MemoryClient {
            to_server,
            from_server,
        })
    }
}

mod tokio_stream_shim {
    use super::ReadError;
    use futures_util::Stream;
    use std::pin::Pin;
    use std::task::{Context, Poll};
    use tokio::sync::mpsc::UnboundedReceiver;

    /// Messages from the client end, as the connection reads them.
    pub(super) struct ReceiverStream(pub(super) UnboundedReceiver<String>);

    impl Stream for ReceiverStream {
        type Item = Result<String, ReadError>;

        fn poll_next(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            self.0.poll_recv(cx).map(|message| message.map(Ok))
        }
    }
}
