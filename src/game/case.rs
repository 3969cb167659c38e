//! A game's random, shrinkable cases, and the corners audit draws.

use super::*;

/// Judgement `case` (1-based) of `judgements`, or an error naming how many cases there are.
pub fn case_of<G: Game>(
    judgements: &[G::Judgement],
    case: u64,
) -> Result<&G::Judgement, JudgeError> {
    let count = judgements.len() as u64;
    case.checked_sub(1)
        .and_then(|i| judgements.get(i as usize))
        .ok_or_else(|| JudgeError::Refused {
            case,
            reason: format!(
                "no case {case}: the input holds {count} case{}",
                if count == 1 { "" } else { "s" }
            ),
        })
}

/// A random, shrinkable case of one game: generated from an [`Entropy`], written as contest
/// input, and shrunk. Each game has exactly one generator; `referee gen`, `stress`, `audit`, the
/// fuzz targets and the property tests all draw from it, steered by its knobs.
pub trait Case: Clone + Debug + Send + Sync + 'static {
    /// The game.
    type Game: Generated<Case = Self>;
    /// The generator's settings, read from the knobs; the default leaves every choice random.
    type Shape: Clone + Debug + Default + Send + Sync;
    /// The knobs of [`Self::Shape`].
    const KNOBS: &'static [Knob];

    /// The shape of the random cases `audit` runs a program on: every style whose cases a
    /// judge answers at once, and the game's extremes for their share
    /// ([`EXTREME_PERCENT`]); with [`Constraints::Contest`] every case is inside the contest's
    /// limits ([`Packaged::outside_contest`]), extremes included.
    fn for_programs(constraints: Constraints) -> Self::Shape;

    /// The cases of `input` (in either form), as cases of this game under `options`: how
    /// `audit` reads its input files, to write them in a program's form and shrink them.
    fn from_input(
        input: &[u8],
        options: <Self::Game as Game>::Options,
    ) -> Result<Vec<Self>, JudgeError>;

    /// The shape asked for by `knobs` (only this game's knobs are present).
    fn shape(knobs: &Knobs) -> Result<Self::Shape, KnobError>;

    /// A random case of `shape`, under `options` (a random rule set when `None`).
    fn generate(
        entropy: &mut dyn Entropy,
        options: Option<<Self::Game as Game>::Options>,
        shape: &Self::Shape,
    ) -> Self;

    /// The rule set the case is judged under.
    fn options(&self) -> <Self::Game as Game>::Options;

    /// The case as input, in the game's contest format.
    fn input(&self) -> Vec<u8>;

    /// Smaller variants of the case, most promising first: fewer moves, a smaller board, fewer
    /// rows and columns, simpler values. Lazy, so that a case of 10^5 moves, with about 10^6
    /// candidates, costs one candidate at a time; never a candidate larger than the case, so
    /// shrinking a case inside the contest's limits can stay inside them.
    fn shrink(&self) -> Box<dyn Iterator<Item = Self> + '_>;

    /// The case's input with one realistic defect (a changed byte, a number out of range, a
    /// missing, extra or blank line, a wrong letter case...): both parsers must reject it at
    /// the same place, or both accept it alike.
    fn corrupt(&self, entropy: &mut dyn Entropy) -> Vec<u8>;

    /// The case's shape in a few words (`N=3`, `2x4`, `P=2 3x3 K=2`): what tells findings
    /// apart beside their verdicts.
    fn shape_label(&self) -> String;

    /// Corner `k` of the game's limits (`None` past the last, and for shapes other than
    /// [`Case::for_programs`]'): a case drawn from `entropy` inside one of the extremes that a
    /// judge breaks on and that random cases seldom reach (for Pousse, a straight made by the
    /// pushes of one side into the last row of the largest board). [`case_for_programs`] puts
    /// every corner in each [`CORNER_PERIOD`] of `audit`'s random cases. None by default.
    fn corner(
        entropy: &mut dyn Entropy,
        options: Option<<Self::Game as Game>::Options>,
        shape: &Self::Shape,
        k: usize,
    ) -> Option<Self> {
        let _ = (entropy, options, shape, k);
        None
    }

    /// How many steps the case is made of, when its first steps alone are a case too (a
    /// game's moves; [`Case::prefix`]): what `audit` bisects for the shortest prefix that
    /// still fails. `None` by default.
    fn steps(&self) -> Option<usize> {
        None
    }

    /// The case of the first `steps` of this case's steps ([`Case::steps`]); the case itself
    /// by default.
    fn prefix(&self, steps: usize) -> Self {
        let _ = steps;
        self.clone()
    }

    /// Every case of the game's smallest sizes under `options`, smallest first, each that
    /// matters once (for Pousse, the games of up to six moves on boards of up to 4 x 4 whose
    /// moves but the last leave the game undecided): where shrinking a wrong answer gets
    /// stuck, `audit` runs them in order for the smallest that fails the same way. None by
    /// default.
    fn smallest(options: <Self::Game as Game>::Options) -> Box<dyn Iterator<Item = Self>> {
        let _ = options;
        Box::new(std::iter::empty())
    }

    /// The shape of the smallest interesting cases of the game, when this case is larger than
    /// they are: where shrinking gets stuck on a failure, `audit` searches such cases for a
    /// smaller one that fails the same way. `None` by default.
    fn small_shape(&self) -> Option<Self::Shape> {
        None
    }

    /// An oracle of the game's own, independent of both implementations, for the cases of a
    /// shape: its name (the fuzz target `GAME_matches_NAME`) and the shape of the cases it
    /// decides; `None` (the default) for a game without one.
    fn oracle() -> Option<(&'static str, Self::Shape)> {
        None
    }

    /// Whether the engine's verdict on this case (of the oracle's shape) is the oracle's: `Err`
    /// says how it is not.
    fn oracle_agrees(&self) -> Result<(), Disagreement> {
        Ok(())
    }

    /// The case as text for messages: its rule set (when not the default) and its input.
    fn describe(&self) -> String {
        let rules = self.options();
        let mut text = if rules == Default::default() {
            String::new()
        } else {
            format!("(--rules {})\n", rules.name())
        };
        text.push_str(&String::from_utf8_lossy(&self.input()));
        text
    }
}

/// How many consecutive random cases of `audit` (and of `gen --like-audit`) hold each of the
/// game's corners ([`Case::corner`]) once.
pub const CORNER_PERIOD: u64 = 1000;

/// The corner at `offset` (below [`CORNER_PERIOD`]) of every period: corner `k` sits at
/// offset `(61 k + 7) mod 1000`, so that the corners spread over the period (61 is prime to
/// 1000: the offsets of 1000 corners differ).
pub fn corner_at(offset: u64) -> u64 {
    // 541 is the inverse of 61 modulo 1000.
    ((offset % CORNER_PERIOD + CORNER_PERIOD - 7) * 541) % CORNER_PERIOD
}

/// Random case `index` of a run, as `audit` draws it for programs with `shape`: the game's
/// corner at its place in the period, else a case from the generator, both drawn from
/// `entropy` (the case's own random stream).
pub fn case_for_programs<C: Case>(
    entropy: &mut dyn Entropy,
    index: u64,
    options: Option<<C::Game as Game>::Options>,
    shape: &C::Shape,
) -> C {
    let k = corner_at(index % CORNER_PERIOD) as usize;
    C::corner(entropy, options, shape, k).unwrap_or_else(|| C::generate(entropy, options, shape))
}
