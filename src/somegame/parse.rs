//! Some Game input: data sets until the end of input, streamed byte by byte.
//!
//! Each data set is a header line of exactly four non-negative integers `P R C K` (P, R, C at
//! least 1, R x C at most [`MAX_SQUARES`]) and then R lines of exactly C non-negative integers.
//! Values are separated by spaces or tabs, may have leading zeros, and saturate at 2^64 - 1.
//! Lines of blanks may stand before a header (not inside a board); a `\r` before `\n` (or at
//! the very end) belongs to the line ending. Errors point at the first offending byte, or at
//! the end of the line (or input) where something is missing; `case` is the data set number.
//! Lines of any length are read in bounded memory.

use std::io::Read;

use super::board::{Cells, DataSet, MAX_SQUARES};
use crate::util::error::{describe_bytes, InputError, JudgeError, Position};

/// The longest board row read in place by the fast path; longer ones go through the tokens.
const LONGEST_BUFFERED_LINE: usize = 1 << 20;

/// The common row: `count` single digits separated by single spaces (`"0 3 1 2"`), read
/// four cells per 8-byte word. Same contract as [`quick_row`]: `false` with `cells` unchanged
/// for any other line.
fn single_digit_row(line: &[u8], count: u64, cap: u64, cells: &mut Vec<u32>) -> bool {
    if count == 0 || line.len() as u64 != 2 * count - 1 {
        return false;
    }
    const SPACES: u64 = 0x2000_2000_2000_2000; // the odd bytes of "d d d d "
    const ODD: u64 = 0xFF00_FF00_FF00_FF00;
    const EVEN: u64 = 0x00FF_00FF_00FF_00FF;
    const LANE_BIT8: u64 = 0x0100_0100_0100_0100;
    let largest = cap.saturating_add(1).min(9) as u32;
    let start = cells.len();
    let mut words = line.chunks_exact(8);
    let mut ok = true;
    for word in words.by_ref() {
        let word = u64::from_le_bytes(word.try_into().expect("8 bytes"));
        // Each even byte x sits in a 16-bit lane: x >= '0' sets bit 8 of x + 0xD0, and
        // x > '9' sets bit 8 of x + 0xC6.
        let x = word & EVEN;
        let digits = (x + 0x00D0_00D0_00D0_00D0) & !(x + 0x00C6_00C6_00C6_00C6) & LANE_BIT8;
        ok &= (word & ODD) == SPACES && digits == LANE_BIT8;
        let values = x.wrapping_sub(0x0030_0030_0030_0030);
        cells.extend((0..4).map(|lane| ((values >> (16 * lane)) as u32 & 0xFF).min(largest)));
    }
    for (i, &b) in words.remainder().iter().enumerate() {
        if i % 2 == 0 {
            ok &= b.is_ascii_digit();
            cells.push(u32::from(b.wrapping_sub(b'0')).min(largest));
        } else {
            ok &= b == b' ';
        }
    }
    if !ok {
        cells.truncate(start);
    }
    ok
}

/// Reads a row line (without its `\n`) of exactly `count` integers separated by spaces,
/// pushing each (capped at `cap + 1`) to `cells`. Returns `false`, with `cells` unchanged, for
/// anything else (tabs, `\r`, a wrong count, a bad byte): the token path then reads the line
/// again and reports the problem where it is.
fn quick_row(line: &[u8], count: u64, cap: u64, cells: &mut Vec<u32>) -> bool {
    single_digit_row(line, count, cap, cells) || spaced_row(line, count, cap, cells)
}

/// [`quick_row`] for any line of values separated by spaces, value by value.
fn spaced_row(line: &[u8], count: u64, cap: u64, cells: &mut Vec<u32>) -> bool {
    let start = cells.len();
    let mut seen = 0;
    let mut i = 0;
    while i < line.len() {
        if line[i] == b' ' {
            i += 1;
            continue;
        }
        let mut value: u64 = 0;
        while let Some(&d @ b'0'..=b'9') = line.get(i) {
            value = value.saturating_mul(10).saturating_add((d - b'0') as u64);
            i += 1;
        }
        let ends_well = matches!(line.get(i), None | Some(b' '));
        if seen == count || !ends_well {
            cells.truncate(start);
            return false;
        }
        cells.push(value.min(cap + 1) as u32);
        seen += 1;
    }
    if seen != count {
        cells.truncate(start);
        return false;
    }
    true
}

/// A lexical item.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Token {
    /// An integer starting at `col`.
    Int { value: u64, col: u64 },
    /// The end of a line, at column `col`.
    Eol { col: u64 },
    /// The end of input.
    Eof,
    /// A byte that is neither a digit, a blank nor a line end, at `col`.
    Bad { byte: u8, col: u64 },
}

/// Splits a byte stream into integers and line ends, tracking lines and columns.
struct Scanner<R> {
    reader: R,
    buf: Vec<u8>,
    at: usize,
    len: usize,
    eof: bool,
    line: u64,
    col: u64,
    /// Bytes examined, for [`crate::util::text::work`].
    examined: u64,
}

impl<R> Drop for Scanner<R> {
    fn drop(&mut self) {
        crate::util::text::add_work(self.examined);
    }
}

impl<R: Read> Scanner<R> {
    fn new(reader: R) -> Scanner<R> {
        Scanner {
            reader,
            buf: vec![0; 1 << 13],
            at: 0,
            len: 0,
            eof: false,
            line: 1,
            col: 1,
            examined: 0,
        }
    }

    #[inline]
    fn peek(&mut self) -> std::io::Result<Option<u8>> {
        if self.at == self.len {
            if self.eof {
                return Ok(None);
            }
            self.at = 0;
            self.len = loop {
                match self.reader.read(&mut self.buf) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            if self.len == 0 {
                self.eof = true;
                return Ok(None);
            }
            self.examined += self.len as u64;
        }
        Ok(Some(self.buf[self.at]))
    }

    #[inline]
    /// The byte after the next one; the next one must have been peeked.
    fn peek_second(&mut self) -> std::io::Result<Option<u8>> {
        loop {
            if self.at + 1 < self.len {
                return Ok(Some(self.buf[self.at + 1]));
            }
            if self.eof {
                return Ok(None);
            }
            // Keep the next byte, at the front, and read after it.
            self.buf.copy_within(self.at..self.len, 0);
            self.len -= self.at;
            self.at = 0;
            let n = loop {
                match self.reader.read(&mut self.buf[self.len..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(e),
                }
            };
            if n == 0 {
                self.eof = true;
            }
            self.len += n;
        }
    }

    fn advance(&mut self) {
        self.at += 1;
        self.col += 1;
        self.examined += 1;
    }

    fn position(&self) -> Position {
        Position::new(self.line, self.col)
    }

    /// Skips blanks and the end of the line; the first other byte is returned as an error
    /// (its column and value).
    fn end_of_line(&mut self) -> std::io::Result<Result<(), (u64, u8)>> {
        loop {
            match self.peek()? {
                Some(b' ' | b'\t') => self.advance(),
                None => return Ok(Ok(())),
                Some(b'\n' | b'\r') => {
                    return Ok(match self.next()? {
                        Token::Bad { byte, col } => Err((col, byte)),
                        _ => Ok(()),
                    });
                }
                Some(byte) => return Ok(Err((self.col, byte))),
            }
        }
    }

    /// Makes sure the rest of the current line, through its `\n`, is in the buffer (growing
    /// it up to [`LONGEST_BUFFERED_LINE`]); returns the `\n`'s index in the buffer, or `None`
    /// for a longer line or a last line without `\n` (which the token path then reads).
    fn buffered_line(&mut self) -> std::io::Result<Option<usize>> {
        let mut scanned = 0;
        loop {
            let pending = &self.buf[self.at..self.len];
            let found = memchr::memchr(b'\n', &pending[scanned..]);
            self.examined += found.map_or(pending.len() - scanned, |i| i + 1) as u64;
            if let Some(i) = found {
                return Ok(Some(self.at + scanned + i));
            }
            scanned = pending.len();
            if self.eof || scanned >= LONGEST_BUFFERED_LINE {
                return Ok(None);
            }
            // The pending bytes move to the front only when the buffer is full.
            if self.len == self.buf.len() && self.at > 0 {
                self.buf.copy_within(self.at..self.len, 0);
                self.examined += (self.len - self.at) as u64;
                self.len -= self.at;
                self.at = 0;
            }
            if self.len == self.buf.len() {
                let grown = (2 * self.buf.len()).min(LONGEST_BUFFERED_LINE + 1);
                self.buf.resize(grown, 0);
                self.examined += self.len as u64;
            }
            loop {
                match self.reader.read(&mut self.buf[self.len..]) {
                    Ok(0) => self.eof = true,
                    Ok(n) => {
                        self.len += n;
                        self.examined += n as u64;
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
                break;
            }
        }
    }

    /// Consumes the buffered line ending at index `newline` (from [`Self::buffered_line`]).
    fn skip_line(&mut self, newline: usize) {
        self.examined += (newline + 1 - self.at) as u64;
        self.at = newline + 1;
        self.line += 1;
        self.col = 1;
    }

    /// The next token; after `Eol` the position is at the start of the next line.
    #[inline]
    fn next(&mut self) -> std::io::Result<Token> {
        loop {
            let Some(b) = self.peek()? else {
                return Ok(Token::Eof);
            };
            match b {
                b' ' | b'\t' => self.advance(),
                b'\n' => {
                    let col = self.col;
                    self.advance();
                    self.line += 1;
                    self.col = 1;
                    return Ok(Token::Eol { col });
                }
                b'\r' => {
                    let col = self.col;
                    self.advance();
                    match self.peek()? {
                        Some(b'\n') => {
                            self.advance();
                            self.line += 1;
                            self.col = 1;
                            return Ok(Token::Eol { col });
                        }
                        None => return Ok(Token::Eol { col }),
                        Some(_) => return Ok(Token::Bad { byte: b'\r', col }),
                    }
                }
                b'0'..=b'9' => {
                    let col = self.col;
                    let mut value: u64 = 0;
                    while let Some(d @ b'0'..=b'9') = self.peek()? {
                        value = value.saturating_mul(10).saturating_add((d - b'0') as u64);
                        self.advance();
                    }
                    return match self.peek()? {
                        None | Some(b' ' | b'\t' | b'\n') => Ok(Token::Int { value, col }),
                        // A carriage return ends the number only as part of a line end.
                        Some(b'\r') => match self.peek_second()? {
                            None | Some(b'\n') => Ok(Token::Int { value, col }),
                            Some(_) => Ok(Token::Bad {
                                byte: b'\r',
                                col: self.col,
                            }),
                        },
                        Some(byte) => Ok(Token::Bad {
                            byte,
                            col: self.col,
                        }),
                    };
                }
                byte => {
                    return Ok(Token::Bad {
                        byte,
                        col: self.col,
                    })
                }
            }
        }
    }
}

/// Reads data sets one by one.
pub struct Parser<R> {
    scanner: Scanner<R>,
    case: u64,
}

impl<R: Read> Parser<R> {
    /// A parser over `reader`.
    pub fn new(reader: R) -> Parser<R> {
        Parser {
            scanner: Scanner::new(reader),
            case: 0,
        }
    }

    fn error(
        &self,
        line: u64,
        col: u64,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> JudgeError {
        InputError::new(Position::new(line, col), Some(self.case), expected, found).into()
    }

    /// Reads exactly `count` integers and the end of their line, calling `each(i, value)`
    /// (which may reject a value). `what` names the line for messages.
    fn line_of<F>(&mut self, count: u64, what: &str, mut each: F) -> Result<(), JudgeError>
    where
        F: FnMut(u64, u64) -> Result<(), (String, String)>,
    {
        let line = self.scanner.line;
        for seen in 0..count {
            match self.scanner.next()? {
                Token::Int { value, col } => {
                    if let Err((expected, found)) = each(seen, value) {
                        return Err(self.error(line, col, expected, found));
                    }
                }
                Token::Bad { byte, col } => {
                    return Err(self.error(
                        line,
                        col,
                        "a non-negative integer",
                        describe_bytes(&[byte]),
                    ));
                }
                Token::Eol { col } => {
                    return Err(self.error(
                        line,
                        col,
                        format!("{count} values ({what}), only {seen} on the line"),
                        "end of line",
                    ));
                }
                Token::Eof => {
                    let p = self.scanner.position();
                    return Err(self.error(
                        p.line,
                        p.column,
                        format!("{count} values ({what})"),
                        "end of input",
                    ));
                }
            }
        }
        if let Err((col, byte)) = self.scanner.end_of_line()? {
            return Err(self.error(
                line,
                col,
                format!("end of line after {count} values ({what})"),
                describe_bytes(&[byte]),
            ));
        }
        Ok(())
    }

    /// The next data set, or `None` at the end of input (after at least one data set).
    pub fn next_set(&mut self) -> Result<Option<DataSet>, JudgeError> {
        self.case += 1;
        // Skip blank lines before the header.
        loop {
            let Some(b) = self.scanner.peek()? else {
                if self.case > 1 {
                    return Ok(None);
                }
                let p = self.scanner.position();
                return Err(self.error(
                    p.line,
                    p.column,
                    "a data set header 'P R C K'",
                    "end of input",
                ));
            };
            match b {
                b' ' | b'\t' => self.scanner.advance(),
                b'\n' | b'\r' => {
                    if let Token::Bad { byte, col } = self.scanner.next()? {
                        let line = self.scanner.line;
                        return Err(self.error(
                            line,
                            col,
                            "a data set header 'P R C K'",
                            describe_bytes(&[byte]),
                        ));
                    }
                }
                _ => break,
            }
        }
        let mut header = [0u64; 4];
        self.line_of(4, "the header P R C K", |i, v| {
            header[i as usize] = v;
            match i {
                0 if v == 0 => Err(("at least 1 player".into(), "0".into())),
                1 if v == 0 => Err(("at least 1 row".into(), "0".into())),
                2 if v == 0 => Err(("at least 1 column".into(), "0".into())),
                2 if header[1].saturating_mul(v) > MAX_SQUARES => Err((
                    format!("a board of at most {MAX_SQUARES} squares"),
                    format!("{} x {v}", header[1]),
                )),
                _ => Ok(()),
            }
        })?;
        let [players, rows, cols, k] = header;
        let squares = rows * cols;
        let cap = DataSet::value_cap(players, squares);
        let mut cells = Cells::for_values_up_to(cap + 1, squares as usize);
        // Rows are read into `row`, then stored.
        let mut row = Vec::with_capacity(cols as usize);
        for r in 0..rows {
            row.clear();
            if let Some(newline) = self.scanner.buffered_line()? {
                let line = &self.scanner.buf[self.scanner.at..newline];
                if quick_row(line, cols, cap, &mut row) {
                    self.scanner.skip_line(newline);
                    cells.extend_from(&row);
                    continue;
                }
            }
            let what = format!("row {} of {rows}", r + 1);
            self.line_of(cols, &what, |_, v| {
                row.push(v.min(cap + 1) as u32);
                Ok(())
            })?;
            cells.extend_from(&row);
        }
        Ok(Some(DataSet {
            players,
            rows: rows as usize,
            cols: cols as usize,
            k,
            cells,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick(line: &[u8], count: u64) -> Option<Vec<u32>> {
        let mut cells = vec![7];
        let taken = quick_row(line, count, 4, &mut cells);
        if !taken {
            assert_eq!(cells, vec![7], "a refused row leaves the cells unchanged");
        }
        taken.then(|| cells[1..].to_vec())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(5000))]
        /// The single-digit reader takes every row of single digits and single spaces, and
        /// agrees with the general reader on every line it takes.
        #[test]
        fn single_digit_rows_read_as_the_general_reader_reads_them(
            digits in proptest::collection::vec(0u8..10, 1..40),
            corrupt in proptest::option::of((
                proptest::num::usize::ANY,
                proptest::sample::select(b"0123456789 /:\t-x\r".to_vec()),
            )),
            cap in 0u64..12,
        ) {
            // Digits and single spaces, then perhaps one byte changed.
            let mut line: Vec<u8> = digits.iter().flat_map(|d| [b' ', b'0' + d]).skip(1).collect();
            if let Some((at, byte)) = corrupt {
                let at = at % line.len();
                line[at] = byte;
            }
            let count = line.len().div_ceil(2) as u64;
            let (mut fast, mut general) = (vec![7], vec![7]);
            let canonical = line.len() % 2 == 1
                && line.iter().enumerate().all(|(i, &b)| {
                    if i % 2 == 0 { b.is_ascii_digit() } else { b == b' ' }
                });
            let taken = single_digit_row(&line, count, cap, &mut fast);
            proptest::prop_assert_eq!(taken, canonical);
            if taken {
                proptest::prop_assert!(spaced_row(&line, count, cap, &mut general));
                proptest::prop_assert_eq!(fast, general);
            } else {
                proptest::prop_assert_eq!(fast, vec![7]);
            }
        }
    }

    #[test]
    fn quick_row_takes_plain_rows_and_leaves_the_rest_to_the_tokens() {
        assert_eq!(quick(b"0 1 2", 3), Some(vec![0, 1, 2]));
        assert_eq!(quick(b"  00 3   12 ", 3), Some(vec![0, 3, 5]));
        assert_eq!(quick(b"99999999999999999999999 1", 2), Some(vec![5, 1]));
        for refused in [
            &b"0 1"[..],
            b"0 1 2 3",
            b"0\t1 2",
            b"0 1 2\r",
            b"0 1x 2",
            b"0 -1 2",
            b"",
        ] {
            assert_eq!(quick(refused, 3), None, "{refused:?}");
        }
    }

    /// A reader serving `bytes` in pieces of 1..=7 bytes, failing with `Interrupted` before
    /// every third piece (a read to retry, not an error), or failing for good at `fail_at`.
    struct Stutter<'a> {
        bytes: &'a [u8],
        calls: usize,
        fail_at: Option<usize>,
    }

    impl Read for Stutter<'_> {
        fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
            self.calls += 1;
            if self.fail_at.is_some_and(|at| self.bytes.len() <= at) {
                return Err(std::io::Error::other("disk on fire"));
            }
            if self.calls.is_multiple_of(3) {
                return Err(std::io::ErrorKind::Interrupted.into());
            }
            let n = (self.calls % 7 + 1).min(out.len()).min(self.bytes.len());
            out[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    fn sets(reader: impl Read) -> Result<Vec<DataSet>, JudgeError> {
        let mut parser = Parser::new(reader);
        let mut out = vec![];
        while let Some(set) = parser.next_set()? {
            out.push(set);
        }
        Ok(out)
    }

    /// Whole, in stuttering pieces: the same data sets or the same error.
    fn sets_any_way(text: &[u8]) -> Result<Vec<DataSet>, JudgeError> {
        let whole = sets(text);
        let stuttered = sets(Stutter {
            bytes: text,
            calls: 0,
            fail_at: None,
        });
        let said =
            |r: &Result<Vec<DataSet>, JudgeError>| r.as_ref().map_err(ToString::to_string).cloned();
        assert_eq!(said(&whole), said(&stuttered));
        whole
    }

    /// Values are stored in bytes exactly when the largest stored value (the cap plus one)
    /// fits in one; capped values come out the same either way.
    #[test]
    fn cells_are_bytes_when_every_stored_value_fits() {
        let row: Vec<String> = (0..256).map(|v| v.to_string()).collect();
        for (players, bytes) in [(254, true), (255, false), (300, false)] {
            let text = format!("{players} 1 256 1\n{}\n", row.join(" "));
            let set = sets_any_way(text.as_bytes()).unwrap().remove(0);
            assert_eq!(matches!(set.cells, Cells::Bytes(_)), bytes, "P = {players}");
            let capped: Vec<u32> = (0..256).map(|v| v.min(players as u32 + 1)).collect();
            assert_eq!(set.cells.to_vec(), capped, "P = {players}");
        }
        // A large player count on a small board: the cap is the board size.
        let set = sets_any_way(b"1000 1 3 1\n0 7 999\n").unwrap().remove(0);
        assert_eq!(set.cells, Cells::Bytes(vec![0, 4, 4]));
    }

    /// Rows longer than the read buffer (8 KiB, then 16 KiB) make it grow; retried reads
    /// lose nothing; a failing reader is an error, not a retry (in a row or in the header).
    #[test]
    fn long_rows_retried_reads_and_read_errors() {
        let cols = 20000;
        let row: Vec<String> = (0..cols).map(|c| (c % 3).to_string()).collect();
        let text = format!("2 2 {cols} 3\n{}\n{}\n", row.join(" "), row.join("  "));
        let got = sets_any_way(text.as_bytes()).unwrap();
        let expected: Vec<u32> = (0..2 * cols).map(|i| (i % cols % 3) as u32).collect();
        assert_eq!(got.len(), 1);
        assert_eq!(got[0].cells.to_vec(), expected);
        let failing = Stutter {
            bytes: text.as_bytes(),
            calls: 0,
            fail_at: Some(text.len() / 2),
        };
        let error = sets(failing).unwrap_err().to_string();
        assert!(error.contains("disk on fire"), "{error}");
        let failing_early = Stutter {
            bytes: text.as_bytes(),
            calls: 0,
            fail_at: Some(text.len() - 3),
        };
        let error = sets(failing_early).unwrap_err().to_string();
        assert!(error.contains("disk on fire"), "{error}");
    }

    /// Values above the cap (min(P, R x C)) are stored as cap + 1; errors in rows read by the
    /// token path name the row, and line numbers keep counting across `\r\n` lines.
    #[test]
    fn capped_values_and_row_errors() {
        assert_eq!(
            sets_any_way(b"5 1 2 1\n4 0\n").unwrap()[0].cells.to_vec(),
            vec![3, 0]
        );
        // The same through the token path (`\r\n` rows are not read in place).
        assert_eq!(
            sets_any_way(b"5 1 2 1\r\n4 0\r\n").unwrap()[0]
                .cells
                .to_vec(),
            vec![3, 0]
        );
        let error = sets_any_way(b"1 2 2 1\n0 0\n0\n").unwrap_err().to_string();
        assert!(
            error.starts_with("3:") && error.contains("row 2 of 2"),
            "{error}"
        );
        let error = sets_any_way(b"1 3 2 1\r\n0 0\r\n0 0\r\n0\r\n")
            .unwrap_err()
            .to_string();
        assert!(
            error.starts_with("4:") && error.contains("row 3 of 3"),
            "{error}"
        );
        let error = sets_any_way(b"1 3 2 1\r\n0 0\r\n0 0\r\n0 x\r\n")
            .unwrap_err()
            .to_string();
        assert!(error.starts_with("4:3:"), "{error}");
        // A board of exactly MAX_SQUARES squares passes the header check (and then lacks rows).
        let error = sets_any_way(b"1 8192 8192 1\n").unwrap_err().to_string();
        assert!(
            !error.contains("at most") && error.contains("row 1 of 8192"),
            "{error}"
        );
        let error = sets_any_way(b"1 8192 8193 1\n").unwrap_err().to_string();
        assert!(error.contains("at most 67108864 squares"), "{error}");
    }
}
