//! Newline-delimited JSON over any byte stream: reading with a length limit, writing with
//! batched flushes. Both sides use it: the server on stdio, the client on a child's pipes.

use super::line_split::{LineSplitter, Split};
use bytes::BytesMut;
use futures_util::{Stream, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc::{Receiver, UnboundedReceiver};
use tokio_util::codec::{Decoder, FramedRead};

/// A message that could not be read off the transport.
#[derive(Debug)]
pub(crate) enum ReadError {
    /// The message was longer than the limit; it was skipped.
    TooLong,
    /// The message was not UTF-8; it was skipped.
    NotUtf8,
    /// The transport failed; the connection ends.
    Io(#[cfg_attr(not(feature = "server"), allow(dead_code))] std::io::Error),
}

/// Lines of at most `max_bytes`; a longer line, or one that is not UTF-8, is reported once and
/// skipped, and reading goes on with the next line.
pub(crate) fn read_lines<R: AsyncRead + Unpin>(
    reader: R,
    max_bytes: usize,
) -> impl Stream<Item = Result<String, ReadError>> + Unpin {
    let codec = BoundedLines(LineSplitter::new(max_bytes));
    FramedRead::new(reader, codec).map(|item| match item {
        Ok(line) => line,
        Err(error) => Err(ReadError::Io(error)),
    })
}

/// Newline-delimited lines decoded as UTF-8, where an over-long line and a line that is not
/// UTF-8 are items, not stream errors: `FramedRead` ends the stream after any decoding error,
/// and one bad line must not end the connection.
struct BoundedLines(LineSplitter);

/// A split line as the server reads it: UTF-8 (a trailing `\r` dropped), or why not.
pub(crate) fn line_of(split: Split) -> Line {
    match split {
        Split::Line(line) => {
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            String::from_utf8(line.to_vec()).map_err(|_| ReadError::NotUtf8)
        }
        Split::TooLong => Err(ReadError::TooLong),
    }
}

type Line = Result<String, ReadError>;

impl Decoder for BoundedLines {
    type Item = Line;
    type Error = std::io::Error;

    fn decode(&mut self, buf: &mut BytesMut) -> std::io::Result<Option<Line>> {
        Ok(self.0.next(buf).map(line_of))
    }

    fn decode_eof(&mut self, buf: &mut BytesMut) -> std::io::Result<Option<Line>> {
        Ok(self.0.last(buf).map(line_of))
    }
}

/// Writes every queued line, flushing only when the queue is empty (one syscall per burst).
pub(crate) async fn write_lines<W: AsyncWrite + Unpin>(
    writer: W,
    mut lines: impl LineQueue,
) -> std::io::Result<()> {
    let mut writer = BufWriter::new(writer);
    while let Some(line) = lines.recv().await {
        write_line(&mut writer, &line).await?;
        while let Some(line) = lines.try_next() {
            write_line(&mut writer, &line).await?;
        }
        writer.flush().await?;
    }
    writer.flush().await
}

/// The queue a writer drains: the server's bounded queues, or the client's unbounded one.
pub(crate) trait LineQueue {
    /// The next line, waiting for one; `None` once every sender is gone.
    fn recv(&mut self) -> impl std::future::Future<Output = Option<String>>;
    /// The next line if one is queued now.
    fn try_next(&mut self) -> Option<String>;
}

impl LineQueue for Receiver<String> {
    fn recv(&mut self) -> impl std::future::Future<Output = Option<String>> {
        Receiver::recv(self)
    }

    fn try_next(&mut self) -> Option<String> {
        self.try_recv().ok()
    }
}

impl LineQueue for UnboundedReceiver<String> {
    fn recv(&mut self) -> impl std::future::Future<Output = Option<String>> {
        UnboundedReceiver::recv(self)
    }

    fn try_next(&mut self) -> Option<String> {
        self.try_recv().ok()
    }
}

async fn write_line<W: AsyncWrite + Unpin>(writer: &mut W, line: &str) -> std::io::Result<()> {
    writer.write_all(line.as_bytes()).await?;
    writer.write_all(b"\n").await
}
