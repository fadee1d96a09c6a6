//! Noticing a child's first output: over stdio the `Auto` probe's clock starts there, so the
//! time a server takes to start (`npx` fetching a package, a JVM warming up) is not taken for
//! silence.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::io::{AsyncRead, ReadBuf};
use tokio::sync::watch;

/// Set once the server has written anything; cheap to clone.
#[derive(Clone)]
pub(crate) struct FirstOutput(watch::Sender<bool>);

impl FirstOutput {
    /// Nothing seen yet.
    pub(crate) fn new() -> Self {
        Self(watch::Sender::new(false))
    }

    /// The server wrote something.
    pub(crate) fn seen(&self) {
        self.0
            .send_if_modified(|seen| !std::mem::replace(seen, true));
    }

    /// Resolves once the server has written something.
    pub(crate) async fn wait(&self) {
        let mut seen = self.0.subscribe();
        // The sender lives in `self`: the wait ends only when something was seen.
        let _ = seen.wait_for(|seen| *seen).await;
    }
}

/// A reader that reports its first bytes to a [`FirstOutput`].
pub(crate) struct Noticing<R> {
    inner: R,
    output: Option<FirstOutput>,
}

impl<R> Noticing<R> {
    /// Reads `inner`, telling `output` when the first bytes arrive.
    pub(crate) fn new(inner: R, output: FirstOutput) -> Self {
        Self {
            inner,
            output: Some(output),
        }
    }
}

impl<R: AsyncRead + Unpin> AsyncRead for Noticing<R> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        if buf.filled().len() > before
            && let Some(output) = this.output.take()
        {
            output.seen();
        }
        polled
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn the_first_bytes_are_noticed() {
        let (mut writer, reader) = tokio::io::duplex(64);
        let output = FirstOutput::new();
        let mut reader = Noticing::new(reader, output.clone());
        let waiting = tokio::spawn({
            let output = output.clone();
            async move { output.wait().await }
        });
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(!waiting.is_finished(), "nothing was written yet");
        writer.write_all(b"hello\n").await.unwrap();
        let mut buf = [0u8; 6];
        reader.read_exact(&mut buf).await.unwrap();
        tokio::time::timeout(Duration::from_secs(5), waiting)
            .await
            .expect("the wait ends once bytes arrived")
            .unwrap();
    }
}
