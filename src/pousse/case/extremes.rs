//! The extreme games: the largest and emptiest boards, full boards, long games and the
//! repetition of longest ago.

use super::moves::{moves, steered};
use super::styles::Style;
use crate::pousse::steered::{random_move, LONG_GAME_MOVES};
use crate::pousse::{Edge, Match, Move, Reason, Rules};
use crate::util::random::{pick, Entropy};

/// The kinds of extreme games, with their shares in permille of the extremes. The costly ones
/// come rarely: a long game costs a judge as much as a thousand ordinary ones (at the largest
/// size, as much as tens of thousands), so they come about once in a thousand cases of a run,
/// and the largest boards are filled rarely.
const EXTREMES: [(Extreme, u64); 8] = [
    (Extreme::Empty, 360),
    (Extreme::Largest, 360),
    (Extreme::FullBoard, 130),
    (Extreme::FullLargest, 10),
    (Extreme::Repetition, 40),
    (Extreme::LongGame, 46),
    (Extreme::LongTail, 46),
    (Extreme::LongLargest, 8),
];

/// What an extreme game is (see [`Style::Extreme`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Extreme {
    /// An empty board at either end of the sizes, or a single move on the largest.
    Empty,
    /// A short random game on the largest board.
    Largest,
    /// A board of 2 to 20 filled, then pushes into full lines.
    FullBoard,
    /// The largest board filled, then pushes into full lines.
    FullLargest,
    /// Under an ICFP rule set the repetition of a configuration seen long before; under
    /// waterloo a long game.
    Repetition,
    /// A long game, every move undecided, on a board of 5 to 8.
    LongGame,
    /// A game decided early, then a long tail of moves before QUIT.
    LongTail,
    /// A long game of random moves on the largest board.
    LongLargest,
}

/// An extreme game with boards of at most `largest` (see [`Style::Extreme`]).
pub(super) fn extreme(e: &mut dyn Entropy, rules: Rules, largest: usize) -> (usize, Vec<Move>) {
    let long = |e: &mut dyn Entropy| {
        let (fewest, most) = LONG_GAME_MOVES;
        fewest + e.below((most - fewest + 1) as u64) as usize
    };
    let mut roll = e.below(1000);
    let kind = EXTREMES
        .iter()
        .find(|(_, share)| {
            let hit = roll < *share;
            roll = roll.saturating_sub(*share);
            hit
        })
        .map_or(Extreme::Empty, |(kind, _)| *kind);
    let long_game = |e: &mut dyn Entropy| {
        let n = 5 + e.below(4) as usize;
        let count = long(e);
        (n, moves(e, n, count, 0, true, rules))
    };
    match kind {
        Extreme::Empty => {
            let n = if e.chance(0.5) { largest } else { 1 };
            let moves = if e.chance(0.5) {
                Vec::new()
            } else {
                vec![random_move(e, n)]
            };
            (n, moves)
        }
        Extreme::Largest => {
            let count = e.below(201) as usize;
            let palette = e.below(4) as usize;
            (largest, moves(e, largest, count, palette, false, rules))
        }
        Extreme::FullBoard => {
            let n = 2 + e.below(19) as usize;
            (n, full_board(e, n, rules))
        }
        Extreme::FullLargest => {
            let n = largest.min(FULL_BOARD_N);
            (n, full_board(e, n, rules))
        }
        Extreme::Repetition if rules.forbids_repetition() => longest_repetition(e, rules),
        Extreme::Repetition | Extreme::LongGame => long_game(e),
        Extreme::LongTail => {
            let n = 2 + e.below(5) as usize;
            let style = *pick(e, &[Style::Race, Style::OpponentPush, Style::FullLine]);
            let mut moves = steered(e, n, rules, style);
            let count = long(e);
            moves.extend((0..count).map(|_| random_move(e, n)));
            (n, moves)
        }
        Extreme::LongLargest => {
            let count = long(e);
            (
                largest,
                (0..count).map(|_| random_move(e, largest)).collect(),
            )
        }
    }
}

/// The largest board the full-board extreme fills (filling takes N^2 moves of O(N) each).
const FULL_BOARD_N: usize = 200;

/// Moves that fill an `n` x `n` board (from random entropy: at most `8 N^2` moves are drawn),
/// then push into full lines for a while: undecided moves where the board is small enough for
/// a judge to decide easily (N <= 12), random ones above (where they decide nothing).
fn full_board(e: &mut dyn Entropy, n: usize, rules: Rules) -> Vec<Move> {
    let squares = n * n;
    if n <= 12 {
        return moves(e, n, 3 * squares + 8 * n, 0, true, rules);
    }
    // Occupancy only: each push fills the first empty square from its edge, if any.
    let mut filled = vec![false; squares];
    let mut left = squares;
    let mut moves = Vec::with_capacity(2 * squares);
    // Bounded: a fuzzer's exhausted bytes draw the same move for ever.
    while left > 0 && moves.len() < 8 * squares {
        let mv = random_move(e, n);
        let i = mv.index as usize - 1;
        let line: Box<dyn Iterator<Item = usize>> = match mv.edge {
            Edge::Left => Box::new((0..n).map(|c| i * n + c)),
            Edge::Right => Box::new((0..n).rev().map(|c| i * n + c)),
            Edge::Top => Box::new((0..n).map(|r| r * n + i)),
            Edge::Bottom => Box::new((0..n).rev().map(|r| r * n + i)),
        };
        if let Some(square) = line.into_iter().find(|&sq| !filled[sq]) {
            filled[square] = true;
            left -= 1;
        }
        moves.push(mv);
    }
    moves.extend((0..2 * n).map(|_| random_move(e, n)));
    moves
}

/// Under an ICFP rule set, the game among a few random ones whose decisive repetition repeats
/// the configuration of longest ago: an undecided opening, then a random sequence of moves
/// repeated until a configuration comes back.
fn longest_repetition(e: &mut dyn Entropy, rules: Rules) -> (usize, Vec<Move>) {
    let mut best: Option<(u64, usize, Vec<Move>)> = None;
    for _ in 0..6 {
        let n = 3 + e.below(4) as usize;
        let opening = e.below(2 * (n * n) as u64 + 1) as usize;
        let mut game = moves(e, n, opening, 0, true, rules);
        let cycle: Vec<Move> = (0..2 + e.below(4 * n as u64))
            .map(|_| random_move(e, n))
            .collect();
        let mut play = Match::new(n, rules).expect("valid size");
        let mut decision = game.iter().find_map(|&m| play.play(m));
        while decision.is_none() && game.len() < 20_000 {
            for &m in &cycle {
                game.push(m);
                decision = play.play(m);
                if decision.is_some() {
                    break;
                }
            }
        }
        let Some(decision) = decision else { continue };
        game.truncate(decision.at as usize);
        let gap = match decision.reason {
            Reason::Repetition { earlier } => decision.at - earlier,
            _ => 0,
        };
        if best.as_ref().is_none_or(|b| gap > b.0) {
            best = Some((gap, n, game));
        }
    }
    best.map_or_else(|| (3, Vec::new()), |(_, n, moves)| (n, moves))
}
