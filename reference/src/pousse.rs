//! Pousse, the plain way: an N x N grid of cells, every straight recounted after every move,
//! every earlier configuration kept in a list and compared one by one. Deliberately slow:
//! O(N^2) per move for the straights and O(moves x N^2) per move for repetitions.

use std::io::Read;

use crate::cases::{Case, Gathering, Lines, Stop};
use crate::text::{all_lines, quote};
use crate::ParseError;

/// The largest board size accepted (the same limit as the engine's).
pub const MAX_N: usize = 4096;

/// Which events end a game (see the engine's documentation of the rule sets).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// Straights only.
    Waterloo,
    /// Straights; repeating a configuration (board and side to move) loses.
    Icfp98,
    /// Straights; repeating a board loses.
    Icfp98Board,
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reason {
    /// Straight counts after the decisive move.
    Straights { x: usize, o: usize },
    /// The decisive move repeated the configuration after move `earlier_move`.
    Repetition { earlier_move: u64 },
    /// No move ended the game.
    Quit,
}

/// The result of one game.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Board size.
    pub n: usize,
    /// `Some('X')`, `Some('O')`, or `None` for a tie.
    pub winner: Option<char>,
    /// 1-based number of the move that ended the game.
    pub decisive_move: Option<u64>,
    /// Why.
    pub reason: Reason,
    /// Moves before QUIT.
    pub moves: u64,
    /// The squares this judgement visited (copied, counted or compared): a measure of the
    /// reference's work, for checking the engine's estimate of it.
    pub steps: u64,
}

const EMPTY: u8 = b'.';

/// A game as read from the input.
struct Transcript {
    n: usize,
    moves: Vec<(u8, usize)>,
}

/// Judges every game of `input` under `rules`.
pub fn judge(input: &[u8], rules: Rules) -> Result<Vec<Verdict>, ParseError> {
    let games = parse(input)?;
    Ok(games.iter().map(|g| play(g, rules)).collect())
}

/// Checks the input's grammar only.
pub fn check(input: &[u8]) -> Result<(), ParseError> {
    parse(input).map(|_| ())
}

/// Plays one game move by move.
fn play(game: &Transcript, rules: Rules) -> Verdict {
    let n = game.n;
    let mut grid = vec![vec![EMPTY; n]; n];
    // Every configuration after each move: (board, colour to move next).
    let mut seen: Vec<(Vec<Vec<u8>>, u8)> = Vec::new();
    let mut steps = 0u64;
    for (i, &(letter, index)) in game.moves.iter().enumerate() {
        let number = i as u64 + 1;
        let mover = if number % 2 == 1 { b'X' } else { b'O' };
        let next = if mover == b'X' { b'O' } else { b'X' };
        push(&mut grid, letter, index, mover);
        let (x, o) = count_straights(&grid);
        steps += (n + 2 * n * n) as u64;
        if x != o {
            return Verdict {
                n,
                winner: Some(if x > o { 'X' } else { 'O' }),
                decisive_move: Some(number),
                reason: Reason::Straights { x, o },
                moves: game.moves.len() as u64,
                steps,
            };
        }
        if rules != Rules::Waterloo {
            for (j, (board, to_move)) in seen.iter().enumerate() {
                let same_side = *to_move == next || rules == Rules::Icfp98Board;
                if !same_side {
                    continue;
                }
                // Row by row, as far as the boards agree.
                let equal_rows = board.iter().zip(&grid).take_while(|(a, b)| a == b).count();
                steps += ((equal_rows + 1).min(n) * n) as u64;
                if equal_rows == n {
                    return Verdict {
                        n,
                        winner: Some(if mover == b'X' { 'O' } else { 'X' }),
                        decisive_move: Some(number),
                        reason: Reason::Repetition {
                            earlier_move: j as u64 + 1,
                        },
                        moves: game.moves.len() as u64,
                        steps,
                    };
                }
            }
            seen.push((grid.clone(), next));
            steps += (n * n) as u64;
        }
    }
    Verdict {
        n,
        winner: None,
        decisive_move: None,
        reason: Reason::Quit,
        moves: game.moves.len() as u64,
        steps,
    }
}

/// Plays `moves` (like `"L3"`) on the board `rows` (each row a string of `.`, `X` and `O`), the
/// first move by `first_mover` (`b'X'` or `b'O'`), and returns the straight counts of X and O
/// after each move and the final board's rows: a window of a long game, replayed from a board
/// someone else reached, where replaying the whole game would cost too much.
pub fn replay_window(
    rows: &[&str],
    first_mover: u8,
    moves: &[&str],
) -> (Vec<(usize, usize)>, Vec<String>) {
    let mut grid: Vec<Vec<u8>> = rows.iter().map(|r| r.as_bytes().to_vec()).collect();
    let mut mover = first_mover;
    let mut counts = Vec::with_capacity(moves.len());
    for m in moves {
        let index: usize = m[1..].parse().expect("a move index");
        push(&mut grid, m.as_bytes()[0], index, mover);
        counts.push(count_straights(&grid));
        mover = if mover == b'X' { b'O' } else { b'X' };
    }
    let rows = grid
        .into_iter()
        .map(|r| String::from_utf8(r).expect("ASCII squares"))
        .collect();
    (counts, rows)
}

/// Inserts `mover` at the edge named by `letter` of row or column `index` (1-based).
fn push(grid: &mut [Vec<u8>], letter: u8, index: usize, mover: u8) {
    let n = grid.len();
    let k = index - 1;
    // The line's squares, starting at the insertion square.
    let squares: Vec<(usize, usize)> = match letter {
        b'L' => (0..n).map(|c| (k, c)).collect(),
        b'R' => (0..n).rev().map(|c| (k, c)).collect(),
        b'T' => (0..n).map(|r| (r, k)).collect(),
        _ => (0..n).rev().map(|r| (r, k)).collect(),
    };
    let mut last = n - 1;
    for (i, &(r, c)) in squares.iter().enumerate() {
        if grid[r][c] == EMPTY {
            last = i;
            break;
        }
    }
    for i in (1..=last).rev() {
        let (r, c) = squares[i];
        let (pr, pc) = squares[i - 1];
        grid[r][c] = grid[pr][pc];
    }
    let (r, c) = squares[0];
    grid[r][c] = mover;
}

/// Counts rows and columns filled with one colour.
#[allow(clippy::needless_range_loop)]
fn count_straights(grid: &[Vec<u8>]) -> (usize, usize) {
    let n = grid.len();
    let (mut x, mut o) = (0, 0);
    for i in 0..n {
        let row: Vec<u8> = grid[i].clone();
        let col: Vec<u8> = grid.iter().map(|r| r[i]).collect();
        for line in [row, col] {
            if line.iter().all(|&v| v == b'X') {
                x += 1;
            }
            if line.iter().all(|&v| v == b'O') {
                o += 1;
            }
        }
    }
    (x, o)
}

/// A line-level problem: column, expected, found.
type Fault = (u64, String, String);

fn err(line: usize, case: Option<u64>, (column, expected, found): Fault) -> ParseError {
    ParseError {
        line: line as u64 + 1,
        column,
        case,
        expected,
        found,
    }
}

fn describe_at(line: &[u8], i: usize) -> String {
    match line.get(i) {
        Some(b) => quote(&[*b]),
        None => "end of line".into(),
    }
}

/// A decimal number alone on its line: `0` or digits without a leading zero.
fn number(line: &[u8], what: &str) -> Result<u64, Fault> {
    if line.is_empty() {
        return Err((1, what.into(), "an empty line".into()));
    }
    let digits = line.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || (digits > 1 && line[0] == b'0') {
        return Err((1, what.into(), quote(line)));
    }
    let text = std::str::from_utf8(&line[..digits]).expect("digits are ASCII");
    let value: u64 = text
        .parse()
        .map_err(|_| (1, format!("{what} below 2^64"), quote(line)))?;
    if digits < line.len() {
        return Err((
            digits as u64 + 1,
            "end of line".into(),
            describe_at(line, digits),
        ));
    }
    Ok(value)
}

fn board_size(value: u64) -> Result<usize, Fault> {
    if value == 0 || value > MAX_N as u64 {
        Err((
            1,
            format!("a board size from 1 to {MAX_N}"),
            value.to_string(),
        ))
    } else {
        Ok(value as usize)
    }
}

/// A move or QUIT (`None`).
fn one_move(line: &[u8], n: usize) -> Result<Option<(u8, usize)>, Fault> {
    if line.starts_with(b"QUIT") {
        if line.len() > 4 {
            return Err((5, "end of line after QUIT".into(), describe_at(line, 4)));
        }
        return Ok(None);
    }
    let Some(&letter) = line.first() else {
        return Err((1, "a move or QUIT".into(), "an empty line".into()));
    };
    if !b"LRTB".contains(&letter) {
        return Err((1, "a move letter L, R, T or B, or QUIT".into(), quote(line)));
    }
    let digits = line[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    let index_text = &line[1..1 + digits];
    let wanted = format!("an index from 1 to {n}, without sign or leading zero");
    if digits == 0 || index_text[0] == b'0' {
        return Err((2, wanted, describe_at(line, 1)));
    }
    let index: u64 = std::str::from_utf8(index_text)
        .expect("digits are ASCII")
        .parse()
        .unwrap_or(u64::MAX);
    if index > n as u64 {
        return Err((2, wanted, quote(index_text)));
    }
    if line.len() > 1 + digits {
        return Err((
            2 + digits as u64,
            "end of line".into(),
            describe_at(line, 1 + digits),
        ));
    }
    Ok(Some((letter, index as usize)))
}

/// Reads one game starting at line `at` (0-based): board size line, moves, QUIT. Returns the
/// game and the index of the line after QUIT.
fn game_at(
    all: &[&[u8]],
    at: usize,
    end: (u64, u64),
    case: Option<u64>,
    size_what: &str,
) -> Result<(Transcript, usize), ParseError> {
    game_at_line(all, at, end, case, size_what, 0)
}

/// [`game_at`] for lines `all` that start at the input's line `offset + 1`.
fn game_at_line(
    all: &[&[u8]],
    at: usize,
    end: (u64, u64),
    case: Option<u64>,
    size_what: &str,
    offset: usize,
) -> Result<(Transcript, usize), ParseError> {
    let eof = |expected: &str| ParseError {
        line: end.0,
        column: end.1,
        case,
        expected: expected.into(),
        found: "end of input".into(),
    };
    let Some(first) = all.get(at) else {
        return Err(eof(size_what));
    };
    let n = number(first, size_what)
        .and_then(board_size)
        .map_err(|f| err(offset + at, case, f))?;
    let mut moves = Vec::new();
    let mut i = at + 1;
    loop {
        let Some(line) = all.get(i) else {
            return Err(eof("a move or QUIT"));
        };
        match one_move(line, n).map_err(|f| err(offset + i, case, f))? {
            Some(m) => moves.push(m),
            None => return Ok((Transcript { n, moves }, i + 1)),
        }
        i += 1;
    }
}

/// Splits the input into games (single-game or multi-case format).
fn parse(input: &[u8]) -> Result<Vec<Transcript>, ParseError> {
    let (all, end) = all_lines(input);
    let eof = |case: Option<u64>, expected: String| ParseError {
        line: end.0,
        column: end.1,
        case,
        expected,
        found: "end of input".into(),
    };
    let Some(first) = all.first() else {
        return Err(eof(None, "a board size or a case count".into()));
    };
    let value = number(first, "a number").map_err(|f| err(0, None, f))?;
    let multi = all.get(1).is_some_and(|l| l.is_empty());
    let mut games = Vec::new();
    let mut next;
    if !multi {
        let (game, after) = game_at(&all, 0, end, None, "a board size")?;
        games.push(game);
        next = after;
    } else {
        if value == 0 {
            return Err(err(
                0,
                None,
                (1, "a case count of at least 1".into(), "0".into()),
            ));
        }
        next = 1;
        let mut k = 1u64;
        loop {
            // `next` is the separator line before game k.
            match all.get(next) {
                None => {
                    return Err(eof(Some(k), format!("an empty line and game {k}")));
                }
                Some(l) if !l.is_empty() => {
                    return Err(err(next, Some(k), (1, "an empty line".into(), quote(l))));
                }
                Some(_) => {}
            }
            let (game, after) = game_at(&all, next + 1, end, Some(k), "a board size")?;
            games.push(game);
            next = after;
            if k == value {
                break;
            }
            k += 1;
        }
    }
    // Only empty lines may follow the last QUIT.
    while let Some(l) = all.get(next) {
        if !l.is_empty() {
            return Err(err(next, None, (1, "end of input".into(), quote(l))));
        }
        next += 1;
    }
    Ok(games)
}

/// The games of `input` one at a time ([`crate::cases`]), each held while it has at most
/// `bound` bytes: the same framing as [`judge`]'s (a single game, or a count, then an empty
/// line before each game), read line by line. A game is cut at its first line after the board
/// size that starts with `QUIT` or is empty (a game's grammar error is [`judge_case`]'s to
/// find); the framing's own errors end the iteration.
pub fn cases<R: Read>(input: R, bound: u64) -> impl Iterator<Item = Result<Case, Stop>> {
    Framing {
        lines: Lines::new(input, bound.max(FRAMING_LINE)),
        bound,
        state: State::Start,
    }
}

/// The longest line the framing reads whatever the bound (a count, an empty line, `QUIT`).
const FRAMING_LINE: u64 = 64;

enum State {
    Start,
    /// Game `next` of `count` is to be read; `pending` holds a line read ahead.
    Multi {
        count: u64,
        next: u64,
    },
    /// Every game read: only empty lines may follow.
    Trailing,
    Done,
}

struct Framing<R> {
    lines: Lines<R>,
    bound: u64,
    state: State,
}

impl<R: Read> Framing<R> {
    fn eof(&self, case: Option<u64>, expected: String) -> Stop {
        let end = self.lines.end();
        Stop::Malformed(ParseError {
            line: end.0,
            column: end.1,
            case,
            expected,
            found: "end of input".into(),
        })
    }

    /// Gathers a game whose first line (the board size) is `first`, read at line
    /// `first_line`, up to its line that starts with QUIT or is empty.
    fn game(&mut self, first: Gathering) -> Result<Case, Stop> {
        let mut game = first;
        loop {
            match self.lines.next_line().map_err(Stop::Unreadable)? {
                None => return Ok(game.finish(Some(self.lines.end()))),
                Some(line) => {
                    game.push(&line);
                    let content = line.content();
                    if content.is_empty() || content.starts_with(b"QUIT") {
                        return Ok(game.finish(None));
                    }
                }
            }
        }
    }

    fn step(&mut self) -> Result<Option<Case>, Stop> {
        match self.state {
            State::Done => Ok(None),
            State::Start => {
                let Some(line) = self.lines.next_line().map_err(Stop::Unreadable)? else {
                    self.state = State::Done;
                    return Err(self.eof(None, "a board size or a case count".into()));
                };
                let value = number(line.content(), "a number").map_err(|f| err(0, None, f));
                let mut first = Gathering::new(1, None, 1, self.bound);
                first.push(&line);
                let value = value.map_err(Stop::Malformed)?;
                let Some(second) = self.lines.next_line().map_err(Stop::Unreadable)? else {
                    self.state = State::Trailing;
                    return Ok(Some(first.finish(Some(self.lines.end()))));
                };
                if !second.content().is_empty() {
                    // One game: its size, then its moves.
                    first.push(&second);
                    let done = second.content().starts_with(b"QUIT");
                    self.state = State::Trailing;
                    return if done {
                        Ok(Some(first.finish(None)))
                    } else {
                        self.game(first).map(Some)
                    };
                }
                if value == 0 {
                    return Err(Stop::Malformed(err(
                        0,
                        None,
                        (1, "a case count of at least 1".into(), "0".into()),
                    )));
                }
                // The count, then an empty line (just read) before each game.
                self.state = State::Multi {
                    count: value,
                    next: 1,
                };
                self.multi_game(value, 1).map(Some)
            }
            State::Multi { count, next } => {
                match self.lines.next_line().map_err(Stop::Unreadable)? {
                    None => {
                        return Err(self.eof(Some(next), format!("an empty line and game {next}")))
                    }
                    Some(l) if !l.content().is_empty() => {
                        let found = quote(l.content());
                        let at = self.lines.count() as usize - 1;
                        return Err(Stop::Malformed(err(
                            at,
                            Some(next),
                            (1, "an empty line".into(), found),
                        )));
                    }
                    Some(_) => {}
                }
                self.multi_game(count, next).map(Some)
            }
            State::Trailing => {
                while let Some(l) = self.lines.next_line().map_err(Stop::Unreadable)? {
                    if !l.content().is_empty() {
                        let found = quote(l.content());
                        let at = self.lines.count() as usize - 1;
                        return Err(Stop::Malformed(err(
                            at,
                            None,
                            (1, "end of input".into(), found),
                        )));
                    }
                }
                self.state = State::Done;
                Ok(None)
            }
        }
    }

    /// Game `next` of `count`, its empty line read.
    fn multi_game(&mut self, count: u64, next: u64) -> Result<Case, Stop> {
        self.state = if next == count {
            State::Trailing
        } else {
            State::Multi {
                count,
                next: next + 1,
            }
        };
        let first_line = self.lines.count() + 1;
        let mut game = Gathering::new(next, Some(next), first_line, self.bound);
        let Some(size) = self.lines.next_line().map_err(Stop::Unreadable)? else {
            return Ok(game.finish(Some(self.lines.end())));
        };
        game.push(&size);
        self.game(game)
    }
}

impl<R: Read> Iterator for Framing<R> {
    type Item = Result<Case, Stop>;

    fn next(&mut self) -> Option<Result<Case, Stop>> {
        match self.step() {
            Ok(case) => case.map(Ok),
            Err(stop) => {
                self.state = State::Done;
                Some(Err(stop))
            }
        }
    }
}

/// Reads one game cut by [`cases`] (held: its text is not `None`).
fn read_case(case: &Case) -> Result<Transcript, ParseError> {
    let text = case.text.as_deref().unwrap_or_default();
    let all: Vec<&[u8]> = crate::text::lines(text).collect();
    let offset = case.first_line as usize - 1;
    let (game, after) = game_at_line(&all, 0, case.end, case.label, "a board size", offset)?;
    debug_assert_eq!(after, all.len(), "a case ends at its QUIT");
    Ok(game)
}

/// Judges one game cut by [`cases`] under `rules` (its grammar checked first).
pub fn judge_case(case: &Case, rules: Rules) -> Result<Verdict, ParseError> {
    read_case(case).map(|game| play(&game, rules))
}

/// Checks the grammar of one game cut by [`cases`].
pub fn check_case(case: &Case) -> Result<(), ParseError> {
    read_case(case).map(|_| ())
}

/// The board after each move of `moves` (written `L1`, `T3`, ...) on an empty `n` x `n` board,
/// as text: rows top to bottom separated by `/`, `.` for empty. For tests of push mechanics.
pub fn boards_after_each_move(n: usize, moves: &[&str]) -> Vec<String> {
    let mut grid = vec![vec![EMPTY; n]; n];
    let mut out = Vec::new();
    for (i, m) in moves.iter().enumerate() {
        let mover = if i % 2 == 0 { b'X' } else { b'O' };
        push(
            &mut grid,
            m.as_bytes()[0],
            m[1..].parse().expect("index"),
            mover,
        );
        let rows: Vec<String> = grid
            .iter()
            .map(|r| String::from_utf8(r.clone()).expect("ASCII"))
            .collect();
        out.push(rows.join("/"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(text: &str, rules: Rules) -> Option<char> {
        judge(text.as_bytes(), rules).unwrap()[0].winner
    }

    #[test]
    fn samples() {
        assert_eq!(
            verdict("4\nL2\nT2\nL2\nB2\nR2\nQUIT\n", Rules::Waterloo),
            None
        );
        let v = judge(b"4\nL2\nT2\nL2\nB2\nR2\nT1\nL2\nQUIT\n", Rules::Waterloo).unwrap();
        assert_eq!((v[0].winner, v[0].decisive_move), (Some('X'), Some(7)));
    }

    #[test]
    fn repetition_rules() {
        let t = "2\nL1\nL1\nL2\nL2\nT2\nQUIT\n";
        assert_eq!(verdict(t, Rules::Icfp98Board), Some('O'));
        assert_eq!(verdict(t, Rules::Icfp98), None);
        assert_eq!(
            verdict("2\nR1\nR1\nR1\nR1\nQUIT\n", Rules::Icfp98),
            Some('X')
        );
    }
}
