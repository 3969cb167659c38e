//! Some Game, the plain way: the literal definitions. A player has a line when, from some
//! square and along some step, K consecutive squares are theirs (or the walk comes back to its
//! start with every square theirs: a line of every length). For `ERROR`, every square of the
//! last mover is removed in turn and the board judged again from scratch. Slow by design:
//! O(squares x 8 x min(K, cycle)) per line check, times the last mover's squares.

use std::io::Read;

use crate::cases::{Case, Gathering, Lines, Stop};
use crate::text::{all_lines, quote};
use crate::ParseError;

/// The largest board accepted (the same grammar limit as the engine's).
pub const MAX_SQUARES: u64 = 1 << 26;

/// The verdict and its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// K = 0 and the board is empty.
    ZeroKEmpty,
    /// K = 0 and the board is not empty.
    ZeroKNotEmpty,
    /// Square counts or values impossible.
    BadCounts,
    /// Nobody has a line.
    NoWinners,
    /// `player` (lowest) has a line but did not move last.
    NotLastMover { player: u64 },
    /// The last mover `player` has a line; `squares` of theirs could have been the winning move.
    LastMoverLine { player: u64, squares: u64 },
}

/// One data set.
#[derive(Debug, Clone)]
pub struct Board {
    pub players: u64,
    pub rows: usize,
    pub cols: usize,
    pub k: u64,
    /// `cells[r][c]`, values as written (saturated at 2^64 - 1).
    pub cells: Vec<Vec<u64>>,
}

/// Judges every data set.
pub fn judge(input: &[u8]) -> Result<Vec<Verdict>, ParseError> {
    Ok(parse(input)?
        .into_iter()
        .map(|mut b| judge_board(&mut b))
        .collect())
}

const STEPS: [(i64, i64); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (1, 2),
    (2, 1),
    (1, -2),
    (2, -1),
];

/// Judges one board (temporarily changing squares, restored before returning).
pub fn judge_board(b: &mut Board) -> Verdict {
    let all: Vec<(usize, usize)> = (0..b.rows)
        .flat_map(|r| (0..b.cols).map(move |c| (r, c)))
        .collect();
    let filled = all.iter().filter(|&&(r, c)| b.cells[r][c] != 0).count() as u64;
    if b.k == 0 {
        return if filled == 0 {
            Verdict::ZeroKEmpty
        } else {
            Verdict::ZeroKNotEmpty
        };
    }
    // Check 1: counts under turn order.
    let m = filled / b.players;
    let j = filled % b.players;
    for &(r, c) in &all {
        if b.cells[r][c] > b.players {
            return Verdict::BadCounts;
        }
    }
    let mut owners: Vec<u64> = all
        .iter()
        .map(|&(r, c)| b.cells[r][c])
        .filter(|&v| v != 0)
        .collect();
    owners.sort();
    owners.dedup();
    for &p in &owners {
        let owned = all.iter().filter(|&&(r, c)| b.cells[r][c] == p).count() as u64;
        let expected = if p <= j { m + 1 } else { m };
        if owned != expected {
            return Verdict::BadCounts;
        }
    }
    // Players who own nothing must be owed nothing: every player 1..=j is owed m + 1 >= 1,
    // and if m >= 1 every player is owed something.
    let owed_something = if m >= 1 { b.players } else { j };
    if (owners.len() as u64) < owed_something {
        return Verdict::BadCounts;
    }
    let last = if j > 0 { j } else { b.players };
    let with_line: Vec<u64> = owners.iter().copied().filter(|&p| has_line(b, p)).collect();
    if with_line.is_empty() {
        return Verdict::NoWinners;
    }
    if let Some(&p) = with_line.iter().find(|&&p| p != last) {
        return Verdict::NotLastMover { player: p };
    }
    let mut squares = 0;
    for &(r, c) in &all {
        if b.cells[r][c] == last {
            b.cells[r][c] = 0;
            if owners.iter().all(|&p| !has_line(b, p)) {
                squares += 1;
            }
            b.cells[r][c] = last;
        }
    }
    Verdict::LastMoverLine {
        player: last,
        squares,
    }
}

/// Whether `player` has a line of K squares (or a whole cycle) along some step.
fn has_line(b: &Board, player: u64) -> bool {
    let (rows, cols) = (b.rows as i64, b.cols as i64);
    for r in 0..rows {
        for c in 0..cols {
            for (dr, dc) in STEPS {
                let mut count: u64 = 0;
                let (mut x, mut y) = (r, c);
                loop {
                    if b.cells[x as usize][y as usize] != player {
                        break;
                    }
                    count += 1;
                    if count == b.k {
                        return true;
                    }
                    x = (x + dr).rem_euclid(rows);
                    y = (y + dc).rem_euclid(cols);
                    if (x, y) == (r, c) {
                        return true; // Back at the start, every square owned.
                    }
                }
            }
        }
    }
    false
}

fn err(line: usize, column: usize, case: usize, expected: String, found: String) -> ParseError {
    ParseError {
        line: line as u64,
        column: column as u64,
        case: Some(case as u64),
        expected,
        found,
    }
}

/// A line's tokens: (1-based start column, bytes).
fn tokens(line: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < line.len() {
        if line[i] == b' ' || line[i] == b'\t' {
            i += 1;
            continue;
        }
        let start = i;
        while i < line.len() && line[i] != b' ' && line[i] != b'\t' {
            i += 1;
        }
        out.push((start + 1, &line[start..i]));
    }
    out
}

/// Reads exactly `count` integers from line `number` (1-based); `check` may reject a value
/// (given its index and the values so far).
fn values(
    line: &[u8],
    number: usize,
    count: usize,
    case: usize,
    check: &dyn Fn(usize, &[u64]) -> Option<String>,
) -> Result<Vec<u64>, ParseError> {
    let mut out: Vec<u64> = Vec::new();
    for (col, tok) in tokens(line) {
        if out.len() == count {
            return Err(err(
                number,
                col,
                case,
                format!("end of line after {count} values"),
                quote(tok),
            ));
        }
        if let Some(bad) = tok.iter().position(|b| !b.is_ascii_digit()) {
            return Err(err(
                number,
                col + bad,
                case,
                "a non-negative integer".into(),
                quote(&tok[bad..bad + 1]),
            ));
        }
        let text = std::str::from_utf8(tok).expect("digits");
        out.push(text.parse().unwrap_or(u64::MAX));
        if let Some(problem) = check(out.len() - 1, &out) {
            return Err(err(number, col, case, problem, quote(tok)));
        }
    }
    if out.len() < count {
        return Err(err(
            number,
            line.len() + 1,
            case,
            format!("{count} values"),
            "end of line".into(),
        ));
    }
    Ok(out)
}

/// The header of data set `case` on line `number`: players, rows, columns, K.
fn header(line: &[u8], number: usize, case: usize) -> Result<Vec<u64>, ParseError> {
    values(line, number, 4, case, &|at, v| match at {
        0 if v[0] == 0 => Some("at least 1 player".into()),
        1 if v[1] == 0 => Some("at least 1 row".into()),
        2 if v[2] == 0 => Some("at least 1 column".into()),
        2 if v[1].saturating_mul(v[2]) > MAX_SQUARES => Some("a smaller board".into()),
        _ => None,
    })
}

fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|&b| b == b' ' || b == b'\t')
}

/// The data sets of `input` one at a time ([`crate::cases`]), each held while it has at most
/// `bound` bytes: blank lines, a header (checked here: it says how many rows follow), its rows
/// (checked by [`judge_case`]).
pub fn cases<R: Read>(input: R, bound: u64) -> impl Iterator<Item = Result<Case, Stop>> {
    DataSets {
        lines: Lines::new(input, bound.max(HEADER_LINE)),
        bound,
        sets: 0,
        done: false,
    }
}

/// The longest header the framing reads whatever the bound.
const HEADER_LINE: u64 = 1024;

struct DataSets<R> {
    lines: Lines<R>,
    bound: u64,
    sets: u64,
    done: bool,
}

impl<R: Read> DataSets<R> {
    fn step(&mut self) -> Result<Option<Case>, Stop> {
        let number = self.sets + 1;
        let (mut set, rows) = loop {
            let Some(line) = self.lines.next_line().map_err(Stop::Unreadable)? else {
                if self.sets > 0 {
                    return Ok(None);
                }
                let end = self.lines.end();
                return Err(Stop::Malformed(err(
                    end.0 as usize,
                    end.1 as usize,
                    1,
                    "a header".into(),
                    "end of input".into(),
                )));
            };
            if is_blank(line.content()) {
                continue;
            }
            if !line.whole() {
                return Err(Stop::TooLong {
                    number,
                    line: line.number,
                });
            }
            let values = header(line.content(), line.number as usize, number as usize)
                .map_err(Stop::Malformed)?;
            let mut set = Gathering::new(number, Some(number), line.number, self.bound);
            set.push(&line);
            break (set, values[1]);
        };
        self.sets += 1;
        for _ in 0..rows {
            match self.lines.next_line().map_err(Stop::Unreadable)? {
                Some(line) => set.push(&line),
                None => return Ok(Some(set.finish(Some(self.lines.end())))),
            }
        }
        Ok(Some(set.finish(None)))
    }
}

impl<R: Read> Iterator for DataSets<R> {
    type Item = Result<Case, Stop>;

    fn next(&mut self) -> Option<Result<Case, Stop>> {
        if self.done {
            return None;
        }
        let step = self.step();
        if !matches!(step, Ok(Some(_))) {
            self.done = true;
        }
        step.transpose()
    }
}

/// Reads one data set cut by [`cases`] (held).
fn read_case(case: &Case) -> Result<Board, ParseError> {
    let text = case.text.as_deref().unwrap_or_default();
    let all: Vec<&[u8]> = crate::text::lines(text).collect();
    let number = case.number as usize;
    let at = case.first_line as usize;
    let header = header(all[0], at, number)?;
    let (rows, cols) = (header[1] as usize, header[2] as usize);
    let mut cells = Vec::with_capacity(rows.min(all.len()));
    for r in 0..rows {
        let Some(line) = all.get(1 + r) else {
            return Err(err(
                case.end.0 as usize,
                case.end.1 as usize,
                number,
                "a row".into(),
                "end of input".into(),
            ));
        };
        cells.push(values(line, at + 1 + r, cols, number, &|_, _| None)?);
    }
    Ok(Board {
        players: header[0],
        rows,
        cols,
        k: header[3],
        cells,
    })
}

/// Judges one data set cut by [`cases`] (its rows checked first).
pub fn judge_case(case: &Case) -> Result<(Board, Verdict), ParseError> {
    let mut board = read_case(case)?;
    let verdict = judge_board(&mut board);
    Ok((board, verdict))
}

/// Checks the rows of one data set cut by [`cases`].
pub fn check_case(case: &Case) -> Result<(), ParseError> {
    read_case(case).map(|_| ())
}

/// Splits the input into data sets.
pub fn parse(input: &[u8]) -> Result<Vec<Board>, ParseError> {
    let (all, end) = all_lines(input);
    let mut boards = Vec::new();
    let mut i = 0;
    loop {
        let case = boards.len() + 1;
        // Blank lines before a header.
        while i < all.len() && all[i].iter().all(|&b| b == b' ' || b == b'\t') {
            i += 1;
        }
        if i == all.len() {
            if boards.is_empty() {
                return Err(err(
                    end.0 as usize,
                    end.1 as usize,
                    case,
                    "a header".into(),
                    "end of input".into(),
                ));
            }
            return Ok(boards);
        }
        let header = header(all[i], i + 1, case)?;
        i += 1;
        let (rows, cols) = (header[1] as usize, header[2] as usize);
        let mut cells = Vec::new();
        for _ in 0..rows {
            let Some(line) = all.get(i) else {
                return Err(err(
                    end.0 as usize,
                    end.1 as usize,
                    case,
                    "a row".into(),
                    "end of input".into(),
                ));
            };
            cells.push(values(line, i + 1, cols, case, &|_, _| None)?);
            i += 1;
        }
        boards.push(Board {
            players: header[0],
            rows,
            cols,
            k: header[3],
            cells,
        });
    }
}
