//! The streaming transcript parser (strict).
//!
//! Two formats, told apart by the second line:
//! 1. **single game**: `N`, one move per line, `QUIT`;
//! 2. **UVa 844 multi-case**: the case count `T`, an empty line, then `T` single games with
//!    exactly one empty line between consecutive games.
//!
//! Grammar details shared with the reference parser (and checked against it by tests):
//! numbers are `0` or `[1-9][0-9]*`; a move is `[LRTB]` and an index in `1..=N` without sign or
//! leading zero, alone on its line; `QUIT` is exactly that; a `\r` before `\n` is part of the
//! line ending; after the last `QUIT` only empty lines may follow. Every error names the first
//! offending byte, scanning lines top to bottom and each line left to right; in multi-case
//! input it also names the game being read (the separator before game k belongs to game k).
//!
//! Memory is bounded: lines are read through a fixed buffer and cut at [`MAX_LINE`] bytes
//! (every valid line is shorter, so the error in a cut line lies in the part kept).

use std::io::Read;

use super::{Edge, Move, MAX_N};
use crate::util::error::{describe_bytes, InputError, JudgeError, Position};
use crate::util::text::LineReader;

/// Lines longer than this are cut; no valid line comes close.
pub const MAX_LINE: usize = 48;

/// A problem inside one line: 1-based column, expected, found.
type LineFault = (u64, String, String);

fn found_at(bytes: &[u8], col: usize) -> String {
    match bytes.get(col) {
        None => "end of line".to_string(),
        Some(&b) => describe_bytes(&[b]),
    }
}

/// Parses a number line: `0` or `[1-9][0-9]*` fitting in a u64, alone on the line.
pub fn number_line(bytes: &[u8], what: &str) -> Result<u64, LineFault> {
    let expected = || format!("{what} (a decimal number)");
    match bytes.first() {
        None => return Err((1, expected(), "an empty line".into())),
        Some(b'0'..=b'9') => {}
        Some(b'+' | b'-') => {
            return Err((1, format!("{what} without a sign"), describe_bytes(bytes)));
        }
        Some(_) => return Err((1, expected(), describe_bytes(bytes))),
    }
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    if bytes[0] == b'0' && digits > 1 {
        return Err((
            1,
            format!("{what} without leading zeros"),
            describe_bytes(bytes),
        ));
    }
    let mut value: u64 = 0;
    for &d in &bytes[..digits] {
        value = match value
            .checked_mul(10)
            .and_then(|v| v.checked_add((d - b'0') as u64))
        {
            Some(v) => v,
            None => {
                return Err((
                    1,
                    format!("{what} that fits in 64 bits"),
                    describe_bytes(bytes),
                ))
            }
        };
    }
    if digits < bytes.len() {
        return Err((
            digits as u64 + 1,
            format!("end of line after {what}"),
            found_at(bytes, digits),
        ));
    }
    Ok(value)
}

/// Checks a board size read by [`number_line`].
pub fn check_size(n: u64) -> Result<usize, LineFault> {
    if n == 0 {
        Err((1, "a board size of at least 1".into(), "0".into()))
    } else if n > MAX_N as u64 {
        Err((1, format!("a board size of at most {MAX_N}"), n.to_string()))
    } else {
        Ok(n as usize)
    }
}

/// One line of a game: a move or `QUIT`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A move.
    Move(Move),
    /// The end of the game.
    Quit,
}

/// Parses a move line for a board of size `n`.
#[inline]
pub fn move_line(bytes: &[u8], n: usize) -> Result<Item, LineFault> {
    let edge = match bytes.first() {
        Some(b'L') => Edge::Left,
        Some(b'R') => Edge::Right,
        Some(b'T') => Edge::Top,
        Some(b'B') => Edge::Bottom,
        Some(b'Q') if bytes.starts_with(b"QUIT") => {
            return if bytes.len() == 4 {
                Ok(Item::Quit)
            } else {
                Err((5, "end of line after QUIT".into(), found_at(bytes, 4)))
            };
        }
        Some(b'l' | b'r' | b't' | b'b') => {
            return Err((
                1,
                "an uppercase move letter L, R, T or B".into(),
                describe_bytes(&bytes[..1]),
            ));
        }
        None => return Err((1, "a move or QUIT".into(), "an empty line".into())),
        Some(_) => {
            return Err((
                1,
                "a move (L, R, T or B and an index) or QUIT".into(),
                describe_bytes(bytes),
            ))
        }
    };
    let index_expected = || format!("an index from 1 to {n}");
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        let what = match bytes.get(1) {
            Some(b'+' | b'-') => format!("an index without a sign, from 1 to {n}"),
            _ => index_expected(),
        };
        return Err((2, what, found_at(bytes, 1)));
    }
    let index_bytes = &bytes[1..1 + digits];
    if index_bytes[0] == b'0' {
        let what = if digits > 1 {
            format!("an index without leading zeros, from 1 to {n}")
        } else {
            index_expected()
        };
        return Err((2, what, describe_bytes(index_bytes)));
    }
    let mut value: u64 = 0;
    for &d in index_bytes {
        value = value.saturating_mul(10).saturating_add((d - b'0') as u64);
    }
    if value > n as u64 {
        return Err((2, index_expected(), describe_bytes(index_bytes)));
    }
    if 1 + digits < bytes.len() {
        return Err((
            2 + digits as u64,
            "end of line after the move".into(),
            found_at(bytes, 1 + digits),
        ));
    }
    Ok(Item::Move(Move::new(edge, value as u32)))
}

/// Decodes the common case of a move line in place: `[LRTB]`, an index in `1..=n` without
/// leading zero, then `\n`. Returns the move and the line's length (without the `\n`), or
/// `None` for anything else (including a line not yet fully buffered), which the caller then
/// parses with [`move_line`], so errors and unusual forms are handled in one place.
#[inline]
fn quick_move(pending: &[u8], n: usize) -> Option<(Move, usize)> {
    // One bounds check for the longest line taken here ("B4096\n"); shorter lines near the
    // end of the buffer go to the slow path.
    let &[letter, first, b2, b3, b4, b5, ..] = pending else {
        return None;
    };
    let edge = match letter {
        b'L' => Edge::Left,
        b'R' => Edge::Right,
        b'T' => Edge::Top,
        b'B' => Edge::Bottom,
        _ => return None,
    };
    let first = first.wrapping_sub(b'1');
    if first > 8 {
        return None;
    }
    let mut index = first as usize + 1;
    // MAX_N has 4 digits: longer indices go to the slow path (and fail there).
    for (len, b) in [(2, b2), (3, b3), (4, b4), (5, b5)] {
        if b == b'\n' {
            return (index <= n).then_some((Move::new(edge, index as u32), len));
        }
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        index = index * 10 + digit as usize;
    }
    None
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Nothing read yet.
    Start,
    /// Inside a game, reading moves.
    InGame,
    /// After the `QUIT` of the only game of a single-game input.
    SingleDone,
    /// After the `QUIT` of game `done` of `total` in a multi-case input.
    MultiBetween { done: u64, total: u64 },
    /// The input is complete.
    Finished,
}

/// A small owned copy of a line (lines are at most [`MAX_LINE`] bytes).
#[derive(Clone, Copy)]
struct Held {
    number: u64,
    len: usize,
    bytes: [u8; MAX_LINE],
}

impl Held {
    fn new(number: u64, src: &[u8]) -> Held {
        let mut bytes = [0; MAX_LINE];
        bytes[..src.len()].copy_from_slice(src);
        Held {
            number,
            len: src.len(),
            bytes,
        }
    }
    fn bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Reads Pousse transcripts game by game, move by move.
pub struct Parser<R> {
    lines: LineReader<R>,
    state: State,
    /// The game being read in multi-case input (1-based), `None` in single-game input.
    case: Option<u64>,
    /// The board size of the game being read.
    n: usize,
    /// A line read ahead while detecting the format.
    held: Option<Held>,
    /// In multi-case input: the game being read and the case count.
    multi: Option<(u64, u64)>,
}

impl<R: Read> Parser<R> {
    /// A parser over `reader`.
    pub fn new(reader: R) -> Parser<R> {
        Parser {
            lines: LineReader::new(reader, MAX_LINE),
            state: State::Start,
            case: None,
            n: 0,
            held: None,
            multi: None,
        }
    }

    /// The game being read in multi-case input.
    pub fn case(&self) -> Option<u64> {
        self.case
    }

    fn fault(&self, line: u64, (column, expected, found): LineFault) -> JudgeError {
        InputError::new(Position::new(line, column), self.case, expected, found).into()
    }

    fn at_end(&self, expected: impl Into<String>) -> JudgeError {
        InputError::new(
            self.lines.end_position(),
            self.case,
            expected,
            "end of input",
        )
        .into()
    }

    fn next_held(&mut self) -> Result<Option<Held>, JudgeError> {
        if let Some(h) = self.held.take() {
            return Ok(Some(h));
        }
        Ok(self
            .lines
            .next_line()?
            .map(|l| Held::new(l.number, l.bytes)))
    }

    /// Starts the next game and returns its board size, or `None` when the input is complete.
    pub fn next_game(&mut self) -> Result<Option<usize>, JudgeError> {
        match self.state {
            State::Start => {
                let Some(first) = self.next_held()? else {
                    return Err(self.at_end("a board size or a case count"));
                };
                let value = number_line(first.bytes(), "a board size or a case count")
                    .map_err(|f| self.fault(first.number, f))?;
                let second = self.next_held()?;
                match second {
                    Some(l) if l.len == 0 => {
                        if value == 0 {
                            return Err(self.fault(
                                first.number,
                                (1, "a case count of at least 1".into(), "0".into()),
                            ));
                        }
                        self.case = Some(1);
                        self.start_multi_game(1, value)
                    }
                    _ => {
                        self.held = second;
                        self.n = check_size(value).map_err(|f| self.fault(first.number, f))?;
                        self.state = State::InGame;
                        Ok(Some(self.n))
                    }
                }
            }
            State::InGame => panic!("next_game called before the current game's QUIT"),
            State::SingleDone => {
                self.expect_only_empty_lines("end of input after QUIT")?;
                Ok(None)
            }
            State::MultiBetween { done, total } if done == total => {
                self.case = None;
                self.expect_only_empty_lines(&format!(
                    "end of input after {total} games (the case count)"
                ))?;
                Ok(None)
            }
            State::MultiBetween { done, total } => {
                self.case = Some(done + 1);
                match self.next_held()? {
                    None => Err(self.at_end(format!(
                        "an empty line and game {} of {total} (the case count)",
                        done + 1
                    ))),
                    Some(l) if l.len == 0 => self.start_multi_game(done + 1, total),
                    Some(l) => Err(self.fault(
                        l.number,
                        (
                            1,
                            format!("an empty line between games {done} and {}", done + 1),
                            describe_bytes(l.bytes()),
                        ),
                    )),
                }
            }
            State::Finished => Ok(None),
        }
    }

    fn start_multi_game(&mut self, k: u64, total: u64) -> Result<Option<usize>, JudgeError> {
        let expected = format!("the board size of game {k} of {total}");
        let Some(l) = self.next_held()? else {
            return Err(self.at_end(expected));
        };
        let n = number_line(l.bytes(), &expected).map_err(|f| self.fault(l.number, f))?;
        self.n = check_size(n).map_err(|f| self.fault(l.number, f))?;
        self.state = State::InGame;
        self.multi = Some((k, total));
        Ok(Some(self.n))
    }

    fn expect_only_empty_lines(&mut self, expected: &str) -> Result<(), JudgeError> {
        while let Some(l) = self.next_held()? {
            if l.len != 0 {
                return Err(self.fault(
                    l.number,
                    (1, expected.to_string(), describe_bytes(l.bytes())),
                ));
            }
        }
        self.state = State::Finished;
        Ok(())
    }

    /// Reads the next moves of the game into `out` (not empty) and returns how many, 0 at its
    /// `QUIT`: as many as the read buffer holds in the common form (see [`quick_move`]),
    /// decoded in one pass with one update of the line count, else one move through the
    /// general path ([`next_move_slowly`](Self::next_move_slowly)), so moves, errors and
    /// positions do not depend on how the input was buffered.
    #[inline]
    pub fn next_moves(&mut self, out: &mut [Move]) -> Result<usize, JudgeError> {
        debug_assert_eq!(self.state, State::InGame);
        if self.held.is_none() {
            let pending = self.lines.pending();
            let (mut taken, mut bytes, mut last_len) = (0, 0, 0);
            while taken < out.len() {
                let Some((mv, len)) = quick_move(&pending[bytes..], self.n) else {
                    break;
                };
                out[taken] = mv;
                taken += 1;
                bytes += len + 1;
                last_len = len;
            }
            if taken > 0 {
                self.lines.skip_lines(taken as u64, bytes, last_len);
                return Ok(taken);
            }
        }
        Ok(match self.next_move_slowly()? {
            Some(mv) => {
                out[0] = mv;
                1
            }
            None => 0,
        })
    }

    /// The next move through the general path (any line the fast path does not take): `None`
    /// at the game's `QUIT`.
    #[inline(never)]
    fn next_move_slowly(&mut self) -> Result<Option<Move>, JudgeError> {
        let parsed = if let Some(h) = self.held.take() {
            move_line(h.bytes(), self.n).map_err(|f| (h.number, f))
        } else {
            match self.lines.next_line()? {
                Some(l) => move_line(l.bytes, self.n).map_err(|f| (l.number, f)),
                None => return Err(self.at_end("a move or QUIT")),
            }
        };
        match parsed {
            Ok(Item::Move(m)) => Ok(Some(m)),
            Ok(Item::Quit) => {
                self.state = match self.multi {
                    Some((done, total)) => State::MultiBetween { done, total },
                    None => State::SingleDone,
                };
                Ok(None)
            }
            Err((line, f)) => Err(self.fault(line, f)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const _: () = assert!(MAX_N < 10_000, "quick_move reads at most 4 index digits");

    /// Each kind of bad line gets its own column, expectation and description of what was
    /// found (the error message is the judge's answer for a bad transcript, so it is pinned
    /// here exactly).
    #[test]
    fn bad_lines_name_column_expected_and_found() {
        const INDEX: &str = "an index from 1 to 12";
        const UNSIGNED: &str = "an index without a sign, from 1 to 12";
        const NO_ZEROS: &str = "an index without leading zeros, from 1 to 12";
        const END: &str = "end of line after the move";
        let moves: [(&[u8], u64, &str, &str); 10] = [
            (b"L+3", 2, UNSIGNED, "'+'"),
            (b"L-3", 2, UNSIGNED, "'-'"),
            (b"L", 2, INDEX, "end of line"),
            (b"Lx", 2, INDEX, "'x'"),
            (b"L0", 2, INDEX, "'0'"),
            (b"L00", 2, NO_ZEROS, "'00'"),
            (b"L012", 2, NO_ZEROS, "'012'"),
            (b"L13", 2, INDEX, "'13'"),
            (b"L3x", 3, END, "'x'"),
            (b"L12 ", 4, END, "' '"),
        ];
        let numbers: [(&[u8], u64, &str, &str); 5] = [
            (b"+5", 1, "N without a sign", "'+5'"),
            (b"-5", 1, "N without a sign", "'-5'"),
            (b"05", 1, "N without leading zeros", "'05'"),
            (b"", 1, "N (a decimal number)", "an empty line"),
            (b"x", 1, "N (a decimal number)", "'x'"),
        ];
        type Parse<'a> = &'a dyn Fn(&[u8]) -> Option<LineFault>;
        let parsers: [(&[_], Parse); 2] = [
            (&moves, &|line| move_line(line, 12).err()),
            (&numbers, &|line| number_line(line, "N").err()),
        ];
        for (cases, parse) in parsers {
            for &(line, col, expected, found) in cases {
                let want = (col, expected.to_string(), found.to_string());
                assert_eq!(parse(line), Some(want), "{line:?}");
            }
        }
        // A lone 0 is a number (the size check refuses it later, with its own message).
        assert_eq!(number_line(b"0", "N"), Ok(0));
    }

    /// Buffered common lines come back as one batch (a reader that fell back to one move per
    /// call would judge the same, only slower), and the parser knows which case it is in.
    #[test]
    fn moves_come_in_batches_and_cases_are_counted() {
        let mut single = Parser::new(&b"3\nL1\nT2\nR3\nQUIT\n"[..]);
        assert_eq!(single.next_game().unwrap(), Some(3));
        assert_eq!(single.case(), None);
        let mut out = [Move::new(Edge::Left, 1); 8];
        // The first move line was read ahead to tell the formats apart: it comes alone.
        assert_eq!(single.next_moves(&mut out).unwrap(), 1);
        assert_eq!(out[0], Move::new(Edge::Left, 1));
        assert_eq!(single.next_moves(&mut out).unwrap(), 2);
        let played = [(Edge::Top, 2), (Edge::Right, 3)];
        assert_eq!(out[..2], played.map(|(e, i)| Move::new(e, i)));
        assert_eq!(single.next_moves(&mut out).unwrap(), 0);
        assert_eq!(single.next_game().unwrap(), None);
        // A batch stops at the slice's end; the rest comes with the next call.
        let mut multi = Parser::new(&b"2\n\n2\nB1\nB2\nL1\nQUIT\n\n1\nQUIT\n"[..]);
        assert_eq!(multi.next_game().unwrap(), Some(2));
        assert_eq!(multi.case(), Some(1));
        assert_eq!(multi.next_moves(&mut out[..2]).unwrap(), 2);
        assert_eq!(multi.next_moves(&mut out).unwrap(), 1);
        assert_eq!(out[0], Move::new(Edge::Left, 1));
        assert_eq!(multi.next_moves(&mut out).unwrap(), 0);
        assert_eq!(multi.next_game().unwrap(), Some(1));
        assert_eq!(multi.case(), Some(2));
        assert_eq!(multi.next_moves(&mut out).unwrap(), 0);
        assert_eq!(multi.next_game().unwrap(), None);
    }

    #[test]
    fn quick_move_takes_the_common_lines_and_leaves_the_rest() {
        assert_eq!(
            quick_move(b"L1\nR2\n", 5),
            Some((Move::new(Edge::Left, 1), 2))
        );
        assert_eq!(
            quick_move(b"B4096\n", 4096),
            Some((Move::new(Edge::Bottom, 4096), 5))
        );
        assert_eq!(
            quick_move(b"T12\nQUIT\n", 12),
            Some((Move::new(Edge::Top, 12), 3))
        );
        // Every edge letter and every first digit is taken (a line left to the slow path would
        // be judged the same, only slower, so this is the only test that sees it).
        for edge in Edge::ALL {
            for index in 1..=19u32 {
                let line = format!("{}{index}\n....", edge.letter());
                assert_eq!(
                    quick_move(line.as_bytes(), 19),
                    Some((Move::new(edge, index), line.len() - 5)),
                    "{line:?}"
                );
            }
        }
        for slow in [
            &b"L1"[..],
            b"L1\nQ",
            b"L1\r\n",
            b"L0\n",
            b"L01\n",
            b"L6\n",
            b"L40960\n",
            b"l1\n",
            b"QUIT\n",
            b"L 1\n",
            b"\n",
            b"",
        ] {
            assert_eq!(quick_move(slow, 5), None, "{slow:?}");
        }
    }

    proptest! {
        /// Whatever the fast path accepts, the full parser accepts as the same move.
        #[test]
        fn quick_move_agrees_with_move_line(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'L'), Just(b'T'), Just(b'\n'), Just(b'0'), Just(b'1'),
                            Just(b'9'), Just(b'\r'), any::<u8>()], 0..8),
            n in 1usize..=MAX_N,
        ) {
            let end = bytes.iter().position(|&b| b == b'\n');
            match quick_move(&bytes, n) {
                Some((mv, len)) => {
                    prop_assert_eq!(Some(len), end);
                    prop_assert_eq!(move_line(&bytes[..len], n), Ok(Item::Move(mv)));
                }
                None if bytes.len() >= 6 => {
                    if let Some(len) = end {
                        prop_assert!(!matches!(move_line(&bytes[..len], n), Ok(Item::Move(_)))
                            || bytes[..len].ends_with(b"\r") || len > 5);
                    }
                }
                None => {}
            }
        }
    }
}
