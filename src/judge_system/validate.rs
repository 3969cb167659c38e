//! The input validator: the engine's parser, and for a contest problem the original problem's
//! limits and the strict layout of [`super::layout`].

use std::cell::RefCell;
use std::io::{BufRead, BufReader, Read};
use std::rc::Rc;

use super::layout::LayoutCheck;
use crate::game::Packaged;
use crate::game::{Engine, Game};
use crate::util::error::{InputError, JudgeError};

pub use crate::game::Constraints;

/// Why an input is not valid: a message of the form `LINE:COL: expected ..., found ...`
/// (1-based line and byte column); for a case outside the contest's limits,
/// `LINE:1: case K: expected ..., found ...`, LINE the case's first line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid(pub String);

/// The bytes read past a grammar error, for the layout faults before it.
const AFTER_AN_ERROR: u64 = 64;

/// The most bytes read past the last case: the layout of a contest's input ends there.
const AFTER_THE_LAST_CASE: u64 = 1 << 16;

/// Checks `input` under `constraints`; the number of cases when valid. Reads at most
/// [`AFTER_THE_LAST_CASE`] bytes past what the engine reads, so an endless input ends as soon
/// as the engine stops. Under the contest's constraints each case is checked against the
/// original problem's limits as soon as it is read, and a case longer than those limits allow
/// ([`Packaged::CONTEST_CASE_BYTES`]) is stopped there: an input ends at its first broken limit,
/// however long it goes on.
pub fn validate<G: Game + Packaged>(
    input: impl Read,
    options: G::Options,
    constraints: Constraints,
) -> Result<usize, Invalid> {
    if constraints == Constraints::Engine {
        let mut input = input;
        return G::judge(Engine::Fast, &mut input, options)
            .map(|judgements| judgements.len())
            .map_err(|e| Invalid(e.to_string()));
    }
    let watch = Rc::new(RefCell::new(Watch::default()));
    let mut checked = LayoutCheck::new(CaseBound {
        inner: BufReader::new(input),
        watch: Rc::clone(&watch),
        most: G::CONTEST_CASE_BYTES,
    });
    let judged = G::judge_each(&mut checked, options, &mut |judgement| {
        let mut watch = watch.borrow_mut();
        watch.cases += 1;
        watch.since_case = 0;
        let first_line = watch.lines.case_ended();
        if watch.outside.is_none() {
            watch.outside = G::outside_contest(&judgement)
                .map(|(expected, found)| (watch.cases, first_line, expected, found));
        }
    });
    let state = watch.borrow().clone();
    if let Some((case, line, expected, found)) = state.outside {
        return Err(Invalid(format!(
            "{line}:1: case {case}: expected {expected}, found {found}"
        )));
    }
    if let Some(most) = state.too_long {
        return Err(Invalid(format!(
            "{}: case {}: expected a case of at most {most} bytes (the contest's limits), found \
             more",
            checked.position(),
            state.cases + 1
        )));
    }
    // After a grammar error, only a layout fault before it matters, and every such fault
    // shows within the next byte: a few more bytes are read, never the rest of an endless
    // input. After the last case, what follows is read to its end, up to a bound.
    let bound = match judged {
        Err(_) => AFTER_AN_ERROR,
        Ok(_) => AFTER_THE_LAST_CASE,
    };
    let read_to = checked.position();
    watch.borrow_mut().since_case = 0;
    let rest = std::io::copy(&mut (&mut checked).take(bound + 1), &mut std::io::sink());
    if judged.is_ok() && rest.is_ok_and(|n| n > bound) {
        return Err(Invalid(format!(
            "{read_to}: expected the end of the input, found more than {bound} bytes after the \
             last case"
        )));
    }
    match (judged, checked.finish()) {
        // The earlier of a grammar error and a layout fault is reported.
        (Err(JudgeError::Input(e)), Some(l)) => Err(Invalid(earlier(e, l).to_string())),
        (Err(e), _) => Err(Invalid(e.to_string())),
        (Ok(()), Some(l)) => Err(Invalid(l.to_string())),
        (Ok(()), None) => Ok(state.cases),
    }
}

/// What the contest's validator has seen of the cases so far.
#[derive(Debug, Clone, Default)]
struct Watch {
    /// Cases judged.
    cases: usize,
    /// Bytes read since the last case judged.
    since_case: u64,
    /// The first case outside the contest's limits: its number, its first line, what the
    /// limits allow, what it has.
    outside: Option<(usize, u64, String, String)>,
    /// The lines handed to the engine.
    lines: Lines,
    /// Set when a case went past the most bytes a case may take: that most.
    too_long: Option<u64>,
}

/// Where the cases begin, from the lines handed to the engine one at a time: a case begins on
/// the first line of the last block of non-empty lines begun since the previous case ended
/// (so a case count and the empty lines between cases come before it). Lines are 1-based.
#[derive(Debug, Clone, Default)]
struct Lines {
    /// Lines ended (line feeds handed over).
    ended: u64,
    /// Whether the current line has a byte handed over.
    in_line: bool,
    /// The first line of the current case's block, once it has one.
    block: Option<u64>,
    /// Whether an empty line came after that block began.
    empty_since: bool,
}

impl Lines {
    fn saw(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            if byte == b'\n' {
                if !self.in_line {
                    self.empty_since = true;
                }
                self.ended += 1;
                self.in_line = false;
            } else if !self.in_line {
                self.in_line = true;
                if self.block.is_none() || self.empty_since {
                    self.block = Some(self.ended + 1);
                    self.empty_since = false;
                }
            }
        }
    }

    /// The first line of the case just judged; the next case's lines begin after it.
    fn case_ended(&mut self) -> u64 {
        let first = self.block.unwrap_or(self.ended + 1);
        self.block = None;
        self.empty_since = false;
        first
    }
}

/// The input of a contest's validator: once a case is outside the limits, or longer than a
/// case may be (`most` bytes), it reads no more (an error ends the engine's reading). It hands
/// over at most one line a read, so that what the engine has read when it judges a case ends
/// where the case ends, and the case's first line is known.
struct CaseBound<R> {
    inner: BufReader<R>,
    watch: Rc<RefCell<Watch>>,
    most: Option<u64>,
}

impl<R: Read> Read for CaseBound<R> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let mut watch = self.watch.borrow_mut();
        let stop = |why: &str| std::io::Error::other(why.to_string());
        if watch.outside.is_some() {
            return Err(stop("a case outside the contest's limits"));
        }
        if let Some(most) = self.most {
            if watch.since_case > most {
                watch.too_long = Some(most);
                return Err(stop("a case longer than the contest's limits allow"));
            }
        }
        drop(watch);
        let available = self.inner.fill_buf()?;
        let line = available
            .iter()
            .position(|&b| b == b'\n')
            .map_or(available.len(), |i| i + 1);
        let n = line.min(out.len());
        out[..n].copy_from_slice(&available[..n]);
        self.inner.consume(n);
        let mut watch = self.watch.borrow_mut();
        watch.since_case += n as u64;
        watch.lines.saw(&out[..n]);
        Ok(n)
    }
}

fn earlier(a: InputError, b: InputError) -> InputError {
    let key = |e: &InputError| (e.position.line, e.position.column);
    if key(&b) < key(&a) {
        InputError { case: a.case, ..b }
    } else {
        a
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::littlesquares::LittleSquares;
    use crate::pousse::{Pousse, Rules};
    use crate::somegame::SomeGame;

    fn pousse(text: &str, c: Constraints) -> Result<usize, Invalid> {
        validate::<Pousse>(text.as_bytes(), Rules::Waterloo, c)
    }

    #[test]
    fn the_engine_accepts_what_the_contest_refuses() {
        let big = "101\nL1\nQUIT\n";
        assert_eq!(pousse(big, Constraints::Engine), Ok(1));
        assert_eq!(
            pousse(big, Constraints::Contest),
            Err(Invalid(
                "1:1: case 1: expected a board size N <= 100 (the contest's limit), found N = 101"
                    .into()
            ))
        );
        let spaced = "2 3 3 4\n1 2 0 \n2 1 0\n0 0 1\n";
        assert_eq!(
            validate::<SomeGame>(spaced.as_bytes(), (), Constraints::Engine),
            Ok(1)
        );
        assert_eq!(
            validate::<SomeGame>(spaced.as_bytes(), (), Constraints::Contest),
            Err(Invalid(
                "2:6: case 1: expected the end of the line, found a space".into()
            ))
        );
        let odd = "...\n...\n...\n";
        assert!(validate::<LittleSquares>(odd.as_bytes(), (), Constraints::Engine).is_ok());
        let refused = validate::<LittleSquares>(odd.as_bytes(), (), Constraints::Contest);
        assert_eq!(
            refused,
            Err(Invalid("1:1: case 1: expected an even number of rows from 2 to 10, all of the same even length from 2 to 10 (the contest's limits), found a 3 x 3 grid".into()))
        );
    }

    /// An endless input: `line` again and again after `head`, failing the test once the
    /// validator has read 100 MB of it.
    struct Endless {
        head: &'static [u8],
        line: &'static [u8],
        read: usize,
    }

    impl Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            assert!(self.read < 100 << 20, "read 100 MB of an endless input");
            let at = self.read;
            let byte = match at.checked_sub(self.head.len()) {
                None => self.head[at],
                Some(k) => self.line[k % self.line.len()],
            };
            buf[0] = byte;
            self.read += 1;
            Ok(1)
        }
    }

    #[test]
    fn an_endless_input_ends_where_the_engine_stops() {
        let endless = |head, line| Endless {
            head,
            line,
            read: 0,
        };
        for c in [Constraints::Engine, Constraints::Contest] {
            let yes = validate::<Pousse>(endless(b"", b"L1\n"), Rules::Waterloo, c);
            assert_eq!(
                yes.unwrap_err().0,
                "1:1: expected a board size or a case count (a decimal number), found 'L1'"
            );
            let zeros = validate::<SomeGame>(endless(b"", b"\0"), (), c);
            assert!(zeros.unwrap_err().0.starts_with("1:1: "));
        }
        let after =
            validate::<LittleSquares>(endless(b"..\n..\n", b"\n"), (), Constraints::Contest);
        assert!(after.is_err(), "{after:?}");
    }

    #[test]
    fn a_case_outside_the_contests_limits_is_named_by_the_line_it_begins_on() {
        // Pousse in the UVa form: the second game, its N on line 7.
        let uva = "2\n\n4\nL1\nQUIT\n\n101\nL1\nQUIT\n";
        assert_eq!(
            pousse(uva, Constraints::Contest).unwrap_err().0,
            "7:1: case 2: expected a board size N <= 100 (the contest's limit), found N = 101"
        );
        let first = "2\n\n101\nQUIT\n\n4\nQUIT\n";
        assert!(pousse(first, Constraints::Contest)
            .unwrap_err()
            .0
            .starts_with("3:1: case 1: "));
        // LittleSquares: grids separated by an empty line, the second of 12 rows from line 4.
        let grids = format!("..\n..\n\n{}", "..\n".repeat(12));
        let refused = validate::<LittleSquares>(grids.as_bytes(), (), Constraints::Contest);
        assert!(
            refused
                .as_ref()
                .unwrap_err()
                .0
                .starts_with("4:1: case 2: expected"),
            "{refused:?}"
        );
        // Some Game: data sets stacked, the third of 101 x 101 squares from line 7.
        let small = "1 2 2 2\n1 0\n0 0\n";
        let mut stacked = format!("{small}{small}1 101 101 2\n");
        for _ in 0..101 {
            stacked.push_str(&vec!["0"; 101].join(" "));
            stacked.push('\n');
        }
        let refused = validate::<SomeGame>(stacked.as_bytes(), (), Constraints::Contest);
        assert_eq!(
            refused.unwrap_err().0,
            "7:1: case 3: expected a board of at most 10000 squares (the package's limit), found \
             10201 squares"
        );
    }

    #[test]
    fn grammar_errors_keep_their_place() {
        assert_eq!(
            pousse("3\nZ1\nQUIT\n", Constraints::Contest).unwrap_err().0,
            "2:1: expected a move (L, R, T or B and an index) or QUIT, found 'Z1'"
        );
        let leading_zero = "2 3 3 04\n1 2 0\n2 1 0\n0 0 1\n";
        assert!(validate::<SomeGame>(leading_zero.as_bytes(), (), Constraints::Engine).is_ok());
        assert_eq!(
            validate::<SomeGame>(leading_zero.as_bytes(), (), Constraints::Contest)
                .unwrap_err()
                .0,
            "1:7: case 1: expected a number without leading zeros, found a leading zero"
        );
    }
}
