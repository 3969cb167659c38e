//! Boards of size at most 8, each colour in one 64-bit word.
//!
//! # Square indexing
//!
//! ```text
//!              column c (0-based)
//!            0  1  2  3  4  5  6  7
//!   row 0    0  1  2  3  4  5  6  7      bit 8r + c holds square (r, c);
//!   row 1    8  9 10 11 12 13 14 15      rows and columns >= n are unused
//!   ...                                  (their bits are always zero)
//!   row 7   56 57 58 59 60 61 62 63
//! ```
//!
//! Rows are bytes, so a row push shifts by 1 bit and a column push by 8 bits, both within the
//! mask of the pushed segment; the whole move is a handful of word operations with no loop.
//! The straight counts are recomputed after each move with word-parallel AND reductions
//! (about 40 operations), and the contents `(x, o)` are the configuration itself, so the
//! repetition key is exact.
//!
//! Invariants: `x & o == 0`, and neither has a bit outside the `n` x `n` square.

use super::{BoardRepr, Colour, Edge, Move};
use crate::util::hash::mix64;

const _: () = assert!(
    Edge::Left as usize == 0
        && Edge::Right as usize == 1
        && Edge::Top as usize == 2
        && Edge::Bottom as usize == 3,
    "SmallBoard::PUSHES is indexed by `edge as usize`"
);

/// The largest size [`SmallBoard`] holds.
pub const SMALL_MAX_N: usize = 8;

/// The bits of row 0 (one per column).
const ROW0: u64 = 0xFF;
/// The bits of column 0 (one per row).
const COL0: u64 = 0x0101_0101_0101_0101;

/// What a push into one line needs, precomputed per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Push {
    /// The squares of the line.
    line: u64,
    /// The square the marker enters.
    entry: u64,
    /// How far the contents rotate left: 1 (`L`), 8 (`T`), 63 (`R`), 56 (`B`). Bits wrapped
    /// around by the rotation can only land on `entry`, which is masked out.
    rotate: u32,
    /// Whether markers move towards higher bits (`L`, `T`).
    up: bool,
}

/// An `N` x `N` board, `N <= 8`, as two bitboards. The size is a constant, so every mask,
/// shift and table below is a compile-time constant of the monomorphised code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmallBoard<const N: usize> {
    x: u64,
    o: u64,
}

/// The bits of `v` that start `len` consecutive set bits at stride `step`, where
/// `shifts = run_shifts(len)` multiplied by `step`.
#[inline(always)]
fn runs(v: u64, shifts: [u32; 3]) -> u64 {
    let mut t = v;
    for s in shifts {
        t &= t >> s;
    }
    t
}

/// Shifts (in units of the stride) for [`runs`]: doubling runs of 1, 2, 4 set bits and a last
/// overlapping step to reach `len`; unused steps are 0 (no-ops). For `len <= 8` three suffice.
const fn run_shifts(len: u32, step: u32) -> [u32; 3] {
    let mut shifts = [0; 3];
    let mut have = 1;
    let mut k = 0;
    while have * 2 <= len {
        shifts[k] = have * step;
        have *= 2;
        k += 1;
    }
    if have < len {
        shifts[k] = (len - have) * step;
    }
    shifts
}

/// A push into `line` entering at `entry`, the contents rotating left by `rotate` (below 32:
/// markers move towards higher bits, `L` and `T`).
const fn push(line: u64, entry: u64, rotate: u32) -> Push {
    Push {
        line,
        entry,
        rotate,
        up: rotate < 32,
    }
}

/// The push table of size `n`: `[edge][index - 1]`, indexed like [`Edge::ALL`].
const fn pushes(n: usize) -> [[Push; SMALL_MAX_N]; 4] {
    let none = Push {
        line: 0,
        entry: 0,
        rotate: 0,
        up: true,
    };
    let mut table = [[none; SMALL_MAX_N]; 4];
    let (row0, col0) = (ROW0 >> (8 - n), COL0 >> (8 * (8 - n)));
    let last = n - 1;
    let mut i = 0;
    while i < n {
        let (row, col) = (row0 << (8 * i), col0 << i);
        table[0][i] = push(row, 1 << (8 * i), 1);
        table[1][i] = push(row, 1 << (8 * i + last), 63);
        table[2][i] = push(col, 1 << i, 8);
        table[3][i] = push(col, 1 << (8 * last + i), 56);
        i += 1;
    }
    table
}

impl<const N: usize> SmallBoard<N> {
    /// The squares of row 0 that are on the board (`N` low bits).
    const ROW0: u64 = ROW0 >> (8 - N);
    /// The squares of column 0 that are on the board (bits `8r`, `r < N`).
    const COL0: u64 = COL0 >> (8 * (8 - N));
    const ROW_RUNS: [u32; 3] = run_shifts(N as u32, 1);
    const COL_RUNS: [u32; 3] = run_shifts(N as u32, 8);
    const PUSHES: [[Push; SMALL_MAX_N]; 4] = pushes(N);

    /// An empty board.
    pub fn new() -> SmallBoard<N> {
        const { assert!(N >= 1 && N <= SMALL_MAX_N, "SmallBoard holds sizes 1..=8") };
        SmallBoard { x: 0, o: 0 }
    }

    /// The contents of square (`row`, `col`), both 0-based.
    pub fn get(&self, row: usize, col: usize) -> Option<Colour> {
        let bit = 1u64 << (8 * row + col);
        if self.x & bit != 0 {
            Some(Colour::X)
        } else if self.o & bit != 0 {
            Some(Colour::O)
        } else {
            None
        }
    }

    /// Plays `mv` for `mover` without checking the index.
    ///
    /// The caller guarantees `1 <= mv.index <= n` (the parser does); an index outside `1..=8`
    /// panics on the table bound, and one in `n+1..=8` corrupts this board.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move, mover: Colour) {
        let p = Self::PUSHES[mv.edge as usize][mv.index as usize - 1];
        let free = !(self.x | self.o) & p.line;
        // The pushed segment: from the entry to the first empty square, or the whole line
        // (whose far square then falls off). Both forms are branch-free and give the whole
        // line when `free` is 0.
        let lowest_free = free & free.wrapping_neg();
        let up_to_free = lowest_free.wrapping_shl(1).wrapping_sub(1);
        let from_free = !0u64 << (63 - (free | 1).leading_zeros());
        let seg = p.line & if p.up { up_to_free } else { from_free };
        let keep = !seg;
        let moving = seg & !p.entry;
        let x = (self.x & keep) | (self.x.rotate_left(p.rotate) & moving);
        let o = (self.o & keep) | (self.o.rotate_left(p.rotate) & moving);
        let x_entry = if mover == Colour::X { p.entry } else { 0 };
        self.x = x | x_entry;
        self.o = o | (p.entry ^ x_entry);
    }

    /// The numbers of straights (full lines) of X and of O.
    #[inline]
    pub fn straights(&self) -> (u32, u32) {
        let count = |v: u64| {
            (runs(v, Self::ROW_RUNS) & Self::COL0).count_ones()
                + (runs(v, Self::COL_RUNS) & Self::ROW0).count_ones()
        };
        (count(self.x), count(self.o))
    }
}

impl<const N: usize> Default for SmallBoard<N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const N: usize> BoardRepr for SmallBoard<N> {
    fn empty(n: usize, _hashing: bool) -> SmallBoard<N> {
        assert_eq!(n, N, "board size");
        SmallBoard::new()
    }
    #[inline]
    fn play_unchecked(&mut self, mv: Move, mover: Colour) {
        SmallBoard::play_unchecked(self, mv, mover)
    }
    #[inline]
    fn straights(&self) -> (u32, u32) {
        SmallBoard::straights(self)
    }
    /// Not mixed a second time: the only user, the game's configuration key, mixes it (with
    /// the side to move) anyway; two boards with the same `o` and different `x` never collide.
    #[inline]
    fn contents_hash(&self) -> u64 {
        self.x ^ mix64(self.o)
    }
    fn same_contents(&self, other: &SmallBoard<N>) -> bool {
        (self.x, self.o) == (other.x, other.o)
    }
    fn markers(&self) -> u32 {
        (self.x | self.o).count_ones()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pousse::Board;

    /// Plays the same moves on the small board and the general board; every square and both
    /// straight counts must agree after every move, for every size and edge case the random
    /// walk reaches (full lines falling off, pushes from every edge).
    fn agrees_with_the_general_board<const N: usize>() {
        let mut state = 0x1234_5678_u64;
        let all = SmallBoard::<N>::ROW0 * SmallBoard::<N>::COL0;
        for game in 0..40 {
            let mut small = SmallBoard::<N>::new();
            let mut general = Board::new(N, false).unwrap();
            for k in 1..=300u64 {
                state = mix64(state.wrapping_add(k + game));
                let edge = Edge::ALL[(state % 4) as usize];
                // Bias towards few lines so that lines fill up and markers fall off.
                let index = 1 + ((state >> 8) % (N as u64).min(1 + game % 3)) as u32;
                let mv = Move::new(edge, index);
                small.play_unchecked(mv, Colour::of_move(k));
                general.play(mv, Colour::of_move(k)).unwrap();
                for r in 0..N {
                    for c in 0..N {
                        assert_eq!(small.get(r, c), general.get(r, c), "n={N} move {k}");
                    }
                }
                assert_eq!(small.straights(), general.straights(), "n={N} move {k}");
                assert_eq!(small.x & small.o, 0);
                assert_eq!((small.x | small.o) & !all, 0);
            }
        }
    }

    /// The caller must ask for the size the type holds; another size is a bug, caught.
    #[test]
    #[should_panic(expected = "board size")]
    fn empty_refuses_another_size() {
        <SmallBoard<4> as BoardRepr>::empty(5, false);
    }

    #[test]
    fn agrees_with_the_general_board_move_by_move() {
        agrees_with_the_general_board::<1>();
        agrees_with_the_general_board::<2>();
        agrees_with_the_general_board::<3>();
        agrees_with_the_general_board::<4>();
        agrees_with_the_general_board::<5>();
        agrees_with_the_general_board::<6>();
        agrees_with_the_general_board::<7>();
        agrees_with_the_general_board::<8>();
    }

    #[test]
    fn runs_finds_full_runs_only() {
        assert_eq!(runs(0b0111_0111, run_shifts(3, 1)) & 0b1_0001, 0b1_0001);
        assert_eq!(runs(0b0110_0111, run_shifts(3, 1)) & 0b1_0001, 0b1);
        for len in 1..=8u32 {
            let shifts = run_shifts(len, 1);
            let row = ROW0 >> (8 - len);
            assert_eq!(runs(COL0 >> (8 * (8 - len)), run_shifts(len, 8)), 1);
            assert_eq!(runs(row, shifts), 1);
            // One square short of the run, wherever the gap is.
            for gap in 0..len {
                assert_eq!(
                    runs(row & !(1 << gap), shifts) & 1,
                    0,
                    "len {len} gap {gap}"
                );
            }
        }
    }
}
