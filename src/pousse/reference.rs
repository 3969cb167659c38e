//! The reference implementation's verdicts, in the engine's types.

use std::io::Read;

use referee_reference::pousse as plain;

use super::{Colour, Judgement, Reason, Rules};
use crate::game::ReferenceCase;
use crate::util::error::JudgeError;

/// Judges every game of a transcript with the reference implementation (whole input in
/// memory; slow by design).
pub fn judge<R: Read>(mut reader: R, rules: Rules) -> Result<Vec<Judgement>, JudgeError> {
    let mut input = Vec::new();
    reader.read_to_end(&mut input)?;
    let verdicts = plain::judge(&input, plain_rules(rules))?;
    Ok(verdicts.into_iter().map(convert).collect())
}

/// Judges one game the reference's framing cut ([`plain::cases`]).
pub fn judge_case(case: &ReferenceCase, rules: Rules) -> Result<Judgement, JudgeError> {
    Ok(convert(plain::judge_case(case, plain_rules(rules))?))
}

fn plain_rules(rules: Rules) -> plain::Rules {
    match rules {
        Rules::Waterloo => plain::Rules::Waterloo,
        Rules::Icfp98 => plain::Rules::Icfp98,
        Rules::Icfp98Board => plain::Rules::Icfp98Board,
    }
}

fn convert(v: plain::Verdict) -> Judgement {
    Judgement {
        n: v.n,
        winner: v
            .winner
            .map(|c| if c == 'X' { Colour::X } else { Colour::O }),
        decisive_move: v.decisive_move,
        reason: match v.reason {
            plain::Reason::Straights { x, o } => Reason::Straights {
                x: x as u32,
                o: o as u32,
            },
            plain::Reason::Repetition { earlier_move } => Reason::Repetition {
                earlier: earlier_move,
            },
            plain::Reason::Quit => Reason::Quit,
        },
        moves: v.moves,
    }
}
