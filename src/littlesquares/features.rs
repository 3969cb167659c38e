//! The structural features of LittleSquares cases that the harness must reach (`referee stress
//! --stats`): runs of empty columns by length, lone squares, odd and single rows, grids beyond
//! the reference.

use super::{Judgement, Outcome};

/// Every feature, in report order.
pub const FEATURES: &[&str] = &[
    "a run of 1 to 4 empty columns",
    "a run of 5 to 8 empty columns",
    "a run of 9 to 12 empty columns",
    "a run of more than 12 empty columns",
    "a lone empty square in a band",
    "an odd number of rows",
    "a single row",
    "beyond the reference (over 24 empty squares)",
    "first wins",
    "second wins",
    "second wins with a run of 5 or more",
];

/// The features `input`, judged `judgements`, shows.
pub fn features(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for j in judgements {
        out.push(match j.outcome {
            Outcome::First => FEATURES[8],
            Outcome::Second => FEATURES[9],
        });
        if j.empty > 24 {
            out.push(FEATURES[7]);
        }
    }
    let grids = referee_reference::littlesquares::grids(input).unwrap_or_default();
    for (grid, judgement) in grids.iter().zip(judgements) {
        let empty = |r: usize, c: usize| grid[r][c] == b'.';
        if grid.len() % 2 == 1 {
            out.push(FEATURES[5]);
        }
        if grid.len() == 1 {
            out.push(FEATURES[6]);
        }
        let mut longest = 0;
        for band in (0..grid.len() / 2).map(|b| 2 * b) {
            let mut run = 0;
            for c in 0..=grid[0].len() {
                if c < grid[0].len() && empty(band, c) && empty(band + 1, c) {
                    run += 1;
                    continue;
                }
                longest = longest.max(run);
                match run {
                    0 => {}
                    1..=4 => out.push(FEATURES[0]),
                    5..=8 => out.push(FEATURES[1]),
                    9..=12 => out.push(FEATURES[2]),
                    _ => out.push(FEATURES[3]),
                }
                run = 0;
                if c < grid[0].len() && empty(band, c) != empty(band + 1, c) {
                    out.push(FEATURES[4]);
                }
            }
        }
        if longest >= 5 && judgement.outcome == Outcome::Second {
            out.push(FEATURES[10]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
