//! The reference implementation's Some Game verdicts, in the engine's types.

use std::io::Read;

use referee_reference::somegame as plain;

use super::{Judgement, Reason, Verdict};
use crate::game::ReferenceCase;
use crate::util::error::JudgeError;

/// Judges every data set with the reference (literal definitions; slow by design).
pub fn judge<R: Read>(mut reader: R) -> Result<Vec<Judgement>, JudgeError> {
    let mut input = Vec::new();
    reader.read_to_end(&mut input)?;
    let boards = plain::parse(&input)?;
    Ok(boards
        .into_iter()
        .map(|mut b| {
            let verdict = plain::judge_board(&mut b);
            convert(&b, verdict)
        })
        .collect())
}

/// Judges one data set the reference's framing cut ([`plain::cases`]).
pub fn judge_case(case: &ReferenceCase) -> Result<Judgement, JudgeError> {
    let (board, verdict) = plain::judge_case(case)?;
    Ok(convert(&board, verdict))
}

/// The verdict `v` of board `b` in the engine's types.
fn convert(b: &plain::Board, v: plain::Verdict) -> Judgement {
    let squares = b.rows as u64 * b.cols as u64;
    let (verdict, reason) = match v {
        plain::Verdict::ZeroKEmpty => (Verdict::Player(1), Reason::ZeroK),
        plain::Verdict::ZeroKNotEmpty => (Verdict::Error, Reason::ZeroK),
        plain::Verdict::BadCounts => (Verdict::Error, Reason::Counts),
        plain::Verdict::NoWinners => (Verdict::NoWinners, Reason::NoLine),
        plain::Verdict::NotLastMover { player } => {
            (Verdict::Error, Reason::NotLastMover { player })
        }
        plain::Verdict::LastMoverLine { player, squares } => (
            if squares > 0 {
                Verdict::Player(player)
            } else {
                Verdict::Error
            },
            Reason::LastMoverLine { squares },
        ),
    };
    Judgement {
        verdict,
        reason,
        squares,
        walk: b.k.min(squares),
        players: b.players,
    }
}
