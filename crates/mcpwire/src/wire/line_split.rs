//! Where one newline-delimited message ends: the newline found with `memchr`, a line longer
//! than the limit reported once and skipped up to its newline. What `read_lines` decodes with.

use bytes::{Buf, BytesMut};

/// The line found in a buffer.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Split {
    /// A whole line, without its newline.
    Line(BytesMut),
    /// A line longer than the limit began: it is skipped up to its newline (reported once).
    TooLong,
}

/// Splits lines of at most `max_length` bytes (newline not counted) off a growing buffer.
#[derive(Debug)]
pub(crate) struct LineSplitter {
    max_length: usize,
    /// Where to go on looking for the newline: the bytes before it have none.
    next_index: usize,
    /// Skipping the rest of a line that was too long.
    is_discarding: bool,
}

impl LineSplitter {
    pub(crate) fn new(max_length: usize) -> Self {
        Self {
            max_length,
            next_index: 0,
            is_discarding: false,
        }
    }

    /// The next line in `buf`, taken off it; `None` until its newline has come.
    pub(crate) fn next(&mut self, buf: &mut BytesMut) -> Option<Split> {
        loop {
            // Never look further than one byte past the longest line.
            let read_to = self.max_length.saturating_add(1).min(buf.len());
            let found = memchr::memchr(b'\n', &buf[self.next_index..read_to]);
            match (self.is_discarding, found) {
                (true, Some(offset)) => {
                    buf.advance(self.next_index + offset + 1);
                    self.is_discarding = false;
                    self.next_index = 0;
                }
                (true, None) => {
                    buf.advance(read_to);
                    self.next_index = 0;
                    if buf.is_empty() {
                        return None;
                    }
                }
                (false, Some(offset)) => {
                    let end = self.next_index + offset;
                    self.next_index = 0;
                    let mut line = buf.split_to(end + 1);
                    line.truncate(end);
                    return Some(Split::Line(line));
                }
                (false, None) if buf.len() > self.max_length => {
                    self.is_discarding = true;
                    return Some(Split::TooLong);
                }
                (false, None) => {
                    self.next_index = read_to;
                    return None;
                }
            }
        }
    }

    /// At the end of the input: the next line, or what is left without a newline.
    pub(crate) fn last(&mut self, buf: &mut BytesMut) -> Option<Split> {
        if let Some(split) = self.next(buf) {
            return Some(split);
        }
        if buf.is_empty() {
            return None;
        }
        self.next_index = 0;
        Some(Split::Line(buf.split_to(buf.len())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(max: usize, chunks: &[&[u8]]) -> Vec<Result<String, ()>> {
        let mut splitter = LineSplitter::new(max);
        let mut buf = BytesMut::new();
        let mut out = Vec::new();
        let mut push = |split| match split {
            Split::Line(line) => out.push(Ok(String::from_utf8(line.to_vec()).unwrap())),
            Split::TooLong => out.push(Err(())),
        };
        for chunk in chunks {
            buf.extend_from_slice(chunk);
            while let Some(split) = splitter.next(&mut buf) {
                push(split);
            }
        }
        while let Some(split) = splitter.last(&mut buf) {
            push(split);
        }
        out
    }

    #[test]
    fn splits_at_each_newline_across_chunks() {
        let got = lines(64, &[b"{\"a\":1}\n{\"b\"", b":2}\n\n", b"tail"]);
        let want = ["{\"a\":1}", "{\"b\":2}", "", "tail"].map(|l| Ok(l.to_owned()));
        assert_eq!(got, want);
    }

    #[test]
    fn a_line_over_the_limit_is_reported_once_and_skipped_to_its_newline() {
        let got = lines(4, &[b"1234\n12345", b"6789", b"0\nok\n"]);
        assert_eq!(got, [Ok("1234".to_owned()), Err(()), Ok("ok".to_owned())]);
        let got = lines(4, &[b"123456789\nok\n"]);
        assert_eq!(got, [Err(()), Ok("ok".to_owned())]);
    }
}
