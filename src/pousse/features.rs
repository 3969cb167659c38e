//! The structural features of Pousse cases that the harness must reach (`referee stress
//! --stats`): how games end, pushes off full lines, sizes and lengths.

use super::windows::games;
use super::{Board, Colour, Edge, Judgement, Reason};

/// Every feature, in report order.
pub const FEATURES: &[&str] = &[
    "decided by straights of one colour (1-0, 2-0, ...)",
    "decided by unequal straights of both colours (2-1, 1-2, ...)",
    "decided by the opponent's push",
    "decided by a repetition",
    "several straights made by one push",
    "a push off a full line",
    "undecided at QUIT",
    "moves after the decisive one",
    "a 1 x 1 board",
    "a board above 8",
    "a game of 1000 moves or more",
];

/// The features `input`, judged `judgements`, shows.
pub fn features(input: &[u8], judgements: &[Judgement]) -> Vec<&'static str> {
    let mut out = Vec::new();
    for j in judgements {
        match (j.reason, j.winner, j.decisive_move) {
            (Reason::Straights { x, o }, Some(winner), Some(at)) => {
                out.push(if x.min(o) == 0 {
                    FEATURES[0]
                } else {
                    FEATURES[1]
                });
                if Colour::of_move(at) != winner {
                    out.push(FEATURES[2]);
                }
                if x.max(o) >= 2 {
                    out.push(FEATURES[4]);
                }
            }
            (Reason::Repetition { .. }, ..) => out.push(FEATURES[3]),
            _ => out.push(FEATURES[6]),
        }
        if j.decisive_move.is_some_and(|at| at < j.moves) {
            out.push(FEATURES[7]);
        }
        if j.n == 1 {
            out.push(FEATURES[8]);
        }
        if j.n > 8 {
            out.push(FEATURES[9]);
        }
        if j.moves >= 1000 {
            out.push(FEATURES[10]);
        }
    }
    if pushes_off_a_full_line(input, judgements) {
        out.push(FEATURES[5]);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a move played (up to the decisive one) pushes into a full line.
fn pushes_off_a_full_line(input: &[u8], judgements: &[Judgement]) -> bool {
    let Ok(games) = games(input) else {
        return false;
    };
    games.iter().zip(judgements).any(|((n, moves), j)| {
        let played = j.decisive_move.unwrap_or(j.moves).min(moves.len() as u64) as usize;
        if *n > 300 || played > 5000 {
            return false;
        }
        let mut board = Board::new(*n, false).expect("a size the parser took");
        moves[..played].iter().enumerate().any(|(i, &mv)| {
            let line = mv.index as usize - 1;
            let full = (0..*n).all(|p| match mv.edge {
                Edge::Left | Edge::Right => board.get(line, p).is_some(),
                Edge::Top | Edge::Bottom => board.get(p, line).is_some(),
            });
            board.play_unchecked(mv, Colour::of_move(i as u64 + 1));
            full
        })
    })
}
