//! The reference implementation's LittleSquares verdicts, in the engine's types.

use std::io::Read;

use referee_reference::littlesquares as plain;

use super::{Judgement, Outcome};
use crate::error::JudgeError;

/// Judges every grid with the reference (exhaustive search; refuses large grids).
pub fn judge<R: Read>(mut reader: R) -> Result<Vec<Judgement>, JudgeError> {
    let mut input = Vec::new();
    reader.read_to_end(&mut input)?;
    let verdicts = plain::judge(&input).map_err(crate::reference_error)?;
    Ok(verdicts
        .into_iter()
        .map(|v| Judgement {
            outcome: match v.first_wins {
                Some(true) => Outcome::First,
                Some(false) => Outcome::Second,
                None => Outcome::BeyondReferenceLimit,
            },
            rows: v.rows,
            cols: v.cols,
            empty: v.empty as u64,
            within_contest_limits: super::within_contest_limits(v.rows, v.cols),
        })
        .collect())
}
