//! Judging whole transcripts with the engine: parse and play in one streaming pass.

use std::io::Read;

use super::history;
use super::parse::Parser;
use super::play::Match;
use super::{Board, BoardRepr, Edge, Judgement, Move, Reason, Rules, SmallBoard};
use crate::util::error::JudgeError;

/// The longest game the ICFP rule sets can judge (2^31 - 1 moves: see
/// [`history::MAX_MOVES`]; such a game would need tens of gigabytes of history anyway).
pub const MAX_ICFP_MOVES: u64 = history::MAX_MOVES as u64;

/// How many moves the parser decodes per call (see [`Parser::next_moves`]).
const MOVES_PER_READ: usize = 64;

/// Judges every game of a transcript with the engine, reading it once, in memory bounded by
/// the board and (ICFP rule sets) the history.
///
/// Boards of size up to [`SMALL_MAX_N`](super::SMALL_MAX_N) are played on a [`SmallBoard`], larger ones on a
/// [`Board`].
pub fn judge<R: Read>(reader: R, rules: Rules) -> Result<Vec<Judgement>, JudgeError> {
    judge_with(reader, rules, true)
}

/// [`judge`] with every board played on the general [`Board`], even the small ones: the
/// harness checks that both paths agree, so that the general board stays tested at the small
/// sizes where random cases (and most bugs) live.
pub fn judge_on_general_boards<R: Read>(
    reader: R,
    rules: Rules,
) -> Result<Vec<Judgement>, JudgeError> {
    judge_with(reader, rules, false)
}

fn judge_with<R: Read>(
    reader: R,
    rules: Rules,
    small_boards: bool,
) -> Result<Vec<Judgement>, JudgeError> {
    let mut out = Vec::new();
    judge_each_with(reader, rules, small_boards, &mut |j| out.push(j))?;
    Ok(out)
}

/// [`judge`], each judgement handed to `each` as soon as its game ends: memory bounded by the
/// board and the history, whatever the number of games.
pub fn judge_each<R: Read>(
    reader: R,
    rules: Rules,
    each: &mut dyn FnMut(Judgement),
) -> Result<(), JudgeError> {
    judge_each_with(reader, rules, true, each)
}

fn judge_each_with<R: Read>(
    reader: R,
    rules: Rules,
    small_boards: bool,
    each: &mut dyn FnMut(Judgement),
) -> Result<(), JudgeError> {
    let mut parser = Parser::new(reader);
    while let Some(n) = parser.next_game()? {
        let play = match n {
            1 if small_boards => play_game::<SmallBoard<1>, R>,
            2 if small_boards => play_game::<SmallBoard<2>, R>,
            3 if small_boards => play_game::<SmallBoard<3>, R>,
            4 if small_boards => play_game::<SmallBoard<4>, R>,
            5 if small_boards => play_game::<SmallBoard<5>, R>,
            6 if small_boards => play_game::<SmallBoard<6>, R>,
            7 if small_boards => play_game::<SmallBoard<7>, R>,
            8 if small_boards => play_game::<SmallBoard<8>, R>,
            _ => play_game::<Board, R>,
        };
        each(play(&mut parser, n, rules)?);
    }
    Ok(())
}

/// The refusal of a game longer than the ICFP rule sets' history holds.
#[cold]
#[inline(never)]
fn too_long(case: Option<u64>) -> JudgeError {
    JudgeError::Refused {
        case: case.unwrap_or(1),
        reason: format!(
            "a game of more than {MAX_ICFP_MOVES} moves under the ICFP rule sets (the history \
             of configurations is limited to that many)"
        ),
    }
}

/// Plays the moves of the game the parser has just started (size `n`) to its `QUIT`, on board
/// representation `B`; moves after the decisive one are still parsed (and checked), not played.
#[inline]
fn play_game<B: BoardRepr, R: Read>(
    parser: &mut Parser<R>,
    n: usize,
    rules: Rules,
) -> Result<Judgement, JudgeError> {
    let mut game = Match::<B>::on(n, rules).expect("the parser checked the board size");
    let mut moves = 0u64;
    let mut batch = [Move::new(Edge::Left, 1); MOVES_PER_READ];
    loop {
        let count = parser.next_moves(&mut batch)?;
        if count == 0 {
            break;
        }
        for &mv in &batch[..count] {
            moves += 1;
            if game.decision().is_some() {
                continue;
            }
            if rules.forbids_repetition() && moves > MAX_ICFP_MOVES && game.finish().is_none() {
                return Err(too_long(parser.case()));
            }
            game.play_batched(mv);
        }
    }
    Ok(match game.finish() {
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
    })
}
