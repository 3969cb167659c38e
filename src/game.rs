//! The one interface every driver (judge, verify, grade, stress, fuzz, bench) is written
//! against: a game, judged by either implementation.

use std::fmt::Debug;
use std::io::Read;

use crate::error::JudgeError;

/// Which implementation judges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Implementation {
    /// The optimized engine.
    #[default]
    Fast,
    /// The deliberately simple reference implementation.
    Reference,
}

/// A contest game with two independent implementations.
pub trait Game: 'static {
    /// The game's command-line name.
    const NAME: &'static str;
    /// Text printed between two verdicts, after the first one's newline (the blank line of
    /// multi-case outputs, or nothing).
    const BETWEEN: &'static str;
    /// Settings that change the rules (Pousse's rule set), `()` where there are none.
    type Options: Copy + Debug + Default + Send + Sync + 'static;
    /// The full result of judging one case: the verdict and what explains it. Two
    /// implementations agree when their judgements are equal.
    type Judgement: Clone + PartialEq + Debug + Send + Sync + 'static;

    /// Judges every case of `input` with `implementation`.
    fn judge(
        implementation: Implementation,
        input: &mut dyn Read,
        options: Self::Options,
    ) -> Result<Vec<Self::Judgement>, JudgeError>;

    /// The contest's output line for a judgement (without the newline).
    fn verdict(judgement: &Self::Judgement) -> String;

    /// A one-line explanation of a judgement (decisive move, reason, sizes).
    fn explain(judgement: &Self::Judgement) -> String;

    /// Why this judgement is no verdict at all: the implementation refused the case (the
    /// reference's search limit), `None` for a real verdict.
    fn refusal(_judgement: &Self::Judgement) -> Option<String> {
        None
    }
}

/// The contest output for a list of judgements, exactly as the problem expects it.
pub fn render<G: Game>(judgements: &[G::Judgement]) -> String {
    let mut out = String::new();
    for (i, j) in judgements.iter().enumerate() {
        if i > 0 {
            out.push_str(G::BETWEEN);
        }
        out.push_str(&G::verdict(j));
        out.push('\n');
    }
    out
}

/// Pousse, under a rule set.
pub struct Pousse;

impl Game for Pousse {
    const NAME: &'static str = "pousse";
    const BETWEEN: &'static str = "\n";
    type Options = crate::pousse::Rules;
    type Judgement = crate::pousse::Judgement;

    fn judge(
        implementation: Implementation,
        input: &mut dyn Read,
        rules: Self::Options,
    ) -> Result<Vec<Self::Judgement>, JudgeError> {
        match implementation {
            Implementation::Fast => crate::pousse::judge::judge(input, rules),
            Implementation::Reference => crate::pousse::reference::judge(input, rules),
        }
    }

    fn verdict(j: &Self::Judgement) -> String {
        j.verdict().to_string()
    }

    fn explain(j: &Self::Judgement) -> String {
        j.explain()
    }
}

/// LittleSquares.
pub struct LittleSquares;

impl Game for LittleSquares {
    const NAME: &'static str = "littlesquares";
    const BETWEEN: &'static str = "";
    type Options = ();
    type Judgement = crate::littlesquares::Judgement;

    fn judge(
        implementation: Implementation,
        input: &mut dyn Read,
        (): (),
    ) -> Result<Vec<Self::Judgement>, JudgeError> {
        match implementation {
            Implementation::Fast => crate::littlesquares::judge(input),
            Implementation::Reference => crate::littlesquares::reference::judge(input),
        }
    }

    fn verdict(j: &Self::Judgement) -> String {
        j.verdict().to_string()
    }

    fn explain(j: &Self::Judgement) -> String {
        j.explain()
    }

    fn refusal(j: &Self::Judgement) -> Option<String> {
        (j.outcome == crate::littlesquares::Outcome::BeyondReferenceLimit).then(|| {
            format!(
                "beyond the reference's limit: {} empty squares, the exhaustive search stops at {}",
                j.empty,
                referee_reference::littlesquares::MAX_EMPTY
            )
        })
    }
}

/// Some Game.
pub struct SomeGame;

impl Game for SomeGame {
    const NAME: &'static str = "somegame";
    const BETWEEN: &'static str = "\n";
    type Options = ();
    type Judgement = crate::somegame::Judgement;

    fn judge(
        implementation: Implementation,
        input: &mut dyn Read,
        (): (),
    ) -> Result<Vec<Self::Judgement>, JudgeError> {
        match implementation {
            Implementation::Fast => crate::somegame::judge(input),
            Implementation::Reference => crate::somegame::reference::judge(input),
        }
    }

    fn verdict(j: &Self::Judgement) -> String {
        j.verdict_text()
    }

    fn explain(j: &Self::Judgement) -> String {
        j.explain()
    }
}
