//! Newline-delimited JSON-RPC over any pair of byte streams (a child's pipes, a socket, a
//! `tokio::io::duplex`), with the line framing the server uses too.

use super::{BoxFuture, Inbox, Outgoing, Sent, Transport};
use crate::client::error::ClientError;
use crate::wire::lines::{ReadError, read_lines, write_lines};
use futures_util::StreamExt;
use std::sync::Mutex;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::mpsc;

/// The longest line read.
pub(crate) const MAX_LINE: usize = 64 * 1024 * 1024;

/// The writing half: `None` once closed (the writer then ends, closing the stream).
pub(crate) struct Lines(Mutex<Option<mpsc::UnboundedSender<String>>>);

impl Lines {
    /// Starts the writer and the reader; the reader delivers each line to the returned channel.
    pub(crate) fn start<R, W>(reader: R, writer: W) -> (Lines, Inbox)
    where
        R: AsyncRead + Unpin + Send + 'static,
        W: AsyncWrite + Unpin + Send + 'static,
    {
        let (to_peer, lines) = mpsc::unbounded_channel();
        tokio::spawn(write_lines(writer, lines));
        let (inbox, incoming) = super::inbox();
        tokio::spawn(async move {
            let mut lines = read_lines(reader, MAX_LINE);
            while let Some(line) = lines.next().await {
                match line {
                    Ok(line) => {
                        if inbox.send(line.into()).await.is_err() {
                            return;
                        }
                    }
                    Err(ReadError::Io(_)) => return,
                    Err(_) => {} // one bad line; go on
                }
            }
        });
        (Lines(Mutex::new(Some(to_peer))), incoming)
    }

    /// Queues one line; `false` once closed.
    pub(crate) fn send(&self, line: String) -> bool {
        match &*self.0.lock().expect("lines lock") {
            Some(to_peer) => to_peer.send(line).is_ok(),
            None => false,
        }
    }

    /// Closes the writing half.
    pub(crate) fn close(&self) {
        self.0.lock().expect("lines lock").take();
    }
}

impl Transport for Lines {
    fn send(&self, message: Outgoing) -> BoxFuture<'_, Result<Sent, ClientError>> {
        let sent = Lines::send(self, message.body);
        Box::pin(async move {
            match sent {
                true => Ok(Sent::Nothing),
                false => Err(ClientError::Closed(None)),
            }
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        Lines::close(self);
        Box::pin(async {})
    }
}
