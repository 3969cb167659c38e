//! The LittleSquares engine: rows folded into the grid's Grundy value, band by band.
//!
//! Every 2x2 block lies inside one band of two rows (rows 2k and 2k+1), so the bands are
//! independent games and the grid's value is the XOR of the bands' ([`super::grundy`]). Rows
//! arrive one at a time (from either input form) and are kept as bitmasks of their empty
//! squares, so memory is proportional to the width and time to the grid.

use wide::u8x16;

use super::grundy::run_value;
use super::{Judgement, Winner};

/// The widest row accepted.
pub const MAX_WIDTH: usize = 1 << 20;

/// Folds rows into a grid's Grundy value, band by band, in memory proportional to the width.
///
/// Rows are handled as bitmasks of their empty squares (bit `i % 64` of word `i / 64` is
/// square `i`), so a band of two rows is two ANDs and a walk over the runs of squares empty
/// in both rows, not a walk over the squares.
#[derive(Debug, Default)]
pub struct Fold {
    cols: usize,
    rows: usize,
    empty: u64,
    value: u32,
    /// The top row of an unfinished band (empty squares).
    top: Vec<u64>,
    /// The row being added (scratch, to keep its allocation).
    incoming: Vec<u64>,
}

/// Fills `out` with the empty-square bitmask of `row` (bit `i % 64` of word `i / 64` is set
/// when byte `i` is `.`) and returns whether every byte is `.` or `#`.
///
/// Sixteen bytes per step: two byte compares and a `movemask` (SSE2 through `wide`, which
/// falls back to plain code on other targets), four steps per word of the bitmask; the check
/// accumulates in a vector and is read once per row. The tail of fewer than 16 bytes goes
/// byte by byte.
fn row_squares(row: &[u8], out: &mut Vec<u64>) -> bool {
    let dot = u8x16::from(b'.');
    let hash = u8x16::from(b'#');
    // Lanes stay all ones while every byte seen is a square.
    let mut squares = u8x16::from(u8::MAX);
    let mut sixteen = |bytes: &[u8]| {
        let bytes = u8x16::from(<[u8; 16]>::try_from(bytes).expect("16 bytes"));
        let dots = bytes.simd_eq(dot);
        squares &= dots | bytes.simd_eq(hash);
        u64::from(dots.to_bitmask())
    };
    out.clear();
    let mut words = row.chunks_exact(64);
    out.extend(words.by_ref().map(|word| {
        sixteen(&word[..16])
            | sixteen(&word[16..32]) << 16
            | sixteen(&word[32..48]) << 32
            | sixteen(&word[48..]) << 48
    }));
    let tail = words.remainder();
    let mut squares_only = true;
    if !tail.is_empty() {
        let mut mask = 0u64;
        let mut sixteens = tail.chunks_exact(16);
        for (k, bytes) in sixteens.by_ref().enumerate() {
            mask |= sixteen(bytes) << (16 * k);
        }
        let done = tail.len() / 16 * 16;
        for (i, &b) in sixteens.remainder().iter().enumerate() {
            squares_only &= b == b'.' || b == b'#';
            mask |= u64::from(b == b'.') << (done + i);
        }
        out.push(mask);
    }
    squares_only && squares.to_bitmask() == 0xFFFF
}

/// The XOR of [`run_value`] over the maximal runs of set bits of `bits` (a row's bitmask,
/// runs continuing across words).
///
/// A run starts at a set bit whose lower neighbour is clear and ends at a set bit whose upper
/// neighbour is clear; starts and ends alternate along the row, so the loop pairs the k-th
/// end with the k-th start, one iteration per run and no branch per square. A run still open
/// at a word's end keeps its start in `open`.
fn runs_value(bits: impl Iterator<Item = u64>) -> u32 {
    let mut value = 0u32;
    let mut open: Option<usize> = None;
    let mut below = 0u64; // bit 63 of the previous word, as bit 0
    let mut base = 0usize;
    let mut words = bits.peekable();
    while let Some(word) = words.next() {
        let above = words.peek().map_or(0, |next| next & 1);
        let mut starts = word & !((word << 1) | below);
        let mut ends = word & !((word >> 1) | (above << 63));
        while ends != 0 {
            let end = base + ends.trailing_zeros() as usize;
            let start = open.take().unwrap_or_else(|| {
                let s = base + starts.trailing_zeros() as usize;
                starts &= starts - 1;
                s
            });
            value ^= u32::from(run_value(end + 1 - start));
            ends &= ends - 1;
        }
        if starts != 0 {
            open = Some(base + starts.trailing_zeros() as usize);
        }
        below = word >> 63;
        base += 64;
    }
    value
}

impl Fold {
    /// Adds the next row if it is one: only `.` and `#`, and the grid's width (the first row
    /// sets the width: at least 1, at most [`MAX_WIDTH`]). Returns `false` and leaves the fold
    /// as it was otherwise; the parser then says where the row goes wrong.
    pub fn push_row(&mut self, row: &[u8]) -> bool {
        let width_ok = if self.rows == 0 {
            (1..=MAX_WIDTH).contains(&row.len())
        } else {
            row.len() == self.cols
        };
        if !width_ok || !row_squares(row, &mut self.incoming) {
            return false;
        }
        if self.rows == 0 {
            self.cols = row.len();
        }
        let count = |words: &[u64]| words.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
        self.empty += count(&self.incoming);
        if self.rows.is_multiple_of(2) {
            std::mem::swap(&mut self.top, &mut self.incoming);
        } else {
            // A column with one empty square is a nim heap of 1; runs of columns empty in
            // both rows are the band's games.
            let (top, bottom) = (&self.top, &self.incoming);
            let lone: u32 = top
                .iter()
                .zip(bottom)
                .map(|(t, b)| (t ^ b).count_ones())
                .sum();
            let both = top.iter().zip(bottom).map(|(t, b)| t & b);
            self.value ^= runs_value(both) ^ (lone % 2);
        }
        self.rows += 1;
        true
    }

    /// Whether no row was added.
    pub fn is_empty(&self) -> bool {
        self.rows == 0
    }

    /// The grid's width, set by its first row (`None` before it).
    pub fn width(&self) -> Option<usize> {
        (self.rows > 0).then_some(self.cols)
    }

    /// The judgement for the rows added.
    pub fn finish(mut self) -> Judgement {
        if self.rows % 2 == 1 {
            // A last band of one row: each empty square is a nim heap of 1.
            self.value ^= self.top.iter().map(|w| w.count_ones()).sum::<u32>() % 2;
        }
        Judgement {
            outcome: if self.value != 0 {
                Winner::First
            } else {
                Winner::Second
            },
            rows: self.rows,
            cols: self.cols,
            empty: self.empty,
            within_contest_limits: super::within_contest_limits(self.rows, self.cols),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Bytes drawn mostly from the two squares, sometimes anything.
    fn row_bytes() -> impl Strategy<Value = Vec<u8>> {
        let byte = prop_oneof![8 => Just(b'.'), 8 => Just(b'#'), 1 => any::<u8>()];
        proptest::collection::vec(byte, 0..300)
    }

    proptest! {
        #[test]
        fn row_squares_matches_a_byte_by_byte_reading(row in row_bytes()) {
            let mut out = Vec::new();
            let squares_only = row_squares(&row, &mut out);
            prop_assert_eq!(squares_only, row.iter().all(|&b| b == b'.' || b == b'#'));
            prop_assert_eq!(out.len(), row.len().div_ceil(64));
            for (i, &b) in row.iter().enumerate() {
                prop_assert_eq!(out[i / 64] >> (i % 64) & 1 == 1, b == b'.', "square {}", i);
            }
            for (w, word) in out.iter().enumerate() {
                let used = (row.len() - 64 * w).min(64);
                prop_assert_eq!(word.checked_shr(used as u32).unwrap_or(0), 0);
            }
        }

        #[test]
        fn runs_value_matches_a_walk_over_the_squares(
            words in proptest::collection::vec(
                prop_oneof![Just(0u64), Just(u64::MAX), Just(u64::MAX - 1), Just(1 << 63), any::<u64>()],
                0..6,
            ),
        ) {
            let mut expected = 0u32;
            let mut run = 0;
            for i in 0..64 * words.len() {
                if words[i / 64] >> (i % 64) & 1 == 1 {
                    run += 1;
                } else {
                    expected ^= u32::from(run_value(run));
                    run = 0;
                }
            }
            expected ^= u32::from(run_value(run));
            prop_assert_eq!(runs_value(words.iter().copied()), expected);
        }
    }
}
