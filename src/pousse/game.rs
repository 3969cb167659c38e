//! Pousse as a [`Game`]: the engine and the reference behind one interface.

use std::io::Read;

use super::{Judgement, PousseCase, Rules};
use crate::error::JudgeError;
use crate::game::{Engine, Game};

/// Pousse, under a rule set.
pub struct Pousse;

impl Game for Pousse {
    const NAME: &'static str = "pousse";
    const BETWEEN: &'static str = "\n";
    const FIRST_LINE: &'static str = "a board size or case count";
    type Options = Rules;
    type Judgement = Judgement;
    type Case = PousseCase;

    fn judge(
        engine: Engine,
        input: &mut dyn Read,
        rules: Rules,
    ) -> Result<Vec<Judgement>, JudgeError> {
        match engine {
            Engine::Fast => super::judge::judge(input, rules),
            Engine::Reference => super::reference::judge(input, rules),
        }
    }

    fn judge_general_path(
        input: &[u8],
        rules: Rules,
    ) -> Option<Result<Vec<Judgement>, JudgeError>> {
        Some(super::judge::judge_on_general_boards(input, rules))
    }

    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        Ok(referee_reference::pousse::check(input)?)
    }

    fn reference_cost(j: &Judgement, _rules: Rules) -> u64 {
        // Every move played recounts all 2N lines of N squares; under the ICFP rule sets it
        // also compares the board with every earlier one.
        let played = j.decisive_move.unwrap_or(j.moves);
        let board = (j.n as u64).pow(2);
        played.saturating_mul(board).saturating_mul(2 + played / 2)
    }

    /// A single decimal number: the board size, or the case count of multi-case input.
    fn recognises(line: &[u8]) -> bool {
        let mut fields = line
            .split(|b| *b == b' ' || *b == b'\t')
            .filter(|f| !f.is_empty());
        matches!(
            (fields.next(), fields.next()),
            (Some(f), None) if f.iter().all(u8::is_ascii_digit)
        )
    }
}
