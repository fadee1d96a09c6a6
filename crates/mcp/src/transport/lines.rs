//! Newline-delimited JSON over any byte stream: reading with a length limit, writing with
//! batched flushes.

use crate::dispatch::connection::ReadError;
use futures_util::{Stream, StreamExt};
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, BufWriter};
use tokio::sync::mpsc::UnboundedReceiver;
use tokio_util::codec::{FramedRead, LinesCodec, LinesCodecError};

/// Lines of at most `max_bytes`; a longer line is reported once and skipped.
pub(crate) fn read_lines<R: AsyncRead + Unpin>(
    reader: R,
    max_bytes: usize,
) -> impl Stream<Item = Result<String, ReadError>> + Unpin {
    FramedRead::new(reader, LinesCodec::new_with_max_length(max_bytes)).map(|line| {
        line.map_err(|error| match error {
            LinesCodecError::MaxLineLengthExceeded => ReadError::TooLong,
            LinesCodecError::Io(error) => ReadError::Io(error),
        })
    })
}

/// Writes every queued line, flushing only when the queue is empty (one syscall per burst).
pub(crate) async fn write_lines<W: AsyncWrite + Unpin>(
    writer: W,
    mut lines: UnboundedReceiver<String>,
) -> std::io::Result<()> {
    let mut writer = BufWriter::new(writer);
    while let Some(line) = lines.recv().await {
        write_line(&mut writer, &line).await?;
        while let Ok(line) = lines.try_recv() {
            write_line(&mut writer, &line).await?;
        }
        writer.flush().await?;
    }
    writer.flush().await
}

async fn write_line<W: AsyncWrite + Unpin>(writer: &mut W, line: &str) -> std::io::Result<()> {
    writer.write_all(line.as_bytes()).await?;
    writer.write_all(b"\n").await
}
