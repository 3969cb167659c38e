//! Judging whole transcripts with the engine: parse and play in one streaming pass.

use std::io::Read;

use super::game::Game;
use super::parse::Parser;
use super::{Judgement, Reason, Rules};
use crate::error::{describe_bytes, InputError, JudgeError, Position};

/// The longest game the ICFP rule sets can judge (moves are numbered with 32 bits in the
/// repetition history; such a game would need tens of gigabytes of history anyway).
pub const MAX_ICFP_MOVES: u64 = u32::MAX as u64 - 1;

/// Judges every game of a transcript with the engine, reading it once, in memory bounded by
/// the board and (ICFP rule sets) the history.
pub fn judge<R: Read>(reader: R, rules: Rules) -> Result<Vec<Judgement>, JudgeError> {
    let mut parser = Parser::new(reader);
    let mut out = Vec::new();
    while let Some(n) = parser.next_game()? {
        let mut game = Game::new(n, rules).expect("the parser checked the board size");
        let mut moves = 0u64;
        while let Some(mv) = parser.next_move()? {
            moves += 1;
            if game.decision().is_none() {
                if rules.forbids_repetition() && moves > MAX_ICFP_MOVES {
                    return Err(InputError::new(
                        Position::default(),
                        parser.case(),
                        format!("at most {MAX_ICFP_MOVES} moves under the ICFP rules"),
                        describe_bytes(b"a longer game"),
                    )
                    .into());
                }
                game.play(mv);
            }
        }
        out.push(match game.decision() {
            Some(d) => Judgement {
                n,
                winner: Some(d.winner),
                decisive_move: Some(d.at),
                reason: d.reason,
                moves,
            },
            None => Judgement {
                n,
                winner: None,
                decisive_move: None,
                reason: Reason::Quit,
                moves,
            },
        });
    }
    Ok(out)
}
