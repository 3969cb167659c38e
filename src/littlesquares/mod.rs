//! LittleSquares (TopCoder SRM 389): who wins with best play. The engine ([`fold`]) uses the
//! band decomposition and Sprague-Grundy values ([`grundy`]); the reference crate plays the
//! game out. Rules, forms and readings: `docs/games/littlesquares.md`.

pub mod case;
pub mod features;
pub mod fold;
mod game;
pub mod grundy;
pub mod oracle;
pub mod package;
pub mod parse;
pub mod reference;
pub mod show;

use std::io::Read;

pub use case::GridCase;
pub use game::LittleSquares;

use crate::game::Judged;
use crate::util::error::JudgeError;

/// Whether a grid meets the contest's constraints: an even number of rows, 2..=10, and an
/// even width, 2..=10. Grids outside are still judged; verify reports the flag.
pub fn within_contest_limits(rows: usize, cols: usize) -> bool {
    let ok = |v: usize| (2..=10).contains(&v) && v.is_multiple_of(2);
    ok(rows) && ok(cols)
}

/// The outcome for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    /// The player to move wins with best play.
    First,
    /// The player to move loses against best play.
    Second,
}

/// The result of judging one grid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Judgement {
    /// Who wins.
    pub outcome: Winner,
    /// Grid height.
    pub rows: usize,
    /// Grid width.
    pub cols: usize,
    /// Empty squares.
    pub empty: u64,
    /// Whether the grid is inside the contest's constraints.
    pub within_contest_limits: bool,
}

impl Judged for Judgement {
    /// `first` or `second`.
    fn verdict(&self) -> String {
        match self.outcome {
            Winner::First => "first",
            Winner::Second => "second",
        }
        .to_string()
    }

    /// Size, empty squares and contest constraints.
    fn explain(&self) -> String {
        format!(
            "{}x{} grid, {} empty; {} the contest constraints",
            self.rows,
            self.cols,
            self.empty,
            if self.within_contest_limits {
                "within"
            } else {
                "outside"
            }
        )
    }

    /// Squares.
    fn size(&self) -> u64 {
        (self.rows * self.cols) as u64
    }
}

/// Judges every grid of the input with the engine (streamed, memory proportional to the
/// width).
pub fn judge<R: Read>(reader: R) -> Result<Vec<Judgement>, JudgeError> {
    parse::judge(reader)
}
