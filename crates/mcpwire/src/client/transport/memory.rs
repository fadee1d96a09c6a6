//! The in-memory transport: a client talking to an [`McpServer`] in the same process.

use super::{BoxFuture, Inbox, Outgoing, Sent, Transport};
use crate::client::error::ClientError;
use crate::server::McpServer;
use std::sync::Mutex;
use tokio::sync::mpsc;

pub(crate) struct Memory {
    /// `None` once closed: the server then sees the end of its input.
    to_server: Mutex<Option<mpsc::UnboundedSender<String>>>,
}

impl Transport for Memory {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Sent, ClientError>> {
        let sent = match &*self.to_server.lock().expect("memory lock") {
            Some(to_server) => to_server.send(message.body).is_ok(),
            None => false,
        };
        Box::pin(async move {
            match sent {
                true => Ok(Sent::Nothing),
                false => Err(ClientError::Closed(None)),
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        self.to_server.lock().expect("memory lock").take();
        Box::pin(async {})
    }
}

/// Starts `server` on the current runtime, connected to the returned transport and inbox.
pub(crate) async fn start(server: McpServer) -> Result<(Memory, Inbox), ClientError> {
    let memory = server
        .serve_memory()
        .await
        .map_err(|e| ClientError::Transport(e.to_string()))?;
    let (to_server, mut from_server) = memory.into_parts();
    let (inbox, incoming) = super::inbox();
    tokio::spawn(async move {
        while let Some(message) = from_server.recv().await {
            if inbox.send(message.into()).await.is_err() {
                return;
            }
        }
    });
    let memory = Memory {
        to_server: Mutex::new(Some(to_server)),
    };
    Ok((memory, incoming))
}
