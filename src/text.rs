//! Streaming line reading with bounded memory.
//!
//! [`LineReader`] hands out one line at a time from any [`Read`], never holding more than its
//! buffer: a line longer than the caller's limit is returned cut to the limit (with
//! [`Line::truncated`] set) and the rest of it is skipped, so an enormous line costs no memory.

use std::io::{self, Read};

use crate::error::Position;

/// The first buffer's size.
const INITIAL_BUFFER: usize = 8 << 10;
/// The buffer's size once the input proves larger than the first buffer.
const LARGE_BUFFER: usize = 256 << 10;

/// One line of input, without its `\n` and without a `\r` right before it.
#[derive(Debug)]
pub struct Line<'a> {
    /// 1-based line number.
    pub number: u64,
    /// The line's bytes (at most the reader's limit).
    pub bytes: &'a [u8],
    /// The line was longer than the limit and `bytes` is only its beginning.
    pub truncated: bool,
}

/// Reads lines from `R` through a fixed-size buffer.
pub struct LineReader<R> {
    reader: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    max_len: usize,
    /// Lines handed out so far.
    lines: u64,
    /// Whether the last line handed out ended with `\n`.
    last_terminated: bool,
    /// Raw length (including a stripped `\r`) of the last line handed out.
    last_len: u64,
    long_prefix: Vec<u8>,
    /// Whether the last read filled the buffer (the input may be large).
    filled_last_time: bool,
}

impl<R: Read> LineReader<R> {
    /// A reader that cuts lines longer than `max_len` bytes. The buffer starts small (many
    /// inputs are tiny) and grows when the input is large or a line needs it.
    pub fn new(reader: R, max_len: usize) -> LineReader<R> {
        LineReader {
            reader,
            buf: vec![0; INITIAL_BUFFER],
            start: 0,
            end: 0,
            eof: false,
            max_len,
            lines: 0,
            last_terminated: true,
            last_len: 0,
            long_prefix: Vec::new(),
            filled_last_time: false,
        }
    }

    /// Where "end of input" is, once [`next_line`](Self::next_line) has returned `None`.
    pub fn end_position(&self) -> Position {
        if self.last_terminated {
            Position::new(self.lines + 1, 1)
        } else {
            Position::new(self.lines, self.last_len + 1)
        }
    }

    fn fill(&mut self) -> io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // A pending line fills the buffer: double it, up to what the longest line needs.
            let cap = (self.max_len + 2).max(LARGE_BUFFER);
            self.buf.resize((self.buf.len() * 2).min(cap), 0);
        } else if self.filled_last_time && self.buf.len() < LARGE_BUFFER {
            // The input outlives the first buffer: larger reads cost fewer system calls.
            self.buf.resize(LARGE_BUFFER, 0);
        }
        while self.end < self.buf.len() {
            match self.reader.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    break;
                }
                Ok(n) => {
                    self.end += n;
                    self.filled_last_time = self.end == self.buf.len();
                    break;
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// The buffered bytes not yet handed out, starting at the next line (possibly empty, and
    /// possibly ending inside a line). With [`skip_lines`](Self::skip_lines) this lets a caller
    /// decode common lines in place; anything unusual goes through [`next_line`](Self::next_line).
    #[inline]
    pub fn pending(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Consumes `count` (at least 1) complete lines, `bytes` bytes in all with their `\n`s,
    /// from the front of [`pending`](Self::pending), the last of them `last_len` bytes long
    /// (without its `\n`).
    ///
    /// The caller guarantees that each of those lines ends with `b'\n'` and holds no `\r`
    /// right before it; line numbering continues as if [`next_line`](Self::next_line) had
    /// returned them.
    #[inline]
    pub fn skip_lines(&mut self, count: u64, bytes: usize, last_len: usize) {
        debug_assert!(count >= 1 && self.buf[self.start + bytes - 1] == b'\n');
        self.start += bytes;
        self.lines += count;
        self.last_terminated = true;
        self.last_len = last_len as u64;
    }

    /// The next line, or `None` at the end of input.
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        let mut scanned = 0;
        loop {
            let pending = &self.buf[self.start..self.end];
            if let Some(i) = memchr::memchr(b'\n', &pending[scanned..]) {
                let line_end = self.start + scanned + i;
                let (s, e) = (self.start, line_end);
                self.start = line_end + 1;
                return Ok(Some(self.emit(s, e, true)));
            }
            scanned = pending.len();
            if scanned > self.max_len {
                return self.skip_long_line().map(Some);
            }
            if self.eof {
                if self.start == self.end {
                    return Ok(None);
                }
                let (s, e) = (self.start, self.end);
                self.start = self.end;
                return Ok(Some(self.emit(s, e, false)));
            }
            self.fill()?;
        }
    }

    fn emit(&mut self, s: usize, e: usize, terminated: bool) -> Line<'_> {
        self.lines += 1;
        self.last_terminated = terminated;
        self.last_len = (e - s) as u64;
        let mut bytes = &self.buf[s..e];
        if let [rest @ .., b'\r'] = bytes {
            bytes = rest;
        }
        let truncated = bytes.len() > self.max_len;
        if truncated {
            bytes = &bytes[..self.max_len];
        }
        Line {
            number: self.lines,
            bytes,
            truncated,
        }
    }

    /// Keeps the first `max_len` bytes of an over-long line, discards the rest.
    fn skip_long_line(&mut self) -> io::Result<Line<'_>> {
        self.long_prefix.clear();
        self.long_prefix
            .extend_from_slice(&self.buf[self.start..self.start + self.max_len]);
        let mut len = 0u64;
        let mut terminated = false;
        loop {
            let pending = &self.buf[self.start..self.end];
            if let Some(i) = memchr::memchr(b'\n', pending) {
                len += i as u64;
                self.start += i + 1;
                terminated = true;
                break;
            }
            len += pending.len() as u64;
            self.start = self.end;
            if self.eof {
                break;
            }
            self.fill()?;
        }
        self.lines += 1;
        self.last_terminated = terminated;
        self.last_len = len;
        Ok(Line {
            number: self.lines,
            bytes: &self.long_prefix,
            truncated: true,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(input: &[u8], max: usize) -> (Vec<(u64, Vec<u8>, bool)>, Position) {
        let mut r = LineReader::new(input, max);
        let mut out = vec![];
        while let Some(l) = r.next_line().unwrap() {
            out.push((l.number, l.bytes.to_vec(), l.truncated));
        }
        (out, r.end_position())
    }

    #[test]
    fn splits_lines_strips_cr_and_tracks_end() {
        let (lines, end) = all(b"a\r\nbb\n\nc", 10);
        let texts: Vec<_> = lines.iter().map(|l| l.1.clone()).collect();
        assert_eq!(
            texts,
            vec![b"a".to_vec(), b"bb".to_vec(), b"".to_vec(), b"c".to_vec()]
        );
        assert_eq!(end, Position::new(4, 2));
        let (_, end) = all(b"a\n", 10);
        assert_eq!(end, Position::new(2, 1));
        let (lines, end) = all(b"", 10);
        assert!(lines.is_empty());
        assert_eq!(end, Position::new(1, 1));
    }

    #[test]
    fn long_lines_are_cut_and_skipped() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\nok\n");
        let (lines, _) = all(&input, 8);
        assert_eq!(lines[0], (1, b"xxxxxxxx".to_vec(), true));
        assert_eq!(lines[1], (2, b"ok".to_vec(), false));
        let (lines, _) = all(
            b"0123456789abc
ok
",
            8,
        );
        assert_eq!(lines[0], (1, b"01234567".to_vec(), true));
    }

    #[test]
    fn lines_across_buffer_refills() {
        let mut input = Vec::new();
        for i in 0..50_000 {
            input.extend_from_slice(format!("line{i}\n").as_bytes());
        }
        let (lines, _) = all(&input, 64);
        assert_eq!(lines.len(), 50_000);
        assert_eq!(lines[49_999].1, b"line49999".to_vec());
    }
}
