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
use crate::util::error::{describe_bytes, InputError, JudgeError, Position};
use crate::util::text::{ByteStream, LineReader};

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

/// How the input starts: its form, and for the rows form the first line that is already
/// malformed among the leading white space.
enum Start {
    /// Only white space: the position of the end of input, and the first line of blanks that
    /// is not empty (line, its first byte), if any.
    Empty(Position, Option<(u64, u8)>),
    /// A `{` at this position: the literal form.
    Literal(Position),
    /// Anything else: the rows form, whose first non-blank byte is at this position; the first
    /// line of blanks that is not empty, if any.
    Rows(Position, Option<(u64, u8)>),
}

/// Reads the white space at the start of the input, each byte once, keeping only the chunk in
/// which the first other byte lies (returned, from that byte on, as `rest`).
fn start<R: Read>(reader: &mut R, rest: &mut Vec<u8>) -> std::io::Result<Start> {
    let mut chunk = [0u8; 8192];
    let (mut line, mut column) = (1u64, 1u64);
    // The first byte of the current line, and whether the line holds more than a final `\r`.
    let (mut line_first, mut line_len, mut line_cr_last) = (None::<u8>, 0u64, false);
    let mut unclean: Option<(u64, u8)> = None;
    loop {
        let got = match reader.read(&mut chunk) {
            Ok(0) => {
                if unclean.is_none() && line_len > u64::from(line_cr_last) {
                    unclean = line_first.map(|b| (line, b));
                }
                return Ok(Start::Empty(Position::new(line, column), unclean));
            }
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        crate::util::text::add_work(got as u64);
        for (i, &b) in chunk[..got].iter().enumerate() {
            match b {
                b'\n' => {
                    // A line of blanks is empty when it holds nothing or a lone `\r`.
                    if unclean.is_none() && line_len > u64::from(line_cr_last) {
                        unclean = line_first.map(|b| (line, b));
                    }
                    (line, column) = (line + 1, 1);
                    (line_first, line_len, line_cr_last) = (None, 0, false);
                }
                b' ' | b'\t' | b'\r' => {
                    line_first.get_or_insert(b);
                    line_len += 1;
                    line_cr_last = b == b'\r';
                    column += 1;
                }
                _ => {
                    rest.extend_from_slice(&chunk[i..got]);
                    let at = Position::new(line, column);
                    if b == b'{' {
                        return Ok(Start::Literal(at));
                    }
                    return Ok(Start::Rows(at, unclean.or(line_first.map(|b| (line, b)))));
                }
            }
        }
    }
}

/// Judges every grid of the input with the engine, reading it once, in memory proportional to
/// the width of a row.
pub fn judge<R: Read>(reader: R) -> Result<Vec<Judgement>, JudgeError> {
    let mut out = Vec::new();
    judge_each(reader, &mut |j| out.push(j))?;
    Ok(out)
}

/// [`judge`], each grid's judgement handed to `each` as soon as the grid is read (a grid held
/// while it is read, never the input).
pub fn judge_each<R: Read>(
    mut reader: R,
    each: &mut dyn FnMut(Judgement),
) -> Result<(), JudgeError> {
    let mut rest = Vec::new();
    let blank_line_error = |(line, byte): (u64, u8)| -> JudgeError {
        InputError::new(
            Position::new(line, 1),
            Some(1),
            "'.' or '#'",
            describe_bytes(&[byte]),
        )
        .into()
    };
    match start(&mut reader, &mut rest)? {
        Start::Empty(_, Some(blank)) | Start::Rows(_, Some(blank)) => Err(blank_line_error(blank)),
        Start::Empty(end, None) => {
            Err(InputError::new(end, Some(1), "a grid", "end of input").into())
        }
        Start::Literal(at) => {
            judge_literals(ByteStream::new(Cursor::new(rest).chain(reader), at), each)
        }
        Start::Rows(at, None) => judge_rows(
            LineReader::after_lines(Cursor::new(rest).chain(reader), MAX_WIDTH + 1, at.line - 1),
            each,
        ),
    }
}

fn judge_rows<R: Read>(
    mut lines: LineReader<R>,
    each: &mut dyn FnMut(Judgement),
) -> Result<(), JudgeError> {
    let mut judged = 0u64;
    let mut fold = Fold::default();
    while let Some(line) = lines.next_line()? {
        if line.bytes.is_empty() {
            if !fold.is_empty() {
                each(std::mem::take(&mut fold).finish());
                judged += 1;
            }
            continue;
        }
        if !fold.push_row(line.bytes) {
            let width = fold.width();
            let (i, expected) = row_fault(line.bytes, width);
            let case = Some(judged + 1);
            let at = Position::new(line.number, i as u64 + 1);
            return Err(InputError::new(at, case, expected, found(line.bytes, i)).into());
        }
    }
    if !fold.is_empty() {
        each(fold.finish());
        judged += 1;
    }
    if judged == 0 {
        return Err(
            InputError::new(lines.end_position(), Some(1), "a grid", "end of input").into(),
        );
    }
    Ok(())
}

/// What is at the stream's position, for a message.
fn found_next<R: Read>(s: &mut ByteStream<R>) -> Result<String, JudgeError> {
    Ok(s.peek()?
        .map_or("end of input".into(), |b| describe_bytes(&[b])))
}

fn skip_space<R: Read>(s: &mut ByteStream<R>) -> Result<(), JudgeError> {
    while let Some(b' ' | b'\t' | b'\r' | b'\n') = s.peek()? {
        s.bump();
    }
    Ok(())
}

/// The literal form, streamed: a row is held only up to the width it may have, plus one byte.
fn judge_literals<R: Read>(
    mut s: ByteStream<R>,
    each: &mut dyn FnMut(Judgement),
) -> Result<(), JudgeError> {
    let mut judged = 0u64;
    let mut row: Vec<u8> = Vec::new();
    loop {
        skip_space(&mut s)?;
        if s.peek()?.is_none() && judged > 0 {
            return Ok(());
        }
        let case = Some(judged + 1);
        macro_rules! fail {
            ($expected:expr) => {{
                let found = found_next(&mut s)?;
                return Err(InputError::new(s.position(), case, $expected, found).into());
            }};
        }
        if s.peek()? != Some(b'{') {
            fail!("'{' opening a grid literal");
        }
        s.bump();
        let mut fold = Fold::default();
        loop {
            skip_space(&mut s)?;
            if fold.is_empty() && s.peek()? == Some(b'}') {
                fail!("a row (a grid has at least one)");
            }
            if s.peek()? != Some(b'"') {
                fail!("'\"' opening a row");
            }
            s.bump();
            let start = s.position();
            // Enough of the row to find its first fault: one square past the width it may have.
            let keep = fold.width().unwrap_or(MAX_WIDTH) + 1;
            row.clear();
            while let Some(b) = s.peek()? {
                if b == b'"' || b == b'\n' || row.len() == keep {
                    break;
                }
                row.push(b);
                s.bump();
            }
            if !fold.push_row(&row) {
                let (i, expected) = row_fault(&row, fold.width());
                let at = Position::new(start.line, start.column + i as u64);
                let what = if i < row.len() {
                    found(&row, i)
                } else {
                    found_next(&mut s)?
                };
                return Err(InputError::new(at, case, expected, what).into());
            }
            if s.peek()? != Some(b'"') {
                fail!("'\"' closing the row");
            }
            s.bump();
            skip_space(&mut s)?;
            match s.peek()? {
                Some(b',') => s.bump(),
                Some(b'}') => {
                    s.bump();
                    break;
                }
                _ => fail!("',' or '}'"),
            }
        }
        each(fold.finish());
        judged += 1;
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
