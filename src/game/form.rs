//! Which implementation judges, the forms of a case's input, the reference's reading of an
//! input, and the limits cases meet.

use super::*;

/// Which implementation judges (`--engine fast|reference`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, clap::ValueEnum)]
pub enum Engine {
    /// The optimized engine.
    #[default]
    Fast,
    /// The deliberately simple reference implementation.
    Reference,
}

/// How the cases of one input are laid out: one case per input, or the problem's multi-case
/// form (`referee audit --form`). A game whose multi-case form of one case is its single-case
/// form still has both: a program may read one case and stop.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Form {
    /// One case per input.
    Single,
    /// The problem's multi-case form (`Game::join`'s).
    Multi,
}

impl Form {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Form::Single => "single",
            Form::Multi => "multi",
        }
    }
}

/// The input of the cases `inputs` (each in the game's single-case form) in `form`. The single
/// form holds exactly one case.
pub fn in_form<G: Game + Forms>(form: Form, inputs: &[Vec<u8>]) -> Vec<u8> {
    match form {
        Form::Single => {
            assert_eq!(inputs.len(), 1, "the single form holds one case");
            inputs[0].clone()
        }
        Form::Multi => G::join(inputs),
    }
}

/// What the reference's case-by-case reading of an input ([`Referenced::reference_cases`], each
/// held case's grammar checked) says of its grammar.
#[derive(Debug)]
pub enum ReferenceReading {
    /// Every case read and well formed.
    Accepts,
    /// The first error it finds, in the framing or in a case.
    Rejects(JudgeError),
    /// No error among what it read, but not all of it was read (a case over the bound, a read
    /// error): it neither accepts nor rejects the input.
    Unread,
}

/// Reads `input` as the reference does, a case at a time, each held up to `bound` bytes, and
/// checks each case's grammar: verify's second opinion on an input the engine rejects, and
/// the fuzz property that the case-by-case reading agrees with the reference's parser.
pub fn reference_reading<G: Game + Referenced>(
    input: Box<dyn Read + Send + '_>,
    bound: u64,
) -> ReferenceReading {
    let mut unread = false;
    for case in G::reference_cases(input, bound) {
        match case {
            Ok(case) if case.text.is_none() => unread = true,
            Ok(case) => {
                if let Err(e) = G::reference_check_case(&case) {
                    return ReferenceReading::Rejects(e);
                }
            }
            Err(ReferenceStop::Malformed(e)) => return ReferenceReading::Rejects(e.into()),
            Err(_) => return ReferenceReading::Unread,
        }
    }
    if unread {
        ReferenceReading::Unread
    } else {
        ReferenceReading::Accepts
    }
}

/// Which limits cases must meet (`validate --constraints`, `audit --constraints`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum Constraints {
    /// What the engine judges: the game's grammar.
    Engine,
    /// The original problem's limits (each game's `outside_contest`); for `validate`, also the one
    /// canonical layout (single spaces, no leading zeros, no extra blank lines), as a contest's
    /// input validator must demand.
    Contest,
}

impl Constraints {
    /// The command-line spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Constraints::Engine => "engine",
            Constraints::Contest => "contest",
        }
    }
}

/// The share, in percent, of the random cases of `stress`, `audit` and the fuzz targets drawn
/// from each game's extremes: the largest sizes the limits allow, the longest games and lines,
/// full and empty boards, the rule sets' far corners. Each game weighs its extremes so that
/// the costliest (Pousse's games of 10^5 moves) come about once in a thousand cases.
pub const EXTREME_PERCENT: u64 = 1;
