//! LittleSquares input, streamed row by row into the engine's [`Fold`].
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

use super::fold::{Fold, MAX_WIDTH};
use super::Judgement;
use crate::error::{describe_bytes, InputError, JudgeError, Position};
use crate::text::LineReader;

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
            let width = fold.width();
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
                let width = fold.width();
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
}
