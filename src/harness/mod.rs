//! The differential-testing harness: one cross-examination of engine and reference written once
//! for all games, and the shrinking of a failing case.
//!
//! `referee stress` (stable Rust), the cargo-fuzz targets (`fuzz/`, thin glue over [`fuzz`]),
//! the property tests and the regression replays (`tests/vectors/regressions/`) all use these
//! pieces, on the cases of each game's one generator ([`crate::game::Case`]).

pub mod fuzz;
mod minimize;
pub mod regression;
pub mod signatures;

use std::fmt;

pub use minimize::shrink;

use crate::game::Referenced;
use crate::game::{Engine, Game, Judged};
use crate::util::error::JudgeError;

/// Reference work (see [`Referenced::reference_cost`]) beyond which a comparison only checks that
/// the reference parser accepts the input, without judging it.
pub const REFERENCE_BUDGET: u64 = 50_000_000;

/// How the implementations disagree on an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// What the engine said.
    pub engine: String,
    /// What the reference said.
    pub reference: String,
    /// The gist, for a signature: the two sides' verdicts only (`X WINS -> TIE GAME`,
    /// `accepted -> rejected at 3:2`, `general path: ...`).
    pub gist: String,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "engine:    {}\nreference: {}",
            self.engine, self.reference
        )
    }
}

/// A result's verdicts only, for a divergence's gist.
fn verdicts<G: Game>(result: &Result<Vec<G::Judgement>, JudgeError>) -> String {
    match result {
        Ok(js) if js.is_empty() => "accepted".to_string(),
        Ok(js) => js
            .iter()
            .map(|j| j.verdict())
            .collect::<Vec<_>>()
            .join(", "),
        Err(JudgeError::Input(e)) => format!("rejected at {}", e.position),
        Err(e) => format!("{e}"),
    }
}

fn describe<G: Game>(result: &Result<Vec<G::Judgement>, JudgeError>) -> String {
    match result {
        Ok(js) => js
            .iter()
            .enumerate()
            .map(|(i, j)| format!("case {}: {} ({})", i + 1, j.verdict(), j.explain()))
            .collect::<Vec<_>>()
            .join("; "),
        Err(e) => format!("rejected: {e}"),
    }
}

/// Judges `input` with both implementations and explains any difference: verdicts, decisive
/// moves, reasons, or (for malformed input) whether and where each parser rejects it. Inputs
/// the engine accepts but whose reference cost exceeds [`REFERENCE_BUDGET`], or that the
/// reference refuses, are only checked for acceptance by the reference parser, and by the
/// game's second opinion ([`Referenced::second_opinion`]) where it has one. Where the engine has a
/// general path besides its specialised ones, that path must agree too.
pub fn cross_examine<G: Game + Referenced>(
    input: &[u8],
    options: G::Options,
) -> Result<(), Divergence> {
    let fast = G::judge(Engine::Fast, &mut &input[..], options);
    if let Some(general) = G::judge_general_path(input, options) {
        if !same_result::<G>(&fast, &general) {
            return Err(Divergence {
                engine: describe::<G>(&fast),
                reference: format!("(the engine's general path) {}", describe::<G>(&general)),
                gist: format!(
                    "engine {} -> general path {}",
                    verdicts::<G>(&fast),
                    verdicts::<G>(&general)
                ),
            });
        }
    }
    let affordable = match &fast {
        Ok(js) => {
            js.iter()
                .map(|j| G::reference_cost(j, options))
                .fold(0u64, u64::saturating_add)
                <= REFERENCE_BUDGET
        }
        Err(_) => true,
    };
    let mut reference = if affordable {
        G::judge(Engine::Reference, &mut &input[..], options)
    } else {
        Err(JudgeError::Refused {
            case: 1,
            reason: "over the harness's budget".into(),
        })
    };
    let parse_only = matches!(reference, Err(JudgeError::Refused { .. }));
    if parse_only {
        reference = G::reference_parses(input).map(|()| Vec::new());
    }
    let agree = match (&fast, &reference) {
        (Ok(judgements), Ok(_)) if parse_only => {
            if let Some(Err(why)) = G::second_opinion(input, options, judgements) {
                return Err(Divergence {
                    engine: describe::<G>(&fast),
                    reference: format!("(second opinion) {why}"),
                    gist: "second opinion".to_string(),
                });
            }
            true
        }
        _ => same_result::<G>(&fast, &reference),
    };
    if agree {
        Ok(())
    } else {
        Err(Divergence {
            gist: format!("{} -> {}", verdicts::<G>(&fast), verdicts::<G>(&reference)),
            engine: describe::<G>(&fast),
            reference: if parse_only {
                format!("(parse only) {}", describe::<G>(&reference))
            } else {
                describe::<G>(&reference)
            },
        })
    }
}

/// Whether two results agree: equal judgements, or input errors at the same position and case.
fn same_result<G: Game>(
    a: &Result<Vec<G::Judgement>, JudgeError>,
    b: &Result<Vec<G::Judgement>, JudgeError>,
) -> bool {
    match (a, b) {
        (Ok(a), Ok(b)) => a == b,
        (Err(JudgeError::Input(a)), Err(JudgeError::Input(b))) => {
            (a.position, a.case) == (b.position, b.case)
        }
        _ => false,
    }
}
