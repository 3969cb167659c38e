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

/// A game's command-line name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, clap::ValueEnum)]
pub enum GameName {
    /// Pousse (ICFP 1998, UVa 844).
    Pousse,
    /// LittleSquares (TopCoder SRM 389).
    Littlesquares,
    /// Some Game (DMOJ ioiqrp5).
    Somegame,
}

impl GameName {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            GameName::Pousse => Pousse::NAME,
            GameName::Littlesquares => LittleSquares::NAME,
            GameName::Somegame => SomeGame::NAME,
        }
    }
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

    /// The engine again through its general code path, where the engine has specialised
    /// ones (Pousse: small boards); `None` where it has a single path. The harness requires
    /// the same result as [`judge`](Game::judge) with the engine.
    fn judge_general_path(
        _input: &[u8],
        _options: Self::Options,
    ) -> Option<Result<Vec<Self::Judgement>, JudgeError>> {
        None
    }

    /// Whether the reference's parser accepts `input` (without judging it): for checking the
    /// parsers against each other on inputs too large for the reference to judge.
    fn reference_parses(input: &[u8]) -> Result<(), JudgeError>;

    /// The contest's output line for a judgement (without the newline).
    fn verdict(judgement: &Self::Judgement) -> String;

    /// A one-line explanation of a judgement (decisive move, reason, sizes).
    fn explain(judgement: &Self::Judgement) -> String;

    /// The size of the case for reports: moves for Pousse, squares otherwise.
    fn size(judgement: &Self::Judgement) -> u64;

    /// An estimate of the reference implementation's work on this case, in elementary steps,
    /// from the engine's judgement; `verify` skips the reference beyond its budget.
    fn reference_cost(judgement: &Self::Judgement) -> u64;

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

    fn judge_general_path(
        input: &[u8],
        rules: Self::Options,
    ) -> Option<Result<Vec<Self::Judgement>, JudgeError>> {
        Some(crate::pousse::judge::judge_on_general_boards(input, rules))
    }

    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        referee_reference::pousse::check(input).map_err(crate::reference_error)
    }

    fn verdict(j: &Self::Judgement) -> String {
        j.verdict().to_string()
    }

    fn explain(j: &Self::Judgement) -> String {
        j.explain()
    }

    fn size(j: &Self::Judgement) -> u64 {
        j.moves
    }

    fn reference_cost(j: &Self::Judgement) -> u64 {
        // Every move played recounts all 2N lines of N squares; under the ICFP rule sets it
        // also compares the board with every earlier one. The rule set is not in the
        // judgement, so the repetition scan is always counted (an overestimate for waterloo).
        let played = j.decisive_move.unwrap_or(j.moves);
        let board = (j.n as u64).pow(2);
        played.saturating_mul(board).saturating_mul(2 + played / 2)
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

    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        referee_reference::littlesquares::check(input).map_err(crate::reference_error)
    }

    fn verdict(j: &Self::Judgement) -> String {
        j.verdict().to_string()
    }

    fn explain(j: &Self::Judgement) -> String {
        j.explain()
    }

    fn size(j: &Self::Judgement) -> u64 {
        (j.rows * j.cols) as u64
    }

    fn reference_cost(j: &Self::Judgement) -> u64 {
        // Memoised positions (2^empty) times the moves tried in each.
        if j.empty > referee_reference::littlesquares::MAX_EMPTY as u64 {
            return 0; // The reference refuses at once.
        }
        (1u64 << j.empty).saturating_mul(2 * j.empty + 1)
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

    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        referee_reference::somegame::parse(input)
            .map(|_| ())
            .map_err(crate::reference_error)
    }

    fn verdict(j: &Self::Judgement) -> String {
        j.verdict_text()
    }

    fn explain(j: &Self::Judgement) -> String {
        j.explain()
    }

    fn size(j: &Self::Judgement) -> u64 {
        j.squares
    }

    fn reference_cost(j: &Self::Judgement) -> u64 {
        // A line check walks up to min(K, squares) squares from every square along 8 steps;
        // there is one check per player, and one per square of the last mover removed.
        let n = j.squares;
        let walk = j.walk.min(n).max(1);
        let checks = match j.reason {
            crate::somegame::Reason::LastMoverLine { .. } => n + 1,
            _ => 1,
        };
        n.saturating_mul(8)
            .saturating_mul(walk)
            .saturating_mul(checks)
    }
}
