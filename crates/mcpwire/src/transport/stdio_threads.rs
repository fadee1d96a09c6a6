//! stdin and stdout on threads of their own. tokio's `Stdin` and `Stdout` hand every read and
//! every write to its blocking pool (a task spawned, a thread woken, the caller woken back); a
//! thread that only reads stdin, and one that only writes stdout, cost one hand-over per
//! message instead (`docs/benchmarks.md`, "stdio on threads of its own").
//!
//! The reader reads ahead at most [`LINES_AHEAD`] messages. It blocks in `read` until stdin has
//! more or closes, as any reader of stdin must; it is a plain thread, so it never holds up the
//! runtime's shutdown (tokio's blocking read does).

use crate::wire::line_split::LineSplitter;
use crate::wire::lines::{ReadError, line_of};
use bytes::BytesMut;
use futures_util::Stream;
use std::io::{Read, Write};
use tokio::sync::{mpsc, oneshot};

/// How many messages the reader reads ahead of the server.
const LINES_AHEAD: usize = 32;
/// The most one `read` of stdin takes.
const READ_SIZE: usize = 64 * 1024;

/// The lines of stdin, read on a thread of their own: each at most `max_bytes`, a longer one or
/// one that is not UTF-8 reported once and skipped. `None` when the thread cannot be started.
pub(crate) fn stdin_lines(
    max_bytes: usize,
) -> Option<impl Stream<Item = Result<String, ReadError>> + Unpin + Send + 'static> {
    let (lines, mut received) = mpsc::channel(LINES_AHEAD);
    std::thread::Builder::new()
        .name("mcpwire-stdin".into())
        .spawn(move || read_stdin(max_bytes, &lines))
        .ok()?;
    Some(futures_util::stream::poll_fn(move |cx| {
        received.poll_recv(cx)
    }))
}

/// Reads stdin until it closes (or fails, or nobody listens), sending each line.
fn read_stdin(max_bytes: usize, lines: &mpsc::Sender<Result<String, ReadError>>) {
    // Locked for each read, as tokio's reader does.
    let stdin = std::io::stdin();
    let mut splitter = LineSplitter::new(max_bytes);
    let mut buf = BytesMut::new();
    let mut chunk = vec![0; READ_SIZE];
    loop {
        let read = match stdin.lock().read(&mut chunk) {
            Ok(read) => read,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => {
                let _ = lines.blocking_send(Err(ReadError::Io(error)));
                return;
            }
        };
        let at_end = read == 0;
        buf.extend_from_slice(&chunk[..read]);
        loop {
            let split = match at_end {
                false => splitter.next(&mut buf),
                true => splitter.last(&mut buf),
            };
            let Some(split) = split else { break };
            if lines.blocking_send(line_of(split)).is_err() {
                return;
            }
        }
        if at_end {
            return;
        }
    }
}

/// Writes every line `lines` gives to stdout on a thread of its own, flushing when none is
/// queued; the receiver learns how it ended (when every sender is gone, or a write failed).
/// `Err(lines)` when the thread cannot be started.
pub(crate) fn stdout_writer(
    lines: mpsc::Receiver<String>,
) -> Result<oneshot::Receiver<std::io::Result<()>>, mpsc::Receiver<String>> {
    let (done, ended) = oneshot::channel();
    let (handed, taken) = std::sync::mpsc::sync_channel(1);
    let spawned = std::thread::Builder::new()
        .name("mcpwire-stdout".into())
        .spawn(move || {
            let Ok(lines) = taken.recv() else { return };
            let _ = done.send(write_stdout(lines));
        });
    match spawned {
        Ok(_) => {
            let _ = handed.send(lines);
            Ok(ended)
        }
        Err(_) => Err(lines),
    }
}

/// Writes each burst of queued lines with one lock of stdout and one flush, so that nothing
/// else in the process waits on stdout while the server has nothing to say.
fn write_stdout(mut lines: mpsc::Receiver<String>) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut burst = Vec::new();
    while let Some(line) = lines.blocking_recv() {
        burst.clear();
        add_line(&mut burst, &line);
        while let Ok(line) = lines.try_recv() {
            add_line(&mut burst, &line);
        }
        let mut out = stdout.lock();
        out.write_all(&burst)?;
        out.flush()?;
    }
    Ok(())
}

fn add_line(burst: &mut Vec<u8>, line: &str) {
    burst.extend_from_slice(line.as_bytes());
    burst.push(b'\n');
}
