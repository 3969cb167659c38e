//! The second opinion on grids beyond the reference's exhaustive search: the grid's Grundy
//! value computed from the definitions, square by square, without the engine's bitmask fold and
//! without its table of run values or their period.
//!
//! Bands of two rows are independent games; in a band, a column that is not fully empty cuts
//! it, its single empty square (if any) being a heap of 1; a run of L fully empty columns is
//! worth g(L) = mex({g(a) ^ g(b) : a + b = L - 2} ∪ {g(a) ^ g(b) ^ 1 : a + b = L - 1}),
//! computed here by that recursion for every L up to the widest run, whatever its length.

use super::{Judgement, Winner};
use crate::game::Disagreement;

/// g(0..=longest), by the recursion.
pub(super) fn run_values(longest: usize) -> Vec<u32> {
    let mut g: Vec<u32> = Vec::with_capacity(longest + 1);
    for l in 0..=longest {
        let mut options: Vec<u32> = Vec::new();
        for a in 0..l.saturating_sub(1) {
            options.push(g[a] ^ g[l - 2 - a]);
        }
        for a in 0..l {
            options.push(g[a] ^ g[l - 1 - a] ^ 1);
        }
        options.sort_unstable();
        options.dedup();
        let mex = options
            .iter()
            .enumerate()
            .find(|&(i, &v)| v != i as u32)
            .map_or(options.len(), |(i, _)| i) as u32;
        g.push(mex);
    }
    g
}

/// Whether the player to move wins on `grid` (rows of `.` and `#`).
pub fn first_wins(grid: &[Vec<u8>]) -> bool {
    value(grid) != 0
}

/// The Grundy value of `grid` (rows of `.` and `#`): the XOR of its runs' and lone squares'.
pub fn value(grid: &[Vec<u8>]) -> u32 {
    let empty = |r: usize, c: usize| grid[r][c] == b'.';
    let width = grid[0].len();
    let mut parts: Vec<(bool, usize)> = Vec::new(); // (is a run, its length), or a lone square
    for band in (0..grid.len() / 2).map(|b| 2 * b) {
        let mut run = 0;
        for c in 0..=width {
            if c < width && empty(band, c) && empty(band + 1, c) {
                run += 1;
                continue;
            }
            parts.push((true, run));
            run = 0;
            if c < width && empty(band, c) != empty(band + 1, c) {
                parts.push((false, 1));
            }
        }
    }
    if grid.len() % 2 == 1 {
        let last = grid.len() - 1;
        parts.extend((0..width).filter(|&c| empty(last, c)).map(|_| (false, 1)));
    }
    let longest = parts.iter().filter(|p| p.0).map(|p| p.1).max().unwrap_or(0);
    let g = run_values(longest);
    parts
        .iter()
        .fold(0, |v, &(run, len)| v ^ if run { g[len] } else { 1 })
}

/// Checks the engine's `judgements` of `input` against the definitions, grid by grid.
pub fn check(input: &[u8], judgements: &[Judgement]) -> Result<(), Disagreement> {
    let grids =
        referee_reference::littlesquares::grids(input).map_err(|e| Disagreement::Unread {
            check: "the reference's parser",
            error: format!("{} at {}:{}", e.expected, e.line, e.column),
        })?;
    for (i, (grid, judgement)) in grids.iter().zip(judgements).enumerate() {
        let first = first_wins(grid);
        if first != (judgement.outcome == Winner::First) {
            return Err(Disagreement::Case {
                what: "grid",
                case: i + 1,
                check: "the Grundy value from the definitions",
                check_says: if first { "first" } else { "second" }.to_string(),
                engine_says: format!("{:?}", judgement.outcome),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recursion_gives_the_known_values() {
        assert_eq!(run_values(10), [0, 0, 2, 2, 1, 4, 3, 3, 1, 4, 2]);
        let direct = super::super::grundy::direct_table::<600>();
        let by_recursion = run_values(599);
        assert!(by_recursion
            .iter()
            .zip(direct)
            .all(|(&a, b)| a == u32::from(b)));
    }

    #[test]
    fn wide_grids_agree_with_the_engine() {
        let mut rng = crate::util::random::Rng::new(11);
        for _ in 0..30 {
            use crate::util::random::Entropy;
            let (rows, cols) = (1 + rng.below(5) as usize, 200 + rng.below(800) as usize);
            let grid: Vec<Vec<u8>> = (0..rows)
                .map(|_| {
                    (0..cols)
                        .map(|_| if rng.chance(0.05) { b'#' } else { b'.' })
                        .collect()
                })
                .collect();
            let text: Vec<u8> = grid
                .iter()
                .flat_map(|r| r.iter().copied().chain([b'\n']))
                .collect();
            let judged = super::super::judge(&text[..]).unwrap();
            check(&text, &judged).unwrap();
        }
    }
}
