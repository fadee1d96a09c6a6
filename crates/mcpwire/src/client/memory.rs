//! The in-memory transport: a client talking to an [`McpServer`] in the same process.

use super::builder::ClientBuilder;
use super::client::Client;
use super::error::ClientError;
use super::transport::{BoxFuture, Outgoing, StreamGuard, Transport};
use crate::server::McpServer;
use std::sync::Mutex;
use tokio::sync::mpsc;

struct Memory {
    /// `None` once closed: the server then sees the end of its input.
    to_server: Mutex<Option<mpsc::UnboundedSender<String>>>,
}

impl Transport for Memory {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Option<StreamGuard>, ClientError>> {
        let sent = match &*self.to_server.lock().expect("memory lock") {
            Some(to_server) => to_server.send(message.body).is_ok(),
            None => false,
        };
        Box::pin(async move {
            match sent {
                true => Ok(None),
                false => Err(ClientError::Closed(None)),
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        self.to_server.lock().expect("memory lock").take();
        Box::pin(async {})
    }
}

impl ClientBuilder {
    /// Starts `server` on the current runtime and connects to it in memory.
    ///
    /// # Errors
    ///
    /// When the server fails to start, or the conversation cannot be opened.
    ///
    /// # Examples
    ///
    /// ```
    /// use mcpwire::client::{Client, EraChoice};
    /// use mcpwire::prelude::*;
    ///
    /// /// Adds two numbers.
    /// #[tool]
    /// async fn add(a: i64, b: i64) -> i64 { a + b }
    ///
    /// # #[tokio::main] async fn main() -> Result<(), Box<dyn std::error::Error>> {
    /// let server = McpServer::new("calc").tool(add)?;
    /// let client = Client::builder().era(EraChoice::Modern).connect_memory(server).await?;
    /// let sum: serde_json::Value = client.call_tool_as("add", serde_json::json!({"a": 2, "b": 3})).await?;
    /// assert_eq!(sum, serde_json::json!({"result": 5}));
    /// # Ok(()) }
    /// ```
    pub async fn connect_memory(self, server: McpServer) -> Result<Client, ClientError> {
        let memory = server
            .serve_memory()
            .await
            .map_err(|e| ClientError::Transport(e.to_string()))?;
        let (to_server, mut from_server) = memory.into_parts();
        let (inbox, incoming) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Some(message) = from_server.recv().await {
                if inbox.send(message).is_err() {
                    return;
                }
            }
        });
        let era = self.era;
        let memory = Memory {
            to_server: Mutex::new(Some(to_server)),
        };
        self.open(Box::new(memory), incoming, era).await
    }
}
