//! stdin and stdout on threads of their own. tokio's `Stdin` and `Stdout` hand every read and
//! every write to its blocking pool (a task spawned, a thread woken, the caller woken back); a
//! thread that only reads stdin, and one that only writes stdout, cost one hand-over per
//! message instead (`docs/benchmarks.md`, "stdio on threads of its own").
//!
//! The reader reads ahead at most [`LINES_AHEAD`] messages and [`READ_AHEAD_BYTES`] (a longer
//! message goes alone, once the server took the ones before it). It blocks in `read` until stdin has
//! more or closes, as any reader of stdin must; it is a plain thread, so it never holds up the
//! runtime's shutdown (tokio's blocking read does).

use crate::wire::line_split::LineSplitter;
use crate::wire::lines::{ReadError, line_of};
use bytes::BytesMut;
use futures_util::Stream;
use std::io::{Read, Write};
use std::sync::{Arc, Condvar, Mutex};
use std::task::Poll;
use tokio::sync::{mpsc, oneshot};

/// How many messages the reader reads ahead of the server.
const LINES_AHEAD: usize = 32;
/// How many bytes of messages the reader reads ahead of the server.
const READ_AHEAD_BYTES: usize = 1024 * 1024;
/// The most one `read` of stdin takes.
const READ_SIZE: usize = 64 * 1024;

/// The lines of stdin, read on a thread of their own: each at most `max_bytes`, a longer one or
/// one that is not UTF-8 reported once and skipped. `None` when the thread cannot be started.
pub(crate) fn stdin_lines(
    max_bytes: usize,
) -> Option<impl Stream<Item = Result<String, ReadError>> + Unpin + Send + 'static> {
    let (lines, mut received) = mpsc::channel(LINES_AHEAD);
    let ahead = Arc::new(ReadAhead::default());
    let reader_ahead = Arc::clone(&ahead);
    std::thread::Builder::new()
        .name("mcpwire-stdin".into())
        .spawn(move || read_stdin(max_bytes, &lines, &reader_ahead))
        .ok()?;
    let taker = Taker(ahead);
    Some(futures_util::stream::poll_fn(move |cx| {
        let polled = received.poll_recv(cx);
        if let Poll::Ready(Some(line)) = &polled {
            taker.0.release(bytes_of(line));
        }
        polled
    }))
}

/// The server's end of the read-ahead: when the server drops its lines, a reader that waits for
/// room is let go (its next send then fails, and it ends).
struct Taker(Arc<ReadAhead>);

impl Drop for Taker {
    fn drop(&mut self) {
        self.0.close();
    }
}

/// The bytes a line holds while it waits for the server.
fn bytes_of(line: &Result<String, ReadError>) -> usize {
    line.as_ref().map_or(0, String::len)
}

/// The bytes of the lines read and not yet taken by the server.
#[derive(Default)]
struct ReadAhead {
    state: Mutex<Queued>,
    taken: Condvar,
}

#[derive(Default)]
struct Queued {
    bytes: usize,
    /// Whether the reader waits for the server to take some.
    waiting: bool,
    /// Whether the server dropped its lines: nothing will be taken any more.
    closed: bool,
}

impl ReadAhead {
    /// Waits (the reader) until `bytes` more fit in [`READ_AHEAD_BYTES`], or nothing is queued,
    /// and counts them.
    fn reserve(&self, bytes: usize) {
        let mut queued = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while !queued.closed && queued.bytes > 0 && queued.bytes + bytes > READ_AHEAD_BYTES {
            queued.waiting = true;
            queued = self.taken.wait(queued).unwrap_or_else(|e| e.into_inner());
        }
        queued.waiting = false;
        queued.bytes += bytes;
    }

    /// The server will take nothing more: a waiting reader is let go.
    fn close(&self) {
        let mut queued = self.state.lock().unwrap_or_else(|e| e.into_inner());
        queued.closed = true;
        if queued.waiting {
            self.taken.notify_one();
        }
    }

    /// The server took a line of `bytes`: the reader is woken if it waits.
    fn release(&self, bytes: usize) {
        let mut queued = self.state.lock().unwrap_or_else(|e| e.into_inner());
        queued.bytes = queued.bytes.saturating_sub(bytes);
        if queued.waiting {
            self.taken.notify_one();
        }
    }
}

/// Reads stdin until it closes (or fails, or nobody listens), sending each line.
fn read_stdin(
    max_bytes: usize,
    lines: &mpsc::Sender<Result<String, ReadError>>,
    ahead: &ReadAhead,
) {
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
            let line = line_of(split);
            ahead.reserve(bytes_of(&line));
            if lines.blocking_send(line).is_err() {
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_reader_waits_while_the_read_ahead_is_full_and_a_long_line_goes_alone() {
        let ahead = Arc::new(ReadAhead::default());
        ahead.reserve(READ_AHEAD_BYTES - 10);
        ahead.reserve(10);
        let (done, finished) = std::sync::mpsc::channel();
        let reader = Arc::clone(&ahead);
        std::thread::spawn(move || {
            reader.reserve(1);
            let _ = done.send(());
        });
        let still_waiting = finished.recv_timeout(Duration::from_millis(100));
        assert!(
            still_waiting.is_err(),
            "one byte more than the budget waits"
        );
        ahead.release(10);
        let released = finished.recv_timeout(Duration::from_secs(5));
        assert!(
            released.is_ok(),
            "the reader goes on once the server took a line"
        );
        ahead.release(READ_AHEAD_BYTES - 10 + 1);
        // Nothing queued: a line longer than the whole budget is let through, alone.
        ahead.reserve(3 * READ_AHEAD_BYTES);
        assert_eq!(ahead.state.lock().unwrap().bytes, 3 * READ_AHEAD_BYTES);
    }

    #[test]
    fn a_reader_waiting_for_room_is_let_go_when_the_server_drops_its_lines() {
        let ahead = Arc::new(ReadAhead::default());
        ahead.reserve(READ_AHEAD_BYTES);
        let (done, finished) = std::sync::mpsc::channel();
        let reader = Arc::clone(&ahead);
        std::thread::spawn(move || {
            reader.reserve(1);
            let _ = done.send(());
        });
        assert!(finished.recv_timeout(Duration::from_millis(100)).is_err());
        drop(Taker(ahead));
        let let_go = finished.recv_timeout(Duration::from_secs(5));
        assert!(let_go.is_ok(), "the reader is not left waiting");
    }
}
