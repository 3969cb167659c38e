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

impl Run {
    /// A run of `len` squares from `first` that does not close its cycle.
    fn path(step: Step, first: (usize, usize), len: u64) -> Run {
        Run {
            step,
            first,
            len,
            whole_cycle: false,
        }
    }
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

/// The walk of one cycle: its runs so far. The first run is held back until the end, where
/// it may join the last one across the cycle's start.
#[derive(Clone, Copy, Default)]
struct Lane {
    /// The cycle's first square.
    start: (usize, usize),
    /// Owner and length of the first run, once it is closed.
    first: Option<(u32, u64)>,
    /// The run being walked.
    owner: u32,
    len: u64,
    run_start: (usize, usize),
}

/// Collects the lines found while walking.
struct Lines {
    k: u64,
    last: u32,
    other: Option<u64>,
    runs: Vec<Run>,
}

impl Lines {
    fn note(&mut self, owner: u32, run: Run) {
        if owner == 0 || (!run.whole_cycle && run.len < self.k) {
            return;
        }
        if owner == self.last {
            self.runs.push(run);
        } else {
            self.other = Some(self.other.map_or(owner as u64, |o| o.min(owner as u64)));
        }
    }

    /// Walks `lane` onto the square at `pos` of owner `v`, closing its run if `v` differs.
    ///
    /// Only a run that may be a line (at least K long) or is the cycle's first run needs
    /// recording when it ends; short runs (most of them on a busy board) are just replaced,
    /// which halves the mispredicted branches of the walk.
    #[inline]
    fn step(&mut self, lane: &mut Lane, step: Step, v: u32, pos: (usize, usize)) {
        let same = v == lane.owner;
        if !same && (lane.len >= self.k || lane.first.is_none()) {
            self.close(lane, step);
        }
        lane.len = if same { lane.len + 1 } else { 1 };
        lane.run_start = if same { lane.run_start } else { pos };
        lane.owner = v;
    }

    /// Records the run `lane` is leaving: held back if it is the cycle's first, else noted.
    #[cold]
    fn close(&mut self, lane: &mut Lane, step: Step) {
        if lane.first.is_none() {
            lane.first = Some((lane.owner, lane.len));
        } else {
            self.note(lane.owner, Run::path(step, lane.run_start, lane.len));
        }
    }

    /// Ends the walk of a cycle of length `cycle`.
    fn finish(&mut self, lane: &Lane, step: Step) {
        let run = |first, len| Run::path(step, first, len);
        match lane.first {
            None => {
                let whole = Run {
                    step,
                    first: lane.start,
                    len: lane.len,
                    whole_cycle: true,
                };
                self.note(lane.owner, whole);
            }
            Some((owner, len)) if owner == lane.owner => {
                self.note(owner, run(lane.run_start, lane.len + len));
            }
            Some((owner, len)) => {
                self.note(lane.owner, run(lane.run_start, lane.len));
                self.note(owner, run(lane.start, len));
            }
        }
    }
}

/// Walks every cycle of every step. Returns the lowest-numbered player other than `last` who
/// has a line, and the lines of `last`.
///
/// For a step (dr, dc), the rows split into gcd(R, dr) classes; from row r0 the walk is back
/// in row r0 after Tr = R / gcd(R, dr) steps, g = gcd(C, Tr x dc) columns further on, so the
/// cycles through row r0 start at columns 0..g. Those g cycles are walked in lockstep: at each
/// time step their squares are g consecutive columns of one row, read in memory order.
fn lines(set: &DataSet, last: u32) -> (Option<u64>, Vec<Run>) {
    let (rows, cols) = (set.rows, set.cols);
    let mut found = Lines {
        k: set.k,
        last,
        other: None,
        runs: Vec::new(),
    };
    let mut lanes: Vec<Lane> = Vec::new();
    for d in STEPS {
        let step = Step::new(d, rows, cols);
        let classes = gcd(rows as u64, step.dr as u64) as usize;
        let period = rows / classes;
        let shift = (period as u64 * step.dc as u64 % cols as u64) as usize;
        let g = gcd(cols as u64, shift as u64) as usize;
        debug_assert_eq!((period * (cols / g)) as u64, step.cycle);
        for r0 in 0..classes {
            lanes.clear();
            lanes.extend((0..g).map(|c0| Lane {
                start: (r0, c0),
                owner: set.cells[r0 * cols + c0],
                len: 0,
                run_start: (r0, c0),
                first: None,
            }));
            let (mut r, mut c) = (r0, 0);
            for _ in 0..step.cycle {
                let row = &set.cells[r * cols..(r + 1) * cols];
                // Lane i is at column c + i (mod C): two contiguous pieces of the row.
                let split = (cols - c).min(g);
                for (lane, (&v, col)) in lanes[..split]
                    .iter_mut()
                    .zip(row[c..c + split].iter().zip(c..))
                {
                    found.step(lane, step, v, (r, col));
                }
                for (lane, (&v, col)) in lanes[split..].iter_mut().zip(row.iter().zip(0..)) {
                    found.step(lane, step, v, (r, col));
                }
                (r, c) = step.next((r, c));
            }
            for lane in &lanes {
                found.finish(lane, step);
            }
        }
    }
    (found.other, found.runs)
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
            // Runs that are not whole cycles are at least K long (`Lines::note` keeps no
            // others), so the last K - 1 positions from either end are on the run.
            debug_assert!(run.len >= k);
            let from = run.len - k;
            let to = k - 1;
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
