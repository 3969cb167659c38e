//! The Some Game engine: one walk over the cycles of the torus per step.
//!
//! For a step d, the squares split into cycles s, s+d, s+2d, ... (indices modulo R and C),
//! all of the same length. Walking each cycle once from a square where the owner changes gives
//! its maximal runs of one owner; a run of length >= K, or a cycle owned entirely by one player
//! (a line of every length), is a line. The square of the winning move must lie on every
//! winning run of the last mover, at a position whose removal leaves both parts shorter than K;
//! each run marks its admissible squares in a counter, and the squares counted by every run
//! are the possible winning moves. Time O(R x C) per step for any K; memory one bit and one
//! byte per square.

use super::parse::DataSet;
use super::{Judgement, Reason, Verdict};

/// The eight steps: rows, columns, both diagonals, and the four knight hops (d and -d give the
/// same lines).
pub const STEPS: [(i64, i64); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (1, 2),
    (2, 1),
    (1, -2),
    (2, -1),
];

fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A step reduced modulo the board: `(dr, dc)` with `0 <= dr < R`, `0 <= dc < C`.
#[derive(Clone, Copy)]
struct Step {
    dr: usize,
    dc: usize,
    rows: usize,
    cols: usize,
    /// The length of every cycle of this step.
    cycle: u64,
}

impl Step {
    fn new((dr, dc): (i64, i64), rows: usize, cols: usize) -> Step {
        let dr = dr.rem_euclid(rows as i64) as usize;
        let dc = dc.rem_euclid(cols as i64) as usize;
        let r_period = rows as u64 / gcd(rows as u64, dr as u64);
        let c_period = cols as u64 / gcd(cols as u64, dc as u64);
        let cycle = r_period / gcd(r_period, c_period) * c_period;
        Step {
            dr,
            dc,
            rows,
            cols,
            cycle,
        }
    }

    /// The square after `(r, c)`.
    #[inline]
    fn next(&self, (r, c): (usize, usize)) -> (usize, usize) {
        let mut r = r + self.dr;
        if r >= self.rows {
            r -= self.rows;
        }
        let mut c = c + self.dc;
        if c >= self.cols {
            c -= self.cols;
        }
        (r, c)
    }
}

/// A line of the last mover: a maximal run starting at `first`, or a whole cycle.
#[derive(Clone, Copy)]
struct Run {
    step: Step,
    first: (usize, usize),
    len: u64,
    whole_cycle: bool,
}

/// Judges one data set.
pub fn judge(set: &DataSet) -> Judgement {
    let squares = set.rows as u64 * set.cols as u64;
    let done = |verdict, reason| Judgement {
        verdict,
        reason,
        squares,
        walk: set.k.min(squares),
    };
    let filled = set.cells.iter().filter(|&&v| v != 0).count() as u64;
    if set.k == 0 {
        return if filled == 0 {
            done(Verdict::Player(1), Reason::ZeroK)
        } else {
            done(Verdict::Error, Reason::ZeroK)
        };
    }
    let Some(last) = last_mover(set, filled) else {
        return done(Verdict::Error, Reason::Counts);
    };
    let (other, runs) = lines(set, last);
    if let Some(player) = other {
        return done(Verdict::Error, Reason::NotLastMover { player });
    }
    if runs.is_empty() {
        return done(Verdict::NoWinners, Reason::NoLine);
    }
    let winning = winning_squares(set, &runs);
    let verdict = if winning > 0 {
        Verdict::Player(last as u64)
    } else {
        Verdict::Error
    };
    done(verdict, Reason::LastMoverLine { squares: winning })
}

/// Check 1: with n = mP + j filled squares, players 1..j own m + 1 and the others m. Returns
/// the last mover (j, or P when j = 0), or `None` when the counts are impossible.
fn last_mover(set: &DataSet, filled: u64) -> Option<u32> {
    // A value above min(P, filled) is impossible: above P it is no player; above `filled`
    // (with P > filled, so m = 0) it would be a player owed nothing.
    let cap = set.players.min(filled) as usize;
    let mut count = vec![0u32; cap + 1];
    for &v in &set.cells {
        match count.get_mut(v as usize) {
            Some(c) => *c += 1,
            None => return None,
        }
    }
    let (m, j) = (filled / set.players, filled % set.players);
    for (p, &owned) in count.iter().enumerate().skip(1) {
        let expected = if (p as u64) <= j { m + 1 } else { m };
        if owned as u64 != expected {
            return None;
        }
    }
    // Players above `cap` own nothing and are owed nothing (for them m = 0 and p > j).
    let last = if j > 0 { j } else { set.players };
    // The last mover owns at least one square when anything is filled, so it fits in u32;
    // on an empty board it is never used.
    Some(last.min(u32::MAX as u64) as u32)
}

/// Walks every cycle of every step. Returns the lowest-numbered player other than `last` who
/// has a line, and the lines of `last`.
fn lines(set: &DataSet, last: u32) -> (Option<u64>, Vec<Run>) {
    let (rows, cols) = (set.rows, set.cols);
    let at = |(r, c): (usize, usize)| set.cells[r * cols + c];
    let mut other: Option<u64> = None;
    let mut runs = Vec::new();
    let mut visited = vec![0u64; set.cells.len().div_ceil(64)];
    let mut note = |owner: u32, run: Run, other: &mut Option<u64>| {
        if owner == last {
            runs.push(run);
        } else {
            *other = Some(other.map_or(owner as u64, |o| o.min(owner as u64)));
        }
    };
    for d in STEPS {
        let step = Step::new(d, rows, cols);
        visited.iter_mut().for_each(|w| *w = 0);
        for start in 0..set.cells.len() {
            if visited[start / 64] >> (start % 64) & 1 != 0 {
                continue;
            }
            let s = (start / cols, start % cols);
            // Find a square whose owner differs from its predecessor's.
            let mut prev = s;
            let mut begin = None;
            for _ in 0..step.cycle {
                let next = step.next(prev);
                if at(next) != at(prev) {
                    begin = Some(next);
                    break;
                }
                prev = next;
            }
            let Some(begin) = begin else {
                // One owner on the whole cycle.
                let mut sq = s;
                for _ in 0..step.cycle {
                    let i = sq.0 * cols + sq.1;
                    visited[i / 64] |= 1 << (i % 64);
                    sq = step.next(sq);
                }
                if at(s) != 0 {
                    let run = Run {
                        step,
                        first: s,
                        len: step.cycle,
                        whole_cycle: true,
                    };
                    note(at(s), run, &mut other);
                }
                continue;
            };
            // Walk the cycle once from `begin`, cutting it into runs.
            let mut sq = begin;
            let mut run_first = begin;
            let mut run_len = 0u64;
            for i in 0..=step.cycle {
                let closing = i == step.cycle || (i > 0 && at(sq) != at(run_first));
                if closing {
                    let owner = at(run_first);
                    if owner != 0 && run_len >= set.k {
                        let run = Run {
                            step,
                            first: run_first,
                            len: run_len,
                            whole_cycle: false,
                        };
                        note(owner, run, &mut other);
                    }
                    run_first = sq;
                    run_len = 0;
                }
                if i == step.cycle {
                    break;
                }
                let idx = sq.0 * cols + sq.1;
                visited[idx / 64] |= 1 << (idx % 64);
                run_len += 1;
                sq = step.next(sq);
            }
        }
    }
    (other, runs)
}

/// Counts the squares that lie, at an admissible position, on every line of the last mover.
fn winning_squares(set: &DataSet, runs: &[Run]) -> u64 {
    // A square lies on at most one run per step: more runs than steps cannot share one.
    if runs.len() > STEPS.len() {
        return 0;
    }
    let k = set.k;
    let mut hits = vec![0u8; set.cells.len()];
    for run in runs {
        // Positions whose removal leaves no part of length >= K.
        let (from, to) = if run.whole_cycle {
            if run.len - 1 < k {
                (0, run.len - 1)
            } else {
                continue;
            }
        } else {
            let from = run.len.saturating_sub(k);
            let to = (k - 1).min(run.len - 1);
            if from > to {
                continue;
            }
            (from, to)
        };
        let mut sq = run.first;
        for _ in 0..from {
            sq = run.step.next(sq);
        }
        for _ in from..=to {
            hits[sq.0 * set.cols + sq.1] += 1;
            sq = run.step.next(sq);
        }
    }
    let needed = runs.len() as u8;
    hits.iter().filter(|&&h| h == needed).count() as u64
}
