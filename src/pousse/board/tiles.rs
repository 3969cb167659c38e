//! The tiles of a plane: the hash keys of their contents, and how a line lies in them (its
//! *lanes*, see the [board's indexing](super)).

use crate::util::hash::mix64;

/// The hash contribution of tile `tile` of the X plane holding `bits`.
#[inline]
pub(super) fn tile_key(tile: usize, bits: u64) -> u64 {
    mix64(bits ^ (tile as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// The hash contribution of an occupied square (row-major index).
#[inline]
pub(super) fn occupied_key(square: usize) -> u64 {
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
pub(super) struct Lanes {
    first: usize,
    pub(super) step: usize,
    base: u32,
    stride: u32,
}

impl Lanes {
    #[inline(always)]
    pub(super) fn of(rows: bool, t: usize, line: usize) -> Lanes {
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
    pub(super) fn tile(&self, k: usize) -> usize {
        self.first + k * self.step
    }

    /// The lane bits of the positions in `byte` (bit q = position q of a tile).
    #[inline(always)]
    pub(super) fn spread(&self, byte: u64) -> u64 {
        if self.stride == 1 {
            byte << self.base
        } else {
            COLUMN_BITS[byte as usize] << self.base
        }
    }

    /// The lane of `tile` as a byte (bit q = position q of the tile).
    #[inline(always)]
    pub(super) fn gather(&self, tile: u64) -> u64 {
        if self.stride == 1 {
            (tile >> self.base) & 0xFF
        } else {
            tile_column(tile, self.base)
        }
    }

    /// The bit of tile-position `q`.
    #[inline(always)]
    pub(super) fn bit(&self, q: usize) -> u32 {
        self.base + q as u32 * self.stride
    }

    /// The crossing line through lane bit `bit` of a tile: its index within the tile (a column
    /// of a row's tile, a row of a column's tile).
    #[inline(always)]
    pub(super) fn position_across(&self, bit: u32) -> usize {
        if self.stride == 1 {
            (bit % 8) as usize
        } else {
            (bit / 8) as usize
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
