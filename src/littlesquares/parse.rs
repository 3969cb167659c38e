//! LittleSquares input, streamed row by row into the Grundy fold.
//!
//! Two forms, told apart by the first byte that is not white space (space, tab, `\r`, `\n`):
//! 1. **rows**: one row per line, of `.` and `#` only; grids are separated by empty lines;
//! 2. **TopCoder literal** (first byte `{`): `{"..", ".."}` with white space allowed between
//!    the elements; several literals may follow one another.
//!
//! Every row of a grid has the width of its first row (at least 1 and at most [`MAX_WIDTH`]).
//! A width problem is reported where it shows: at the first square beyond the width, or at the
//! end of a short row (its closing quote in the literal form). Grids are numbered from 1 in
//! every error (`case`).

use std::io::{Cursor, Read};

use super::grundy::run_value;
use super::{Judgement, Outcome};
use crate::error::{describe_bytes, InputError, JudgeError, Position};
use crate::text::LineReader;

/// The widest row accepted.
pub const MAX_WIDTH: usize = 1 << 20;

/// Folds rows into a grid's Grundy value, band by band, in memory proportional to the width.
///
/// Rows are handled as bitmasks of their empty squares (bit `i % 64` of word `i / 64` is
/// square `i`), so a band of two rows is two ANDs and a walk over the runs of squares empty
/// in both rows, not a walk over the squares.
#[derive(Debug, Default)]
pub struct Fold {
    cols: usize,
    rows: usize,
    empty: u64,
    value: u32,
    /// The top row of an unfinished band (empty squares).
    top: Vec<u64>,
    /// The row being added (scratch, to keep its allocation).
    bottom: Vec<u64>,
}

/// Fills `out` with the empty-square bitmask of `row`.
fn empty_squares(row: &[u8], out: &mut Vec<u64>) {
    out.clear();
    out.extend(row.chunks(64).map(|chunk| {
        let mut mask = 0u64;
        let mut eights = chunk.chunks_exact(8);
        for (k, eight) in eights.by_ref().enumerate() {
            let word = u64::from_le_bytes(eight.try_into().expect("8 bytes"));
            mask |= dots(word) << (8 * k);
        }
        let done = chunk.len() / 8 * 8;
        for (i, &b) in eights.remainder().iter().enumerate() {
            mask |= ((b == b'.') as u64) << (done + i);
        }
        mask
    }));
}

/// Bit `i` set where byte `i` of `word` (little-endian) is `.`: an exact zero-byte test of
/// `word ^ "........"` (no false positives from borrows), then the byte flags gathered into
/// 8 bits by one multiplication.
#[inline]
fn dots(word: u64) -> u64 {
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let x = word ^ 0x2E2E_2E2E_2E2E_2E2E;
    let zero = !(((x & LOW7) + LOW7) | x | LOW7);
    ((zero >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The XOR of [`run_value`] over the maximal runs of set bits of `bits` (a row's bitmask,
/// runs continuing across words).
fn runs_value(bits: impl Iterator<Item = u64>) -> u32 {
    let mut value = 0u32;
    let mut run = 0usize;
    for word in bits {
        let mut pos = 0;
        while pos < 64 {
            let rest = word >> pos;
            if rest & 1 == 1 {
                // Inside a run: it goes on for the trailing ones (zeros were shifted in at
                // the top, so this stops at the word's end at the latest).
                let ones = (!rest).trailing_zeros() as usize;
                run += ones;
                pos += ones;
            } else {
                value ^= run_value(run) as u32;
                run = 0;
                if rest == 0 {
                    break;
                }
                pos += rest.trailing_zeros() as usize;
            }
        }
    }
    value ^ run_value(run) as u32
}

impl Fold {
    /// Adds the next row (already validated: `.` and `#` only, the grid's width).
    pub fn push_row(&mut self, row: &[u8]) {
        if self.rows == 0 {
            self.cols = row.len();
        }
        if self.rows % 2 == 0 {
            empty_squares(row, &mut self.top);
            self.empty += self.top.iter().map(|w| w.count_ones() as u64).sum::<u64>();
        } else {
            empty_squares(row, &mut self.bottom);
            self.empty += self
                .bottom
                .iter()
                .map(|w| w.count_ones() as u64)
                .sum::<u64>();
            // A column with one empty square is a nim heap of 1; runs of columns empty in
            // both rows are the band's games.
            let lone: u32 = self
                .top
                .iter()
                .zip(&self.bottom)
                .map(|(t, b)| (t ^ b).count_ones())
                .sum();
            let both = self.top.iter().zip(&self.bottom).map(|(t, b)| t & b);
            self.value ^= runs_value(both) ^ (lone % 2);
        }
        self.rows += 1;
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The judgement for the rows added.
    pub fn finish(mut self) -> Judgement {
        if self.rows % 2 == 1 {
            // A last band of one row: each empty square is a nim heap of 1.
            self.value ^= self.top.iter().map(|w| w.count_ones()).sum::<u32>() % 2;
        }
        Judgement {
            outcome: if self.value != 0 {
                Outcome::First
            } else {
                Outcome::Second
            },
            rows: self.rows,
            cols: self.cols,
            empty: self.empty,
            within_contest_limits: super::within_contest_limits(self.rows, self.cols),
        }
    }
}

/// Checks a row against the grid's width (`None` for a first row); returns the 0-based index
/// of the first problem and what was expected there.
fn check_row(row: &[u8], width: Option<usize>) -> Result<(), (usize, String)> {
    let limit = width.unwrap_or(MAX_WIDTH);
    // The common case, in a form the compiler vectorises (no early exit inside a chunk).
    if row.len() == limit || (width.is_none() && !row.is_empty() && row.len() <= limit) {
        let squares_only = row.chunks(256).all(|chunk| {
            chunk
                .iter()
                .fold(true, |ok, &b| ok & ((b == b'.') | (b == b'#')))
        });
        if squares_only {
            return Ok(());
        }
    }
    for (i, &b) in row.iter().enumerate() {
        if i == limit {
            return Err(match width {
                Some(w) => (
                    i,
                    format!("end of row after {w} squares (the grid's width)"),
                ),
                None => (i, format!("a row of at most {MAX_WIDTH} squares")),
            });
        }
        if b != b'.' && b != b'#' {
            return Err((i, "'.' or '#'".into()));
        }
    }
    match width {
        Some(w) if row.len() < w => Err((row.len(), format!("{w} squares (the grid's width)"))),
        None if row.is_empty() => Err((0, "a row of at least one square".into())),
        _ => Ok(()),
    }
}

fn found(bytes: &[u8], i: usize) -> String {
    bytes
        .get(i)
        .map_or("end of row".into(), |b| describe_bytes(&[*b]))
}

/// Judges every grid of the input with the engine.
pub fn judge<R: Read>(mut reader: R) -> Result<Vec<Judgement>, JudgeError> {
    // Find the first byte that is not white space, to tell the form.
    let mut prefix = Vec::new();
    let mut chunk = [0u8; 8192];
    let literal = loop {
        let got = reader.read(&mut chunk)?;
        if got == 0 {
            break false;
        }
        prefix.extend_from_slice(&chunk[..got]);
        if let Some(&b) = prefix.iter().find(|b| !b" \t\r\n".contains(b)) {
            break b == b'{';
        }
    };
    let input = Cursor::new(prefix).chain(reader);
    if literal {
        let mut all = Vec::new();
        { input }.read_to_end(&mut all)?;
        judge_literals(&all)
    } else {
        judge_rows(input)
    }
}

fn judge_rows<R: Read>(input: R) -> Result<Vec<Judgement>, JudgeError> {
    let mut lines = LineReader::new(input, MAX_WIDTH + 1);
    let mut out = Vec::new();
    let mut fold = Fold::default();
    while let Some(line) = lines.next_line()? {
        if line.bytes.is_empty() {
            if !fold.is_empty() {
                out.push(std::mem::take(&mut fold).finish());
            }
            continue;
        }
        let width = (!fold.is_empty()).then_some(fold.cols);
        if let Err((i, expected)) = check_row(line.bytes, width) {
            let case = Some(out.len() as u64 + 1);
            let at = Position::new(line.number, i as u64 + 1);
            return Err(InputError::new(at, case, expected, found(line.bytes, i)).into());
        }
        fold.push_row(line.bytes);
    }
    if !fold.is_empty() {
        out.push(fold.finish());
    }
    if out.is_empty() {
        return Err(
            InputError::new(lines.end_position(), Some(1), "a grid", "end of input").into(),
        );
    }
    Ok(out)
}

/// A cursor over an in-memory input that tracks line and column.
struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    line: u64,
    line_start: usize,
}

impl Scanner<'_> {
    fn position(&self) -> Position {
        Position::new(self.line, (self.at - self.line_start) as u64 + 1)
    }
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }
    fn bump(&mut self) {
        if self.bytes[self.at] == b'\n' {
            self.line += 1;
            self.line_start = self.at + 1;
        }
        self.at += 1;
    }
    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\r' | b'\n')) {
            self.bump();
        }
    }
    fn found(&self) -> String {
        self.peek()
            .map_or("end of input".into(), |b| describe_bytes(&[b]))
    }
}

fn judge_literals(bytes: &[u8]) -> Result<Vec<Judgement>, JudgeError> {
    let mut s = Scanner {
        bytes,
        at: 0,
        line: 1,
        line_start: 0,
    };
    let mut out = Vec::new();
    loop {
        s.skip_space();
        if s.peek().is_none() && !out.is_empty() {
            return Ok(out);
        }
        let case = Some(out.len() as u64 + 1);
        let fail = |s: &Scanner, expected: &str| -> JudgeError {
            InputError::new(s.position(), case, expected, s.found()).into()
        };
        if s.peek() != Some(b'{') {
            return Err(fail(&s, "'{' opening a grid literal"));
        }
        s.bump();
        let mut fold = Fold::default();
        loop {
            s.skip_space();
            if fold.is_empty() && s.peek() == Some(b'}') {
                return Err(fail(&s, "a row (a grid has at least one)"));
            }
            if s.peek() != Some(b'"') {
                return Err(fail(&s, "'\"' opening a row"));
            }
            s.bump();
            let start = s.at;
            while let Some(b) = s.peek() {
                if b == b'"' || b == b'\n' {
                    break;
                }
                s.bump();
            }
            let row = &bytes[start..s.at];
            let width = (!fold.is_empty()).then_some(fold.cols);
            if let Err((i, expected)) = check_row(row, width) {
                let at = Position::new(s.line, (start + i - s.line_start) as u64 + 1);
                let what = if i < row.len() {
                    found(row, i)
                } else {
                    s.found()
                };
                return Err(InputError::new(at, case, expected, what).into());
            }
            if s.peek() != Some(b'"') {
                return Err(fail(&s, "'\"' closing the row"));
            }
            s.bump();
            fold.push_row(row);
            s.skip_space();
            match s.peek() {
                Some(b',') => s.bump(),
                Some(b'}') => {
                    s.bump();
                    break;
                }
                _ => return Err(fail(&s, "',' or '}'")),
            }
        }
        out.push(fold.finish());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_row_fast_path_refuses_what_the_full_check_refuses() {
        assert!(check_row(&vec![b'.'; MAX_WIDTH], None).is_ok());
        assert_eq!(
            check_row(&vec![b'.'; MAX_WIDTH + 1], None).unwrap_err().0,
            MAX_WIDTH
        );
        // Rows without a '.', so that a fast path testing only for '.' would pass them.
        assert_eq!(check_row(b"#x#", None).unwrap_err().0, 1);
        assert_eq!(check_row(b"##x", Some(3)).unwrap_err().0, 2);
        assert_eq!(check_row(b"###", Some(2)).unwrap_err().0, 2);
        assert_eq!(check_row(b"##", Some(3)).unwrap_err().0, 2);
    }

    #[test]
    fn dots_marks_exactly_the_dot_bytes() {
        for pattern in 0..=255u64 {
            let bytes: Vec<u8> = (0..8)
                .map(|i| {
                    if pattern >> i & 1 == 1 {
                        b'.'
                    } else {
                        [b'#', 0x2F, 0xAE, 0xD1, 0][i % 5]
                    }
                })
                .collect();
            let word = u64::from_le_bytes(bytes.clone().try_into().unwrap());
            assert_eq!(dots(word), pattern, "{bytes:?}");
        }
        let mut out = Vec::new();
        let row: Vec<u8> = (0..150)
            .map(|i| if i % 3 == 0 { b'.' } else { b'#' })
            .collect();
        empty_squares(&row, &mut out);
        for i in 0..150 {
            assert_eq!(out[i / 64] >> (i % 64) & 1 == 1, i % 3 == 0, "square {i}");
        }
        assert_eq!(out.len(), 3);
    }
}
