//! The general Pousse board (every size up to [`MAX_N`]) as 8 x 8 tiles of bits.
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
//! The board is cut into `t x t` *tiles* of 8 x 8 squares, `t = 8 * ceil(n / 64)` (a whole
//! number of line-mask words, see below; the tiles past the board stay empty). Tile
//! `(tr, tc)` is word `tr * t + tc` of each plane, and square `(r, c)` is bit
//! `8 * (r % 8) + c % 8` of tile `(r / 8, c / 8)`:
//!
//! ```text
//!   one tile (bit numbers)      byte k of a tile  = 8 squares of one row
//!    0  1  2  3  4  5  6  7     bit j of each byte = 8 squares of one column
//!    8  9 10 11 12 13 14 15
//!   ...
//!   56 57 58 59 60 61 62 63
//! ```
//!
//! Two planes: `occ` (the square holds a marker) and `x` (the marker is X); a square is O
//! when it is occupied and not X. Bits of squares outside the board are always zero.
//!
//! A *line* is a row or a column. A push reads and writes the pushed line as a *line mask*
//! of `words = ceil(n / 64)` words, bit `k` of word `w` being square `64 w + k` along the
//! line: for a row, one byte from each tile of its tile row; for a column, one bit column
//! from each tile of its tile column, gathered (and spread back) by a multiplication. So a
//! push costs a load and a store per tile it touches, in either orientation, and nothing per
//! square; there is no second copy of the board to keep in step.
//!
//! # Invariants
//!
//! For each orientation ([`Lines`] `rows` and `cols`), for every line `l`:
//! - `filled[l]` is its number of occupied squares, and bit `l` of `full` says it is `n`
//!   (occupancy only grows, so a full line stays full);
//! - its number of X is held *bit-sliced*: plane `p` of `x_count` is a bitboard over the
//!   lines (line `l` is bit `l % 64` of word `l / 64`) holding bit `p` of each line's count;
//! - `full_x` / `full_o` are the lines of `n` X / of `n` O (a full line without X), and
//!   `straights[X]` / `straights[O]` their totals over both orientations.
//!
//! When hashing is on, `hash` is the XOR of `tile_key(i, x[i]) ^ tile_key(i, 0)` over the
//! tiles `i` and of `occupied_key(square)` over the occupied squares (row-major index).

use super::{BoardRepr, Colour, Edge, Move};

/// The largest board size the engine judges; larger sizes are refused with a clear error.
pub const MAX_N: usize = 4096;

/// SplitMix64's finalizer: a bijective mixer of 64-bit values.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

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

/// The tile index and the bit of square (`row`, `col`) on a board of `t` tiles per side.
#[inline]
fn square_tile(t: usize, row: usize, col: usize) -> (usize, u64) {
    ((row / 8) * t + col / 8, 1 << (8 * (row % 8) + col % 8))
}

/// Bit 0 of every byte: column 0 of a tile.
const TILE_COLUMN_0: u64 = 0x0101_0101_0101_0101;

/// Column `j` of a tile (bits `j, j + 8, ..., j + 56`) as a byte, the tile's row 0 in bit 0.
#[inline]
fn tile_column(tile: u64, j: usize) -> u64 {
    // Bit 8k times the multiplier's byte m (= 2^(7 - m)) lands on bit 8(k + m) + 7 - m; all
    // those positions differ, so there are no carries, and k + m = 7 puts bit 8k on 56 + k.
    (((tile >> j) & TILE_COLUMN_0).wrapping_mul(0x0102_0408_1020_4080)) >> 56
}

/// The inverse of [`tile_column`]: bit `k` of `byte` (< 256) to bit `8k + j`.
#[inline]
fn column_bits(byte: u64, j: usize) -> u64 {
    // Bits 0..=6: bit k times 2^(7m) lands on k + 7m; those positions differ for k <= 6, and
    // the multiples of 8 among them are m = k. Bit 7 would collide (7 + 0 = 0 + 7): moved alone.
    let low = ((byte & 0x7F).wrapping_mul(0x0002_0408_1020_4081)) & TILE_COLUMN_0;
    (low | ((byte >> 7) << 56)) << j
}

/// Where word `w` of line `line`'s mask lives: the index of its first tile and the step to
/// the next of its 8 tiles; the line is a row when `ROWS`, else a column, and `t` is the
/// number of tiles per side.
#[inline(always)]
fn word_tiles<const ROWS: bool>(t: usize, line: usize, w: usize) -> (usize, usize) {
    let (outer, first) = (line / 8, 8 * w);
    if ROWS {
        (outer * t + first, 1)
    } else {
        (first * t + outer, t)
    }
}

/// Word `w` of the line mask of line `line` of `plane` (see [`word_tiles`]).
#[inline(always)]
fn load_word<const ROWS: bool>(plane: &[u64], t: usize, line: usize, w: usize) -> u64 {
    let (mut i, step) = word_tiles::<ROWS>(t, line, w);
    let inner = line % 8;
    let mut word = 0;
    for k in 0..8 {
        let tile = plane[i];
        let byte = if ROWS {
            (tile >> (8 * inner)) & 0xFF
        } else {
            tile_column(tile, inner)
        };
        word |= byte << (8 * k);
        i += step;
    }
    word
}

/// Writes `word` as word `w` of the line mask of line `line` of `plane` (see [`word_tiles`]);
/// returns the change of the hash when `HASH` (else 0).
#[inline(always)]
fn store_word<const ROWS: bool, const HASH: bool>(
    plane: &mut [u64],
    t: usize,
    line: usize,
    w: usize,
    word: u64,
) -> u64 {
    let (mut i, step) = word_tiles::<ROWS>(t, line, w);
    let inner = line % 8;
    let keep = if ROWS {
        !(0xFF << (8 * inner))
    } else {
        !(TILE_COLUMN_0 << inner)
    };
    let mut delta = 0;
    for k in 0..8 {
        let byte = (word >> (8 * k)) & 0xFF;
        let bits = if ROWS {
            byte << (8 * inner)
        } else {
            column_bits(byte, inner)
        };
        let old = plane[i];
        let new = (old & keep) | bits;
        plane[i] = new;
        if HASH {
            delta ^= tile_key(i, old) ^ tile_key(i, new);
        }
        i += step;
    }
    delta
}

/// One orientation's per-line counts (all rows, or all columns).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lines {
    /// Occupied squares per line.
    filled: Vec<u32>,
    /// Lines with no empty square (one bit per line).
    full: Vec<u64>,
    /// X squares per line.
    x_count: Counters,
    /// Lines full of X.
    full_x: Vec<u64>,
    /// Lines full of O.
    full_o: Vec<u64>,
}

impl Lines {
    fn new(n: usize, words: usize) -> Lines {
        Lines {
            filled: vec![0; n],
            full: vec![0; words],
            x_count: Counters::new(n, words),
            full_x: vec![0; words],
            full_o: vec![0; words],
        }
    }

    /// Counts one more occupied square in line `line`.
    #[inline]
    fn fill(&mut self, line: usize, n: usize) {
        self.filled[line] += 1;
        if self.filled[line] as usize == n {
            self.full[line / 64] |= 1 << (line % 64);
        }
    }
}

/// Bit-sliced counters, one per line: line `l` is lane `l % 64` of word `l / 64`, and word
/// `w`'s planes are `planes[w * depth..(w + 1) * depth]`, plane `p` holding bit `p` of each of
/// its 64 lanes' counts. `depth` is the bit length of `n`, so every count in `0..=n` fits.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Counters {
    depth: usize,
    planes: Vec<u64>,
}

impl Counters {
    fn new(n: usize, words: usize) -> Counters {
        let depth = (usize::BITS - n.leading_zeros()) as usize;
        Counters {
            depth,
            planes: vec![0; depth * words],
        }
    }

    /// The planes of word `w`.
    #[inline]
    fn word(&self, w: usize) -> &[u64] {
        &self.planes[w * self.depth..(w + 1) * self.depth]
    }

    /// Adds 1 to the lanes `up` and subtracts 1 from the lanes `down` (disjoint) of word `w`,
    /// one ripple for both. No count leaves `0..=n`.
    #[inline]
    fn add(&mut self, w: usize, up: u64, down: u64) {
        let depth = self.depth;
        let (mut carry, mut borrow) = (up, down);
        for plane in &mut self.planes[w * depth..(w + 1) * depth] {
            if carry | borrow == 0 {
                break;
            }
            let old = *plane;
            *plane = old ^ (carry | borrow);
            carry &= old;
            borrow &= !old;
        }
    }

    /// The lanes of word `w` whose count is `value`, which has its top bit in the top plane
    /// (the board size), so only lanes whose top plane is set can qualify: on typical boards
    /// (lines about half full of each colour) there are none, and the other planes are not
    /// read.
    #[inline]
    fn equal(&self, w: usize, value: usize) -> u64 {
        let planes = self.word(w);
        let top = planes.len() - 1;
        let mut eq = planes[top];
        if eq == 0 {
            return 0;
        }
        for (p, &plane) in planes[..top].iter().enumerate() {
            eq &= if (value >> p) & 1 == 1 { plane } else { !plane };
        }
        eq
    }

    /// The lanes among `among` (of word `w`) whose count is zero. Planes are read from the top
    /// down and the scan stops once no candidate is left: on typical boards (counts near
    /// n / 2) that is after two or three planes.
    #[inline]
    fn zero(&self, w: usize, among: u64) -> u64 {
        let mut zero = among;
        for &plane in self.word(w).iter().rev() {
            if zero == 0 {
                break;
            }
            zero &= !plane;
        }
        zero
    }

    /// The count of line `line`.
    #[cfg(test)]
    fn get(&self, line: usize) -> u32 {
        let lane = line % 64;
        (self.word(line / 64).iter().enumerate())
            .map(|(p, plane)| ((plane >> lane) as u32 & 1) << p)
            .sum()
    }
}

/// A board of size `n` that is too large (or zero).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("board size {0} is outside 1..={MAX_N}")]
pub struct SizeError(pub usize);

/// An N x N Pousse board.
#[derive(Clone, Debug)]
pub struct Board {
    n: usize,
    /// Tiles per side.
    t: usize,
    /// Words per line mask.
    words: usize,
    occ: Vec<u64>,
    x: Vec<u64>,
    rows: Lines,
    cols: Lines,
    straights: [u32; 2],
    hashing: bool,
    hash: u64,
    /// The pushed line's X mask before the push (scratch space, `words` long).
    old_x: Vec<u64>,
}

/// A move whose index is outside `1..=n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {0} is outside the board")]
pub struct IllegalMove(pub Move);

impl Board {
    /// An empty board of size `n` (1..=[`MAX_N`]); `hashing` turns on the hash.
    pub fn new(n: usize, hashing: bool) -> Result<Board, SizeError> {
        if n == 0 || n > MAX_N {
            return Err(SizeError(n));
        }
        let words = n.div_ceil(64);
        let t = 8 * words;
        Ok(Board {
            n,
            t,
            words,
            occ: vec![0; t * t],
            x: vec![0; t * t],
            rows: Lines::new(n, words),
            cols: Lines::new(n, words),
            straights: [0, 0],
            hashing,
            hash: 0,
            old_x: vec![0; words],
        })
    }

    /// The contents of square (`row`, `col`), both 0-based.
    pub fn get(&self, row: usize, col: usize) -> Option<Colour> {
        let (i, bit) = square_tile(self.t, row, col);
        if self.occ[i] & bit == 0 {
            None
        } else if self.x[i] & bit != 0 {
            Some(Colour::X)
        } else {
            Some(Colour::O)
        }
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
        self.n == other.n && self.occ == other.occ && self.x == other.x
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
        let mover_x = mover == Colour::X;
        match mv.edge {
            Edge::Left => self.push::<true, HASH>(line, true, mover_x),
            Edge::Right => self.push::<true, HASH>(line, false, mover_x),
            Edge::Top => self.push::<false, HASH>(line, true, mover_x),
            Edge::Bottom => self.push::<false, HASH>(line, false, mover_x),
        }
    }

    /// Mask of the squares of word `w` of a line mask that are on the board.
    #[inline]
    fn valid(&self, w: usize) -> u64 {
        if w + 1 == self.words && self.n % 64 != 0 {
            (1u64 << (self.n % 64)) - 1
        } else {
            !0
        }
    }

    /// Inserts a marker into line `line` (a row when `ROWS`, else a column) at square 0 when
    /// `from_start`, else at square `n - 1`, shifting the segment up to the first empty square
    /// (or the whole line, whose far end falls off). The hash is maintained when `HASH`.
    #[inline]
    fn push<const ROWS: bool, const HASH: bool>(
        &mut self,
        line: usize,
        from_start: bool,
        mover_x: bool,
    ) {
        let (n, t, words) = (self.n, self.t, self.words);
        let own_full = if ROWS {
            &self.rows.full
        } else {
            &self.cols.full
        };
        let line_is_full = own_full[line / 64] & (1 << (line % 64)) != 0;
        // The segment lo..=hi that shifts, and the empty square it fills (if any).
        let (lo, hi, empty) = if line_is_full {
            (0, n - 1, None)
        } else if from_start {
            let mut w = 0;
            let end = loop {
                let free = !load_word::<ROWS>(&self.occ, t, line, w) & self.valid(w);
                if free != 0 {
                    break w * 64 + free.trailing_zeros() as usize;
                }
                w += 1;
            };
            (0, end, Some(end))
        } else {
            let mut w = words - 1;
            let start = loop {
                let free = !load_word::<ROWS>(&self.occ, t, line, w) & self.valid(w);
                if free != 0 {
                    break w * 64 + 63 - free.leading_zeros() as usize;
                }
                w -= 1;
            };
            (start, n - 1, Some(start))
        };
        let (first_word, last_word) = (lo / 64, hi / 64);
        for w in first_word..=last_word {
            self.old_x[w] = load_word::<ROWS>(&self.x, t, line, w);
        }
        let mover_bit = mover_x as u64;
        let (own, cross) = if ROWS {
            (&mut self.rows, &mut self.cols)
        } else {
            (&mut self.cols, &mut self.rows)
        };
        for w in first_word..=last_word {
            let old = self.old_x[w];
            let low = if w == first_word {
                !0u64 << (lo % 64)
            } else {
                !0
            };
            let high = if w == last_word {
                (2u64 << (hi % 64)).wrapping_sub(1)
            } else {
                !0
            };
            let seg = low & high;
            let new = if from_start {
                let carry = if w == 0 {
                    mover_bit
                } else {
                    self.old_x[w - 1] >> 63
                };
                (old & !seg) | (((old << 1) | carry) & seg)
            } else {
                let carry = if w + 1 == words {
                    mover_bit << ((n - 1) % 64)
                } else {
                    self.old_x[w + 1] << 63
                };
                (old & !seg) | (((old >> 1) | carry) & seg)
            };
            if new != old {
                self.hash ^= store_word::<ROWS, HASH>(&mut self.x, t, line, w, new);
                // Square 64w + b of the line lies on crossing line 64w + b: lane b of word w.
                cross.x_count.add(w, new & !old, old & !new);
            }
        }
        // The pushed line's own X count: the marker that entered, minus the one that fell off.
        let fell_x = if !line_is_full {
            false
        } else if from_start {
            (self.old_x[words - 1] >> ((n - 1) % 64)) & 1 == 1
        } else {
            self.old_x[0] & 1 == 1
        };
        let (own_word, own_bit) = (line / 64, 1u64 << (line % 64));
        if mover_x != fell_x {
            let (up, down) = if mover_x { (own_bit, 0) } else { (0, own_bit) };
            own.x_count.add(own_word, up, down);
        }
        if let Some(square) = empty {
            own.fill(line, n);
            cross.fill(square, n);
            let (row, col) = if ROWS { (line, square) } else { (square, line) };
            let (i, bit) = square_tile(t, row, col);
            self.occ[i] |= bit;
            if HASH {
                self.hash ^= occupied_key(row * n + col);
            }
        }
        refresh_full(own, &mut self.straights, n, own_word);
        for w in first_word..=last_word {
            refresh_full(cross, &mut self.straights, n, w);
        }
    }
}

/// Recomputes which lines of counter word `w` are straights, adjusting the totals.
#[inline(always)]
fn refresh_full(lines: &mut Lines, straights: &mut [u32; 2], n: usize, w: usize) {
    let full = lines.full[w];
    if full == 0 {
        // Straights are full lines.
        return;
    }
    let full_x = lines.x_count.equal(w, n);
    let full_o = lines.x_count.zero(w, full);
    let (old_x, old_o) = (lines.full_x[w], lines.full_o[w]);
    if (full_x ^ old_x) | (full_o ^ old_o) != 0 {
        straights[0] = straights[0] + full_x.count_ones() - old_x.count_ones();
        straights[1] = straights[1] + full_o.count_ones() - old_o.count_ones();
        lines.full_x[w] = full_x;
        lines.full_o[w] = full_o;
    }
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

    /// Recomputes the counts, straights and hash from the squares, and checks that squares
    /// outside the board are empty.
    fn check_invariants(b: &Board) {
        let n = b.n;
        let mut hash = 0;
        for (i, (&x, &occ)) in b.x.iter().zip(&b.occ).enumerate() {
            assert_eq!(x & !occ, 0, "an X square is not occupied in tile {i}");
            hash ^= tile_key(i, x) ^ tile_key(i, 0);
            let (tr, tc) = (i / b.t, i % b.t);
            for bit in 0..64 {
                let (r, c) = (8 * tr + bit / 8, 8 * tc + bit % 8);
                if r >= n || c >= n {
                    assert_eq!(occ >> bit & 1, 0, "square {r},{c} is outside the board");
                }
            }
        }
        for r in 0..n {
            for c in 0..n {
                if b.get(r, c).is_some() {
                    hash ^= occupied_key(r * n + c);
                }
            }
        }
        let mut x_straights = 0;
        let mut o_straights = 0;
        for l in 0..n {
            let row: Vec<_> = (0..n).map(|c| b.get(l, c)).collect();
            let col: Vec<_> = (0..n).map(|r| b.get(r, l)).collect();
            for (cells, lines) in [(&row, &b.rows), (&col, &b.cols)] {
                let xs = cells.iter().filter(|v| **v == Some(Colour::X)).count() as u32;
                let os = cells.iter().filter(|v| **v == Some(Colour::O)).count() as u32;
                let (w, bit) = (l / 64, 1u64 << (l % 64));
                let count = lines.x_count.get(l);
                let rows = std::ptr::eq(lines, &b.rows);
                assert_eq!(count, xs, "n={n} line {l} rows? {rows}");
                assert_eq!(lines.filled[l], xs + os, "n={n} line {l} rows? {rows}");
                assert_eq!(lines.full[w] & bit != 0, xs + os == n as u32);
                assert_eq!(lines.full_x[w] & bit != 0, xs == n as u32);
                assert_eq!(lines.full_o[w] & bit != 0, os == n as u32);
                x_straights += (xs == n as u32) as u32;
                o_straights += (os == n as u32) as u32;
            }
        }
        assert_eq!(b.straights(), (x_straights, o_straights));
        if b.hashing {
            assert_eq!(b.hash, hash);
        }
        let mut copy = Board::new(n, false).unwrap();
        copy.x = b.x.clone();
        copy.occ = b.occ.clone();
        assert!(copy.same_contents(b));
    }

    #[test]
    fn tile_columns_gather_and_spread() {
        for byte in 0..256u64 {
            for j in 0..8 {
                let bits = column_bits(byte, j);
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
        for n in [63, 64, 65, 127, 128, 130] {
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

    /// Straights in lines of every counter word (lines 64 and beyond live in word 1 and
    /// up): X fills the last row (column), O the first, one marker each per move.
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
