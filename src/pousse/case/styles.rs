//! The kinds of random games, and how often each comes.

use crate::game::EXTREME_PERCENT;
use crate::util::random::Entropy;

/// The kinds of random games, each steered towards a corner of the rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Most moves from a small palette, so that straights and repetitions come often.
    Palette,
    /// Both colours get straights while their counts stay equal, then one move makes the counts
    /// unequal with neither at zero (2-1, 1-2, ...).
    Race,
    /// The move that ends the game gives the win to the colour that did not move.
    OpponentPush,
    /// A push into a full line (a marker falls off), from an edge chosen at random.
    FullLine,
    /// A short sequence of moves repeated until configurations come back: repetitions after
    /// long cycles under the ICFP rule sets.
    Cycle,
    /// A long game on a board above 8, every move undecided: thousands of moves.
    Long,
    /// A board too large for the reference within its budget (N up to 200): the engine is
    /// checked by sampled windows replayed by the reference instead.
    Huge,
    /// What real judges break at ([`super::extremes::extreme`]): the largest boards the limits allow, games of
    /// 32,767 to 100,000 moves, long tails of moves after a decision, full and empty boards,
    /// and under the ICFP rule sets a repetition long after the configuration it repeats.
    Extreme,
}

impl Style {
    /// Every style but [`Style::Extreme`], with its share of the other random games in percent.
    const SHARES: [(Style, u64); 7] = [
        (Style::Palette, 46),
        (Style::Race, 13),
        (Style::OpponentPush, 13),
        (Style::FullLine, 13),
        (Style::Cycle, 9),
        (Style::Long, 3),
        (Style::Huge, 3),
    ];

    /// A random style: an extreme for [`EXTREME_PERCENT`] of the games (the top of the roll,
    /// so that a fuzzer's exhausted bytes, which read as zeros, give ordinary games).
    pub(super) fn random(e: &mut dyn Entropy) -> Style {
        if e.below(100) >= 100 - EXTREME_PERCENT {
            return Style::Extreme;
        }
        let mut roll = e.below(100);
        for (style, share) in Style::SHARES {
            if roll < share {
                return style;
            }
            roll -= share;
        }
        Style::Palette
    }
}
