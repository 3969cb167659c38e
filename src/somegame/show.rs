//! Seeing a Some Game board (`referee show somegame`, the HTML report): the board with the line
//! that decides marked, and why the verdict is what it is: the winner's line, or for `ERROR` the
//! square counts that turn order cannot produce, or the line of a player who did not move last.
//!
//! Lines are found here by walking each square along each of the 8 steps on the torus, K
//! squares or the whole cycle when it is shorter: slow, and only for drawing one board.

use std::fmt::Write as _;

use super::{Judgement, Reason, Verdict};
use crate::game::view::{window, BoardView, DrawRequest, Paint, WINDOW};
use crate::game::{case_of, Judged};
use crate::util::error::JudgeError;
use referee_reference::somegame::Board;

/// The most square visits spent looking for a line to draw.
const SEARCH_BUDGET: u64 = 200_000_000;

/// A line's squares (row, column; 0-based) and its step (rows down, columns right).
type Line = (Vec<(usize, usize)>, (usize, i64));

/// A line of `player` on `board`: its squares (K of them, or a whole cycle shorter than K) and
/// its step; `None` when the player has none, or the search would be too long.
fn line_of(board: &Board, player: u64) -> Option<Line> {
    let (rows, cols) = (board.rows, board.cols);
    let squares = (rows * cols) as u64;
    let walk = board.k.min(squares);
    if squares.saturating_mul(8).saturating_mul(walk.max(1)) > SEARCH_BUDGET {
        return None;
    }
    for &(dr, dc) in &super::steps::STEPS {
        // Every step goes down or along its row: dr >= 0.
        let dr = dr as usize;
        for r in 0..rows {
            for c in 0..cols {
                let mut line = Vec::new();
                let (mut x, mut y) = (r, c);
                while board.cells[x][y] == player {
                    line.push((x, y));
                    if line.len() as u64 >= board.k {
                        return Some((line, (dr, dc)));
                    }
                    x = (x + dr) % rows;
                    y = (y as i64 + dc).rem_euclid(cols as i64) as usize;
                    if (x, y) == (r, c) {
                        // The whole cycle is the player's: a line of every length.
                        return Some((line, (dr, dc)));
                    }
                }
            }
        }
    }
    None
}

/// The boards of the input and the engine's judgement of case `case`.
fn board_of(input: &[u8], case: u64) -> Result<(Board, Judgement), JudgeError> {
    let judgements = super::judge(input)?;
    let j = *case_of::<super::SomeGame>(&judgements, case)?;
    let board = referee_reference::somegame::parse(input)?
        .into_iter()
        .nth(case as usize - 1)
        .expect("both parsers found the case");
    Ok((board, j))
}

/// Why the verdict, in words, and the squares to mark.
fn explanation(board: &Board, j: &Judgement) -> (Vec<String>, Vec<(usize, usize)>) {
    let mut said = Vec::new();
    let mut marked = Vec::new();
    let mut mark_line = |player: u64, said: &mut Vec<String>, what: &str| {
        let (text, line) = line_said(board, player, what);
        said.push(text);
        marked.extend(line);
    };
    match (j.verdict, j.reason) {
        (Verdict::Player(p), _) if board.k == 0 => {
            said.push(format!(
                "K = 0: every player has a line on the empty board; the tie goes to player {p}"
            ));
        }
        (Verdict::Player(p), _) => mark_line(p, &mut said, "Won"),
        (_, Reason::ZeroK) => said.push("K = 0: only the empty board can arise".into()),
        (_, Reason::NoLine) => said.push("Nobody has a line".into()),
        (_, Reason::Counts) => {
            let (text, squares) = counts_said(board);
            said.push(text);
            marked.extend(squares);
        }
        (_, Reason::NotLastMover { player }) => mark_line(player, &mut said, "Impossible"),
        (_, Reason::LastMoverLine { squares: 0 }) => {
            let filled: u64 = board.cells.iter().flatten().filter(|&&v| v != 0).count() as u64;
            let last = match filled % board.players {
                0 => board.players,
                j => j,
            };
            mark_line(last, &mut said, "Impossible");
            said.push(format!(
                "No square of player {last} (the last mover), emptied, leaves nobody with a line: the game ended before the last move"
            ));
        }
        (_, Reason::LastMoverLine { .. }) => said.push(j.explain()),
    }
    (said, marked)
}

/// `what` (Won, Impossible) said of `player`'s line, and its squares (none when the board is
/// too large to search for it).
fn line_said(board: &Board, player: u64, what: &str) -> (String, Vec<(usize, usize)>) {
    let Some((line, step)) = line_of(board, player) else {
        return (
            format!(
                "{what}: player {player} (line not located: the board is too large to search here)"
            ),
            Vec::new(),
        );
    };
    let cycle = (line.len() as u64) < board.k;
    let text = format!(
        "{what}: player {player}'s line along {step:?}, {} square{}{}: {}",
        line.len(),
        if line.len() == 1 { "" } else { "s" },
        if cycle {
            format!(" (a whole cycle, shorter than K = {})", board.k)
        } else {
            String::new()
        },
        line.iter()
            .take(12)
            .map(|(r, c)| format!("({}, {})", r + 1, c + 1))
            .collect::<Vec<_>>()
            .join(" ")
            + if line.len() > 12 { " ..." } else { "" }
    );
    (text, line)
}

/// Why the squares' counts cannot arise, and the squares to mark: a square above P, or the
/// players whose counts turn order cannot give.
fn counts_said(board: &Board) -> (String, Vec<(usize, usize)>) {
    let players = board.players;
    let mut counts = vec![0u64; players as usize + 1];
    let mut above = Vec::new();
    for (r, row) in board.cells.iter().enumerate() {
        for (c, &v) in row.iter().enumerate() {
            if v > players {
                above.push((r, c));
            } else {
                counts[v as usize] += 1;
            }
        }
    }
    if let Some(&(r, c)) = above.first() {
        let text = format!(
            "Square ({}, {}) holds {}, above P = {players}{}",
            r + 1,
            c + 1,
            board.cells[r][c],
            if above.len() > 1 {
                format!(" ({} such squares)", above.len())
            } else {
                String::new()
            }
        );
        return (text, above);
    }
    let filled: u64 = counts[1..].iter().sum();
    let (m, extra) = (filled / players, filled % players);
    let wrong: Vec<String> = (1..=players)
        .filter(|&p| counts[p as usize] != m + u64::from(p <= extra))
        .take(8)
        .map(|p| {
            format!(
                "player {p} owns {}, turn order gives {}",
                counts[p as usize],
                m + u64::from(p <= extra)
            )
        })
        .collect();
    let shares = match extra {
        0 => format!("every player {m}"),
        1 => format!("player 1 {} and the others {m}", m + 1),
        _ => format!("players 1 to {extra} {} each and the others {m}", m + 1),
    };
    let text = format!(
        "{filled} filled squares: turn order gives {shares}; {}",
        wrong.join("; ")
    );
    (text, Vec::new())
}

/// `referee show somegame`: the board, the deciding line or squares marked, and why.
pub fn draw(input: &[u8], request: &DrawRequest) -> Result<String, JudgeError> {
    let (board, j) = board_of(input, request.case)?;
    let (said, marked) = explanation(&board, &j);
    let paint = Paint::new(request.color);
    let focus = marked.first().copied().unwrap_or((0, 0));
    let (r0, r1) = window(board.rows, focus.0);
    let (c0, c1) = window(board.cols, focus.1);
    let width = board.players.to_string().len().max(
        board
            .cells
            .iter()
            .flatten()
            .max()
            .map_or(1, |v| v.to_string().len()),
    );
    let mut out = format!(
        "Some Game, P = {}, {} x {} torus, K = {}: {} ({})\n",
        board.players,
        board.rows,
        board.cols,
        board.k,
        j.verdict(),
        j.explain()
    );
    for r in r0..=r1 {
        let cells: Vec<String> = (c0..=c1)
            .map(|c| {
                let text = format!("{:>width$}", board.cells[r][c]);
                if marked.contains(&(r, c)) {
                    paint.highlight(&if request.color {
                        text
                    } else {
                        format!("{:>width$}", format!("*{}", board.cells[r][c]))
                    })
                } else if board.cells[r][c] == 0 {
                    paint.dim(&text)
                } else {
                    text
                }
            })
            .collect();
        let _ = writeln!(out, "{}", cells.join(" "));
    }
    if board.rows > WINDOW || board.cols > WINDOW {
        let _ = writeln!(
            out,
            "{}",
            paint.dim(&format!(
                "(rows {} to {} and columns {} to {} of {} x {})",
                r0 + 1,
                r1 + 1,
                c0 + 1,
                c1 + 1,
                board.rows,
                board.cols
            ))
        );
    }
    for line in said {
        out.push_str(&line);
        out.push('\n');
    }
    if !request.color && !marked.is_empty() {
        out.push_str("(* marks the squares named above)\n");
    }
    Ok(out)
}

/// The board as SVG: each player's squares in its own hue, the marked squares outlined.
fn svg(board: &Board, marked: &[(usize, usize)]) -> String {
    let focus = marked.first().copied().unwrap_or((0, 0));
    let (r0, r1) = window(board.rows, focus.0);
    let (c0, c1) = window(board.cols, focus.1);
    let (rows, cols) = (r1 - r0 + 1, c1 - c0 + 1);
    let cell = (360 / rows.max(cols)).clamp(10, 36);
    let mut s = format!(
        r#"<svg class="sg-board" role="img" aria-label="board" width="{}" height="{}">"#,
        cols * cell + 2,
        rows * cell + 2
    );
    for r in r0..=r1 {
        for c in c0..=c1 {
            let v = board.cells[r][c];
            let hue = if v == 0 {
                String::from("#f4f4f4")
            } else {
                format!("hsl({}, 70%, 75%)", (v * 137) % 360)
            };
            let (x, y) = (1 + (c - c0) * cell, 1 + (r - r0) * cell);
            let outline = if marked.contains(&(r, c)) {
                " marked"
            } else {
                ""
            };
            let _ = write!(
                s,
                r#"<rect class="sq{outline}" x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{hue}"/>"#
            );
            if v != 0 {
                let _ = write!(
                    s,
                    r#"<text x="{}" y="{}" font-size="{}">{v}</text>"#,
                    x + cell / 2,
                    y + cell * 7 / 10,
                    cell / 2
                );
            }
        }
    }
    s.push_str("</svg>");
    s
}

/// The HTML report's view of case `case`: the board as SVG with the deciding squares marked,
/// and the text.
pub fn board_view(input: &[u8], case: u64) -> Result<BoardView, JudgeError> {
    let (board, j) = board_of(input, case)?;
    let (_, marked) = explanation(&board, &j);
    let request = DrawRequest::plain(case);
    Ok(BoardView {
        title: format!(
            "Some Game {} x {}, K = {}: {}",
            board.rows,
            board.cols,
            board.k,
            j.verdict()
        ),
        svg: svg(&board, &marked),
        text: draw(input, &request)?,
        replay: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(input: &str) -> String {
        let request = DrawRequest::plain(1);
        draw(input.as_bytes(), &request).unwrap()
    }

    #[test]
    fn a_win_marks_the_line_and_an_error_says_why() {
        // The statement's first sample: a main diagonal of a 3 x 3 torus wins with K = 4.
        let won = show("2 3 3 4\n1 2 0\n2 1 0\n0 0 1\n");
        assert!(won.contains("PLAYER 1"), "{won}");
        assert!(
            won.contains("Won: player 1's line along (1, 1), 3 squares (a whole cycle, shorter than K = 4): (1, 1) (2, 2) (3, 3)"),
            "{won}"
        );
        assert!(won.contains("*1"), "{won}");
        let counts = show("2 2 2 1\n1 1\n1 0\n");
        assert!(counts.contains("ERROR"), "{counts}");
        assert!(
            counts.contains("3 filled squares: turn order gives player 1 2 and the others 1; player 1 owns 3, turn order gives 2; player 2 owns 0, turn order gives 1"),
            "{counts}"
        );
        let above = show("2 1 2 1\n3 0\n");
        assert!(
            above.contains("Square (1, 1) holds 3, above P = 2"),
            "{above}"
        );
        let not_last = show("2 2 3 2\n2 2 0\n1 1 1\n");
        assert!(not_last.contains("Impossible: player"), "{not_last}");
    }

    #[test]
    fn large_boards_are_windows() {
        let (rows, cols) = (100, 100);
        let mut input = format!("2 {rows} {cols} 3\n");
        for r in 0..rows {
            let row: Vec<&str> = (0..cols)
                .map(|c| {
                    if r == 70 && (50..53).contains(&c) {
                        "1"
                    } else if r == 10 && c < 2 {
                        "2"
                    } else {
                        "0"
                    }
                })
                .collect();
            input.push_str(&row.join(" "));
            input.push('\n');
        }
        let text = show(&input);
        assert!(
            text.contains("(rows 51 to 90 and columns 31 to 70 of 100 x 100)"),
            "{text}"
        );
        assert!(text.lines().count() < WINDOW + 8);
    }
}
