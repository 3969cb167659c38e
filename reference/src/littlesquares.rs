//! LittleSquares, the plain way: the game is played out by memoised minimax over the set of
//! empty squares of the whole grid, with no decomposition into bands and no Grundy theory.
//! Exponential by nature, so grids with more than [`MAX_EMPTY`] empty squares are refused.

use std::io::Read;

use crate::cases::{Case, Gathering, Lines, Stop};
use crate::text::{end_of, lines, quote};
use crate::ParseError;

/// The most empty squares the reference will search (2^24 memoised positions).
pub const MAX_EMPTY: usize = 24;
/// The widest row accepted (the same grammar limit as the engine's).
pub const MAX_WIDTH: usize = 1 << 20;

/// The result for one grid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    /// `Some(true)`: the player to move wins; `None`: beyond [`MAX_EMPTY`], not searched.
    pub first_wins: Option<bool>,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Empty squares.
    pub empty: usize,
}

/// Judges every grid of the input.
pub fn judge(input: &[u8]) -> Result<Vec<Verdict>, ParseError> {
    let grids = parse(input)?;
    Ok(grids.iter().map(|g| solve(g)).collect())
}

/// The grids of the input, as rows of `.` and `#` (the grammar checked, nothing judged).
pub fn grids(input: &[u8]) -> Result<Vec<Vec<Vec<u8>>>, ParseError> {
    parse(input)
}

/// Checks the input's grammar only.
pub fn check(input: &[u8]) -> Result<(), ParseError> {
    parse(input).map(|_| ())
}

/// Plays one grid out.
fn solve(grid: &[Vec<u8>]) -> Verdict {
    let rows = grid.len();
    let cols = grid[0].len();
    // The empty squares, numbered 0.. in reading order.
    let mut number = vec![vec![usize::MAX; cols]; rows];
    let mut empty = 0;
    for r in 0..rows {
        for c in 0..cols {
            if grid[r][c] == b'.' {
                number[r][c] = empty;
                empty += 1;
            }
        }
    }
    let verdict = |first_wins| Verdict {
        first_wins,
        rows,
        cols,
        empty,
    };
    if empty > MAX_EMPTY {
        return verdict(None);
    }
    // Every move as the set of squares it fills: single squares, and 2x2 blocks of empty
    // squares whose top row is even.
    let mut moves: Vec<u32> = (0..empty).map(|i| 1u32 << i).collect();
    for r in (0..rows.saturating_sub(1)).step_by(2) {
        for c in 0..cols.saturating_sub(1) {
            let cells = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)];
            if cells.iter().all(|&(a, b)| grid[a][b] == b'.') {
                moves.push(cells.iter().map(|&(a, b)| 1u32 << number[a][b]).sum());
            }
        }
    }
    // memo[mask]: 0 unknown, 1 the player to move wins, 2 loses.
    let mut memo = vec![0u8; 1usize << empty];
    let all = if empty == 32 {
        u32::MAX
    } else {
        (1u32 << empty) - 1
    };
    verdict(Some(wins(all, &moves, &mut memo)))
}

/// Whether the player to move wins when the squares in `mask` are the empty ones.
fn wins(mask: u32, moves: &[u32], memo: &mut [u8]) -> bool {
    if memo[mask as usize] != 0 {
        return memo[mask as usize] == 1;
    }
    let mut result = false;
    for &m in moves {
        if mask & m == m && !wins(mask & !m, moves, memo) {
            result = true;
            break;
        }
    }
    memo[mask as usize] = if result { 1 } else { 2 };
    result
}

fn fault(line: usize, column: usize, case: usize, expected: &str, found: String) -> ParseError {
    ParseError {
        line: line as u64,
        column: column as u64,
        case: Some(case as u64),
        expected: expected.into(),
        found,
    }
}

/// Checks a row's squares and width; returns the 0-based index of the first problem.
fn row_problem(row: &[u8], width: Option<usize>) -> Option<(usize, &'static str)> {
    let limit = width.unwrap_or(MAX_WIDTH);
    for (i, &square) in row.iter().enumerate() {
        if i == limit {
            return Some((i, "the grid's width (or at most the widest row accepted)"));
        }
        if square != b'.' && square != b'#' {
            return Some((i, "'.' or '#'"));
        }
    }
    match width {
        Some(w) if row.len() < w => Some((row.len(), "the grid's width")),
        None if row.is_empty() => Some((0, "a row of at least one square")),
        _ => None,
    }
}

/// Splits the input into grids (rows of `.` and `#`), checking the grammar.
fn parse(input: &[u8]) -> Result<Vec<Vec<Vec<u8>>>, ParseError> {
    let first = input.iter().find(|b| !b" \t\r\n".contains(b));
    if first == Some(&b'{') {
        parse_literals(input)
    } else {
        parse_rows(input)
    }
}

/// The grids of `input` one at a time ([`crate::cases`]), each held while it has at most
/// `bound` bytes: in the rows form, a grid is a run of non-empty lines (its rows are checked by
/// [`judge_case`]); the literal form (`{"..", ".."}`) is read whole, within `bound`, and its
/// grids handed over in the rows form. The form is the first non-blank byte's, as [`judge`]
/// decides it.
pub fn cases<'a, R: Read + Send + 'a>(
    input: R,
    bound: u64,
) -> Box<dyn Iterator<Item = Result<Case, Stop>> + Send + 'a> {
    let mut lines = Lines::new(input, bound.max(1));
    // The first line that is not empty, and the first with a byte other than blanks.
    let mut first_row: Option<(u64, Vec<u8>, u64)> = None;
    let once = |item| -> Box<dyn Iterator<Item = Result<Case, Stop>> + Send + 'a> {
        Box::new(std::iter::once(item))
    };
    let literal = loop {
        let line = match lines.next_line() {
            Err(e) => return once(Err(Stop::Unreadable(e))),
            Ok(None) => break None,
            Ok(Some(line)) => line,
        };
        let content = line.content();
        if content.is_empty() {
            continue;
        }
        if first_row.is_none() {
            first_row = Some((line.number, line.bytes.to_vec(), line.len));
        }
        if let Some(&b) = content.iter().find(|b| !b" \t\r".contains(b)) {
            break Some((b == b'{', line.number, line.bytes.to_vec()));
        }
    };
    match (literal, first_row) {
        (None, None) => {
            let end = lines.end();
            once(Err(Stop::Malformed(ParseError {
                line: end.0,
                column: end.1,
                case: Some(1),
                expected: "a grid".into(),
                found: "end of input".into(),
            })))
        }
        (Some((true, at, text)), _) => Box::new(Literal::read(lines, at, text, bound)),
        (_, Some((at, bytes, len))) => {
            let mut grid = Gathering::new(1, Some(1), at, bound);
            grid.push_bytes(&bytes, len);
            Box::new(Rows {
                lines,
                bound,
                grids: 0,
                started: Some(grid),
            })
        }
        (Some(_), None) => unreachable!("a line with a byte is not empty"),
    }
}

/// The rows form, a grid at a time.
struct Rows<R> {
    lines: Lines<R>,
    bound: u64,
    grids: u64,
    /// The first grid, its first row read.
    started: Option<Gathering>,
}

impl<R: Read> Iterator for Rows<R> {
    type Item = Result<Case, Stop>;

    fn next(&mut self) -> Option<Result<Case, Stop>> {
        let number = self.grids + 1;
        let mut grid = self.started.take();
        loop {
            match self.lines.next_line() {
                Err(e) => return Some(Err(Stop::Unreadable(e))),
                Ok(None) => break,
                Ok(Some(line)) => {
                    if line.content().is_empty() {
                        if grid.is_some() {
                            break;
                        }
                        continue;
                    }
                    let at = line.number;
                    grid.get_or_insert_with(|| {
                        Gathering::new(number, Some(number), at, self.bound)
                    })
                    .push(&line);
                }
            }
        }
        self.grids += 1;
        grid.map(|g| Ok(g.finish(None)))
    }
}

/// The literal form: every grid, read whole.
struct Literal {
    grids: std::vec::IntoIter<Vec<Vec<u8>>>,
    number: u64,
    stop: Option<Stop>,
}

impl Literal {
    /// Reads the rest of `lines` after line `at`, whose bytes are `text`, the first with a
    /// byte other than blanks.
    fn read<R: Read>(mut lines: Lines<R>, at: u64, text: Vec<u8>, bound: u64) -> Literal {
        // The lines before `at` hold blanks only: kept as empty lines, for the positions.
        let mut text = [vec![b'\n'; at as usize - 1], text].concat();
        let mut held = true;
        let mut stop = None;
        loop {
            match lines.next_line() {
                Err(e) => {
                    stop = Some(Stop::Unreadable(e));
                    break;
                }
                Ok(None) => break,
                Ok(Some(line)) => {
                    held &= line.whole() && (text.len() as u64).saturating_add(line.len) <= bound;
                    if held {
                        text.extend_from_slice(line.bytes);
                    }
                }
            }
        }
        let grids = match (stop.is_some(), held) {
            (true, _) => Vec::new(),
            (false, false) => {
                stop = Some(Stop::TooLong {
                    number: 1,
                    line: at,
                });
                Vec::new()
            }
            (false, true) => match parse_literals(&text) {
                Ok(grids) => grids,
                Err(e) => {
                    stop = Some(Stop::Malformed(e));
                    Vec::new()
                }
            },
        };
        Literal {
            grids: grids.into_iter(),
            number: 0,
            stop,
        }
    }
}

impl Iterator for Literal {
    type Item = Result<Case, Stop>;

    fn next(&mut self) -> Option<Result<Case, Stop>> {
        if let Some(stop) = self.stop.take() {
            return Some(Err(stop));
        }
        let grid = self.grids.next()?;
        self.number += 1;
        let mut text = Vec::new();
        for row in &grid {
            text.extend_from_slice(row);
            text.push(b'\n');
        }
        Some(Ok(Case {
            number: self.number,
            label: Some(self.number),
            first_line: 1,
            bytes: text.len() as u64,
            text: Some(text),
            end: (0, 0),
        }))
    }
}

/// Reads one grid cut by [`cases`] (held), its rows checked.
fn read_case(case: &Case) -> Result<Vec<Vec<u8>>, ParseError> {
    let text = case.text.as_deref().unwrap_or_default();
    let mut grid: Vec<Vec<u8>> = Vec::new();
    for (i, line) in lines(text).enumerate() {
        let width = grid.first().map(|r| r.len());
        if let Some((at, expected)) = row_problem(line, width) {
            let what = line.get(at).map_or("end of row".into(), |b| quote(&[*b]));
            let number = case.first_line as usize + i;
            return Err(fault(number, at + 1, case.number as usize, expected, what));
        }
        grid.push(line.to_vec());
    }
    Ok(grid)
}

/// Judges one grid cut by [`cases`] (its rows checked first).
pub fn judge_case(case: &Case) -> Result<Verdict, ParseError> {
    read_case(case).map(|grid| solve(&grid))
}

/// Checks the rows of one grid cut by [`cases`].
pub fn check_case(case: &Case) -> Result<(), ParseError> {
    read_case(case).map(|_| ())
}

fn parse_rows(input: &[u8]) -> Result<Vec<Vec<Vec<u8>>>, ParseError> {
    // Line by line, keeping nothing but the grids: memory is bounded by the grids, not by the
    // number of lines.
    let mut grids: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut current: Vec<Vec<u8>> = Vec::new();
    for (i, line) in lines(input).enumerate() {
        if line.is_empty() {
            if !current.is_empty() {
                grids.push(std::mem::take(&mut current));
            }
            continue;
        }
        let width = current.first().map(|r| r.len());
        if let Some((at, expected)) = row_problem(line, width) {
            let what = line.get(at).map_or("end of row".into(), |b| quote(&[*b]));
            return Err(fault(i + 1, at + 1, grids.len() + 1, expected, what));
        }
        current.push(line.to_vec());
    }
    if !current.is_empty() {
        grids.push(current);
    }
    if grids.is_empty() {
        let end = end_of(input);
        return Err(ParseError {
            line: end.0,
            column: end.1,
            case: Some(1),
            expected: "a grid".into(),
            found: "end of input".into(),
        });
    }
    Ok(grids)
}

fn parse_literals(input: &[u8]) -> Result<Vec<Vec<Vec<u8>>>, ParseError> {
    // The line and column of byte `i`, counted when an error needs them.
    let line_of = |i: usize| input[..i].iter().filter(|&&b| b == b'\n').count() + 1;
    let col_of = |i: usize| {
        i - input[..i]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |p| p + 1)
            + 1
    };
    let what = |i: usize| input.get(i).map_or("end of input".into(), |b| quote(&[*b]));
    let is_space = |i: usize| i < input.len() && b" \t\r\n".contains(&input[i]);
    let mut grids: Vec<Vec<Vec<u8>>> = Vec::new();
    let mut i = 0;
    loop {
        while is_space(i) {
            i += 1;
        }
        if i == input.len() && !grids.is_empty() {
            return Ok(grids);
        }
        let case = grids.len() + 1;
        let err = |i: usize, expected: &str| fault(line_of(i), col_of(i), case, expected, what(i));
        if input.get(i) != Some(&b'{') {
            return Err(err(i, "'{'"));
        }
        i += 1;
        let mut grid: Vec<Vec<u8>> = Vec::new();
        loop {
            while is_space(i) {
                i += 1;
            }
            if grid.is_empty() && input.get(i) == Some(&b'}') {
                return Err(err(i, "a row"));
            }
            if input.get(i) != Some(&b'"') {
                return Err(err(i, "'\"'"));
            }
            i += 1;
            let start = i;
            while i < input.len() && input[i] != b'"' && input[i] != b'\n' {
                i += 1;
            }
            let row = &input[start..i];
            if let Some((at, expected)) = row_problem(row, grid.first().map(|r| r.len())) {
                return Err(err(start + at, expected));
            }
            if input.get(i) != Some(&b'"') {
                return Err(err(i, "'\"'"));
            }
            i += 1;
            grid.push(row.to_vec());
            while is_space(i) {
                i += 1;
            }
            match input.get(i) {
                Some(b',') => i += 1,
                Some(b'}') => {
                    i += 1;
                    break;
                }
                _ => return Err(err(i, "',' or '}'")),
            }
        }
        grids.push(grid);
    }
}
