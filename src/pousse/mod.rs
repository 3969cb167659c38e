//! Pousse (ICFP 1998; UVa 844): the optimized engine, its streaming parser, its random cases,
//! and the adapter that asks the reference crate for a second opinion.
//!
//! Rules, rule sets and readings: `docs/games/pousse.md`.

pub mod board;
pub mod case;
mod corners;
pub mod features;
mod game;
pub mod history;
pub mod judge;
pub mod package;
pub mod parse;
pub mod play;
pub mod reference;
pub mod rules;
pub mod show;
pub mod small;
mod steered;
pub mod windows;

use std::fmt;

use crate::game::Judged;

pub use board::{Board, MAX_N};

/// The largest board the contest's problem allows (UVa 844: N <= 100); the engine judges
/// boards up to [`MAX_N`].
pub const CONTEST_MAX_N: usize = 100;
pub use case::PousseCase;
pub use game::Pousse;
pub use play::Match;
pub use rules::Rules;
pub use small::{SmallBoard, SMALL_MAX_N};

/// What a game needs from a board representation; [`Board`] (any size) and [`SmallBoard`]
/// (N <= 8, one word per colour) both provide it, and [`Match`] is generic over it.
pub trait BoardRepr: Clone {
    /// An empty board of size `n`, which the caller has checked is supported; `hashing` asks
    /// for [`contents_hash`](BoardRepr::contents_hash) to be maintained.
    fn empty(n: usize, hashing: bool) -> Self;
    /// Plays `mv` for `mover`; the caller guarantees `1 <= mv.index <= n`.
    fn play_unchecked(&mut self, mv: Move, mover: Colour);
    /// The numbers of straights of X and of O.
    fn straights(&self) -> (u32, u32);
    /// A hash of the contents (meaningful when built with `hashing`): equal contents give
    /// equal hashes.
    fn contents_hash(&self) -> u64;
    /// Whether two boards have the same contents.
    fn same_contents(&self, other: &Self) -> bool;
    /// The markers on the board.
    fn markers(&self) -> u32;
}

/// A player's colour. X moves first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Colour {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::X => Colour::O,
            Colour::O => Colour::X,
        }
    }

    /// The colour that makes the `number`-th move of a game (1-based).
    pub fn of_move(number: u64) -> Colour {
        if number % 2 == 1 {
            Colour::X
        } else {
            Colour::O
        }
    }

    /// `'X'` or `'O'`.
    pub fn letter(self) -> char {
        match self {
            Colour::X => 'X',
            Colour::O => 'O',
        }
    }
}

/// The edge a marker is inserted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Edge {
    /// `Li`: into row i from the left.
    Left,
    /// `Ri`: into row i from the right.
    Right,
    /// `Ti`: into column i from the top.
    Top,
    /// `Bi`: into column i from the bottom.
    Bottom,
}

impl Edge {
    /// Every edge, in the order `L R T B`.
    pub const ALL: [Edge; 4] = [Edge::Left, Edge::Right, Edge::Top, Edge::Bottom];

    /// The transcript letter.
    pub fn letter(self) -> char {
        match self {
            Edge::Left => 'L',
            Edge::Right => 'R',
            Edge::Top => 'T',
            Edge::Bottom => 'B',
        }
    }
}

/// A move as written in a transcript: an edge and a 1-based row or column index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    /// Where the marker enters.
    pub edge: Edge,
    /// The 1-based row (for `L`, `R`) or column (for `T`, `B`).
    pub index: u32,
}

impl Move {
    /// The move `edge` + `index` (1-based).
    pub fn new(edge: Edge, index: u32) -> Move {
        Move { edge, index }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.edge.letter(), self.index)
    }
}

/// Why a game ended as it did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reason {
    /// The decisive move left `x` straights of X and `o` of O (unequal).
    Straights {
        /// X's straights after the decisive move.
        x: u32,
        /// O's straights after the decisive move.
        o: u32,
    },
    /// The decisive move repeated the configuration reached after move `earlier`; its mover
    /// lost.
    Repetition {
        /// The 1-based number of the earlier move.
        earlier: u64,
    },
    /// `QUIT` came before any move ended the game.
    Quit,
}

/// The result of judging one game, with enough detail to explain any disagreement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Judgement {
    /// The board size.
    pub n: usize,
    /// The winner, `None` for `TIE GAME`.
    pub winner: Option<Colour>,
    /// The 1-based number of the move that ended the game.
    pub decisive_move: Option<u64>,
    /// Why.
    pub reason: Reason,
    /// Moves in the transcript (up to `QUIT`, including those after the decisive move).
    pub moves: u64,
}

impl Judged for Judgement {
    /// `X WINS`, `O WINS` or `TIE GAME`.
    fn verdict(&self) -> String {
        match self.winner {
            Some(Colour::X) => "X WINS",
            Some(Colour::O) => "O WINS",
            None => "TIE GAME",
        }
        .to_string()
    }

    /// The decisive move and why.
    fn explain(&self) -> String {
        match (self.decisive_move, self.reason) {
            (Some(m), Reason::Straights { x, o }) => {
                format!("move {m}: straights X {x}, O {o}")
            }
            (Some(m), Reason::Repetition { earlier }) => {
                format!("move {m}: repeats the configuration after move {earlier}")
            }
            _ => format!("QUIT after {} moves, no decision", self.moves),
        }
    }

    /// Moves in the transcript.
    fn size(&self) -> u64 {
        self.moves
    }
}
