//! The reference implementation's LittleSquares verdicts, in the engine's types.

use std::io::Read;

use referee_reference::littlesquares as plain;

use super::{Judgement, Winner};
use crate::game::ReferenceCase;
use crate::util::error::JudgeError;

/// Judges every grid with the reference (exhaustive search). A grid with more empty squares
/// than the search takes is refused ([`JudgeError::Refused`]), never guessed.
pub fn judge<R: Read>(mut reader: R) -> Result<Vec<Judgement>, JudgeError> {
    let mut input = Vec::new();
    reader.read_to_end(&mut input)?;
    plain::judge(&input)?
        .into_iter()
        .enumerate()
        .map(|(i, v)| convert(i as u64 + 1, v))
        .collect()
}

/// Judges one grid the reference's framing cut ([`plain::cases`]).
pub fn judge_case(case: &ReferenceCase) -> Result<Judgement, JudgeError> {
    convert(case.number, plain::judge_case(case)?)
}

/// Case `case`'s verdict in the engine's types; refused beyond the search's limit.
fn convert(case: u64, v: plain::Verdict) -> Result<Judgement, JudgeError> {
    let outcome = match v.first_wins {
        Some(true) => Winner::First,
        Some(false) => Winner::Second,
        None => {
            return Err(JudgeError::Refused {
                case,
                reason: format!(
                "beyond the reference's limit: {} empty squares, the exhaustive search stops at {}",
                v.empty,
                plain::MAX_EMPTY
            ),
            })
        }
    };
    Ok(Judgement {
        outcome,
        rows: v.rows,
        cols: v.cols,
        empty: v.empty as u64,
        within_contest_limits: super::within_contest_limits(v.rows, v.cols),
    })
}
