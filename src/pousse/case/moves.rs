//! Random moves: uniform, from a palette, undecided, or steered towards a target move.

use super::styles::Style;
use crate::pousse::steered::{random_move, Steered};
use crate::pousse::{Board, BoardRepr, Edge, Match, Move, Rules, SmallBoard};
use crate::util::random::{pick, Entropy};

/// The largest board of the extremes beyond the contest's limit (the engine judges up to
/// [`MAX_N`](crate::pousse::MAX_N); larger extremes would only cost time).
pub const ENGINE_EXTREME_N: usize = 1000;

/// Above this board size, undecided games are made of plain random moves cut before any
/// decisive one, instead of trying every move on a copy of the board.
pub const UNDECIDED_BY_TRIAL: usize = 64;

/// The moves of a random game of `count` moves on an `n` x `n` board. With `palette` > 0, 80%
/// of the moves come from `palette` moves drawn first. With `undecided`, each move is drawn
/// until one leaves the straight counts equal and (ICFP rule sets) repeats no configuration
/// seen so far; when no such move turns up in `8 N` draws the game stops early, so it may be
/// shorter than asked. Above [`UNDECIDED_BY_TRIAL`], see there.
pub fn moves(
    e: &mut dyn Entropy,
    n: usize,
    count: usize,
    palette: usize,
    undecided: bool,
    rules: Rules,
) -> Vec<Move> {
    let palette: Vec<Move> = (0..palette).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if !palette.is_empty() && e.chance(0.8) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    if !undecided {
        return (0..count).map(|_| draw(e)).collect();
    }
    if n > UNDECIDED_BY_TRIAL {
        // Trying each move on a copy of the board costs O(N^2) per move here; random moves
        // essentially never make a straight of N or repeat a position at this size. Play
        // them, and cut the game before a decisive move should one happen.
        let mut moves: Vec<Move> = (0..count).map(|_| draw(e)).collect();
        let mut game = Match::new(n, rules).expect("valid size");
        if let Some(k) = moves.iter().position(|&m| game.play(m).is_some()) {
            moves.truncate(k);
        }
        return moves;
    }
    on_board!(n, undecided_moves(e, n, count, rules, &draw))
}

/// Calls `$f` (a generic function call, its board representation left to inference) with the
/// bitboards of [`SmallBoard`] for `$n <= 8` and the general [`Board`] above.
macro_rules! on_board {
    ($n:expr, $f:ident($($arg:expr),*)) => {
        match $n {
            1 => $f::<SmallBoard<1>>($($arg),*),
            2 => $f::<SmallBoard<2>>($($arg),*),
            3 => $f::<SmallBoard<3>>($($arg),*),
            4 => $f::<SmallBoard<4>>($($arg),*),
            5 => $f::<SmallBoard<5>>($($arg),*),
            6 => $f::<SmallBoard<6>>($($arg),*),
            7 => $f::<SmallBoard<7>>($($arg),*),
            8 => $f::<SmallBoard<8>>($($arg),*),
            _ => $f::<Board>($($arg),*),
        }
    };
}
use on_board;

/// [`moves`]' undecided games, on boards of representation `B`.
fn undecided_moves<B: BoardRepr>(
    e: &mut dyn Entropy,
    n: usize,
    count: usize,
    rules: Rules,
    draw: &dyn Fn(&mut dyn Entropy) -> Move,
) -> Vec<Move> {
    let mut game = Steered::<B>::new(n, rules);
    while game.moves.len() < count && game.undecided(e, draw, |_| true) {}
    game.moves
}

/// A game steered by `style` (one of the steered styles): undecided moves until the target
/// move is possible, the target move, and sometimes a few moves after it (read, not played).
pub(super) fn steered(e: &mut dyn Entropy, n: usize, rules: Rules, style: Style) -> Vec<Move> {
    on_board!(n, steered_on(e, n, rules, style))
}

/// [`steered`], on boards of representation `B`.
fn steered_on<B: BoardRepr>(
    e: &mut dyn Entropy,
    n: usize,
    rules: Rules,
    style: Style,
) -> Vec<Move> {
    let palette: Vec<Move> = (0..3).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if e.chance(0.6) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    let mut game = Steered::<B>::new(n, rules);
    let edge = *pick(e, &Edge::ALL);
    let prefix = e.below(2 * (n * n) as u64 + 1) as usize;
    for step in 0..8 * n * n + 40 {
        let (x, o) = game.board.straights();
        let ready = step >= prefix;
        let hit = match style {
            Style::Race if ready && x == o && x >= 1 => game.choose(e, &draw, |ef| {
                let (x, o) = ef.straights;
                x != o && x.min(o) >= 1 && !ef.repeats
            }),
            Style::OpponentPush if ready => {
                game.choose(e, &draw, |ef| ef.opponent_wins() && !ef.repeats)
            }
            Style::FullLine if ready => {
                game.choose(e, &draw, |ef| ef.mv.edge == edge && ef.full_line)
            }
            _ => false,
        };
        if hit {
            break;
        }
        // Towards the target: a race wants straights on both sides.
        let advanced = match style {
            Style::Race => game.undecided(e, &draw, |ef| ef.straights.0 >= 1),
            _ => false,
        };
        if !advanced && !game.undecided(e, &draw, |_| true) {
            break;
        }
    }
    let mut moves = game.moves;
    if e.chance(0.3) {
        moves.extend((0..1 + e.below(3)).map(|_| random_move(e, n)));
    }
    moves
}
