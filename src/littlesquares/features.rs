//! The structural features of LittleSquares cases that the harness must reach (`referee stress
//! --stats`): runs of empty columns by length, lone squares, odd and single rows, grids beyond
//! the reference.

use super::{Judgement, Outcome};

/// Every feature, in report order.
pub const FEATURES: &[&str] = &[
    "a run of 1 to 4 empty columns",
    "a run of 5 to 12 empty columns",
    "a run of more than 12 empty columns",
    "a lone empty square in a band",
    "an odd number of rows",
    "a single row",
    "beyond the reference (over 24 empty squares)",
    "first wins",
    "second wins",
];

/// The features `input`, judged `judgements`, shows.
pub fn features(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for j in judgements {
        out.push(match j.outcome {
            Outcome::First => FEATURES[7],
            Outcome::Second => FEATURES[8],
        });
        if j.empty > 24 {
            out.push(FEATURES[6]);
        }
    }
    for grid in referee_reference::littlesquares::grids(input).unwrap_or_default() {
        let empty = |r: usize, c: usize| grid[r][c] == b'.';
        if grid.len() % 2 == 1 {
            out.push(FEATURES[4]);
        }
        if grid.len() == 1 {
            out.push(FEATURES[5]);
        }
        for band in (0..grid.len() / 2).map(|b| 2 * b) {
            let mut run = 0;
            for c in 0..=grid[0].len() {
                if c < grid[0].len() && empty(band, c) && empty(band + 1, c) {
                    run += 1;
                    continue;
                }
                match run {
                    0 => {}
                    1..=4 => out.push(FEATURES[0]),
                    5..=12 => out.push(FEATURES[1]),
                    _ => out.push(FEATURES[2]),
                }
                run = 0;
                if c < grid[0].len() && empty(band, c) != empty(band + 1, c) {
                    out.push(FEATURES[3]);
                }
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
