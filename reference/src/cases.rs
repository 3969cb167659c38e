//! Reading a multi-case input one case at a time, in memory bounded by the largest case: each
//! game's framing (its own module's `cases`) cuts the input into [`Case`]s, which are judged
//! one by one, in any order, by the game's `judge_case`.

use std::io::Read;

use crate::ParseError;

/// One case of an input as the framing cut it: its lines exactly as in the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// The case's number in its input, from 1.
    pub number: u64,
    /// The case's number as error messages give it: `None` for an input in a single-case form.
    pub label: Option<u64>,
    /// The 1-based line of the case's first line in the input.
    pub first_line: u64,
    /// The case's lines with their line ends; `None` when they are longer than the reader's
    /// bound ([`Case::bytes`] then counts them, and nothing of them is held).
    pub text: Option<Vec<u8>>,
    /// The case's length in bytes.
    pub bytes: u64,
    /// The position just past the input's end (1-based line and column) when the case runs
    /// to it, for the errors found there; `(0, 0)` otherwise.
    pub end: (u64, u64),
}

/// Why a framing stops before the input's end.
#[derive(Debug)]
pub enum Stop {
    /// The input breaks the framing there.
    Malformed(ParseError),
    /// Reading failed.
    Unreadable(std::io::Error),
    /// The reader cannot go on without holding more than its bound (a line longer than it
    /// where the framing must read the line): the cases from `number` on are not read.
    TooLong {
        /// The first case not read.
        number: u64,
        /// The 1-based line too long.
        line: u64,
    },
}

/// The size of a [`Lines`] reader's buffer.
const BLOCK: usize = 1 << 16;

/// One line of a [`Lines`] reader, with its line end.
pub struct Line<'a> {
    /// The line's first bytes, its line end included when within the bound: all of it unless
    /// [`Line::len`] is over the reader's bound.
    pub bytes: &'a [u8],
    /// The line's whole length in bytes, its line end included.
    pub len: u64,
    /// The line's 1-based number.
    pub number: u64,
}

impl Line<'_> {
    /// The line's content without `\n` and a `\r` right before it (of the bytes held).
    pub fn content(&self) -> &[u8] {
        let b = self.bytes.strip_suffix(b"\n").unwrap_or(self.bytes);
        b.strip_suffix(b"\r").unwrap_or(b)
    }

    /// Whether all of the line is held.
    pub fn whole(&self) -> bool {
        self.bytes.len() as u64 == self.len
    }
}

/// The lines of a stream, one at a time, holding at most `bound` bytes of a line (the rest of
/// a longer line is read past, counted, and dropped).
pub struct Lines<R> {
    input: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    eof: bool,
    bound: usize,
    /// The line being returned, when it did not fit in `buf` as read.
    long: Vec<u8>,
    /// Lines read so far.
    count: u64,
    /// The raw length of the last line read, and whether it ended with `\n`.
    last: (u64, bool),
}

impl<R: Read> Lines<R> {
    /// The lines of `input`, each held up to `bound` bytes.
    pub fn new(input: R, bound: u64) -> Lines<R> {
        Lines {
            input,
            buf: vec![0; BLOCK],
            start: 0,
            end: 0,
            eof: false,
            bound: bound.min(usize::MAX as u64) as usize,
            long: Vec::new(),
            count: 0,
            last: (0, true),
        }
    }

    /// The lines read so far (the 1-based number of the last one).
    pub fn count(&self) -> u64 {
        self.count
    }

    /// The position just past the input's end, once [`Lines::next_line`] has returned `None`.
    pub fn end(&self) -> (u64, u64) {
        match self.last {
            (_, true) => (self.count + 1, 1),
            (len, false) => (self.count, len + 1),
        }
    }

    fn fill(&mut self) -> std::io::Result<()> {
        if self.start > 0 {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        if self.end == self.buf.len() {
            return Ok(());
        }
        loop {
            match self.input.read(&mut self.buf[self.end..]) {
                Ok(0) => {
                    self.eof = true;
                    return Ok(());
                }
                Ok(n) => {
                    self.end += n;
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    /// The next line, `None` past the last.
    pub fn next_line(&mut self) -> std::io::Result<Option<Line<'_>>> {
        let mut scanned = 0;
        let mut held: Option<usize> = None; // bytes of the line moved to `long`
        let mut len = 0u64;
        loop {
            let window = &self.buf[self.start + scanned..self.end];
            if let Some(at) = window.iter().position(|&b| b == b'\n') {
                let stop = self.start + scanned + at + 1;
                len += (stop - self.start) as u64;
                self.count += 1;
                self.last = (len, true);
                return Ok(Some(self.take_line(held, stop, len)));
            }
            scanned = self.end - self.start;
            if self.eof {
                if held.is_none() && scanned == 0 {
                    return Ok(None);
                }
                len += scanned as u64;
                self.count += 1;
                self.last = (len, false);
                let stop = self.end;
                return Ok(Some(self.take_line(held, stop, len)));
            }
            if scanned == self.buf.len() {
                // A line longer than the buffer: keep what the bound allows, read on.
                let keep = self.bound.saturating_sub(held.unwrap_or(0)).min(scanned);
                if held.is_none() {
                    self.long.clear();
                }
                self.long
                    .extend_from_slice(&self.buf[self.start..self.start + keep]);
                held = Some(held.unwrap_or(0) + keep);
                len += scanned as u64;
                self.start = self.end;
                scanned = 0;
            }
            self.fill()?;
            scanned = scanned.min(self.end - self.start);
        }
    }

    /// The line ending before `stop` in the buffer, `len` bytes in all, `held` of them moved
    /// to `long` already.
    fn take_line(&mut self, held: Option<usize>, stop: usize, len: u64) -> Line<'_> {
        let from = self.start;
        self.start = stop;
        match held {
            None => {
                let keep = (stop - from).min(self.bound);
                Line {
                    bytes: &self.buf[from..from + keep],
                    len,
                    number: self.count,
                }
            }
            Some(h) => {
                let keep = self.bound.saturating_sub(h).min(stop - from);
                self.long.extend_from_slice(&self.buf[from..from + keep]);
                Line {
                    bytes: &self.long,
                    len,
                    number: self.count,
                }
            }
        }
    }
}

/// A case being read: its lines gathered while within the bound.
pub(crate) struct Gathering {
    case: Case,
    bound: u64,
}

impl Gathering {
    /// Case `number` (labelled `label`), starting at line `first_line`, held up to `bound` bytes.
    pub(crate) fn new(number: u64, label: Option<u64>, first_line: u64, bound: u64) -> Gathering {
        Gathering {
            case: Case {
                number,
                label,
                first_line,
                text: Some(Vec::new()),
                bytes: 0,
                end: (0, 0),
            },
            bound,
        }
    }

    /// Adds `line` to the case.
    pub(crate) fn push(&mut self, line: &Line) {
        self.push_bytes(line.bytes, line.len);
    }

    /// Adds a line of `len` bytes, of which `bytes` are held.
    pub(crate) fn push_bytes(&mut self, bytes: &[u8], len: u64) {
        self.case.bytes = self.case.bytes.saturating_add(len);
        if self.case.bytes > self.bound || bytes.len() as u64 != len {
            self.case.text = None;
        }
        if let Some(text) = &mut self.case.text {
            text.extend_from_slice(bytes);
        }
    }

    /// The case, ended at `end` when it runs to the input's end.
    pub(crate) fn finish(mut self, end: Option<(u64, u64)>) -> Case {
        self.case.end = end.unwrap_or((0, 0));
        self.case
    }
}
