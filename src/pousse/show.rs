//! Seeing a Pousse game: the board after any move, drawn as in the problem statement (`referee
//! show pousse`), and a game's moves for the HTML report, where `replay.js` plays them again.
//!
//! The statement's drawing: a header with the column numbers (two lines, tens then units, from
//! N = 10), then for each row a separator `+-+-...+` and a cell line `|X|O| |...|` after the row
//! number, and a closing separator. Boards above [`WINDOW`] squares a side are drawn as a window
//! around the line of the move shown.

use serde::Serialize;

use super::parse::Parser;
use super::{Board, Colour, Edge, Judgement, Move, Reason, Rules};
use crate::game::view::{window, BoardView, DrawRequest, Paint, WINDOW};
use crate::game::{case_of, Judged};
use crate::util::error::JudgeError;

/// The most moves a replay carries; a longer game's replay starts from the board that many
/// moves before the last one shown.
pub const REPLAY_MOVES: usize = 2000;

/// A game played up to a move, and the moves before it.
struct Played {
    n: usize,
    /// The board after move `played`.
    board: Board,
    /// Moves played.
    played: u64,
    /// The last move played.
    last: Option<Move>,
    /// The board before the moves of `kept`.
    start: Board,
    /// The last moves played (at most the number asked for).
    kept: std::collections::VecDeque<Move>,
}

/// Plays case `case` (1-based) of `input` up to move `upto` (or its last move), keeping the last
/// `keep` moves and the board before them.
fn play_upto(input: &[u8], case: u64, upto: u64, keep: usize) -> Result<Played, JudgeError> {
    let mut parser = Parser::new(input);
    let mut index = 0;
    while let Some(n) = parser.next_game()? {
        index += 1;
        let wanted = index == case;
        let mut game = Played {
            n,
            board: Board::new(n, false).expect("the parser checked the size"),
            played: 0,
            last: None,
            start: Board::new(n, false).expect("the parser checked the size"),
            kept: std::collections::VecDeque::new(),
        };
        let mut batch = [Move::new(Edge::Left, 1); 64];
        loop {
            let count = parser.next_moves(&mut batch)?;
            if count == 0 {
                break;
            }
            if !wanted {
                continue;
            }
            for &mv in &batch[..count] {
                if game.played >= upto {
                    break;
                }
                game.played += 1;
                game.board.play_unchecked(mv, Colour::of_move(game.played));
                game.last = Some(mv);
                game.kept.push_back(mv);
                if game.kept.len() > keep {
                    let first = game.kept.pop_front().expect("not empty");
                    let number = game.played - game.kept.len() as u64;
                    game.start.play_unchecked(first, Colour::of_move(number));
                }
            }
        }
        if wanted {
            return Ok(game);
        }
    }
    Err(JudgeError::Refused {
        case,
        reason: format!("no case {case}: the input holds {index}"),
    })
}

/// The rows and columns (0-based) that are straights of each colour: (X rows, X columns, O
/// rows, O columns).
fn straights(board: &Board, n: usize) -> [Vec<usize>; 4] {
    let mut out: [Vec<usize>; 4] = Default::default();
    for line in 0..n {
        for (colour, base) in [(Colour::X, 0), (Colour::O, 2)] {
            if (0..n).all(|i| board.get(line, i) == Some(colour)) {
                out[base].push(line);
            }
            if (0..n).all(|i| board.get(i, line) == Some(colour)) {
                out[base + 1].push(line);
            }
        }
    }
    out
}

fn list(lines: &[usize], what: &str) -> Option<String> {
    match lines {
        [] => None,
        [one] => Some(format!("{what} {}", one + 1)),
        many => Some(format!(
            "{what}s {}",
            many.iter()
                .map(|l| (l + 1).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The statement's drawing of `board`, rows `rows` and columns `cols` (inclusive, 0-based),
/// with the squares of straights highlighted.
fn draw_board(
    board: &Board,
    n: usize,
    rows: (usize, usize),
    cols: (usize, usize),
    paint: Paint,
) -> String {
    let [xr, xc, or, oc] = straights(board, n);
    let label = n.to_string().len();
    let mut out = String::new();
    let columns = cols.0..=cols.1;
    // One header line per digit of N, the highest place first.
    for place in (0..label as u32).rev() {
        let unit = 10usize.pow(place);
        let line: String = columns
            .clone()
            .map(|c| {
                let number = c + 1;
                if number >= unit || place == 0 {
                    let digit = (number / unit % 10) as u32;
                    format!(" {}", char::from_digit(digit, 10).expect("a digit"))
                } else {
                    "  ".to_string()
                }
            })
            .collect();
        out.push_str(&format!("{:label$} {line}\n", ""));
    }
    let separator = format!("{:label$} {}+\n", "", "+-".repeat(cols.1 - cols.0 + 1));
    for r in rows.0..=rows.1 {
        out.push_str(&separator);
        out.push_str(&format!("{:>label$} ", r + 1));
        for c in columns.clone() {
            out.push('|');
            let cell = match board.get(r, c) {
                Some(Colour::X) => paint.first("X"),
                Some(Colour::O) => paint.second("O"),
                None => " ".to_string(),
            };
            let in_straight =
                xr.contains(&r) || or.contains(&r) || xc.contains(&c) || oc.contains(&c);
            out.push_str(&if in_straight && board.get(r, c).is_some() {
                paint.highlight(&cell)
            } else {
                cell
            });
        }
        out.push_str("|\n");
    }
    out.push_str(&separator);
    out
}

/// What the straights of `board` are, in words.
fn straights_text(board: &Board, n: usize) -> String {
    let [xr, xc, or, oc] = straights(board, n);
    let side = |rows: &[usize], cols: &[usize]| -> String {
        let parts: Vec<String> = [list(rows, "row"), list(cols, "column")]
            .into_iter()
            .flatten()
            .collect();
        if parts.is_empty() {
            "none".to_string()
        } else {
            parts.join(", ")
        }
    };
    format!(
        "Straights: X {} ({}); O {} ({})",
        xr.len() + xc.len(),
        side(&xr, &xc),
        or.len() + oc.len(),
        side(&or, &oc)
    )
}

/// The square a window of a large board centres on: where `mv` enters.
fn focus(mv: Option<Move>, n: usize) -> (usize, usize) {
    match mv {
        Some(Move {
            edge: Edge::Left,
            index,
        }) => (index as usize - 1, 0),
        Some(Move {
            edge: Edge::Right,
            index,
        }) => (index as usize - 1, n - 1),
        Some(Move {
            edge: Edge::Top,
            index,
        }) => (0, index as usize - 1),
        Some(Move {
            edge: Edge::Bottom,
            index,
        }) => (n - 1, index as usize - 1),
        None => (0, 0),
    }
}

/// `referee show pousse`: case `request.case` after move `request.step` (default: the decisive
/// move, or the last).
pub fn draw(input: &[u8], rules: Rules, request: &DrawRequest) -> Result<String, JudgeError> {
    let judgements = super::judge::judge(input, rules)?;
    let j = *case_of::<super::Pousse>(&judgements, request.case)?;
    if let Some(step) = request.step.filter(|&s| s > j.moves) {
        return Err(JudgeError::Refused {
            case: request.case,
            reason: format!(
                "no move {step}: case {} has {} move{} (--move 0 to {})",
                request.case,
                j.moves,
                if j.moves == 1 { "" } else { "s" },
                j.moves
            ),
        });
    }
    let upto = request.step.unwrap_or(j.decisive_move.unwrap_or(j.moves));
    let played = play_upto(input, request.case, upto, 1)?;
    let paint = Paint::new(request.color);
    let n = played.n;
    let (fr, fc) = focus(played.last, n);
    let (rows, cols) = (window(n, fr), window(n, fc));
    let mut out = format!(
        "Pousse, {n} x {n}, rules {}: {} ({})\n",
        rules.name(),
        j.verdict(),
        j.explain()
    );
    out.push_str(&draw_board(&played.board, n, rows, cols, paint));
    if n > WINDOW {
        out.push_str(&paint.dim(&format!(
            "(rows {} to {} and columns {} to {} of {n})",
            rows.0 + 1,
            rows.1 + 1,
            cols.0 + 1,
            cols.1 + 1
        )));
        out.push('\n');
    }
    match played.last {
        None => out.push_str("Before the first move\n"),
        Some(mv) => {
            let mover = Colour::of_move(upto).letter();
            let mut line = format!("After move {upto} of {}: {mover} {mv}", j.moves);
            if j.decisive_move == Some(upto) {
                line.push_str(" (the decisive move)");
            } else if j.decisive_move.is_some_and(|d| upto > d) {
                line.push_str(" (after the decisive move: not played in the game)");
            }
            out.push_str(&line);
            out.push('\n');
        }
    }
    out.push_str(&straights_text(&played.board, n));
    out.push('\n');
    if let (Some(d), Reason::Repetition { earlier }) = (j.decisive_move, j.reason) {
        if d == upto {
            out.push_str(&format!(
                "Repeats the configuration after move {earlier}{}: its mover loses\n",
                if rules == Rules::Icfp98 {
                    " with the same side to move"
                } else {
                    ""
                }
            ));
        }
    }
    Ok(out)
}

/// The data `replay.js` plays: the board before the first move carried, the moves up to the
/// one shown, and what the engine says of the game.
#[derive(Debug, Serialize)]
struct Replay {
    n: usize,
    rules: &'static str,
    /// Moves before the first one carried.
    first: u64,
    /// The board after move `first`: rows top to bottom separated by `/`, `.` for empty.
    start: String,
    /// The moves carried (`L1`, `T3`, ...), numbers `first + 1` on.
    moves: Vec<String>,
    /// Moves in the game.
    total: u64,
    decisive: Option<u64>,
    verdict: String,
    explanation: String,
    /// The earlier move whose configuration the decisive move repeats, and the board after it.
    earlier: Option<u64>,
    earlier_board: Option<String>,
}

/// The HTML report's view of case `case`: a replay up to the decisive move (or the last), and
/// the text drawing of that board.
pub fn board_view(input: &[u8], rules: Rules, case: u64) -> Result<BoardView, JudgeError> {
    let judgements = super::judge::judge(input, rules)?;
    let j: Judgement = *case_of::<super::Pousse>(&judgements, case)?;
    let end = j.decisive_move.unwrap_or(j.moves);
    let played = play_upto(input, case, end, REPLAY_MOVES)?;
    let earlier = match j.reason {
        Reason::Repetition { earlier } => Some(earlier),
        _ => None,
    };
    let earlier_board = match earlier {
        Some(e) => Some(play_upto(input, case, e, 0)?.board.to_text()),
        None => None,
    };
    let replay = Replay {
        n: played.n,
        rules: rules.name(),
        first: played.played - played.kept.len() as u64,
        start: played.start.to_text(),
        moves: played.kept.iter().map(Move::to_string).collect(),
        total: j.moves,
        decisive: j.decisive_move,
        verdict: j.verdict(),
        explanation: j.explain(),
        earlier,
        earlier_board,
    };
    let request = DrawRequest::plain(case);
    Ok(BoardView {
        title: format!("Pousse {0} x {0}: {1}", j.n, j.verdict()),
        svg: String::new(),
        text: draw(input, rules, &request)?,
        replay: Some(serde_json::to_string(&replay).expect("plain data")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(input: &str, rules: Rules, step: Option<u64>) -> String {
        let request = DrawRequest {
            case: 1,
            step,
            color: false,
        };
        draw(input.as_bytes(), rules, &request).unwrap()
    }

    #[test]
    fn the_board_is_drawn_as_in_the_statement() {
        let game = "4\nL2\nL1\nL2\nL1\nL2\nL1\nL2\nQUIT\n";
        let text = show(game, Rules::Waterloo, None);
        let expected = "\
Pousse, 4 x 4, rules waterloo: X WINS (move 7: straights X 1, O 0)
   1 2 3 4
  +-+-+-+-+
1 |O|O|O| |
  +-+-+-+-+
2 |X|X|X|X|
  +-+-+-+-+
3 | | | | |
  +-+-+-+-+
4 | | | | |
  +-+-+-+-+
After move 7 of 7: X L2 (the decisive move)
Straights: X 1 (row 2); O 0 (none)
";
        assert_eq!(text, expected);
        let early = show(game, Rules::Waterloo, Some(2));
        assert!(
            early.contains("1 |O| | | |\n  +-+-+-+-+\n2 |X| | | |"),
            "{early}"
        );
        assert!(early.contains("After move 2 of 7: O L1\n"), "{early}");
    }

    #[test]
    fn repetitions_name_the_earlier_move_and_large_boards_are_windows() {
        let text = show("2\nR1\nR1\nR1\nR1\nQUIT\n", Rules::Icfp98, None);
        assert!(
            text.contains("Repeats the configuration after move 2 with the same side to move"),
            "{text}"
        );
        let mut big = String::from("100\n");
        for _ in 0..5 {
            big.push_str("B77\n");
        }
        big.push_str("QUIT\n");
        let text = show(&big, Rules::Waterloo, None);
        assert!(text.lines().count() < 2 * WINDOW + 12, "{text}");
        assert!(
            text.contains("(rows 61 to 100 and columns 57 to 96 of 100)"),
            "{text}"
        );
        assert!(
            text.lines().any(|l| l.starts_with("     7 8 9 0 1 2")),
            "{text}"
        );
        assert!(
            text.lines().any(|l| l.starts_with("     5 5 5 6 6")),
            "{text}"
        );
        // Column 100 would have a hundreds digit: a window ending there shows it.
        let corner = show("100\nR100\nQUIT\n", Rules::Waterloo, None);
        assert!(corner.lines().next_back().is_some());
        assert!(corner.lines().any(|l| l.ends_with(" 1")), "{corner}");
    }

    #[test]
    fn a_replay_carries_the_moves_up_to_the_decisive_one() {
        let view = board_view(b"2\nR1\nR1\nR1\nR1\nL2\nQUIT\n", Rules::Icfp98, 1).unwrap();
        let replay: serde_json::Value = serde_json::from_str(&view.replay.unwrap()).unwrap();
        assert_eq!(replay["moves"], serde_json::json!(["R1", "R1", "R1", "R1"]));
        assert_eq!(replay["first"], 0);
        assert_eq!(replay["start"], "../..");
        assert_eq!(replay["earlier"], 2);
        assert_eq!(replay["earlier_board"], "XO/..");
        assert_eq!(replay["total"], 5);
    }
}
