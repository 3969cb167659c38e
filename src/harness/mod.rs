//! The differential-testing harness: random cases for every game, one comparison of engine
//! and reference written once for all games, and shrinking of diverging cases.
//!
//! `referee stress` (stable Rust), the cargo-fuzz targets (`fuzz/`, thin glue over
//! [`fuzz`]) and the regression replays (`tests/regressions.rs`) all use these pieces.

pub mod littlesquares;
pub mod pousse;
pub mod somegame;

#[cfg(feature = "arbitrary")]
pub mod fuzz;

use std::fmt;

use crate::error::JudgeError;
use crate::game::{Game, Implementation};
use crate::generate::Rng;

/// Reference work (see [`Game::reference_cost`]) beyond which a comparison only checks that
/// the reference parser accepts the input, without judging it.
pub const REFERENCE_BUDGET: u64 = 50_000_000;

/// A structured test case of one game.
pub trait Case: Clone + fmt::Debug {
    /// The game.
    type G: Game;
    /// The game options (Pousse's rule set).
    fn options(&self) -> <Self::G as Game>::Options;
    /// The case as input text, in the game's contest format.
    fn input(&self) -> Vec<u8>;
    /// A random case.
    fn random(rng: &mut Rng, options: Option<<Self::G as Game>::Options>) -> Self;
    /// Smaller variants of the case, most promising first.
    fn shrink(&self) -> Vec<Self>;
}

/// How the implementations disagree on an input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// What the engine said.
    pub engine: String,
    /// What the reference said.
    pub reference: String,
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

fn describe<G: Game>(result: &Result<Vec<G::Judgement>, JudgeError>) -> String {
    match result {
        Ok(js) => js
            .iter()
            .enumerate()
            .map(|(i, j)| format!("case {}: {} ({})", i + 1, G::verdict(j), G::explain(j)))
            .collect::<Vec<_>>()
            .join("; "),
        Err(e) => format!("rejected: {e}"),
    }
}

/// Judges `input` with both implementations and explains any difference: verdicts, decisive
/// moves, reasons, or (for malformed input) whether and where each parser rejects it. Inputs
/// the engine accepts but whose reference cost exceeds [`REFERENCE_BUDGET`] are only checked
/// for acceptance by the reference parser.
pub fn compare<G: Game>(input: &[u8], options: G::Options) -> Result<(), Divergence> {
    let fast = G::judge(Implementation::Fast, &mut &input[..], options);
    if let Some(general) = G::judge_general_path(input, options) {
        if !same_result::<G>(&fast, &general) {
            return Err(Divergence {
                engine: describe::<G>(&fast),
                reference: format!("(the engine's general path) {}", describe::<G>(&general)),
            });
        }
    }
    let affordable = match &fast {
        Ok(js) => {
            js.iter()
                .map(G::reference_cost)
                .fold(0u64, u64::saturating_add)
                <= REFERENCE_BUDGET
        }
        Err(_) => true,
    };
    let reference = if affordable {
        G::judge(Implementation::Reference, &mut &input[..], options)
    } else {
        G::reference_parses(input).map(|()| Vec::new())
    };
    let agree = match (&fast, &reference) {
        (Ok(_), Ok(_)) if !affordable => true,
        _ => same_result::<G>(&fast, &reference),
    };
    if agree {
        Ok(())
    } else {
        Err(Divergence {
            engine: describe::<G>(&fast),
            reference: if affordable {
                describe::<G>(&reference)
            } else {
                format!("(parse only) {}", describe::<G>(&reference))
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

/// Shrinks a failing case: repeatedly takes the first smaller variant that still fails.
pub fn shrink<C: Case>(case: C, fails: impl Fn(&C) -> bool) -> C {
    let mut best = case;
    'outer: loop {
        for candidate in best.shrink() {
            if fails(&candidate) {
                best = candidate;
                continue 'outer;
            }
        }
        return best;
    }
}
