//! The random games' styles and shape, and the one draw behind [`Case::generate`](crate::game::Case::generate).

use super::extremes::extreme;
use super::moves::{moves, steered, ENGINE_EXTREME_N};
use super::styles::Style;
use super::PousseCase;
use crate::pousse::steered::random_move;
use crate::pousse::{Move, Rules, CONTEST_MAX_N};
use crate::util::random::{pick, Entropy};

/// The settings of the generator; `None` leaves a choice random.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PousseShape {
    /// Board size (random: 1..=8 three times in four, else 9..=100).
    pub n: Option<usize>,
    /// Moves before `QUIT` (random: 0..=200).
    pub moves: Option<usize>,
    /// Draw 80% of the moves from a palette of this many moves, so that straights and
    /// repetitions are frequent; 0 for uniform moves (random: 1..=4).
    pub palette: Option<usize>,
    /// Only moves that leave the game undecided under the rule set, so a judge must play the
    /// whole game (see [`moves`]).
    pub undecided: bool,
    /// The kind of game (random when no other setting is given; [`Style::Palette`] otherwise).
    pub style: Option<Style>,
    /// Random styles exclude the long games and huge boards of the engine's own tests (for
    /// auditing programs, whose time per case matters; the extremes stay, at their share).
    pub programs: bool,
    /// Every board within the contest's limit (N <= [`CONTEST_MAX_N`]).
    pub contest: bool,
    /// The smallest interesting games: N from 1 to 3, a few moves, steered to a decision
    /// (see [`Case::small_shape`](crate::game::Case::small_shape)).
    pub small: bool,
}

impl PousseShape {
    /// The shape of a game on an `n` x `n` board with `moves` moves drawn from a palette of
    /// `palette` moves.
    pub fn fixed(n: usize, moves: usize, palette: usize, undecided: bool) -> PousseShape {
        PousseShape {
            n: Some(n),
            moves: Some(moves),
            palette: Some(palette),
            undecided,
            style: Some(Style::Palette),
            programs: false,
            contest: false,
            small: false,
        }
    }

    /// The largest board this shape draws: the contest's limit, or with the engine's own
    /// limits [`ENGINE_EXTREME_N`].
    pub(super) fn largest(&self) -> usize {
        if self.contest {
            CONTEST_MAX_N
        } else {
            ENGINE_EXTREME_N
        }
    }
}

/// A random game of `shape` ([`Case::generate`](crate::game::Case::generate)).
pub(super) fn generate(
    e: &mut dyn Entropy,
    rules: Option<Rules>,
    shape: &PousseShape,
) -> PousseCase {
    let rules = rules.unwrap_or_else(|| *pick(e, &Rules::ALL));
    if shape.small {
        let n = 1 + e.below(3) as usize;
        let moves = match e.below(4) {
            0 => {
                let count = 1 + e.below(8) as usize;
                moves(e, n, count, 2, false, rules)
            }
            style => {
                let style = [Style::Race, Style::OpponentPush, Style::FullLine][style as usize - 1];
                steered(e, n, rules, style)
            }
        };
        return PousseCase { n, moves, rules };
    }
    let set = shape.n.is_some() || shape.moves.is_some() || shape.palette.is_some();
    let style = match shape.style {
        Some(style) => style,
        None if set || shape.undecided => Style::Palette,
        None => match Style::random(e) {
            Style::Long | Style::Huge if shape.programs => Style::Palette,
            style => style,
        },
    };
    let (n, moves) = match style {
        Style::Extreme => extreme(e, rules, shape.largest()),
        Style::Palette => {
            let n = shape.n.unwrap_or_else(|| {
                if e.chance(0.75) {
                    1 + e.below(8) as usize
                } else {
                    9 + e.below(92) as usize
                }
            });
            let count = shape.moves.unwrap_or_else(|| e.below(201) as usize);
            let palette = shape.palette.unwrap_or_else(|| 1 + e.below(4) as usize);
            (n, moves(e, n, count, palette, shape.undecided, rules))
        }
        Style::Long => {
            let n = shape.n.unwrap_or_else(|| 9 + e.below(32) as usize);
            let count = shape.moves.unwrap_or_else(|| 1000 + e.below(2001) as usize);
            (n, moves(e, n, count, 0, true, rules))
        }
        Style::Huge => {
            let n = shape.n.unwrap_or_else(|| 65 + e.below(136) as usize);
            let n = if shape.contest {
                n.min(CONTEST_MAX_N)
            } else {
                n
            };
            let count = shape.moves.unwrap_or_else(|| 100 + e.below(901) as usize);
            let palette = 2 + e.below(6) as usize;
            (n, moves(e, n, count, palette, false, rules))
        }
        Style::Cycle => {
            let n = shape.n.unwrap_or_else(|| 2 + e.below(4) as usize);
            let cycle: Vec<Move> = (0..2 + e.below(11)).map(|_| random_move(e, n)).collect();
            let count = shape.moves.unwrap_or_else(|| 50 + e.below(351) as usize);
            (n, cycle.iter().copied().cycle().take(count).collect())
        }
        Style::Race | Style::OpponentPush | Style::FullLine => {
            let n = shape.n.unwrap_or_else(|| 2 + e.below(5) as usize);
            (n, steered(e, n, rules, style))
        }
    };
    PousseCase { n, moves, rules }
}
