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

use super::{BoardRepr, Colour, Edge, Move};
use crate::hash::mix64;

/// The largest board size the engine judges; larger sizes are refused with a clear error.
pub const MAX_N: usize = 4096;

const _: () = assert!(
    MAX_N <= u16::MAX as usize,
    "line positions are stored as u16"
);

/// The hash contribution of tile `tile` of the X plane holding `bits`.
#[inline]
fn tile_key(tile: usize, bits: u64) -> u64 {
    mix64(bits ^ (tile as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The hash contribution of an occupied square (row-major index).
#[inline]
fn occupied_key(square: usize) -> u64 {
    mix64((square as u64) ^ 0xD1B5_4A32_D192_ED03)
}

/// Bit 0 of every byte: column 0 of a tile.
const TILE_COLUMN_0: u64 = 0x0101_0101_0101_0101;

/// Column `j` of a tile (bits `j, j + 8, ..., j + 56`) as a byte, the tile's row 0 in bit 0.
#[inline]
fn tile_column(tile: u64, j: u32) -> u64 {
    // Bit 8k times the multiplier's byte m (= 2^(7 - m)) lands on bit 8(k + m) + 7 - m; all
    // those positions differ, so there are no carries, and k + m = 7 puts bit 8k on 56 + k.
    (((tile >> j) & TILE_COLUMN_0).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The inverse of [`tile_column`] for column 0: bit `k` of `byte` (< 256) to bit `8k`.
const fn column_bits(byte: u64) -> u64 {
    let mut bits = 0;
    let mut k = 0;
    while k < 8 {
        bits |= ((byte >> k) & 1) << (8 * k);
        k += 1;
    }
    bits
}

/// [`column_bits`] of every byte.
const COLUMN_BITS: [u64; 256] = {
    let mut table = [0; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = column_bits(b as u64);
        b += 1;
    }
    table
};

/// How a line lies in its tiles: `ROWS` for a row, else a column.
///
/// A line's tiles are `first + k * step` for `k` in `0..t`, position `p` is in tile `p / 8`,
/// and within a tile position `8k + q` is bit `base + q * stride`.
#[derive(Clone, Copy, Debug)]
struct Lanes {
    first: usize,
    step: usize,
    base: u32,
    stride: u32,
}

impl Lanes {
    #[inline(always)]
    fn of(rows: bool, t: usize, line: usize) -> Lanes {
        if rows {
            Lanes {
                first: (line / 8) * t,
                step: 1,
                base: 8 * (line % 8) as u32,
                stride: 1,
            }
        } else {
            Lanes {
                first: line / 8,
                step: t,
                base: (line % 8) as u32,
                stride: 8,
            }
        }
    }

    /// The tile holding tile-position `k` of the line.
    #[inline(always)]
    fn tile(&self, k: usize) -> usize {
        self.first + k * self.step
    }

    /// The lane bits of the positions in `byte` (bit q = position q of a tile).
    #[inline(always)]
    fn spread(&self, byte: u64) -> u64 {
        if self.stride == 1 {
            byte << self.base
        } else {
            COLUMN_BITS[byte as usize] << self.base
        }
    }

    /// The lane of `tile` as a byte (bit q = position q of the tile).
    #[inline(always)]
    fn gather(&self, tile: u64) -> u64 {
        if self.stride == 1 {
            (tile >> self.base) & 0xFF
        } else {
            tile_column(tile, self.base)
        }
    }

    /// The bit of tile-position `q`.
    #[inline(always)]
    fn bit(&self, q: usize) -> u32 {
        self.base + q as u32 * self.stride
    }

    /// The crossing line through lane bit `bit` of a tile: its index within the tile (a column
    /// of a row's tile, a row of a column's tile).
    #[inline(always)]
    fn position_across(&self, bit: u32) -> usize {
        if self.stride == 1 {
            (bit % 8) as usize
        } else {
            (bit / 8) as usize
        }
    }
}

/// What is known about one line (row or column): enough to tell whether it is a straight, and
/// which of its squares could change that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Line {
    /// Not full: the square at position `empty` is empty. Nothing is watched.
    Open { empty: u16 },
    /// Full, with X at position `x_at` and O at position `o_at`. Those two are watched.
    Mixed { x_at: u16, o_at: u16 },
    /// Full of one colour. Every square is watched.
    Straight(Colour),
}

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

impl Clone for Board {
    fn clone(&self) -> Board {
        Board {
            n: self.n,
            t: self.t,
            words: self.words,
            last_tile: self.last_tile,
            x: self.x.clone(),
            occupied_rows: self.occupied_rows.clone(),
            occupied_cols: self.occupied_cols.clone(),
            rows: self.rows.clone(),
            cols: self.cols.clone(),
            watch_rows: self.watch_rows.clone(),
            watch_cols: self.watch_cols.clone(),
            straights: self.straights,
            hashing: self.hashing,
            hash: self.hash,
            touched: self.touched.clone(),
        }
    }

    /// Copies `source` into this board's own storage, allocating nothing when the sizes agree
    /// (the case generators try many moves on a scratch copy of one board).
    fn clone_from(&mut self, source: &Board) {
        self.n = source.n;
        self.t = source.t;
        self.words = source.words;
        self.last_tile = source.last_tile;
        self.x.clone_from(&source.x);
        self.occupied_rows.clone_from(&source.occupied_rows);
        self.occupied_cols.clone_from(&source.occupied_cols);
        self.rows.clone_from(&source.rows);
        self.cols.clone_from(&source.cols);
        self.watch_rows.clone_from(&source.watch_rows);
        self.watch_cols.clone_from(&source.watch_cols);
        self.straights = source.straights;
        self.hashing = source.hashing;
        self.hash = source.hash;
        self.touched.clone_from(&source.touched);
    }
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

    /// Inserts a marker of `mover` into line `line` (a row when `ROWS`, else a column) at
    /// position 0 when `UP`, else at position `n - 1`, shifting the segment up to the first
    /// empty square (or the whole line, whose far end falls off); then brings the statuses of
    /// the line and of the crossing lines up to date. The hash is maintained when `HASH`.
    #[inline]
    fn push<const ROWS: bool, const UP: bool, const HASH: bool>(
        &mut self,
        line: usize,
        mover: Colour,
    ) {
        let n = self.n;
        let status = self.lines(ROWS)[line];
        // The segment lo..=hi that shifts, and the empty square it fills (if any).
        let filled = match status {
            Line::Open { .. } => self.empty_square(ROWS, line, UP),
            _ => None,
        };
        let (lo, hi) = match (filled, UP) {
            (Some(e), true) => (0, e),
            (Some(e), false) => (e, n - 1),
            (None, _) => (0, n - 1),
        };
        let lanes = Lanes::of(ROWS, self.t, line);
        let (k_lo, k_hi) = (lo / 8, hi / 8);
        let (q_lo, q_hi) = (lo % 8, hi % 8);
        let watch = if ROWS {
            &self.watch_cols
        } else {
            &self.watch_rows
        };
        let mut shift = Shift::<ROWS, UP, HASH> {
            x: &mut self.x,
            watch,
            touched: &mut self.touched,
            lanes,
            entry: lanes.spread(if UP { 1 } else { 0x80 }),
            carry: 0,
            hash: 0,
            touches: 0,
        };
        let mover_bit = (mover == Colour::X) as u64;
        if UP {
            shift.carry = mover_bit << lanes.bit(0);
            shift.whole_tiles(0, k_hi);
            shift.tile(k_hi, (2 << q_hi) - 1);
        } else {
            shift.carry = mover_bit << lanes.bit(q_hi);
            let below = if k_lo == k_hi { (1 << q_lo) - 1 } else { 0 };
            shift.tile(k_hi, (2 << q_hi) - 1 - below);
            if k_lo < k_hi {
                shift.whole_tiles(k_lo + 1, k_hi);
                shift.tile(k_lo, 0xFF - ((1 << q_lo) - 1));
            }
        }
        let (hash, touches) = (shift.hash, shift.touches);
        self.hash ^= hash;

        if let Some(e) = filled {
            self.fill::<ROWS>(line, e);
        }
        for t in 0..touches {
            let (k, mut bits) = self.touched[t];
            while bits != 0 {
                let crossing = 8 * k as usize + lanes.position_across(bits.trailing_zeros());
                if ROWS {
                    self.changed::<false>(crossing, line);
                } else {
                    self.changed::<true>(crossing, line);
                }
                bits &= bits - 1;
            }
        }
        // The pushed line itself.
        let entry = if UP { 0 } else { n - 1 };
        match status {
            Line::Open { empty } if Some(empty as usize) != filled => {}
            Line::Open { .. } => self.reopen::<ROWS>(line, entry),
            Line::Straight(colour) if colour == mover => {}
            // The rest moved along and is still of the other colour; only the entry changed.
            Line::Straight(_) => self.changed::<ROWS>(line, entry),
            Line::Mixed { x_at, o_at } => {
                // The named markers moved one square along, unless they fell off; the
                // entering marker can stand in for one that fell.
                let follow = |at: u16, colour: Colour| {
                    let at = at as usize;
                    if at != if UP { n - 1 } else { 0 } {
                        Some(if UP { at + 1 } else { at - 1 })
                    } else {
                        (mover == colour).then_some(entry)
                    }
                };
                match (follow(x_at, Colour::X), follow(o_at, Colour::O)) {
                    (Some(new_x), Some(new_o)) => {
                        // The usual case, without `set`: move the two watched squares.
                        let own = if ROWS {
                            &mut self.watch_rows
                        } else {
                            &mut self.watch_cols
                        };
                        for pos in [x_at as usize, o_at as usize, new_x, new_o] {
                            own[lanes.tile(pos / 8)] ^= 1 << lanes.bit(pos % 8);
                        }
                        let status = Line::Mixed {
                            x_at: new_x as u16,
                            o_at: new_o as u16,
                        };
                        if ROWS {
                            self.rows[line] = status;
                        } else {
                            self.cols[line] = status;
                        }
                    }
                    (new_x, new_o) => {
                        let status = self.colours::<ROWS>(line, new_x, new_o, entry);
                        self.set::<ROWS>(line, status);
                    }
                }
            }
        }
    }

    /// Marks the square at position `pos` of line `line` (a row when `R`) occupied, and
    /// names another empty square for the crossing line if it had named this one. (The
    /// pushed line's own status is the caller's.)
    fn fill<const R: bool>(&mut self, line: usize, pos: usize) {
        let words = self.words;
        let (row, col) = if R { (line, pos) } else { (pos, line) };
        self.occupied_rows[row * words + col / 64] |= 1 << (col % 64);
        self.occupied_cols[col * words + row / 64] |= 1 << (row % 64);
        if self.hashing {
            self.hash ^= occupied_key(row * self.n + col);
        }
        let named = Line::Open { empty: line as u16 };
        if R && self.cols[pos] == named {
            self.reopen::<false>(pos, line);
        } else if !R && self.rows[pos] == named {
            self.reopen::<true>(pos, line);
        }
    }

    /// Re-establishes the status of a line whose named empty square was just filled: another
    /// empty square, or (the line is now full) its colours, looked for near `near`.
    fn reopen<const R: bool>(&mut self, line: usize, near: usize) {
        let status = match self.empty_square(R, line, true) {
            Some(empty) => Line::Open {
                empty: empty as u16,
            },
            None => self.colours::<R>(line, None, None, near),
        };
        self.set::<R>(line, status);
    }

    /// Brings the status of line `line` (a row when `R`) up to date after its watched square
    /// at position `pos` changed colour (and no other square did, or only along with their
    /// names, see [`push`](Board::push)).
    fn changed<const R: bool>(&mut self, line: usize, pos: usize) {
        match self.lines(R)[line] {
            Line::Mixed { x_at, o_at } => {
                // `pos` is one of the two named squares: name another of its old colour.
                debug_assert!(pos == x_at as usize || pos == o_at as usize);
                let lost = if pos == x_at as usize {
                    Colour::X
                } else {
                    Colour::O
                };
                let Some(other) = self.find::<R>(line, lost, pos) else {
                    return self.set::<R>(line, Line::Straight(lost.other()));
                };
                let lanes = Lanes::of(R, self.t, line);
                let plane = if R {
                    &mut self.watch_rows
                } else {
                    &mut self.watch_cols
                };
                plane[lanes.tile(pos / 8)] ^= 1 << lanes.bit(pos % 8);
                plane[lanes.tile(other / 8)] ^= 1 << lanes.bit(other % 8);
                let status = match lost {
                    Colour::X => Line::Mixed {
                        x_at: other as u16,
                        o_at,
                    },
                    Colour::O => Line::Mixed {
                        x_at,
                        o_at: other as u16,
                    },
                };
                if R {
                    self.rows[line] = status;
                } else {
                    self.cols[line] = status;
                }
            }
            Line::Straight(colour) => {
                let status = match self.find::<R>(line, colour, pos) {
                    Some(other) => {
                        let (x_at, o_at) = match colour {
                            Colour::X => (other, pos),
                            Colour::O => (pos, other),
                        };
                        Line::Mixed {
                            x_at: x_at as u16,
                            o_at: o_at as u16,
                        }
                    }
                    None => Line::Straight(colour.other()),
                };
                self.set::<R>(line, status);
            }
            // Open lines watch nothing.
            Line::Open { .. } => {}
        }
    }

    /// The status of a full line given an X square and an O square where known, the others
    /// looked for starting at the tile of `near`.
    fn colours<const R: bool>(
        &self,
        line: usize,
        x_at: Option<usize>,
        o_at: Option<usize>,
        near: usize,
    ) -> Line {
        let x_at = x_at.or_else(|| self.find::<R>(line, Colour::X, near));
        let o_at = o_at.or_else(|| self.find::<R>(line, Colour::O, near));
        match (x_at, o_at) {
            (Some(x_at), Some(o_at)) => Line::Mixed {
                x_at: x_at as u16,
                o_at: o_at as u16,
            },
            (Some(_), None) => Line::Straight(Colour::X),
            (None, _) => Line::Straight(Colour::O),
        }
    }

    /// A position of full line `line` (a row when `R`) holding `colour`, looking tile by tile
    /// from the tile of `near` onwards (wrapping around), so that named squares stay spread
    /// over the board.
    fn find<const R: bool>(&self, line: usize, colour: Colour, near: usize) -> Option<usize> {
        let lanes = Lanes::of(R, self.t, line);
        let start = near / 8;
        let mut k = start;
        loop {
            let xs = lanes.gather(self.x[lanes.tile(k)]);
            let on_board = if k + 1 == self.t {
                self.last_tile
            } else {
                0xFF
            };
            let wanted = match colour {
                Colour::X => xs,
                Colour::O => !xs & on_board,
            };
            if wanted != 0 {
                return Some(8 * k + wanted.trailing_zeros() as usize);
            }
            k = if k + 1 == self.t { 0 } else { k + 1 };
            if k == start {
                return None;
            }
        }
    }

    /// Sets the status of a line (a row when `R`), keeping the watch plane and the straight
    /// counts in step.
    fn set<const R: bool>(&mut self, line: usize, status: Line) {
        let old = self.lines(R)[line];
        if old == status {
            return;
        }
        self.watch::<R>(line, old);
        self.watch::<R>(line, status);
        if R {
            self.rows[line] = status;
        } else {
            self.cols[line] = status;
        }
    }

    /// Toggles the watched squares of `status` (line `line`, a row when `R`) and counts its
    /// straight out (if it is the line's status) or in.
    fn watch<const R: bool>(&mut self, line: usize, status: Line) {
        let lanes = Lanes::of(R, self.t, line);
        let on = self.lines(R)[line] != status;
        let plane = if R {
            &mut self.watch_rows
        } else {
            &mut self.watch_cols
        };
        let mut flip = |pos: usize| {
            let i = lanes.tile(pos / 8);
            plane[i] ^= 1 << lanes.bit(pos % 8);
        };
        match status {
            Line::Open { .. } => {}
            Line::Mixed { x_at, o_at } => {
                flip(x_at as usize);
                flip(o_at as usize);
            }
            Line::Straight(colour) => {
                for k in 0..self.t {
                    let on_board = if k + 1 == self.t {
                        self.last_tile
                    } else {
                        0xFF
                    };
                    plane[lanes.tile(k)] ^= lanes.spread(on_board);
                }
                let count = &mut self.straights[(colour == Colour::O) as usize];
                if on {
                    *count += 1;
                } else {
                    *count -= 1;
                }
            }
        }
    }
}

/// One push under way, tile by tile along the pushed segment of a line (a row when `ROWS`),
/// towards higher positions when `UP`.
struct Shift<'a, const ROWS: bool, const UP: bool, const HASH: bool> {
    x: &'a mut [u64],
    /// The crossing lines' watch plane.
    watch: &'a [u64],
    /// The tile-positions with changed squares that `watch` holds, and those squares; the
    /// first `touches` entries are this push's.
    touched: &'a mut [(u32, u64)],
    lanes: Lanes,
    /// The bit where the carry enters a tile shifted whole.
    entry: u64,
    /// The marker (X = 1) entering the next tile, at its entry bit.
    carry: u64,
    /// The change of the hash so far (when `HASH`).
    hash: u64,
    touches: usize,
}

impl<const ROWS: bool, const UP: bool, const HASH: bool> Shift<'_, ROWS, UP, HASH> {
    /// Shifts the squares `positions` (a byte, bit q = position q) of tile-position `k` one
    /// position along; the carry enters at the first of them, and the square leaving at
    /// position 7 (`UP`) or 0 becomes the next carry.
    #[inline(always)]
    fn tile(&mut self, k: usize, positions: u64) {
        let i = self.lanes.tile(k);
        let mask = self.lanes.spread(positions);
        let hit = self.step(i, mask);
        record(self.touched, &mut self.touches, k, hit);
    }

    /// [`tile`](Shift::tile) for every tile-position in `a..b`, all of whose squares shift, in
    /// the order of the push.
    #[inline(always)]
    fn whole_tiles(&mut self, a: usize, b: usize) {
        if a >= b {
            return;
        }
        let mask = self.lanes.spread(0xFF);
        let (first, last) = (self.lanes.tile(a), self.lanes.tile(b - 1));
        let (mut carry, mut hash, entry) = (self.carry, self.hash, self.entry);
        // Chunks of `step` tiles starting at the line's tiles: the tiles are the chunks' heads,
        // and no index needs a bounds check.
        let step = self.lanes.step;
        let tiles = self.x[first..=last].chunks_mut(step);
        let watched = self.watch[first..=last].chunks(step);
        let mut visit = |k: usize, tile: &mut [u64], watched: &[u64]| {
            if let ([tile, ..], [watched, ..]) = (tile, watched) {
                let i = first + (k - a) * step;
                let (hit, leaving) =
                    step_tile::<ROWS, UP, HASH>(tile, *watched, mask, carry, entry, i, &mut hash);
                carry = leaving;
                record(self.touched, &mut self.touches, k, hit);
            }
        };
        if UP {
            for (k, (tile, watched)) in (a..b).zip(tiles.zip(watched)) {
                visit(k, tile, watched);
            }
        } else {
            for (k, (tile, watched)) in (a..b).rev().zip(tiles.zip(watched).rev()) {
                visit(k, tile, watched);
            }
        }
        self.carry = carry;
        self.hash = hash;
    }

    /// Shifts the lane bits `mask` of tile `i`; returns its changed squares that are watched.
    #[inline(always)]
    fn step(&mut self, i: usize, mask: u64) -> u64 {
        let (hit, carry) = step_tile::<ROWS, UP, HASH>(
            &mut self.x[i],
            self.watch[i],
            mask,
            self.carry,
            self.entry,
            i,
            &mut self.hash,
        );
        self.carry = carry;
        hit
    }
}

/// Records the watched squares `hit` changed in tile-position `k` as `touched[*touches]`, if
/// any. (A branch: on a random board about one tile in ten has such a square, and an
/// unconditional store per tile costs more than the occasional misprediction.)
#[inline(always)]
fn record(touched: &mut [(u32, u64)], touches: &mut usize, k: usize, hit: u64) {
    if hit != 0 {
        touched[*touches] = (k as u32, hit);
        *touches += 1;
    }
}

/// Shifts the lane bits `mask` of `*tile` (index `i`) one position along a line (a row when
/// `ROWS`, towards higher positions when `UP`), `carry` entering (at its bit, or 0); returns
/// the changed bits among `watched`, and the square leaving the tile's last position, placed
/// at `entry`, the first position of the next tile. Adds the change to `hash` when `HASH`.
#[inline(always)]
fn step_tile<const ROWS: bool, const UP: bool, const HASH: bool>(
    tile: &mut u64,
    watched: u64,
    mask: u64,
    carry: u64,
    entry: u64,
    i: usize,
    hash: &mut u64,
) -> (u64, u64) {
    // One position along a lane: 1 bit for a row, 8 for a column; the last square of a whole
    // lane is 7 positions from the first.
    let (one, seven) = if ROWS { (1, 7) } else { (8, 56) };
    let old = *tile;
    let lane = old & mask;
    let moved = if UP { lane << one } else { lane >> one };
    let new = (old & !mask) | (moved & mask) | carry;
    *tile = new;
    if HASH {
        *hash ^= tile_key(i, old) ^ tile_key(i, new);
    }
    let leaving = if UP { old >> seven } else { old << seven } & entry;
    ((old ^ new) & watched, leaving)
}

impl BoardRepr for Board {
    fn empty(n: usize, hashing: bool) -> Board {
        Board::new(n, hashing).expect("the caller checked the size")
    }
    #[inline]
    fn play_unchecked(&mut self, mv: Move, mover: Colour) {
        Board::play_unchecked(self, mv, mover)
    }
    #[inline]
    fn straights(&self) -> (u32, u32) {
        Board::straights(self)
    }
    #[inline]
    fn contents_hash(&self) -> u64 {
        self.hash
    }
    fn same_contents(&self, other: &Board) -> bool {
        Board::same_contents(self, other)
    }
    fn markers(&self) -> u32 {
        self.occupied_rows.iter().map(|w| w.count_ones()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(s: &str) -> Move {
        let edge = match &s[..1] {
            "L" => Edge::Left,
            "R" => Edge::Right,
            "T" => Edge::Top,
            _ => Edge::Bottom,
        };
        Move::new(edge, s[1..].parse().unwrap())
    }

    #[test]
    fn a_board_copied_into_another_plays_on_alike() {
        // Copies between boards of different sizes too, into storage of another shape.
        let moves: Vec<Move> = ["L1", "T2", "R3", "B1", "L2", "T3", "R1", "B2", "L3", "T1"]
            .iter()
            .map(|m| mv(m))
            .collect();
        for (from, into) in [(3, 3), (3, 9), (9, 3), (70, 3)] {
            let mut source = Board::new(from, true).unwrap();
            for (i, &m) in moves.iter().enumerate() {
                source.play_unchecked(m, Colour::of_move(i as u64 + 1));
            }
            let mut copy = Board::new(into, false).unwrap();
            copy.clone_from(&source);
            let extra = mv("T1");
            source.play_unchecked(extra, Colour::O);
            copy.play_unchecked(extra, Colour::O);
            assert!(copy.same_contents(&source));
            assert_eq!(copy.straights(), source.straights());
            assert_eq!(copy.hash(), source.hash());
            assert_eq!(copy.to_text(), source.to_text());
        }
    }

    /// Recomputes the occupancy, statuses, watch planes, straights and hash from the squares,
    /// and checks that squares outside the board are empty.
    fn check_invariants(b: &Board) {
        let n = b.n;
        let mut hash = 0;
        for (i, &x) in b.x.iter().enumerate() {
            hash ^= tile_key(i, x) ^ tile_key(i, 0);
            let (tr, tc) = (i / b.t, i % b.t);
            for bit in 0..64 {
                let (r, c) = (8 * tr + bit / 8, 8 * tc + bit % 8);
                if r >= n || c >= n {
                    assert_eq!(x >> bit & 1, 0, "square {r},{c} is outside the board");
                }
            }
        }
        let mut watch = [vec![0u64; b.t * b.t], vec![0u64; b.t * b.t]];
        let mut straights = [0, 0];
        for r in 0..n {
            for c in 0..n {
                let row_bit = b.occupied_rows[r * b.words + c / 64] >> (c % 64) & 1;
                let col_bit = b.occupied_cols[c * b.words + r / 64] >> (r % 64) & 1;
                assert_eq!(row_bit, col_bit, "occupancy of {r},{c}");
                if row_bit == 0 {
                    assert!(!b.is_x::<true>(r, c), "X on the empty square {r},{c}");
                } else {
                    hash ^= occupied_key(r * n + c);
                }
            }
        }
        for (o, rows) in [(0, true), (1, false)] {
            for line in 0..n {
                let cells: Vec<Option<Colour>> = (0..n)
                    .map(|p| if rows { b.get(line, p) } else { b.get(p, line) })
                    .collect();
                let status = b.lines(rows)[line];
                let lanes = Lanes::of(rows, b.t, line);
                let mut mark = |p: usize| watch[o][lanes.tile(p / 8)] |= 1 << lanes.bit(p % 8);
                let full = cells.iter().all(Option::is_some);
                match status {
                    Line::Open { empty } => {
                        assert_eq!(cells[empty as usize], None, "{status:?} rows? {rows}")
                    }
                    Line::Mixed { x_at, o_at } => {
                        assert!(full, "{status:?} rows? {rows} line {line}");
                        assert_eq!(cells[x_at as usize], Some(Colour::X));
                        assert_eq!(cells[o_at as usize], Some(Colour::O));
                        mark(x_at as usize);
                        mark(o_at as usize);
                    }
                    Line::Straight(colour) => {
                        assert!(cells.iter().all(|&v| v == Some(colour)), "{status:?}");
                        straights[(colour == Colour::O) as usize] += 1;
                        (0..n).for_each(&mut mark);
                    }
                }
            }
        }
        assert_eq!(b.watch_rows, watch[0], "watched squares of the rows");
        assert_eq!(b.watch_cols, watch[1], "watched squares of the columns");
        assert_eq!(b.straights(), (straights[0], straights[1]));
        if b.hashing {
            assert_eq!(b.hash, hash);
        }
        let mut copy = Board::new(n, false).unwrap();
        copy.x = b.x.clone();
        copy.occupied_rows = b.occupied_rows.clone();
        assert!(copy.same_contents(b));
    }

    #[test]
    fn tile_columns_gather_and_spread() {
        for byte in 0..256u64 {
            for j in 0..8 {
                let bits = COLUMN_BITS[byte as usize] << j;
                assert_eq!(bits & !(TILE_COLUMN_0 << j), 0, "byte {byte:#x} column {j}");
                for k in 0..8 {
                    assert_eq!(bits >> (8 * k + j) & 1, byte >> k & 1);
                }
                assert_eq!(tile_column(bits, j), byte);
                // Other columns of the tile do not leak into the gathered byte.
                assert_eq!(tile_column(bits | !(TILE_COLUMN_0 << j), j), byte);
            }
        }
    }

    fn run(n: usize, moves: &[&str]) -> Vec<String> {
        let mut b = Board::new(n, true).unwrap();
        let mut out = vec![];
        for (i, m) in moves.iter().enumerate() {
            b.play(mv(m), Colour::of_move(i as u64 + 1)).unwrap();
            check_invariants(&b);
            out.push(b.to_text());
        }
        out
    }

    #[test]
    fn spec_push_mechanics_column() {
        let boards = run(5, &["T3", "T3", "T3", "T3", "T3", "T3"]);
        assert_eq!(boards[0], "..X../...../...../...../.....");
        assert_eq!(boards[4], "..X../..O../..X../..O../..X..");
        assert_eq!(boards[5], "..O../..X../..O../..X../..O..");
    }

    #[test]
    fn spec_push_mechanics_rows() {
        let boards = run(5, &["R3", "L3", "R3", "L3", "B1", "T1"]);
        assert_eq!(boards[2], "...../...../O..XX/...../.....");
        assert_eq!(boards[3], "...../...../OO.XX/...../.....");
        assert_eq!(boards[5], "O..../...../OO.XX/...../X....");
    }

    #[test]
    fn spec_push_mechanics_mixed() {
        let boards = run(5, &["T3", "L3", "T3", "L3", "T3", "L3", "T3"]);
        assert_eq!(boards[5], "..X../..X../OOOX./...../.....");
        assert_eq!(boards[6], "..X../..X../OOXX./..O../.....");
    }

    #[test]
    fn multi_word_lines_push_and_fall_off() {
        for n in [7, 8, 9, 63, 64, 65, 127, 128, 130] {
            let mut b = Board::new(n, true).unwrap();
            let mut number = 0u64;
            for edge in Edge::ALL {
                for k in 0..(n + 3) {
                    number += 1;
                    let index = if k % 3 == 0 { 1 } else { (k % n) as u32 + 1 };
                    b.play(Move::new(edge, index), Colour::of_move(number))
                        .unwrap();
                }
                check_invariants(&b);
            }
        }
    }

    /// Straights in lines of every tile and line-mask word (lines 64 and beyond live in word
    /// 1 and up): X fills the last row (column), O the first, one marker each per move.
    #[test]
    fn straights_in_every_counter_word() {
        for n in [3, 64, 65, 100, 130] {
            for (x_line, o_line) in [
                (Move::new(Edge::Left, n as u32), Move::new(Edge::Right, 1)),
                (Move::new(Edge::Bottom, n as u32), Move::new(Edge::Top, 1)),
            ] {
                let mut b = Board::new(n, true).unwrap();
                for i in 0..n {
                    b.play(x_line, Colour::X).unwrap();
                    b.play(o_line, Colour::O).unwrap();
                    check_invariants(&b);
                    let full = (i + 1 == n) as u32;
                    assert_eq!(b.straights(), (full, full), "n={n} after {} pairs", i + 1);
                }
            }
        }
    }

    /// Every status change on random games of every size class, with the invariants checked
    /// after each move: lines fill, mix, become straights and stop being straights (the
    /// palette of three lines per edge makes straights common), in both orientations.
    #[test]
    fn statuses_follow_random_games() {
        use crate::random::Entropy;
        let mut rng = crate::random::Rng::new(7);
        let mut seen = [0u32; 3];
        for n in [1, 2, 3, 5, 8, 9, 16, 17, 70] {
            for game in 0..6 {
                let mut b = Board::new(n, game % 2 == 0).unwrap();
                let palette: Vec<u32> = (0..3).map(|_| 1 + rng.below(n as u64) as u32).collect();
                for number in 1..=(3 * n * n + 20) as u64 {
                    let edge = Edge::ALL[rng.below(4) as usize];
                    let index = palette[rng.below(3) as usize];
                    b.play(Move::new(edge, index), Colour::of_move(number))
                        .unwrap();
                    if n <= 17 || number % 97 == 0 {
                        check_invariants(&b);
                    }
                    for l in b.rows.iter().chain(&b.cols) {
                        seen[match l {
                            Line::Open { .. } => 0,
                            Line::Mixed { .. } => 1,
                            Line::Straight(_) => 2,
                        }] += 1;
                    }
                }
                check_invariants(&b);
            }
        }
        assert!(
            seen[0] > 1000 && seen[1] > 1000 && seen[2] > 200,
            "{seen:?}"
        );
    }

    /// The largest board: two rows of 512 tiles filled to straights from opposite ends, then
    /// one of them broken by a push of the other colour; spot checks instead of the full
    /// invariants (16 million squares).
    #[test]
    fn the_largest_board_fills_rows_and_counts_their_straights() {
        let n = MAX_N;
        let last = n as u32;
        let mut b = Board::new(n, true).unwrap();
        for i in 0..n {
            b.play(Move::new(Edge::Left, last), Colour::X).unwrap();
            b.play(Move::new(Edge::Right, 1), Colour::O).unwrap();
            let full = (i + 1 == n) as u32;
            assert_eq!(b.straights(), (full, full), "after {} pairs", i + 1);
        }
        assert_eq!(b.rows[n - 1], Line::Straight(Colour::X));
        assert_eq!(b.rows[0], Line::Straight(Colour::O));
        assert!(matches!(b.cols[n / 2], Line::Open { .. }));
        // X pushes its own straight along: nothing changes; O breaks it.
        b.play(Move::new(Edge::Left, last), Colour::X).unwrap();
        assert_eq!(b.straights(), (1, 1));
        b.play(Move::new(Edge::Left, last), Colour::O).unwrap();
        assert_eq!(b.straights(), (0, 1));
        assert_eq!(b.get(n - 1, 0), Some(Colour::O));
        assert_eq!(b.get(n - 1, n - 1), Some(Colour::X));
        assert_eq!(b.get(n / 2, n / 2), None);
    }

    #[test]
    fn sizes_are_checked() {
        assert_eq!(Board::new(0, false).unwrap_err(), SizeError(0));
        assert!(Board::new(MAX_N, false).is_ok());
        assert!(Board::new(MAX_N + 1, false).is_err());
        let mut b = Board::new(3, false).unwrap();
        assert!(b.play(Move::new(Edge::Left, 4), Colour::X).is_err());
        assert!(b.play(Move::new(Edge::Left, 0), Colour::X).is_err());
    }
}
