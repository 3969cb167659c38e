//! Sprague-Grundy values for LittleSquares.
//!
//! Every 2x2 block lies inside one band of two rows (rows 2k and 2k+1), so the bands are
//! independent games and the grid's value is the XOR of the bands'. Inside a band, a column
//! that is not fully empty cuts the band: its single empty square, if any, is a nim heap of
//! size 1, and a run of `L` fully empty columns has value `g(L)`:
//!
//! `g(L) = mex({g(a) ^ g(b) : a + b = L - 2} ∪ {g(a) ^ g(b) ^ 1 : a + b = L - 1})`
//!
//! (a 2x2 block, or a single square, which leaves its column's other square as a heap of 1).
//! An odd last row is a band of single squares: each empty square is a heap of 1.
//!
//! `g` is ultimately periodic: `g(L + 12) = g(L)` for every `L >= 71`. The table is computed
//! directly up to [`DIRECT`] (which exceeds the range the periodicity theorem for such
//! take-and-break games needs checked: twice the pre-period plus twice the period plus the
//! largest removal, 2 * 71 + 2 * 12 + 2 = 168) and extended by the period beyond; a test
//! compares the extension with direct computation up to 5000.

use std::sync::OnceLock;

/// Values computed directly.
pub const DIRECT: usize = 256;
/// Where the period starts.
pub const PREPERIOD: usize = 71;
/// The period.
pub const PERIOD: usize = 12;

/// `g(0..len)` computed from the definition (quadratic time).
pub fn direct_table(len: usize) -> Vec<u8> {
    let mut g: Vec<u8> = Vec::with_capacity(len);
    for l in 0..len {
        let mut seen = [false; 256];
        if l >= 2 {
            for a in 0..=l - 2 {
                seen[(g[a] ^ g[l - 2 - a]) as usize] = true;
            }
        }
        if l >= 1 {
            for a in 0..l {
                seen[(g[a] ^ g[l - 1 - a] ^ 1) as usize] = true;
            }
        }
        let mex = seen.iter().position(|s| !s).expect("values stay small") as u8;
        g.push(mex);
    }
    g
}

fn table() -> &'static [u8] {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    TABLE.get_or_init(|| direct_table(DIRECT))
}

/// `g(len)`: the value of a run of `len` fully empty columns in a band.
#[inline]
pub fn run_value(len: usize) -> u8 {
    let t = table();
    if len < DIRECT {
        t[len]
    } else {
        let back = (len - (DIRECT - PERIOD)) / PERIOD + 1;
        t[len - back * PERIOD]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_values_match_the_spec() {
        assert_eq!(direct_table(11), vec![0, 0, 2, 2, 1, 4, 3, 3, 1, 4, 2]);
    }

    #[test]
    fn periodic_extension_matches_direct_computation() {
        let direct = direct_table(5000);
        for (l, &v) in direct.iter().enumerate() {
            assert_eq!(run_value(l), v, "g({l})");
        }
        for l in PREPERIOD..4000 {
            assert_eq!(direct[l], direct[l + PERIOD], "period from {l}");
        }
        assert_ne!(direct[PREPERIOD - 1], direct[PREPERIOD - 1 + PERIOD]);
    }
}
