//! Streaming input with bounded memory, for every engine parser.
//!
//! [`LineReader`] hands out one line at a time from any [`Read`], never holding more than its
//! buffer: a line longer than the caller's limit is returned cut to the limit (with
//! [`Line::truncated`] set) and ends the reading, so an enormous or endless line costs neither
//! memory nor time. [`ByteStream`] hands out bytes with their positions, for grammars that are
//! not line by line.
//!
//! Both count the bytes they examine ([`work`]), so tests can require every parser to do work
//! linear in its input without timing anything.

use std::cell::Cell;
use std::io::{self, Read};

use crate::util::error::Position;

thread_local! {
    static WORK: Cell<u64> = const { Cell::new(0) };
}

/// Records `bytes` bytes examined by a parser on this thread.
#[inline]
pub fn add_work(bytes: u64) {
    WORK.with(|w| w.set(w.get().wrapping_add(bytes)));
}

/// The bytes examined by the parsers on this thread since the last call (which resets it).
pub fn work() -> u64 {
    WORK.with(|w| w.replace(0))
}

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
    /// Whether the last read filled the buffer (the input may be large).
    filled_last_time: bool,
    /// Bytes examined, for [`work`].
    examined: u64,
}

impl<R> Drop for LineReader<R> {
    fn drop(&mut self) {
        add_work(self.examined);
    }
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
            filled_last_time: false,
            examined: 0,
        }
    }

    /// A reader whose first line is line `lines + 1` of the whole input (the caller has read
    /// the first `lines` lines itself).
    pub fn after_lines(reader: R, max_len: usize, lines: u64) -> LineReader<R> {
        let mut reader = LineReader::new(reader, max_len);
        reader.lines = lines;
        reader
    }

    /// Where "end of input" is, once [`next_line`](Self::next_line) has returned `None`.
    pub fn end_position(&self) -> Position {
        if self.last_terminated {
            Position::new(self.lines + 1, 1)
        } else {
            Position::new(self.lines, self.last_len + 1)
        }
    }

    /// Reads more input after the pending bytes. The pending bytes move to the front only when
    /// the buffer is full, so every byte is copied a bounded number of times.
    fn fill(&mut self) -> io::Result<()> {
        if self.end == self.buf.len() && self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.examined += (self.end - self.start) as u64;
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            // A pending line fills the buffer: double it, up to what the longest line needs.
            let cap = (self.max_len + 2).max(LARGE_BUFFER);
            self.buf.resize((self.buf.len() * 2).min(cap), 0);
            self.examined += self.end as u64;
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
                    self.examined += n as u64;
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
        self.examined += bytes as u64;
        self.lines += count;
        self.last_terminated = true;
        self.last_len = last_len as u64;
    }

    /// The next line, or `None` at the end of input. A line longer than the limit comes back
    /// cut to it, with [`Line::truncated`] set, and is the last line handed out: the rest of
    /// the input is not read (the caller reports the line as malformed).
    pub fn next_line(&mut self) -> io::Result<Option<Line<'_>>> {
        let mut scanned = 0;
        loop {
            let pending = &self.buf[self.start..self.end];
            let found = memchr::memchr(b'\n', &pending[scanned..]);
            self.examined += found.map_or(pending.len() - scanned, |i| i + 1) as u64;
            if let Some(i) = found {
                let line_end = self.start + scanned + i;
                let (s, e) = (self.start, line_end);
                self.start = line_end + 1;
                return Ok(Some(self.emit(s, e, true)));
            }
            scanned = pending.len();
            if scanned > self.max_len {
                return Ok(Some(self.cut_long_line()));
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
            // The caller reports the cut line as malformed: nothing after it is read.
            self.eof = true;
            self.start = self.end;
        }
        Line {
            number: self.lines,
            bytes,
            truncated,
        }
    }

    /// Hands out the first `max_len` bytes of an over-long line, and ends the reading.
    fn cut_long_line(&mut self) -> Line<'_> {
        let s = self.start;
        self.start = self.end;
        self.eof = true;
        self.lines += 1;
        self.last_terminated = false;
        self.last_len = self.max_len as u64;
        Line {
            number: self.lines,
            bytes: &self.buf[s..s + self.max_len],
            truncated: true,
        }
    }
}

/// All of `reader` when it holds at most `limit` bytes, else `None` (having read `limit + 1`).
pub fn read_at_most(reader: impl Read, limit: u64) -> io::Result<Option<Vec<u8>>> {
    let mut bytes = Vec::new();
    reader.take(limit + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= limit).then_some(bytes))
}

/// The lines of a whole input as (start, start of the next line, content without its `\n` and
/// a `\r` before it): for cutting a multi-case input into its cases.
pub fn line_spans(input: &[u8]) -> impl Iterator<Item = (usize, usize, &[u8])> {
    let mut at = 0;
    std::iter::from_fn(move || {
        if at >= input.len() {
            return None;
        }
        let start = at;
        let end = input[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(input.len(), |p| at + p);
        at = (end + 1).min(input.len());
        let line = &input[start..end];
        Some((start, at, line.strip_suffix(b"\r").unwrap_or(line)))
    })
}

/// Whether a line holds nothing but spaces and tabs.
pub fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b" \t".contains(b))
}

/// How many times its input's size the reference may take in memory, at worst: it holds the
/// whole input and its lines or rows (measured: LittleSquares rows of one square, 57 times;
/// Some Game blank lines 18 times; Pousse moves 12 times; docs/testing.md).
pub const REFERENCE_MEMORY_FACTOR: u64 = 64;

/// The default input limit of the reference: the memory available (MemAvailable in
/// /proc/meminfo; 16 GiB where there is none) over [`REFERENCE_MEMORY_FACTOR`], so that no
/// input can make it take more memory than the machine has to spare.
pub fn reference_input_limit() -> u64 {
    let available = std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
            let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
            Some(kib * 1024)
        })
        .unwrap_or(16 << 30);
    available / REFERENCE_MEMORY_FACTOR
}

/// A reader that fails, with a clear error, once more than a set number of bytes came through:
/// so that an endless input (`/dev/zero`, a pipe that never ends) ends the run.
pub struct Bounded<R> {
    inner: R,
    left: u64,
    limit: u64,
}

impl<R> Bounded<R> {
    /// `inner`, cut off after `limit` bytes.
    pub fn new(inner: R, limit: u64) -> Bounded<R> {
        Bounded {
            inner,
            left: limit,
            limit,
        }
    }
}

impl<R: Read> Read for Bounded<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.left == 0 {
            // One byte more would be over the limit: see whether there is one.
            let mut probe = [0u8; 1];
            return match self.inner.read(&mut probe)? {
                0 => Ok(0),
                _ => Err(io::Error::new(
                    io::ErrorKind::FileTooLarge,
                    format!(
                        "the input is longer than {} bytes (--max-input-bytes)",
                        self.limit
                    ),
                )),
            };
        }
        let room = out.len().min(self.left.min(usize::MAX as u64) as usize);
        let n = self.inner.read(&mut out[..room])?;
        self.left -= n as u64;
        Ok(n)
    }
}

/// The bytes of an input one at a time, with their positions, read through a fixed buffer:
/// for grammars that are not line by line (LittleSquares' literal form, which may put a whole
/// grid on one line).
pub struct ByteStream<R> {
    reader: R,
    buf: Box<[u8]>,
    at: usize,
    len: usize,
    eof: bool,
    line: u64,
    column: u64,
    examined: u64,
}

impl<R> Drop for ByteStream<R> {
    fn drop(&mut self) {
        add_work(self.examined);
    }
}

impl<R: Read> ByteStream<R> {
    /// A stream whose first byte stands at `position`.
    pub fn new(reader: R, position: Position) -> ByteStream<R> {
        ByteStream {
            reader,
            buf: vec![0; INITIAL_BUFFER].into_boxed_slice(),
            at: 0,
            len: 0,
            eof: false,
            line: position.line,
            column: position.column,
            examined: 0,
        }
    }

    /// The next byte, without consuming it; `None` at the end of input.
    #[inline]
    pub fn peek(&mut self) -> io::Result<Option<u8>> {
        while self.at == self.len {
            if self.eof {
                return Ok(None);
            }
            match self.reader.read(&mut self.buf) {
                Ok(0) => self.eof = true,
                Ok(n) => (self.at, self.len) = (0, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(Some(self.buf[self.at]))
    }

    /// Consumes the byte [`peek`](Self::peek) returned.
    #[inline]
    pub fn bump(&mut self) {
        if self.buf[self.at] == b'\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        self.at += 1;
        self.examined += 1;
    }

    /// The position of the next byte (or of the end of input).
    pub fn position(&self) -> Position {
        Position::new(self.line, self.column)
    }
}

/// `bytes` in MiB, in words (`2048.0 MiB`).
pub fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// A whole number written plainly (`2000000000`, `2_000_000_000`) or in scientific notation
/// (`2e9`), as counts are given on the command line; `None` for anything else.
pub fn whole_number(text: &str) -> Option<u64> {
    let plain = text.replace('_', "");
    if let Ok(v) = plain.parse::<u64>() {
        return Some(v);
    }
    match plain.parse::<f64>() {
        Ok(v) if v >= 0.0 && v.fract() == 0.0 && v < 1.8e19 => Some(v as u64),
        _ => None,
    }
}

/// Whether `c` is a formatting character that shows nothing, or changes how the text around it
/// shows: the bidirectional controls (U+202A to U+202E, U+2066 to U+2069, U+061C, U+200E,
/// U+200F), zero-width characters, the soft hyphen, the byte-order mark, the interlinear
/// annotation characters.
pub fn invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
    )
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
    fn a_long_line_is_cut_and_ends_the_reading() {
        let mut input = vec![b'x'; 200_000];
        input.extend_from_slice(b"\nok\n");
        let (lines, _) = all(&input, 8);
        assert_eq!(lines, vec![(1, b"xxxxxxxx".to_vec(), true)]);
        let (lines, _) = all(b"ok\n0123456789abc\nok\n", 8);
        assert_eq!(lines[1], (2, b"01234567".to_vec(), true));
        assert_eq!(lines.len(), 2);
    }

    /// An endless line (`/dev/zero`) costs the limit and a buffer, not the rest of the input.
    #[test]
    fn an_endless_line_is_not_read_to_its_end() {
        let mut lines = LineReader::new(io::repeat(0), 48);
        let line = lines.next_line().unwrap().unwrap();
        assert!(line.truncated && line.bytes.len() == 48);
        assert!(lines.next_line().unwrap().is_none());
        drop(lines);
        assert!(work() < 1 << 20);
    }

    #[test]
    fn byte_streams_track_positions() {
        let mut s = ByteStream::new(&b"ab\ncd"[..], Position::new(3, 5));
        let mut seen = Vec::new();
        while let Some(b) = s.peek().unwrap() {
            seen.push((b, s.position()));
            s.bump();
        }
        assert_eq!(seen[0], (b'a', Position::new(3, 5)));
        assert_eq!(seen[2], (b'\n', Position::new(3, 7)));
        assert_eq!(seen[3], (b'c', Position::new(4, 1)));
        assert_eq!(s.position(), Position::new(4, 3));
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
