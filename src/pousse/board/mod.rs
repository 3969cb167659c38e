//! The general Pousse board (every size up to [`MAX_N`]): 8 x 8 tiles of bits, pushed in place,
//! and a *witness* per line that tells whether it is a straight.
//!
//! # Square indexing
//!
//! ```text
//!            column c (0-based) = transcript column c + 1
//!            0   1   2   3
//!          +---+---+---+---+
//! row r  0 |   |   |   |   |   Li pushes row i-1 towards higher columns,
//! (0-    1 |   |   |   |   |   Ri towards lower columns; Ti pushes column
//! based) 2 |   |   |   |   |   i-1 towards higher rows, Bi towards lower rows.
//!        3 |   |   |   |   |
//!          +---+---+---+---+
//! ```
//!
//! The board is cut into `t x t` *tiles* of 8 x 8 squares, `t = ceil(n / 8)` (squares of the
//! last tiles that lie past the board are always empty). Tile `(tr, tc)` is word `tr * t + tc`
//! of a plane, and square `(r, c)` is bit `8 * (r % 8) + c % 8` of tile `(r / 8, c / 8)`:
//!
//! ```text
//!   one tile (bit numbers)      byte k of a tile  = 8 squares of one row
//!    0  1  2  3  4  5  6  7     bit j of each byte = 8 squares of one column
//!    8  9 10 11 12 13 14 15
//!   ...
//!   56 57 58 59 60 61 62 63
//! ```
//!
//! A *line* is a row or a column; *position* `p` of a line is its `p`-th square (0-based) from
//! the top or the left. Within one tile, a line's squares are a *lane*: a byte for a row (the
//! next position is the next bit), a column of bits for a column (the next position is 8 bits
//! further). A push shifts the lane of each tile of the pushed segment by one position, in
//! place, and hands the square that leaves a tile to the next tile as a carry: a few word
//! operations per tile in either orientation, nothing per square, and no second copy of the
//! board to keep in step.
//!
//! # What is stored
//!
//! - `x`: a plane of tiles, the squares holding X;
//! - `occupied_rows`, `occupied_cols`: occupancy as *line masks*, `words = ceil(n / 64)` words
//!   per line, bit `p % 64` of word `p / 64` being position `p` (occupancy changes by one
//!   square per move, so keeping both orientations costs two bit sets);
//! - a [`Line`] status per row and per column, and two planes of tiles `watch_rows` and
//!   `watch_cols` holding the squares those statuses depend on.
//!
//! # Straights by witness
//!
//! A line is [`Line::Open`] (an empty square is named: it cannot be a straight, and
//! occupancy only grows, so this stays true until that square is filled), [`Line::Mixed`]
//! (full, with an X square and an O square named: not a straight while both keep their
//! colours) or [`Line::Straight`]. A push changes one square of each crossing line, about half
//! of them on a full board; one AND per tile with the crossing orientation's watch plane finds
//! the changes to a named square or to a straight, about one per move on a random board, and
//! only those lines are looked at again. On the pushed line itself the named markers move one
//! square along with the push (one that falls off is replaced by the entering marker when
//! that has its colour, else looked for), and its named empty square stays valid unless the
//! push filled it.
//!
//! # Invariants
//!
//! - `x` has no bit on an empty square or outside the board, and `occupied_rows` and
//!   `occupied_cols` hold the same squares (no bit outside the board);
//! - each line's status is true of its squares, as described on [`Line`];
//! - `watch_rows` holds exactly the named squares of the `Mixed` rows and every square of the
//!   `Straight` rows; likewise `watch_cols` for the columns;
//! - `straights` counts the `Straight(X)` and `Straight(O)` lines of both orientations;
//! - when hashing is on, `hash` is the XOR of `tile_key(i, x[i]) ^ tile_key(i, 0)` over the
//!   tiles `i` and of `occupied_key(r * n + c)` over the occupied squares `(r, c)`.

mod lines;
mod push;
mod repr;
#[cfg(test)]
mod tests;
mod tiles;

use super::{BoardRepr, Colour, Edge, Move};
use lines::Line;
use tiles::Lanes;

/// The largest board size the engine judges; larger sizes are refused with a clear error.
pub const MAX_N: usize = 4096;

const _: () = assert!(
    MAX_N <= u16::MAX as usize,
    "line positions are stored as u16"
);

/// A board of size `n` that is too large (or zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is outside 1..={MAX_N}")]
pub struct SizeError(pub usize);

/// A move whose index is outside `1..=n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {0} is outside the board")]
pub struct IllegalMove(pub Move);

/// An N x N Pousse board.
#[derive(Debug)]
pub struct Board {
    n: usize,
    /// Tiles per side.
    t: usize,
    /// Words per line mask.
    words: usize,
    /// The on-board positions of the last tile of a line, as a byte.
    last_tile: u64,
    x: Vec<u64>,
    occupied_rows: Vec<u64>,
    occupied_cols: Vec<u64>,
    rows: Vec<Line>,
    cols: Vec<Line>,
    watch_rows: Vec<u64>,
    watch_cols: Vec<u64>,
    straights: [u32; 2],
    hashing: bool,
    hash: u64,
    /// Scratch for [`push`](Board::push): the tiles of the pushed segment whose changed
    /// squares are watched by the crossing lines, and those squares.
    touched: Vec<(u32, u64)>,
}

impl Board {
    /// An empty board of size `n` (1..=[`MAX_N`]); `hashing` turns on the hash.
    pub fn new(n: usize, hashing: bool) -> Result<Board, SizeError> {
        if n == 0 || n > MAX_N {
            return Err(SizeError(n));
        }
        let words = n.div_ceil(64);
        let t = n.div_ceil(8);
        // Every line is empty: position 0 is an empty square.
        let open = Line::Open { empty: 0 };
        Ok(Board {
            n,
            t,
            words,
            last_tile: (1u64 << (n - 8 * (t - 1))) - 1,
            x: vec![0; t * t],
            occupied_rows: vec![0; n * words],
            occupied_cols: vec![0; n * words],
            rows: vec![open; n],
            cols: vec![open; n],
            watch_rows: vec![0; t * t],
            watch_cols: vec![0; t * t],
            straights: [0, 0],
            hashing,
            hash: 0,
            touched: vec![(0, 0); t],
        })
    }

    /// The contents of square (`row`, `col`), both 0-based.
    pub fn get(&self, row: usize, col: usize) -> Option<Colour> {
        if (self.occupied_rows[row * self.words + col / 64] >> (col % 64)) & 1 == 0 {
            None
        } else if self.is_x::<true>(row, col) {
            Some(Colour::X)
        } else {
            Some(Colour::O)
        }
    }

    /// Whether position `pos` of a line (a row when `R`) holds X.
    #[inline]
    fn is_x<const R: bool>(&self, line: usize, pos: usize) -> bool {
        let lanes = Lanes::of(R, self.t, line);
        (self.x[lanes.tile(pos / 8)] >> lanes.bit(pos % 8)) & 1 == 1
    }

    /// The numbers of straights of X and of O.
    pub fn straights(&self) -> (u32, u32) {
        (self.straights[0], self.straights[1])
    }

    /// The hash of the contents (0 when hashing is off).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether two boards have the same contents.
    pub fn same_contents(&self, other: &Board) -> bool {
        self.n == other.n && self.occupied_rows == other.occupied_rows && self.x == other.x
    }

    /// The board as text, rows top to bottom separated by `/`, `.` for empty.
    pub fn to_text(&self) -> String {
        let mut s = String::with_capacity(self.n * (self.n + 1));
        for r in 0..self.n {
            if r > 0 {
                s.push('/');
            }
            for c in 0..self.n {
                s.push(self.get(r, c).map_or('.', Colour::letter));
            }
        }
        s
    }

    /// Plays `mv` for `mover`, checking that the index is on the board.
    pub fn play(&mut self, mv: Move, mover: Colour) -> Result<(), IllegalMove> {
        if mv.index == 0 || mv.index as usize > self.n {
            return Err(IllegalMove(mv));
        }
        self.play_unchecked(mv, mover);
        Ok(())
    }

    /// Plays `mv` for `mover` without checking the index.
    ///
    /// The caller guarantees `1 <= mv.index <= n` (the parser does); an index outside panics
    /// on a slice bound or corrupts nothing but this board.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move, mover: Colour) {
        if self.hashing {
            self.play_on_edge::<true>(mv, mover);
        } else {
            self.play_on_edge::<false>(mv, mover);
        }
    }

    /// [`play_unchecked`](Board::play_unchecked), the hash maintained when `HASH`.
    #[inline(always)]
    fn play_on_edge<const HASH: bool>(&mut self, mv: Move, mover: Colour) {
        let line = mv.index as usize - 1;
        match mv.edge {
            Edge::Left => self.push::<true, true, HASH>(line, mover),
            Edge::Right => self.push::<true, false, HASH>(line, mover),
            Edge::Top => self.push::<false, true, HASH>(line, mover),
            Edge::Bottom => self.push::<false, false, HASH>(line, mover),
        }
    }

    /// The statuses of one orientation.
    #[inline(always)]
    fn lines(&self, rows: bool) -> &[Line] {
        if rows {
            &self.rows
        } else {
            &self.cols
        }
    }

    /// The on-board positions of word `w` of a line mask.
    #[inline]
    fn valid(&self, w: usize) -> u64 {
        if w + 1 == self.words && !self.n.is_multiple_of(64) {
            (1u64 << (self.n % 64)) - 1
        } else {
            !0
        }
    }

    /// The empty square of a line that is not full nearest its start (`first`) or its end.
    #[inline]
    fn empty_square(&self, rows: bool, line: usize, first: bool) -> Option<usize> {
        let words = self.words;
        let masks = if rows {
            &self.occupied_rows
        } else {
            &self.occupied_cols
        };
        let occupied = &masks[line * words..(line + 1) * words];
        let free = |w: usize| !occupied[w] & self.valid(w);
        if first {
            (0..words)
                .find(|&w| free(w) != 0)
                .map(|w| 64 * w + free(w).trailing_zeros() as usize)
        } else {
            (0..words)
                .rev()
                .find(|&w| free(w) != 0)
                .map(|w| 64 * w + 63 - free(w).leading_zeros() as usize)
        }
    }
}
