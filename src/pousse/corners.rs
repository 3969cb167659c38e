//! The corners of Pousse's limits that `audit`'s cases reach in every period
//! ([`crate::game::Case::corner`]): games a straight decides on the largest board, pushed from
//! each side into its first and its last row or column, by either player, short and at the
//! end of a long game; decisive games on boards of every size band; a push that makes several
//! straights at once. A judge whose arrays are one short, or that clears one square past its
//! board, breaks only there, and random play at N = 100 never makes a straight.
//!
//! A straight is built move by move ([`Steered`]): its maker pushes the same line N times (the
//! line full of its markers only on the last push), the opponent's moves between drawn at
//! random among those that leave the maker's markers in place and decide nothing; the engine
//! then checks that the game ends on the last push, won by the maker. A long game's undecided
//! moves come first; the maker's pushes overwrite whatever they left in the line.

use super::steered::{random_move, Steered, LONG_GAME_MOVES};
use super::{Board, Colour, Edge, Match, Move, Reason, Rules};
use crate::util::random::{pick, Entropy};

/// The size of a corner's board.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Size {
    /// The largest the limits allow.
    Largest,
    /// From the first to the second (inclusive), at most the largest.
    Between(usize, usize),
}

/// Which line a straight is made along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Line {
    /// The first row or column.
    First,
    /// The last row or column.
    Last,
    /// Any.
    Any,
}

/// A corner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Corner {
    /// A straight that `by` (either player when `None`) makes by pushing N times from `side`
    /// (any when `None`) into `line`, after a long undecided game when `long`.
    Straight {
        size: Size,
        side: Option<Edge>,
        line: Line,
        by: Option<Colour>,
        long: bool,
    },
    /// One push that makes several straights at once.
    Several { size: Size },
    /// A game no move decides, long when `long`.
    Undecided { size: Size, long: bool },
}

/// Every corner, in order: on the largest board each side, line and player; on the largest
/// board and on smaller ones after a long game; each band of sizes; several straights at once.
fn corners() -> Vec<Corner> {
    let mut all = Vec::new();
    for side in Edge::ALL {
        for line in [Line::First, Line::Last] {
            for by in [Colour::X, Colour::O] {
                all.push(Corner::Straight {
                    size: Size::Largest,
                    side: Some(side),
                    line,
                    by: Some(by),
                    long: false,
                });
            }
        }
    }
    for side in Edge::ALL {
        all.push(Corner::Straight {
            size: Size::Largest,
            side: Some(side),
            line: Line::Any,
            by: None,
            long: true,
        });
    }
    let any = |size, long| Corner::Straight {
        size,
        side: None,
        line: Line::Any,
        by: None,
        long,
    };
    all.extend([
        any(Size::Between(2, 8), false),
        any(Size::Between(9, 64), false),
        any(Size::Between(65, 99), false),
        any(Size::Between(5, 8), true),
        any(Size::Between(9, 99), true),
        Corner::Several {
            size: Size::Between(1, 1),
        },
        Corner::Several {
            size: Size::Between(2, 4),
        },
        Corner::Undecided {
            size: Size::Largest,
            long: false,
        },
        Corner::Undecided {
            size: Size::Between(5, 8),
            long: true,
        },
    ]);
    all
}

/// How many corners there are.
pub fn count() -> usize {
    corners().len()
}

/// How many times a corner is built again when its construction fails.
const ATTEMPTS: usize = 8;

/// Corner `k` (none past the last) on boards of at most `largest` under `rules`: the board's
/// size and the moves.
pub fn corner(
    e: &mut dyn Entropy,
    rules: Rules,
    largest: usize,
    k: usize,
) -> Option<(usize, Vec<Move>)> {
    let corner = *corners().get(k)?;
    let size_of = |e: &mut dyn Entropy, size: Size| match size {
        Size::Largest => largest,
        Size::Between(low, high) => {
            let (low, high) = (low.min(largest), high.min(largest));
            low + e.below((high - low + 1) as u64) as usize
        }
    };
    for _ in 0..ATTEMPTS {
        let built = match corner {
            Corner::Straight {
                size,
                side,
                line,
                by,
                long,
            } => {
                let n = size_of(e, size);
                let side = side.unwrap_or_else(|| *pick(e, &Edge::ALL));
                let index = match line {
                    Line::First => 1,
                    Line::Last => n as u32,
                    Line::Any => 1 + e.below(n as u64) as u32,
                };
                let by = by.unwrap_or_else(|| *pick(e, &[Colour::X, Colour::O]));
                let prefix = if long { long_game(e) } else { 0 };
                straight(e, n, rules, Move::new(side, index), by, prefix).map(|m| (n, m))
            }
            Corner::Several { size } => {
                let n = size_of(e, size);
                several(e, n, rules).map(|m| (n, m))
            }
            Corner::Undecided { size, long } => {
                let n = size_of(e, size);
                let count = if long {
                    long_game(e)
                } else {
                    1 + e.below(200) as usize
                };
                undecided(e, n, rules, count).map(|m| (n, m))
            }
        };
        if built.is_some() {
            return built;
        }
    }
    None
}

/// The moves of a long game: 32,768 to 100,000.
fn long_game(e: &mut dyn Entropy) -> usize {
    let (fewest, most) = LONG_GAME_MOVES;
    fewest + e.below((most - fewest + 1) as u64) as usize
}

/// `count` moves on an `n` x `n` board, none deciding the game (no straight majority, no
/// configuration repeated); `None` when this draw stops short.
fn undecided(e: &mut dyn Entropy, n: usize, rules: Rules, count: usize) -> Option<Vec<Move>> {
    let mut game = Steered::<Board>::new(n, rules);
    let draw = |e: &mut dyn Entropy| random_move(e, n);
    while game.moves.len() < count {
        if !game.undecided(e, &draw, |_| true) {
            return None;
        }
    }
    Some(game.moves)
}

/// The square the `i`-th (from 0) of a run of pushes `push` leaves its marker on, pushed on by
/// the later ones: row and column, from 0.
fn square_of(push: Move, n: usize, i: usize) -> (usize, usize) {
    let line = push.index as usize - 1;
    match push.edge {
        Edge::Left => (line, i),
        Edge::Right => (line, n - 1 - i),
        Edge::Top => (i, line),
        Edge::Bottom => (n - 1 - i, line),
    }
}

/// A game on an `n` x `n` board that `by`'s straight, made by `n` pushes `push`, decides on the
/// last move, after `prefix` undecided moves (the maker waiting with another move while its
/// push would decide too early); `None` when this draw does not get there.
fn straight(
    e: &mut dyn Entropy,
    n: usize,
    rules: Rules,
    push: Move,
    by: Colour,
    prefix: usize,
) -> Option<Vec<Move>> {
    let mut game = Steered::<Board>::new(n, rules);
    let draw = |e: &mut dyn Entropy| random_move(e, n);
    // The long game: each move undecided, no configuration repeated (under the ICFP rule
    // sets, random play on a full board comes back to one).
    for mv in undecided(e, n, rules, prefix)? {
        let _ = game.try_play(mv, |_, _| true);
    }
    let mut made = 0;
    // The maker's moves that wait, its push deciding too early (on a full board a push shifts
    // markers into other lines).
    let mut waits = 4 * n;
    while made < n {
        let mover = Colour::of_move(game.moves.len() as u64 + 1);
        let keeps = |effect: &super::steered::Effect, board: &Board| {
            !effect.decisive()
                && (0..made).all(|i| {
                    let (row, col) = square_of(push, n, i);
                    board.get(row, col) == Some(by)
                })
        };
        if mover == by {
            let last = made + 1 == n;
            if game.try_play(push, |effect, _| last || !effect.decisive()) {
                made += 1;
                continue;
            }
            if waits == 0 || !game.choose_on(e, &draw, keeps) {
                return None;
            }
            waits -= 1;
        } else if !game.choose_on(e, &draw, keeps) {
            return None;
        }
    }
    decided_last_by(n, rules, &game.moves, by).then_some(game.moves)
}

/// Whether the game of `moves` ends on its last move, won by `by`'s straights.
fn decided_last_by(n: usize, rules: Rules, moves: &[Move], by: Colour) -> bool {
    let Ok(mut play) = Match::new(n, rules) else {
        return false;
    };
    moves.iter().find_map(|&m| play.play(m)).is_some_and(|d| {
        d.at == moves.len() as u64 && d.winner == by && matches!(d.reason, Reason::Straights { .. })
    })
}

/// A game on an `n` x `n` board whose last move makes several straights of its mover at once
/// and decides it: the first move on a 1 x 1 board (a row and a column), else undecided moves
/// until one such push turns up.
fn several(e: &mut dyn Entropy, n: usize, rules: Rules) -> Option<Vec<Move>> {
    if n == 1 {
        return Some(vec![random_move(e, 1)]);
    }
    let mut game = Steered::<Board>::new(n, rules);
    let palette: Vec<Move> = (0..3).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if e.chance(0.5) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    for _ in 0..8 * n * n + 40 {
        let made_several = game.choose(e, &draw, |effect| {
            let (x, o) = effect.straights;
            let mine = if effect.mover == Colour::X { x } else { o };
            mine >= 2 && x != o && !effect.repeats
        });
        if made_several {
            let mover = Colour::of_move(game.moves.len() as u64);
            return decided_last_by(n, rules, &game.moves, mover).then_some(game.moves);
        }
        if !game.undecided(e, &draw, |_| true) {
            return None;
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::util::random::Rng;

    #[test]
    fn every_corner_is_built_and_ends_as_it_says() {
        for rules in Rules::ALL {
            for k in 0..count() {
                let mut rng = Rng::for_item(7, k as u64);
                let (n, moves) = corner(&mut rng, rules, 100, k)
                    .unwrap_or_else(|| panic!("corner {k} under {rules} not built"));
                let mut play = Match::new(n, rules).unwrap();
                let decision = moves.iter().find_map(|&m| play.play(m));
                if let Corner::Undecided { size, long } = corners()[k] {
                    assert_eq!(decision, None, "corner {k} {rules}");
                    assert_eq!(size == Size::Largest, n == 100);
                    assert_eq!(long, moves.len() >= LONG_GAME_MOVES.0, "corner {k}");
                    continue;
                }
                let decision = decision.unwrap();
                assert_eq!(decision.at, moves.len() as u64, "corner {k} {rules}");
                let last = moves[moves.len() - 1];
                match corners()[k] {
                    Corner::Straight {
                        size,
                        side,
                        line,
                        by,
                        long,
                    } => {
                        if size == Size::Largest {
                            assert_eq!(n, 100, "corner {k}");
                        }
                        if let Some(side) = side {
                            assert_eq!(last.edge, side, "corner {k}");
                        }
                        match line {
                            Line::First => assert_eq!(last.index, 1),
                            Line::Last => assert_eq!(last.index, n as u32),
                            Line::Any => {}
                        }
                        if let Some(by) = by {
                            assert_eq!(decision.winner, by, "corner {k}");
                        }
                        if long {
                            assert!(moves.len() > LONG_GAME_MOVES.0, "corner {k}");
                        }
                    }
                    Corner::Undecided { .. } => unreachable!("checked above"),
                    Corner::Several { .. } => {
                        let Reason::Straights { x, o } = decision.reason else {
                            panic!("corner {k}: {decision:?}")
                        };
                        assert!(x.max(o) >= 2, "corner {k}: {decision:?}");
                    }
                }
            }
        }
    }
}
