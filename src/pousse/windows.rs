//! The second opinion on games too long or boards too large for the reference: windows of a
//! game, each replayed by the reference from the board the engine reached at its start. Each
//! window's straight counts after every move, and its final board, must be the engine's.
//! Straights and pushes are checked this way at any size; the history of the ICFP rule sets is
//! not (the reference would need the whole game).

use super::parse::Parser;
use super::{Board, Colour, Judgement, Move};
use crate::game::Disagreement;
use crate::util::error::JudgeError;

/// Moves per window.
const WINDOW: usize = 32;
/// Windows per game.
const WINDOWS: usize = 4;

/// The games of a transcript: board size and moves.
pub fn games(input: &[u8]) -> Result<Vec<(usize, Vec<Move>)>, JudgeError> {
    let mut parser = Parser::new(input);
    let mut games = Vec::new();
    let mut batch = [Move::new(super::Edge::Left, 1); 64];
    while let Some(n) = parser.next_game()? {
        let mut moves = Vec::new();
        loop {
            let count = parser.next_moves(&mut batch)?;
            if count == 0 {
                break;
            }
            moves.extend_from_slice(&batch[..count]);
        }
        games.push((n, moves));
    }
    Ok(games)
}

/// Checks windows of every game of `input` against the reference, the engine having judged
/// them `judgements`.
pub fn check(input: &[u8], judgements: &[Judgement]) -> Result<(), Disagreement> {
    let games = games(input).map_err(|e| Disagreement::Unread {
        check: "the engine's parser",
        error: e.to_string(),
    })?;
    for (g, ((n, moves), judgement)) in games.iter().zip(judgements).enumerate() {
        // The moves played: up to the decisive one.
        let played = judgement.decisive_move.unwrap_or(judgement.moves) as usize;
        let played = played.min(moves.len());
        let last_start = played.saturating_sub(WINDOW);
        for w in 0..WINDOWS {
            let start = if WINDOWS == 1 {
                0
            } else {
                last_start * w / (WINDOWS - 1)
            };
            let end = (start + WINDOW).min(played);
            check_window(*n, moves, start, end).map_err(|why| Disagreement::InWindow {
                game: g + 1,
                from: start + 1,
                to: end,
                why: Box::new(why),
            })?;
        }
    }
    Ok(())
}

/// The engine's board after the moves `moves[..start]`, then moves `start..end` played by the
/// engine and by the reference from that board.
fn check_window(n: usize, moves: &[Move], start: usize, end: usize) -> Result<(), Disagreement> {
    let mut board = Board::new(n, false).expect("a size the parser took");
    for (i, &mv) in moves[..start].iter().enumerate() {
        board.play_unchecked(mv, Colour::of_move(i as u64 + 1));
    }
    let text = board.to_text();
    let rows: Vec<&str> = text.split('/').collect();
    let names: Vec<String> = moves[start..end].iter().map(Move::to_string).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let first = Colour::of_move(start as u64 + 1).letter() as u8;
    let (counts, final_rows) = referee_reference::pousse::replay_window(&rows, first, &names);
    for (i, &mv) in moves[start..end].iter().enumerate() {
        board.play_unchecked(mv, Colour::of_move((start + i) as u64 + 1));
        let (x, o) = board.straights();
        let (rx, ro) = counts[i];
        if (x as usize, o as usize) != (rx, ro) {
            return Err(Disagreement::Straights {
                at: start + i + 1,
                mv: mv.to_string(),
                engine: (x, o),
                reference: (rx, ro),
            });
        }
    }
    if board.to_text() != final_rows.join("/") {
        return Err(Disagreement::Boards { at: end });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pousse::case::{moves, transcript};
    use crate::pousse::Rules;
    use crate::util::random::Rng;

    #[test]
    fn windows_of_long_games_on_large_boards_agree() {
        for (n, count) in [(3, 500), (70, 2000), (130, 600)] {
            let moves = moves(&mut Rng::new(n as u64), n, count, 3, false, Rules::Waterloo);
            let text = transcript(n, &moves);
            let judged = crate::pousse::judge::judge(text.as_bytes(), Rules::Waterloo).unwrap();
            check(text.as_bytes(), &judged).unwrap();
        }
    }
}
