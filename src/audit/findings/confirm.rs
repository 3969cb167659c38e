//! Whether the reference confirms the engine's expected output for an input: the one check a
//! finding about an answer, and a strengthening case, must pass.

use crate::audit::findings::evidence::Confirmation;
use crate::audit::terms::Auditable;
use crate::game::{render, Engine};
use crate::util::answer::{compare, escape, Verdict};
use crate::util::error::JudgeError;

/// What the reference says of the engine's output for `input`, on which the program wrote
/// `program_output`, within `budget` (estimated steps); beyond the reference's budget or
/// limits, the game's second opinion where it has one.
pub fn confirm<G: Auditable>(
    input: &[u8],
    program_output: &[u8],
    rules: G::Options,
    budget: u64,
) -> Confirmation {
    let Ok(engine) = G::judge(Engine::Fast, &mut &input[..], rules) else {
        return Confirmation::Disputed("the engine rejects the input".into());
    };
    let cost = engine
        .iter()
        .map(|j| G::reference_cost(j, rules))
        .fold(0u64, u64::saturating_add);
    let unconfirmed = |why: String| match G::second_opinion(input, rules, &engine) {
        Some(Ok(())) => Confirmation::Unconfirmed(format!(
            "{why}; the game's second opinion agrees with the engine"
        )),
        Some(Err(other)) => Confirmation::Disputed(format!(
            "{why}; the game's second opinion disagrees: {other}"
        )),
        None => Confirmation::Unconfirmed(why),
    };
    if cost > budget {
        return unconfirmed(format!(
            "reference not run: estimated {cost} steps, over its budget"
        ));
    }
    match G::judge(Engine::Reference, &mut &input[..], rules) {
        Ok(reference) if reference == engine => Confirmation::ByReference,
        Ok(reference) => {
            let said = render::<G>(&reference);
            let why = if compare(&said, program_output) == Verdict::AC {
                "the reference gives the program's answer"
            } else {
                "the reference disagrees with the engine"
            };
            Confirmation::Disputed(format!("{why}: {}", escape(said.as_bytes(), 100)))
        }
        Err(JudgeError::Refused { reason, .. }) => {
            unconfirmed(format!("reference refused: {reason}"))
        }
        Err(e) => Confirmation::Disputed(format!("the reference rejects the input: {e}")),
    }
}
