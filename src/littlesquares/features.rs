//! The structural features of LittleSquares cases that the harness must reach (`referee stress
//! --stats`): runs of empty columns by length, lone squares, odd and single rows, grids beyond
//! the reference.

use super::{Judgement, Winner};

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
            Winner::First => FEATURES[8],
            Winner::Second => FEATURES[9],
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
        if longest >= 5 && judgement.outcome == Winner::Second {
            out.push(FEATURES[10]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// What `audit`'s random cases reach within every period of the corners (`referee gen
/// littlesquares --like-audit --coverage`), inside the contest's limits: the largest grid with
/// each verdict, empty, full, with one empty square, with single squares only; the thinnest
/// bands of the largest length; runs of every band of lengths.
pub const COVERAGE: &[&str] = &[
    "10 x 10, first wins",
    "10 x 10, second wins",
    "10 x 10, empty",
    "10 x 10, full",
    "10 x 10, one empty square",
    "10 x 10, single squares only (no empty 2 x 2 block)",
    "2 x 10, empty",
    "10 x 2, empty",
    "a run of 1 to 4 empty columns",
    "a run of 5 to 8 empty columns",
    "a run of 9 to 12 empty columns",
    "a lone empty square in a band",
];

/// The features of [`COVERAGE`] that `input`, judged `judgements`, shows.
pub fn coverage(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let grids = referee_reference::littlesquares::grids(input).unwrap_or_default();
    let mut out = Vec::new();
    for (grid, j) in grids.iter().zip(judgements) {
        let (rows, cols) = (grid.len(), grid.first().map_or(0, Vec::len));
        let empty: usize = grid.iter().flatten().filter(|&&b| b == b'.').count();
        let square = |r: usize, c: usize| grid[r][c] == b'.';
        let blocks = (0..rows / 2).any(|b| {
            (0..cols.saturating_sub(1)).any(|c| {
                square(2 * b, c)
                    && square(2 * b, c + 1)
                    && square(2 * b + 1, c)
                    && square(2 * b + 1, c + 1)
            })
        });
        match (rows, cols) {
            (10, 10) => {
                out.push(match j.outcome {
                    Winner::First => COVERAGE[0],
                    Winner::Second => COVERAGE[1],
                });
                match empty {
                    100 => out.push(COVERAGE[2]),
                    0 => out.push(COVERAGE[3]),
                    1 => out.push(COVERAGE[4]),
                    _ if !blocks => out.push(COVERAGE[5]),
                    _ => {}
                }
            }
            (2, 10) if empty == 20 => out.push(COVERAGE[6]),
            (10, 2) if empty == 20 => out.push(COVERAGE[7]),
            _ => {}
        }
    }
    let features = features(input, judgements);
    for (feature, covered) in [(0, 8), (1, 9), (2, 10), (4, 11)] {
        if features.contains(&FEATURES[feature]) {
            out.push(COVERAGE[covered]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
