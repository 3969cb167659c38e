//! Some Game (DMOJ ioiqrp5): is this board won, still going, or impossible? Rules, formats and
//! the readings of the lost statement: `docs/games/somegame.md`.

pub mod board;
pub mod case;
pub mod engine;
pub mod features;
mod game;
pub mod oracle;
pub mod package;
pub mod parse;
pub mod reference;
pub mod scan;
pub mod show;
pub mod steps;

/// The largest board (R x C) of a contest input: the statement's bounds are lost, so this is the
/// bound the packages written by `referee package` state and validate.
pub const CONTEST_MAX_SQUARES: u64 = 10_000;

use std::io::Read;

pub use case::BoardCase;
pub use game::SomeGame;

use crate::game::Judged;
use crate::util::error::JudgeError;

/// The verdict for one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// `PLAYER x`: player x has won.
    Player(u64),
    /// `NO WINNERS`: nobody has won (yet).
    NoWinners,
    /// `ERROR`: no legal play reaches the board.
    Error,
}

/// Why the verdict is what it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// K = 0: every player has a line on every board; only the empty board is legal.
    ZeroK,
    /// A value above P, or square counts that turn order cannot produce.
    Counts,
    /// Nobody has a line.
    NoLine,
    /// `player`, the lowest-numbered with a line, is not the last mover.
    NotLastMover {
        /// The lowest-numbered player other than the last mover who has a line.
        player: u64,
    },
    /// The last mover has a line, and `squares` of its squares could have been the winning
    /// move (0: the game had ended earlier).
    LastMoverLine {
        /// Squares of the last mover whose removal leaves nobody with a line.
        squares: u64,
    },
}

/// The result of judging one board.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// Why.
    pub reason: Reason,
    /// Rows x columns.
    pub squares: u64,
    /// The winning length K, capped at the board size (a longer walk never happens).
    pub walk: u64,
    /// The players P.
    pub players: u64,
}

impl Judged for Judgement {
    /// `PLAYER x`, `NO WINNERS` or `ERROR`.
    fn verdict(&self) -> String {
        match self.verdict {
            Verdict::Player(p) => format!("PLAYER {p}"),
            Verdict::NoWinners => "NO WINNERS".into(),
            Verdict::Error => "ERROR".into(),
        }
    }

    /// The reason in words.
    fn explain(&self) -> String {
        match self.reason {
            Reason::ZeroK => "K = 0: only the empty board is legal".into(),
            Reason::Counts => "square counts or values impossible under turn order".into(),
            Reason::NoLine => "nobody has a line".into(),
            Reason::NotLastMover { player } => {
                format!("player {player} has a line but did not move last")
            }
            Reason::LastMoverLine { squares } => {
                format!(
                    "the last mover has a line; {squares} squares could have been the winning move"
                )
            }
        }
    }

    /// Squares.
    fn size(&self) -> u64 {
        self.squares
    }
}

/// Judges every data set with the engine.
pub fn judge<R: Read>(reader: R) -> Result<Vec<Judgement>, JudgeError> {
    judge_each(reader, engine::judge)
}

/// Judges every data set with the engine's walk of whole cycles alone (no scan).
pub fn judge_by_walk<R: Read>(reader: R) -> Result<Vec<Judgement>, JudgeError> {
    judge_each(reader, engine::judge_by_walk)
}

fn judge_each<R: Read>(
    reader: R,
    judge: fn(&board::DataSet) -> Judgement,
) -> Result<Vec<Judgement>, JudgeError> {
    let mut out = Vec::new();
    judge_streamed(reader, judge, &mut |j| out.push(j))?;
    Ok(out)
}

/// Judges every data set with the engine, each judgement handed to `each` as soon as it is
/// made: memory bounded by the largest data set, whatever their number.
pub fn judge_streamed<R: Read>(
    reader: R,
    judge: fn(&board::DataSet) -> Judgement,
    each: &mut dyn FnMut(Judgement),
) -> Result<(), JudgeError> {
    let mut parser = parse::Parser::new(reader);
    while let Some(set) = parser.next_set()? {
        each(judge(&set));
    }
    Ok(())
}
