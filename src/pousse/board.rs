//! The Pousse board as bitboards, kept in two orientations.
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
//!          3 |   |   |   |   |
//!          +---+---+---+---+
//! ```
//!
//! A *line* is a row or a column. Each line is stored as `words = ceil(n / 64)` 64-bit words;
//! bit `k` of a row's words is column `k`, bit `k` of a column's words is row `k`. Every line
//! has an occupancy bitboard (`occ`) and an X bitboard (`x`); a cell is O when it is occupied
//! and not X. Bits at positions `>= n` are always zero.
//!
//! # Invariants
//!
//! - `rows` and `cols` describe the same board: bit `c` of row `r` equals bit `r` of column `c`,
//!   in both bitboards.
//! - Each orientation keeps, for every line, its numbers of X and of O cells as *bit-sliced*
//!   counters: plane `p` of the X counts is a bitboard over the lines (line `l` is bit `l % 64`
//!   of word `l / 64`) holding bit `p` of each line's X count. `full_x`/`full_o` are the lines
//!   whose count equals `n` (straights), and `straights[X]`/`straights[O]` their totals.
//! - When hashing is on, `hash` is the XOR of [`square_key`] over the occupied squares.
//!
//! A move rewrites the pushed line with word operations (a shift by one of the pushed segment).
//! The squares of one word of the pushed line are the crossing lines of one counter word, so
//! the crossing lines' counts change by word-parallel bit-sliced additions and subtractions
//! of the masks of squares that became or stopped being X (or O), 64 lines at a time. Only
//! the other orientation's bitboards (and the hash) are updated square by square, for the
//! squares whose value changed: never a scan of the board.

use super::{BoardRepr, Colour, Edge, Move};

/// The largest board size the engine judges; larger sizes are refused with a clear error.
pub const MAX_N: usize = 4096;

/// The Zobrist key of an X on square `square` (row-major index).
///
/// Keys are chosen so that a colour flip is one key: an O on a square is keyed
/// `x_key ^ flip_key`, so turning X into O (or back) toggles [`flip_key`] alone.
#[inline]
pub fn x_key(square: usize) -> u64 {
    mix64((square as u64) ^ 0x9E37_79B9_7F4A_7C15)
}

/// The key toggled when the marker on `square` changes colour (see [`x_key`]).
#[inline]
pub fn flip_key(square: usize) -> u64 {
    mix64((square as u64) ^ 0xD1B5_4A32_D192_ED03)
}

/// The Zobrist key of `colour` on `square`.
#[inline]
pub fn square_key(square: usize, colour: Colour) -> u64 {
    match colour {
        Colour::X => x_key(square),
        Colour::O => x_key(square) ^ flip_key(square),
    }
}

/// SplitMix64's finalizer: a bijective mixer of 64-bit values.
#[inline]
pub fn mix64(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// One orientation's lines (all rows, or all columns).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Lines {
    occ: Vec<u64>,
    x: Vec<u64>,
    /// Bit-sliced X counts: `x_count[p * words + w]` holds bit `p` of the counts of lines
    /// `64w..64w + 64`.
    x_count: Vec<u64>,
    /// Bit-sliced O counts, laid out like `x_count`.
    o_count: Vec<u64>,
    /// Lines full of X (one bit per line).
    full_x: Vec<u64>,
    /// Lines full of O.
    full_o: Vec<u64>,
}

impl Lines {
    fn new(n: usize, words: usize, planes: usize) -> Lines {
        Lines {
            occ: vec![0; n * words],
            x: vec![0; n * words],
            x_count: vec![0; planes * words],
            o_count: vec![0; planes * words],
            full_x: vec![0; words],
            full_o: vec![0; words],
        }
    }
}

/// Adds 1 to the bit-sliced counters of word `w` selected by `mask` (no counter overflows:
/// counts never exceed `n`).
#[inline]
fn count_up(planes: &mut [u64], words: usize, w: usize, mut mask: u64) {
    let mut i = w;
    while mask != 0 {
        let carry = planes[i] & mask;
        planes[i] ^= mask;
        mask = carry;
        i += words;
    }
}

/// Subtracts 1 from the bit-sliced counters of word `w` selected by `mask` (none is 0).
#[inline]
fn count_down(planes: &mut [u64], words: usize, w: usize, mut mask: u64) {
    let mut i = w;
    while mask != 0 {
        let borrow = !planes[i] & mask;
        planes[i] ^= mask;
        mask = borrow;
        i += words;
    }
}

/// The counters of word `w` that equal `value`, which has exactly `planes.len() / words`
/// bits with its top bit set (the board size), so only counters whose top plane is set can
/// qualify: on typical boards (lines about half full of each colour) there are none, and the
/// other planes are not read.
#[inline]
fn count_equals(planes: &[u64], words: usize, w: usize, value: usize) -> u64 {
    let top = planes.len() / words - 1;
    let mut eq = planes[top * words + w];
    if eq == 0 {
        return 0;
    }
    for p in 0..top {
        let plane = planes[p * words + w];
        eq &= if (value >> p) & 1 == 1 { plane } else { !plane };
    }
    eq
}

/// Sets the counter of lane `bit` of word `w` to `value`.
#[inline]
fn count_set(planes: &mut [u64], words: usize, w: usize, bit: u64, value: u32) {
    for p in 0..planes.len() / words {
        let plane = &mut planes[p * words + w];
        let lane = bit & (((value >> p) & 1) as u64).wrapping_neg();
        *plane = (*plane & !bit) | lane;
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
    words: usize,
    rows: Lines,
    cols: Lines,
    straights: [u32; 2],
    hashing: bool,
    hash: u64,
}

/// A move whose index is outside `1..=n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("move {0} is outside the board")]
pub struct IllegalMove(pub Move);

impl Board {
    /// An empty board of size `n` (1..=[`MAX_N`]); `hashing` turns on the Zobrist hash.
    pub fn new(n: usize, hashing: bool) -> Result<Board, SizeError> {
        if n == 0 || n > MAX_N {
            return Err(SizeError(n));
        }
        let words = n.div_ceil(64);
        let planes = (usize::BITS - n.leading_zeros()) as usize;
        Ok(Board {
            n,
            words,
            rows: Lines::new(n, words, planes),
            cols: Lines::new(n, words, planes),
            straights: [0, 0],
            hashing,
            hash: 0,
        })
    }

    /// The contents of square (`row`, `col`), both 0-based.
    pub fn get(&self, row: usize, col: usize) -> Option<Colour> {
        let i = row * self.words + col / 64;
        let bit = 1u64 << (col % 64);
        if self.rows.occ[i] & bit == 0 {
            None
        } else if self.rows.x[i] & bit != 0 {
            Some(Colour::X)
        } else {
            Some(Colour::O)
        }
    }

    /// The numbers of straights of X and of O.
    pub fn straights(&self) -> (u32, u32) {
        (self.straights[0], self.straights[1])
    }

    /// The Zobrist hash of the contents (0 when hashing is off).
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Whether two boards have the same contents.
    pub fn same_contents(&self, other: &Board) -> bool {
        self.n == other.n && self.rows.occ == other.rows.occ && self.rows.x == other.rows.x
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
        let line = mv.index as usize - 1;
        let mover_x = mover == Colour::X;
        let mut ctx = Push {
            n: self.n,
            words: self.words,
            straights: &mut self.straights,
            hash: if self.hashing {
                Some(&mut self.hash)
            } else {
                None
            },
        };
        match mv.edge {
            Edge::Left => ctx.push(&mut self.rows, &mut self.cols, line, true, mover_x, true),
            Edge::Right => ctx.push(&mut self.rows, &mut self.cols, line, false, mover_x, true),
            Edge::Top => ctx.push(&mut self.cols, &mut self.rows, line, true, mover_x, false),
            Edge::Bottom => ctx.push(&mut self.cols, &mut self.rows, line, false, mover_x, false),
        }
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

/// The parts of a board a push updates besides the two orientations.
struct Push<'a> {
    n: usize,
    words: usize,
    straights: &'a mut [u32; 2],
    hash: Option<&'a mut u64>,
}

impl Push<'_> {
    /// Mask of the valid bits of word `w` of a line.
    #[inline]
    fn valid(&self, w: usize) -> u64 {
        if w + 1 == self.words && self.n % 64 != 0 {
            (1u64 << (self.n % 64)) - 1
        } else {
            !0
        }
    }

    /// Inserts a marker into line `line` of `main`, at bit 0 when `from_start`, else at bit
    /// `n - 1`, shifting the segment up to the first empty square (or the whole line, whose
    /// far end falls off). `main_is_rows` says which orientation `main` is, for square indices.
    #[inline]
    fn push(
        &mut self,
        main: &mut Lines,
        cross: &mut Lines,
        line: usize,
        from_start: bool,
        mover_x: bool,
        main_is_rows: bool,
    ) {
        let (n, words) = (self.n, self.words);
        let base = line * words;
        let mover_bit = mover_x as u64;
        if from_start {
            // First empty square, else the whole line.
            let mut end = n - 1;
            for w in 0..words {
                let free = !main.occ[base + w] & self.valid(w);
                if free != 0 {
                    end = w * 64 + free.trailing_zeros() as usize;
                    break;
                }
            }
            let last_word = end / 64;
            // High words first, so the carry reads the old value of the word below.
            for w in (0..=last_word).rev() {
                let seg = if w == last_word {
                    (2u64 << (end % 64)).wrapping_sub(1)
                } else {
                    !0
                };
                let old_x = main.x[base + w];
                let old_occ = main.occ[base + w];
                let carry = if w == 0 {
                    mover_bit
                } else {
                    main.x[base + w - 1] >> 63
                };
                let new_x = (old_x & !seg) | (((old_x << 1) | carry) & seg);
                let new_occ = old_occ | seg;
                main.x[base + w] = new_x;
                main.occ[base + w] = new_occ;
                self.changed(cross, main_is_rows, line, w, old_occ, old_x, new_occ, new_x);
            }
        } else {
            let mut start = 0;
            for w in (0..words).rev() {
                let free = !main.occ[base + w] & self.valid(w);
                if free != 0 {
                    start = w * 64 + 63 - free.leading_zeros() as usize;
                    break;
                }
            }
            let first_word = start / 64;
            let top = (n - 1) % 64;
            // Low words first, so the carry reads the old value of the word above.
            for w in first_word..words {
                let seg = if w == first_word {
                    !0u64 << (start % 64)
                } else {
                    !0
                } & self.valid(w);
                let old_x = main.x[base + w];
                let old_occ = main.occ[base + w];
                let carry = if w + 1 == words {
                    mover_bit << top
                } else {
                    main.x[base + w + 1] << 63
                };
                let new_x = (old_x & !seg) | (((old_x >> 1) | carry) & seg);
                let new_occ = old_occ | seg;
                main.x[base + w] = new_x;
                main.occ[base + w] = new_occ;
                self.changed(cross, main_is_rows, line, w, old_occ, old_x, new_occ, new_x);
            }
        }
        // The pushed line's own counts.
        let (mut xs, mut os) = (0, 0);
        for w in 0..words {
            let (occ, x) = (main.occ[base + w], main.x[base + w]);
            xs += x.count_ones();
            os += (occ & !x).count_ones();
        }
        let (w, bit) = (line / 64, 1u64 << (line % 64));
        count_set(&mut main.x_count, words, w, bit, xs);
        count_set(&mut main.o_count, words, w, bit, os);
        self.refresh_full(main, w);
    }

    /// Recomputes which lines of counter word `w` are straights, adjusting the totals.
    #[inline]
    fn refresh_full(&mut self, lines: &mut Lines, w: usize) {
        if lines.full_x[w] | lines.full_o[w] == 0 {
            let top = lines.x_count.len() - self.words + w;
            if lines.x_count[top] | lines.o_count[top] == 0 {
                return;
            }
        }
        let full_x = count_equals(&lines.x_count, self.words, w, self.n);
        let full_o = count_equals(&lines.o_count, self.words, w, self.n);
        let (old_x, old_o) = (lines.full_x[w], lines.full_o[w]);
        if (full_x ^ old_x) | (full_o ^ old_o) != 0 {
            self.straights[0] = self.straights[0] + full_x.count_ones() - old_x.count_ones();
            self.straights[1] = self.straights[1] + full_o.count_ones() - old_o.count_ones();
            lines.full_x[w] = full_x;
            lines.full_o[w] = full_o;
        }
    }

    /// Mirrors the changed squares of word `w` of the pushed line into the cross lines: their
    /// bitboards square by square, their counts word-parallel (square `64w + b` of the pushed
    /// line lies on cross line `64w + b`, lane `b` of counter word `w`).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn changed(
        &mut self,
        cross: &mut Lines,
        main_is_rows: bool,
        line: usize,
        w: usize,
        old_occ: u64,
        old_x: u64,
        new_occ: u64,
        new_x: u64,
    ) {
        let words = self.words;
        let cross_word = line / 64;
        let cross_bit = 1u64 << (line % 64);
        let (old_o, new_o) = (old_occ & !old_x, new_occ & !new_x);
        // Counts, 64 crossing lines at a time.
        count_up(&mut cross.x_count, words, w, new_x & !old_x);
        count_down(&mut cross.x_count, words, w, old_x & !new_x);
        count_up(&mut cross.o_count, words, w, new_o & !old_o);
        count_down(&mut cross.o_count, words, w, old_o & !new_o);
        self.refresh_full(cross, w);
        // The square that was empty (at most one per push).
        let filled = old_occ ^ new_occ;
        let first = w * 64;
        if filled != 0 {
            let b = filled.trailing_zeros() as usize;
            let ci = (first + b) * words + cross_word;
            cross.occ[ci] |= cross_bit;
            if (new_x >> b) & 1 == 1 {
                cross.x[ci] |= cross_bit;
            }
            if let Some(h) = self.hash.as_deref_mut() {
                let sq = if main_is_rows {
                    line * self.n + first + b
                } else {
                    (first + b) * self.n + line
                };
                *h ^= if (new_x >> b) & 1 == 1 {
                    x_key(sq)
                } else {
                    x_key(sq) ^ flip_key(sq)
                };
            }
        }
        // Squares whose marker changed colour.
        let flips = (old_x ^ new_x) & old_occ;
        let last = (first + 64).min(self.n);
        let xs = &mut cross.x[first * words..last * words];
        let mut rest = flips;
        while rest != 0 {
            let b = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            xs[b * words + cross_word] ^= cross_bit;
        }
        if let Some(h) = self.hash.as_deref_mut() {
            let mut delta = 0;
            let mut rest = flips;
            while rest != 0 {
                let b = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                let sq = if main_is_rows {
                    line * self.n + first + b
                } else {
                    (first + b) * self.n + line
                };
                delta ^= flip_key(sq);
            }
            *h ^= delta;
        }
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

    /// Recomputes the cross orientation, counts, straights and hash from the rows.
    fn check_invariants(b: &Board) {
        let n = b.n;
        let mut fresh = Board::new(n, b.hashing).unwrap();
        let mut hash = 0;
        for r in 0..n {
            for c in 0..n {
                let v = b.get(r, c);
                let (i, bit) = (c * b.words + r / 64, 1u64 << (r % 64));
                let col_occ = b.cols.occ[i] & bit != 0;
                let col_x = b.cols.x[i] & bit != 0;
                assert_eq!(col_occ, v.is_some(), "occupancy differs at {r},{c}");
                assert_eq!(col_x, v == Some(Colour::X), "colour differs at {r},{c}");
                if let Some(colour) = v {
                    hash ^= square_key(r * n + c, colour);
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
                let count = |planes: &[u64]| -> u32 {
                    (0..planes.len() / b.words)
                        .map(|p| ((planes[p * b.words + w] & bit != 0) as u32) << p)
                        .sum()
                };
                assert_eq!(
                    (count(&lines.x_count), count(&lines.o_count)),
                    (xs, os),
                    "n={n} line {l} rows? {}",
                    std::ptr::eq(lines, &b.rows)
                );
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
        fresh.rows = b.rows.clone();
        assert!(fresh.same_contents(b));
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
