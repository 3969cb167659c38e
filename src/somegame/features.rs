//! The structural features of Some Game cases that the harness must reach (`referee stress
//! --stats`): each verdict and reason, each step of a winning line, lines that wrap across a
//! glued edge, whole cycles shorter than K.

use super::{Judgement, Reason, Verdict};

/// Every feature, in report order.
pub const FEATURES: &[&str] = &[
    "PLAYER x",
    "NO WINNERS",
    "ERROR: square counts or values",
    "ERROR: a line of a player who did not move last",
    "ERROR: no square could have been the winning move",
    "K = 0",
    "a winning line along (0, 1)",
    "a winning line along (1, 0)",
    "a winning line along (1, 1)",
    "a winning line along (1, -1)",
    "a winning line along (1, 2)",
    "a winning line along (2, 1)",
    "a winning line along (1, -2)",
    "a winning line along (2, -1)",
    "a line wrapping across a glued edge",
    "a whole cycle shorter than K owned by one player",
];

/// The lines of `player` on `board`, step by step: (has a line, one of them wraps, one is a
/// whole cycle shorter than K).
fn lines(board: &referee_reference::somegame::Board, player: u64) -> [(bool, bool, bool); 8] {
    let (rows, cols, k) = (board.rows, board.cols, board.k);
    let mut out = [(false, false, false); 8];
    for (s, &(dr, dc)) in super::steps::STEPS.iter().enumerate() {
        // Every step goes down or along its row: dr >= 0.
        let dr = dr as usize;
        for r in 0..rows {
            for c in 0..cols {
                let (mut x, mut y, mut length, mut wraps) = (r, c, 0u64, false);
                while board.cells[x][y] == player {
                    length += 1;
                    let cycle = length < k && {
                        let nx = (x + dr) % rows;
                        let ny = (y as i64 + dc).rem_euclid(cols as i64) as usize;
                        (nx, ny) == (r, c)
                    };
                    if length >= k || cycle {
                        out[s].0 = true;
                        out[s].1 |= wraps;
                        out[s].2 |= cycle;
                        break;
                    }
                    let ny = y as i64 + dc;
                    wraps |= x + dr >= rows || ny < 0 || ny >= cols as i64;
                    x = (x + dr) % rows;
                    y = ny.rem_euclid(cols as i64) as usize;
                }
            }
        }
    }
    out
}

/// The features `input`, judged `judgements`, shows.
pub fn features(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let boards = referee_reference::somegame::parse(input).unwrap_or_default();
    let mut out = Vec::new();
    for (i, j) in judgements.iter().enumerate() {
        out.push(match (j.verdict, j.reason) {
            (_, Reason::ZeroK) => FEATURES[5],
            (Verdict::Player(_), _) => FEATURES[0],
            (Verdict::NoWinners, _) => FEATURES[1],
            (_, Reason::Counts) => FEATURES[2],
            (_, Reason::NotLastMover { .. }) => FEATURES[3],
            _ => FEATURES[4],
        });
        let Verdict::Player(winner) = j.verdict else {
            continue;
        };
        let Some(board) = boards
            .get(i)
            .filter(|b| b.k > 0 && b.rows * b.cols <= 1 << 16)
        else {
            continue;
        };
        for (s, (has, wraps, cycle)) in lines(board, winner).into_iter().enumerate() {
            if has {
                out.push(FEATURES[6 + s]);
            }
            if wraps {
                out.push(FEATURES[14]);
            }
            if cycle {
                out.push(FEATURES[15]);
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// What `audit`'s random cases reach within every period of the corners (`referee gen somegame
/// --like-audit --coverage`), inside the contest's limits: on a board of 10,000 squares a win
/// along each step, no winner, an impossible board; the longest single row and column; and
/// every verdict and reason on any board.
pub const COVERAGE: &[&str] = &[
    "10,000 squares, a win along (0, 1)",
    "10,000 squares, a win along (1, 0)",
    "10,000 squares, a win along (1, 1)",
    "10,000 squares, a win along (1, -1)",
    "10,000 squares, a win along (1, 2)",
    "10,000 squares, a win along (2, 1)",
    "10,000 squares, a win along (1, -2)",
    "10,000 squares, a win along (2, -1)",
    "10,000 squares, NO WINNERS",
    "10,000 squares, ERROR",
    "a single row of 10,000 squares, won",
    "a single column of 10,000 squares, won",
    "PLAYER x",
    "NO WINNERS",
    "ERROR: square counts or values",
    "ERROR: a line of a player who did not move last",
    "a line wrapping across a glued edge",
];

/// The features of [`COVERAGE`] that `input`, judged `judgements`, shows.
pub fn coverage(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let boards = referee_reference::somegame::parse(input).unwrap_or_default();
    let mut out = Vec::new();
    for (board, j) in boards.iter().zip(judgements) {
        if board.rows * board.cols != 10_000 {
            continue;
        }
        match j.verdict {
            Verdict::Player(_) if board.rows == 1 => out.push(COVERAGE[10]),
            Verdict::Player(_) if board.cols == 1 => out.push(COVERAGE[11]),
            Verdict::Player(winner) if board.k > 0 => {
                for (s, (has, _, _)) in lines(board, winner).into_iter().enumerate() {
                    if has {
                        out.push(COVERAGE[s]);
                    }
                }
            }
            Verdict::NoWinners => out.push(COVERAGE[8]),
            Verdict::Error => out.push(COVERAGE[9]),
            Verdict::Player(_) => {}
        }
    }
    let features = features(input, judgements);
    for (feature, covered) in [(0, 12), (1, 13), (2, 14), (3, 15), (14, 16)] {
        if features.contains(&FEATURES[feature]) {
            out.push(COVERAGE[covered]);
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
