//! The reachability oracle for tiny tori: the definition of `ERROR` taken literally. Every
//! board reachable from the empty board by legal play (turn order, no move after the game
//! ended) is enumerated; a board is `ERROR` exactly when it is not among them. Exponential: for
//! boards of at most a dozen squares and a few players (tests and fuzzing only).

use crate::game::Disagreement;
use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, OnceLock};

use super::Verdict;

/// The most squares the oracle enumerates.
pub const MAX_SQUARES: usize = 12;

/// Whether `player` has a line on the `rows` x `cols` torus (the literal definition, written
/// independently of both implementations).
pub fn has_line(cells: &[u64], rows: usize, cols: usize, k: u64, player: u64) -> bool {
    if k == 0 {
        return true;
    }
    let steps: [(usize, usize); 8] = [
        (0, 1),
        (1, 0),
        (1, 1),
        (1, cols * 2 - 1),
        (1, 2),
        (2, 1),
        (1, cols * 2 - 2),
        (2, cols * 2 - 1),
    ];
    for start in 0..rows * cols {
        for &(dr, dc) in &steps {
            let (mut x, mut y) = (start / cols, start % cols);
            let mut n = 0;
            while cells[x * cols + y] == player {
                n += 1;
                if n >= k {
                    return true;
                }
                x = (x + dr) % rows;
                y = (y + dc) % cols;
                if x * cols + y == start {
                    return true;
                }
            }
        }
    }
    false
}

/// Every board reachable by legal play from the empty board.
pub fn reachable(players: u64, rows: usize, cols: usize, k: u64) -> HashSet<Vec<u64>> {
    assert!(rows * cols <= MAX_SQUARES, "the oracle is for tiny boards");
    let mut seen = HashSet::new();
    let mut stack = vec![vec![0u64; rows * cols]];
    seen.insert(stack[0].clone());
    while let Some(board) = stack.pop() {
        let over = (1..=players).any(|p| has_line(&board, rows, cols, k, p));
        let filled = board.iter().filter(|&&v| v != 0).count() as u64;
        if over || filled == (rows * cols) as u64 {
            continue;
        }
        let mover = filled % players + 1;
        for i in 0..rows * cols {
            if board[i] == 0 {
                let mut next = board.clone();
                next[i] = mover;
                if seen.insert(next.clone()) {
                    stack.push(next);
                }
            }
        }
    }
    seen
}

/// The oracle's verdict for a board, given the reachable set of its shape.
pub fn verdict(
    reach: &HashSet<Vec<u64>>,
    cells: &[u64],
    players: u64,
    rows: usize,
    cols: usize,
    k: u64,
) -> Verdict {
    if !reach.contains(cells) {
        return Verdict::Error;
    }
    match (1..=players).find(|&p| has_line(cells, rows, cols, k, p)) {
        Some(p) => Verdict::Player(p),
        None => Verdict::NoWinners,
    }
}

type Shape = (u64, usize, usize, u64);
type Cache = Mutex<HashMap<Shape, &'static HashSet<Vec<u64>>>>;

/// [`verdict`], with the reachable sets computed once per shape and kept for the process.
pub fn cached_verdict(cells: &[u64], players: u64, rows: usize, cols: usize, k: u64) -> Verdict {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    let reach = *CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .entry((players, rows, cols, k))
        .or_insert_with(|| Box::leak(Box::new(reachable(players, rows, cols, k))));
    verdict(reach, cells, players, rows, cols, k)
}

/// Whether the engine's verdict on `case` (a tiny torus) is the oracle's.
pub fn engine_agrees(case: &super::BoardCase) -> Result<(), Disagreement> {
    use crate::game::Case;
    let want = cached_verdict(&case.cells, case.players, case.rows, case.cols, case.k);
    let got = super::judge(&case.input()[..]).map_err(|e| Disagreement::Rejected(e.to_string()))?;
    if got[0].verdict == want {
        Ok(())
    } else {
        Err(Disagreement::Verdict {
            engine: format!("{:?}", got[0].verdict),
            oracle: format!("{want:?}"),
        })
    }
}
