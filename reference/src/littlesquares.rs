//! LittleSquares, the plain way: the game is played out by memoised minimax over the set of
//! empty squares of the whole grid, with no decomposition into bands and no Grundy theory.
//! Exponential by nature, so grids with more than [`MAX_EMPTY`] empty squares are refused.

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
