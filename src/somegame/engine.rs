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

use super::board::{Cells, DataSet};
use super::scan::{scan, Scan};
use super::steps::{gcd, Step, STEPS};
use super::{Judgement, Reason, Verdict};

/// A line of the last mover: a maximal run starting at `first`, or a whole cycle.
#[derive(Clone, Copy)]
pub(super) struct Run {
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
    judge_with(set, true)
}

/// Judges one data set by the walk of whole cycles alone, without the scan: the engine's
/// general path, which the harness checks the scan against.
pub fn judge_by_walk(set: &DataSet) -> Judgement {
    judge_with(set, false)
}

fn judge_with(set: &DataSet, scanning: bool) -> Judgement {
    let squares = set.rows as u64 * set.cols as u64;
    let done = |verdict, reason| Judgement {
        verdict,
        reason,
        squares,
        walk: set.k.min(squares),
        players: set.players,
    };
    // Boards of byte-sized values (all but those with 255 players or more) are counted and
    // scanned as bytes.
    let narrowed;
    let bytes: Option<&[u8]> = match &set.cells {
        Cells::Bytes(cells) => Some(cells),
        Cells::Words(cells) => {
            narrowed = byte_cells(cells);
            narrowed.as_deref()
        }
    };
    let census = bytes.map(byte_census);
    // Without a census the cells are words with a value above 255 (a rare board).
    let filled = match &census {
        Some(counts) => squares - counts[0],
        None => set.cells.to_vec().iter().filter(|&&v| v != 0).count() as u64,
    };
    if set.k == 0 {
        return if filled == 0 {
            done(Verdict::Player(1), Reason::ZeroK)
        } else {
            done(Verdict::Error, Reason::ZeroK)
        };
    }
    let Some(last) = last_mover(set, filled, census.as_ref()) else {
        return done(Verdict::Error, Reason::Counts);
    };
    // The quick scan settles most boards; where the last mover alone has lines, its hits
    // lead to them. Boards the scan does not take are walked whole.
    let scanned = bytes
        .filter(|_| scanning)
        .and_then(|cells| scan(set, cells, u64::from(last)).map(|s| (cells, s)));
    let runs = match scanned {
        Some((cells, found)) => {
            if let Some(player) = found.owners.lowest_other(u64::from(last)) {
                return done(Verdict::Error, Reason::NotLastMover { player });
            }
            if !found.owners.has(u64::from(last)) {
                return done(Verdict::NoWinners, Reason::NoLine);
            }
            runs_from_hits(set, cells, last as u8, &found)
        }
        None => {
            let (other, runs) = lines(set, last, [true; STEPS.len()]);
            if let Some(player) = other {
                return done(Verdict::Error, Reason::NotLastMover { player });
            }
            if runs.is_empty() {
                return done(Verdict::NoWinners, Reason::NoLine);
            }
            runs
        }
    };
    let winning = winning_squares(set, &runs);
    let verdict = if winning > 0 {
        Verdict::Player(last as u64)
    } else {
        Verdict::Error
    };
    done(verdict, Reason::LastMoverLine { squares: winning })
}

/// The board as bytes, when every value fits in one.
fn byte_cells(cells: &[u32]) -> Option<Vec<u8>> {
    let largest = cells.iter().fold(0, |m, &v| m.max(v));
    (largest <= 255).then(|| cells.iter().map(|&v| v as u8).collect())
}

/// Squares per value of a board of bytes. Four tallies side by side, so that runs of one
/// value do not wait on the same counter.
fn byte_census(cells: &[u8]) -> [u64; 256] {
    let mut tallies = [[0u32; 256]; 4];
    let mut quads = cells.chunks_exact(4);
    for quad in quads.by_ref() {
        for (tally, &v) in tallies.iter_mut().zip(quad) {
            tally[usize::from(v)] += 1;
        }
    }
    for &v in quads.remainder() {
        tallies[0][usize::from(v)] += 1;
    }
    std::array::from_fn(|v| tallies.iter().map(|t| u64::from(t[v])).sum())
}

/// Check 1: with n = mP + j filled squares, players 1..j own m + 1 and the others m. Returns
/// the last mover (j, or P when j = 0), or `None` when the counts are impossible. `census`,
/// when given, is [`byte_census`] of the board.
fn last_mover(set: &DataSet, filled: u64, census: Option<&[u64; 256]>) -> Option<u32> {
    // A value above min(P, filled) is impossible: above P it is no player; above `filled`
    // (with P > filled, so m = 0) it would be a player owed nothing.
    let cap = set.players.min(filled) as usize;
    let count: Vec<u64> = match census {
        Some(counts) => {
            if counts.iter().skip(cap + 1).any(|&c| c > 0) {
                return None;
            }
            let mut count = vec![0u64; cap + 1];
            let known = cap.min(255);
            count[..=known].copy_from_slice(&counts[..=known]);
            count
        }
        None => {
            let mut count = vec![0u64; cap + 1];
            for v in set.cells.to_vec() {
                match count.get_mut(v as usize) {
                    Some(c) => *c += 1,
                    None => return None,
                }
            }
            count
        }
    };
    let (m, j) = (filled / set.players, filled % set.players);
    for (p, &owned) in count.iter().enumerate().skip(1) {
        let expected = if (p as u64) <= j { m + 1 } else { m };
        if owned != expected {
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

/// Walks every cycle of the steps of [`STEPS`] marked in `walk`. Returns the lowest-numbered
/// player other than `last` who has a line along them, and the lines of `last` along them.
///
/// For a step (dr, dc), the rows split into gcd(R, dr) classes; from row r0 the walk is back
/// in row r0 after Tr = R / gcd(R, dr) steps, g = gcd(C, Tr x dc) columns further on, so the
/// cycles through row r0 start at columns 0..g. Those g cycles are walked in lockstep: at each
/// time step their squares are g consecutive columns of one row, read in memory order.
pub(super) fn lines(
    set: &DataSet,
    last: u32,
    walk: [bool; STEPS.len()],
) -> (Option<u64>, Vec<Run>) {
    match &set.cells {
        Cells::Bytes(cells) => walk_cycles(set, cells, last, walk),
        Cells::Words(cells) => walk_cycles(set, cells, last, walk),
    }
}

/// [`lines`] over `cells`, the board's cells in either storage.
fn walk_cycles<T: Copy + Into<u32>>(
    set: &DataSet,
    cells: &[T],
    last: u32,
    walk: [bool; STEPS.len()],
) -> (Option<u64>, Vec<Run>) {
    let (rows, cols) = (set.rows, set.cols);
    let mut found = Lines {
        k: set.k,
        last,
        other: None,
        runs: Vec::new(),
    };
    let mut lanes: Vec<Lane> = Vec::new();
    for d in STEPS
        .iter()
        .zip(walk)
        .filter_map(|(&d, along)| along.then_some(d))
    {
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
                owner: cells[r0 * cols + c0].into(),
                len: 0,
                run_start: (r0, c0),
                first: None,
            }));
            let (mut r, mut c) = (r0, 0);
            for _ in 0..step.cycle {
                let row = &cells[r * cols..(r + 1) * cols];
                // Lane i is at column c + i (mod C): two contiguous pieces of the row.
                let split = (cols - c).min(g);
                for (lane, (&v, col)) in lanes[..split]
                    .iter_mut()
                    .zip(row[c..c + split].iter().zip(c..))
                {
                    found.step(lane, step, v.into(), (r, col));
                }
                for (lane, (&v, col)) in lanes[split..].iter_mut().zip(row.iter().zip(0..)) {
                    found.step(lane, step, v.into(), (r, col));
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

/// The lines of `last` (who alone has lines, and owns a square, so fits in a byte) found from
/// the scan's hits: from each hit square not on a run found already, the run through it is
/// walked back to its start and on to its end (or found to be its whole cycle). A step with
/// too many hits to record is walked whole. Stops early once there are more runs than steps,
/// which no square can share (see [`winning_squares`]).
fn runs_from_hits(set: &DataSet, cells: &[u8], last: u8, found: &Scan) -> Vec<Run> {
    let (rows, cols) = (set.rows, set.cols);
    let mut runs = Vec::new();
    let mut walk = [false; STEPS.len()];
    let mut covered: Vec<u64> = Vec::new();
    let owned = |(r, c): (usize, usize)| cells[r * cols + c] == last;
    for (i, &d) in STEPS.iter().enumerate() {
        let hits = &found.hits[i];
        if hits.overflow {
            walk[i] = true;
            continue;
        }
        if hits.squares.is_empty() {
            continue;
        }
        let step = Step::new(d, rows, cols);
        covered.clear();
        covered.resize(cells.len().div_ceil(64), 0);
        let cover = |covered: &mut Vec<u64>, from: (usize, usize), len: u64| {
            let mut sq = from;
            for _ in 0..len {
                let at = sq.0 * cols + sq.1;
                covered[at / 64] |= 1 << (at % 64);
                sq = step.next(sq);
            }
        };
        for &square in &hits.squares {
            if covered[square / 64] >> (square % 64) & 1 == 1 {
                continue;
            }
            let start = (square / cols, square % cols);
            // Back to the run's first square, unless the whole cycle is the player's.
            let (mut first, mut back) = (start, 0u64);
            while back + 1 < step.cycle && owned(step.prev(first)) {
                first = step.prev(first);
                back += 1;
            }
            let run = if back + 1 == step.cycle {
                Run {
                    step,
                    first: start,
                    len: step.cycle,
                    whole_cycle: true,
                }
            } else {
                let (mut end, mut len) = (start, back + 1);
                while owned(step.next(end)) {
                    end = step.next(end);
                    len += 1;
                }
                Run::path(step, first, len)
            };
            cover(&mut covered, run.first, run.len);
            runs.push(run);
            if runs.len() > STEPS.len() {
                return runs;
            }
        }
    }
    if walk.contains(&true) {
        runs.extend(lines(set, u32::from(last), walk).1);
    }
    runs
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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The scan agrees with the engine's walk on who has a line, for every choice of last
        /// mover, on small boards of every shape (one row, one column, cycles shorter than K).
        #[test]
        fn agrees_with_the_walk(
            (rows, cols, players, k, cells) in (1usize..7, 1usize..7, 1u64..4, 1u64..8)
                .prop_flat_map(|(r, c, p, k)| {
                    let cells = proptest::collection::vec(
                        prop_oneof![2 => Just(0u32), 3 => 1..=p as u32], r * c);
                    (Just(r), Just(c), Just(p), Just(k), cells)
                })
        ) {
            let board = DataSet { players, rows, cols, k, cells: cells.into() };
            let bytes: Vec<u8> = board.cells.to_vec().iter().map(|&v| v as u8).collect();
            let owners = crate::somegame::scan::line_owners(&board, &bytes).expect("small values and K");
            for last in 1..=players as u32 {
                let (other, runs) = lines(&board, last, [true; STEPS.len()]);
                prop_assert_eq!(owners.lowest_other(u64::from(last)), other, "last {}", last);
                prop_assert_eq!(owners.has(u64::from(last)), !runs.is_empty(), "last {}", last);
                if other.is_none() {
                    // Hits along exactly the steps with a line of the last mover.
                    let found = scan(&board, &bytes, u64::from(last)).unwrap();
                    for (i, hits) in found.hits.iter().enumerate() {
                        let only = std::array::from_fn(|j| j == i);
                        let (_, runs) = lines(&board, last, only);
                        prop_assert_eq!(!hits.squares.is_empty(), !runs.is_empty(), "last {} step {}", last, i);
                    }
                }
            }
        }
    }

    proptest! {
        /// Counting a board as bytes decides check 1 as counting its values does, including
        /// with more players than a byte holds (players above 255 own nothing here).
        #[test]
        fn byte_census_decides_the_counts_as_the_values_do(
            players in prop_oneof![1u64..6, 250u64..300],
            cells in proptest::collection::vec(prop_oneof![0u32..6, 250u32..258], 1..300),
        ) {
            let filled = cells.iter().filter(|&&v| v != 0).count() as u64;
            let narrowed = byte_cells(&cells);
            let set = DataSet { players, rows: 1, cols: cells.len(), k: 3, cells: cells.clone().into() };
            let general = last_mover(&set, filled, None);
            match narrowed {
                Some(bytes) => {
                    let census = byte_census(&bytes);
                    prop_assert_eq!(cells.len() as u64 - census[0], filled);
                    prop_assert_eq!(last_mover(&set, filled, Some(&census)), general);
                    // The same board stored as bytes is judged as stored as words.
                    let as_bytes = DataSet { cells: Cells::Bytes(bytes), ..set.clone() };
                    prop_assert_eq!(judge(&as_bytes), judge(&set));
                }
                None => prop_assert!(cells.iter().any(|&v| v > 255)),
            }
        }
    }

    /// A comparable form of a run: its step, length, and first square (any square of the
    /// cycle, here the smallest, for a whole cycle).
    fn run_key(run: &Run, cols: usize) -> (usize, usize, u64, bool, usize) {
        let first = if run.whole_cycle {
            let mut sq = run.first;
            let mut least = usize::MAX;
            for _ in 0..run.len {
                least = least.min(sq.0 * cols + sq.1);
                sq = run.step.next(sq);
            }
            least
        } else {
            run.first.0 * cols + run.first.1
        };
        (run.step.dr, run.step.dc, run.len, run.whole_cycle, first)
    }

    proptest! {
        /// Where the last mover alone has lines, the runs found from the scan's hits are the
        /// walk's runs, on small boards of every shape.
        #[test]
        fn runs_from_hits_are_the_walks_runs(
            (rows, cols, k, cells) in (1usize..7, 1usize..7, 1u64..7)
                .prop_flat_map(|(r, c, k)| {
                    let cells = proptest::collection::vec(
                        prop_oneof![3 => Just(0u8), 2 => Just(1u8), 1 => Just(2u8)], r * c);
                    (Just(r), Just(c), Just(k), cells)
                })
        ) {
            let set = DataSet {
                players: 2,
                rows,
                cols,
                k,
                cells: Cells::Bytes(cells.clone()),
            };
            let found = scan(&set, &cells, 1).expect("K fits");
            prop_assume!(found.owners.lowest_other(1).is_none());
            let (_, mut walked) = lines(&set, 1, [true; STEPS.len()]);
            let mut hit = runs_from_hits(&set, &cells, 1, &found);
            if walked.len() > STEPS.len() {
                // The hits stop early: more runs than steps is all that matters.
                prop_assert!(hit.len() > STEPS.len());
                return Ok(());
            }
            let key = |runs: &mut Vec<Run>| {
                let mut keys: Vec<_> = runs.iter().map(|r| run_key(r, cols)).collect();
                keys.sort();
                keys
            };
            prop_assert_eq!(key(&mut hit), key(&mut walked));
            prop_assert_eq!(winning_squares(&set, &hit), winning_squares(&set, &walked));
        }
    }

    #[test]
    fn steps_with_more_hits_than_recorded_are_walked() {
        // 2 x 10000: player 1 (last, 5001 stones) holds row 0's first 5001 squares, player 2
        // (5000 stones) every other square of row 1, so only player 1 has lines: one run of
        // 5001 along the row step and the two knight steps that reduce to it, with 5000
        // squares each whose counter reaches K = 2, more than the scan records.
        let cols = 10_000;
        let mut cells = vec![0u8; 2 * cols];
        cells[..5001].fill(1);
        (0..cols).step_by(2).for_each(|c| cells[cols + c] = 2);
        let set = DataSet {
            players: 2,
            rows: 2,
            cols,
            k: 2,
            cells: Cells::Bytes(cells.clone()),
        };
        let found = scan(&set, &cells, 1).unwrap();
        assert_eq!(found.owners.lowest_other(1), None);
        assert!(found.hits[0].overflow);
        let runs = runs_from_hits(&set, &cells, 1, &found);
        let (_, walked) = lines(&set, 1, [true; STEPS.len()]);
        assert_eq!(runs.len(), 3);
        assert_eq!(walked.len(), 3);
        // No square of a run of 5001 can break it below 2: the game had ended earlier.
        let judged = judge(&set);
        assert_eq!(
            (judged.verdict, judged.reason),
            (Verdict::Error, Reason::LastMoverLine { squares: 0 })
        );
    }

    #[test]
    fn an_empty_board_of_more_players_than_a_byte_holds() {
        // Nothing filled: the last mover would be player 256, who fits no byte; the scan
        // still reads the board (all zeros) and must not trip over the question.
        let set = DataSet {
            players: 256,
            rows: 20,
            cols: 20,
            k: 3,
            cells: vec![0; 400].into(),
        };
        let judged = judge(&set);
        assert_eq!(
            (judged.verdict, judged.reason),
            (Verdict::NoWinners, Reason::NoLine)
        );
    }

    #[test]
    fn boards_of_more_players_than_a_byte_holds_are_judged() {
        // 300 players, one stone each on a 2 x 150 board, no two alike side by side: nobody
        // has a line of 2, and player 300 moved last.
        let cells: Vec<u32> = (1..=300).collect();
        let set = DataSet {
            players: 300,
            rows: 2,
            cols: 150,
            k: 2,
            cells: cells.into(),
        };
        assert_eq!(judge(&set).verdict, Verdict::NoWinners);
        // 301 stones on 2 x 151: player 1 (two stones, side by side) moved last and has the
        // only line; either stone could have been the winning move. The scan cannot read
        // these values as bytes, so the walk decides.
        let cells: Vec<u32> = [1].into_iter().chain(1..=300).chain([0]).collect();
        let set = DataSet {
            players: 300,
            rows: 2,
            cols: 151,
            k: 2,
            cells: cells.into(),
        };
        let judged = judge(&set);
        assert_eq!(judged.verdict, Verdict::Player(1));
        assert_eq!(judged.reason, Reason::LastMoverLine { squares: 2 });
        // One stone of player 300 fewer: the counts are wrong.
        let cells: Vec<u32> = [1].into_iter().chain(1..300).chain([0, 0]).collect();
        let set = DataSet {
            cells: cells.into(),
            ..set
        };
        assert_eq!(judge(&set).reason, Reason::Counts);
    }

    #[test]
    fn more_players_than_a_byte_holds() {
        // 300 players, 300 stones, one each: player 256 and up own values above 255.
        let cells: Vec<u32> = (1..=300).collect();
        assert_eq!(byte_cells(&cells), None);
        let set = DataSet {
            players: 300,
            rows: 1,
            cols: 300,
            k: 3,
            cells: cells.into(),
        };
        assert_eq!(last_mover(&set, 300, None), Some(300));
        // 256 players, one stone each for 1..=255: player 255 moved last, 256 is owed none.
        let cells: Vec<u32> = (1..=255).collect();
        let census = byte_census(&byte_cells(&cells).unwrap());
        let set = DataSet {
            players: 256,
            rows: 1,
            cols: 255,
            k: 3,
            cells: cells.into(),
        };
        assert_eq!(last_mover(&set, 255, Some(&census)), Some(255));
        assert_eq!(last_mover(&set, 255, None), Some(255));
    }
}
