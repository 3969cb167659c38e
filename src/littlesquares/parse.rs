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

use wide::u8x16;

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
    incoming: Vec<u64>,
}

/// Fills `out` with the empty-square bitmask of `row` (bit `i % 64` of word `i / 64` is set
/// when byte `i` is `.`) and returns whether every byte is `.` or `#`.
///
/// Sixteen bytes per step: two byte compares and a `movemask` (SSE2 through `wide`, which
/// falls back to plain code on other targets), four steps per word of the bitmask; the check
/// accumulates in a vector and is read once per row. The tail of fewer than 16 bytes goes
/// byte by byte.
fn row_squares(row: &[u8], out: &mut Vec<u64>) -> bool {
    let dot = u8x16::from(b'.');
    let hash = u8x16::from(b'#');
    // Lanes stay all ones while every byte seen is a square.
    let mut squares = u8x16::from(u8::MAX);
    let mut sixteen = |bytes: &[u8]| {
        let bytes = u8x16::from(<[u8; 16]>::try_from(bytes).expect("16 bytes"));
        let dots = bytes.simd_eq(dot);
        squares &= dots | bytes.simd_eq(hash);
        u64::from(dots.to_bitmask())
    };
    out.clear();
    let mut words = row.chunks_exact(64);
    out.extend(words.by_ref().map(|word| {
        sixteen(&word[..16])
            | sixteen(&word[16..32]) << 16
            | sixteen(&word[32..48]) << 32
            | sixteen(&word[48..]) << 48
    }));
    let tail = words.remainder();
    let mut squares_only = true;
    if !tail.is_empty() {
        let mut mask = 0u64;
        let mut sixteens = tail.chunks_exact(16);
        for (k, bytes) in sixteens.by_ref().enumerate() {
            mask |= sixteen(bytes) << (16 * k);
        }
        let done = tail.len() / 16 * 16;
        for (i, &b) in sixteens.remainder().iter().enumerate() {
            squares_only &= b == b'.' || b == b'#';
            mask |= u64::from(b == b'.') << (done + i);
        }
        out.push(mask);
    }
    squares_only && squares.to_bitmask() == 0xFFFF
}

/// The XOR of [`run_value`] over the maximal runs of set bits of `bits` (a row's bitmask,
/// runs continuing across words).
///
/// A run starts at a set bit whose lower neighbour is clear and ends at a set bit whose upper
/// neighbour is clear; starts and ends alternate along the row, so the loop pairs the k-th
/// end with the k-th start, one iteration per run and no branch per square. A run still open
/// at a word's end keeps its start in `open`.
fn runs_value(bits: impl Iterator<Item = u64>) -> u32 {
    let mut value = 0u32;
    let mut open: Option<usize> = None;
    let mut below = 0u64; // bit 63 of the previous word, as bit 0
    let mut base = 0usize;
    let mut words = bits.peekable();
    while let Some(word) = words.next() {
        let above = words.peek().map_or(0, |next| next & 1);
        let mut starts = word & !((word << 1) | below);
        let mut ends = word & !((word >> 1) | (above << 63));
        while ends != 0 {
            let end = base + ends.trailing_zeros() as usize;
            let start = open.take().unwrap_or_else(|| {
                let s = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                s
            });
            value ^= u32::from(run_value(end + 1 - start));
            ends &= ends - 1;
        }
        if starts != 0 {
            open = Some(base + starts.trailing_zeros() as usize);
        }
        below = word >> 63;
        base += 64;
    }
    value
}

impl Fold {
    /// Adds the next row if it is one: only `.` and `#`, and the grid's width (the first row
    /// sets the width: at least 1, at most [`MAX_WIDTH`]). Returns `false` and leaves the fold
    /// as it was otherwise; [`row_fault`] then says where the row goes wrong.
    pub fn push_row(&mut self, row: &[u8]) -> bool {
        let width_ok = if self.rows == 0 {
            (1..=MAX_WIDTH).contains(&row.len())
        } else {
            row.len() == self.cols
        };
        if !width_ok || !row_squares(row, &mut self.incoming) {
            return false;
        }
        if self.rows == 0 {
            self.cols = row.len();
        }
        let count = |words: &[u64]| words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        self.empty += count(&self.incoming);
        if self.rows % 2 == 0 {
            std::mem::swap(&mut self.top, &mut self.incoming);
        } else {
            // A column with one empty square is a nim heap of 1; runs of columns empty in
            // both rows are the band's games.
            let (top, bottom) = (&self.top, &self.incoming);
            let lone: u32 = top
                .iter()
                .zip(bottom)
                .map(|(t, b)| (t ^ b).count_ones())
                .sum();
            let both = top.iter().zip(bottom).map(|(t, b)| t & b);
            self.value ^= runs_value(both) ^ (lone % 2);
        }
        self.rows += 1;
        true
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

/// Where a row that [`Fold::push_row`] refused goes wrong, against the grid's width (`None`
/// for a first row): the 0-based index of the first problem and what was expected there.
fn row_fault(row: &[u8], width: Option<usize>) -> (usize, String) {
    let limit = width.unwrap_or(MAX_WIDTH);
    for (i, &b) in row.iter().enumerate() {
        if i == limit {
            return match width {
                Some(w) => (
                    i,
                    format!("end of row after {w} squares (the grid's width)"),
                ),
                None => (i, format!("a row of at most {MAX_WIDTH} squares")),
            };
        }
        if b != b'.' && b != b'#' {
            return (i, "'.' or '#'".into());
        }
    }
    match width {
        Some(w) => (row.len(), format!("{w} squares (the grid's width)")),
        None => (0, "a row of at least one square".into()),
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
        if !fold.push_row(line.bytes) {
            let width = (!fold.is_empty()).then_some(fold.cols);
            let (i, expected) = row_fault(line.bytes, width);
            let case = Some(out.len() as u64 + 1);
            let at = Position::new(line.number, i as u64 + 1);
            return Err(InputError::new(at, case, expected, found(line.bytes, i)).into());
        }
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
            if !fold.push_row(row) {
                let width = (!fold.is_empty()).then_some(fold.cols);
                let (i, expected) = row_fault(row, width);
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
    use proptest::prelude::*;

    #[test]
    fn push_row_refuses_what_row_fault_describes() {
        let mut fold = Fold::default();
        assert!(fold.push_row(&vec![b'.'; MAX_WIDTH]));
        assert!(!Fold::default().push_row(&vec![b'.'; MAX_WIDTH + 1]));
        assert_eq!(row_fault(&vec![b'.'; MAX_WIDTH + 1], None).0, MAX_WIDTH);
        assert!(!Fold::default().push_row(b""));
        assert_eq!(row_fault(b"", None).0, 0);
        // Rows without a '.', so that a test only for '.' would pass them; the bad byte in
        // the 16-byte steps and in the tail.
        let mut long = vec![b'#'; 100];
        for at in [0, 15, 16, 63, 64, 95, 96, 99] {
            long[at] = b'x';
            assert!(!Fold::default().push_row(&long), "bad byte at {at}");
            assert_eq!(row_fault(&long, None).0, at);
            long[at] = b'#';
        }
        assert!(Fold::default().push_row(&long));
        let mut fold = Fold::default();
        assert!(fold.push_row(b"###"));
        for (row, at) in [(&b"##x"[..], 2), (b"####", 3), (b"##", 2)] {
            assert!(!fold.push_row(row));
            assert_eq!(row_fault(row, Some(3)).0, at);
        }
        // A refused row leaves the fold as it was.
        assert!(fold.push_row(b".#."));
        let judged = fold.finish();
        assert_eq!((judged.rows, judged.cols, judged.empty), (2, 3, 2));
    }

    /// Every error names line, column, grid, what was expected and what was found, in both
    /// forms, on first and later lines and grids.
    #[test]
    fn errors_name_position_case_expected_and_found() {
        for (input, message) in [
            (
                &b"..\n.x\n"[..],
                "2:2: case 1: expected '.' or '#', found 'x'",
            ),
            (
                b"..\n.\n",
                "2:2: case 1: expected 2 squares (the grid's width), found end of row",
            ),
            (
                b"..\n..\n\n..\n...\n",
                "5:3: case 2: expected end of row after 2 squares (the grid's width), found '.'",
            ),
            (b"", "1:1: case 1: expected a grid, found end of input"),
            (
                b"{\"..\",\n \"..\",\n \"..\" \"..\"}",
                "3:7: case 1: expected ',' or '}', found '\"'",
            ),
            (
                b"{\"..\", \".\"}",
                "1:10: case 1: expected 2 squares (the grid's width), found '\"'",
            ),
            (
                b"{\"..\",\n  \".\"}",
                "2:5: case 1: expected 2 squares (the grid's width), found '\"'",
            ),
            (
                b"{\"..\", \".x\"}",
                "1:10: case 1: expected '.' or '#', found 'x'",
            ),
            (
                b"{\"..\"}\n {\"..\", \"x.\"}",
                "2:10: case 2: expected '.' or '#', found 'x'",
            ),
        ] {
            let error = judge(input).unwrap_err().to_string();
            assert_eq!(error, message, "{}", String::from_utf8_lossy(input));
        }
        // The widest row there is, and one square more.
        let widest = vec![b'.'; MAX_WIDTH];
        assert_eq!(judge(&widest[..]).unwrap()[0].cols, MAX_WIDTH);
        let wider = vec![b'#'; MAX_WIDTH + 1];
        let error = judge(&wider[..]).unwrap_err().to_string();
        let expected = format!(
            "1:{}: case 1: expected a row of at most {MAX_WIDTH} squares",
            MAX_WIDTH + 1
        );
        assert!(error.starts_with(&expected), "{error}");
    }

    /// Bytes drawn mostly from the two squares, sometimes anything.
    fn row_bytes() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![8 => Just(b'.'), 8 => Just(b'#'), 1 => any::<u8>()];
        proptest::collection::vec(byte, 0..300)
    }

    proptest! {
        #[test]
        fn row_squares_matches_a_byte_by_byte_reading(row in row_bytes()) {
            let mut out = Vec::new();
            let squares_only = row_squares(&row, &mut out);
            prop_assert_eq!(squares_only, row.iter().all(|&b| b == b'.' || b == b'#'));
            prop_assert_eq!(out.len(), row.len().div_ceil(64));
            for (i, &b) in row.iter().enumerate() {
                prop_assert_eq!(out[i / 64] >> (i % 64) & 1 == 1, b == b'.', "square {}", i);
            }
            for (w, word) in out.iter().enumerate() {
                let used = (row.len() - 64 * w).min(64);
                prop_assert_eq!(word.checked_shr(used as u32).unwrap_or(0), 0);
            }
        }

        #[test]
        fn runs_value_matches_a_walk_over_the_squares(
            words in proptest::collection::vec(
                prop_oneof![Just(0u64), Just(u64::MAX), Just(u64::MAX - 1), Just(1 << 63), any::<u64>()],
                0..6,
            ),
        ) {
            let mut expected = 0u32;
            let mut run = 0;
            for i in 0..64 * words.len() {
                if words[i / 64] >> (i % 64) & 1 == 1 {
                    run += 1;
                } else {
                    expected ^= u32::from(run_value(run));
                    run = 0;
                }
            }
            expected ^= u32::from(run_value(run));
            prop_assert_eq!(runs_value(words.iter().copied()), expected);
        }
    }
}
