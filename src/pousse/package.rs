//! Pousse's Kattis problem package: the statement, the examples, edge cases and solutions.

use super::Rules;
use crate::game::problem::{Content, GeneratorRule};

/// The statement, with the repetition rule of `rules`.
fn statement(rules: Rules) -> String {
    let repetition = match rules {
        Rules::Waterloo => "",
        Rules::Icfp98 => {
            "\nA move that repeats an earlier *configuration* also ends the game: its mover \
             loses. A configuration is the board together with the side to move (so the same \
             board with the other player to move is a different configuration). A repetition \
             is never also a win by straights.\n"
        }
        Rules::Icfp98Board => {
            "\nA move that repeats an earlier board also ends the game: its mover loses \
             (whichever side is to move). A repetition is never also a win by straights.\n"
        }
    };
    format!(
        "Pousse is played by two players, X and O, on an $N \\times N$ board, rows and columns \
numbered from $1$ at the top left. X moves first, then the players alternate.

A move slides a marker of the mover's colour onto the board from one edge: `Li` into row $i$ \
from the left, `Ri` into row $i$ from the right, `Ti` into column $i$ from the top and `Bi` into \
column $i$ from the bottom. When the entry square is occupied, every marker from the entry \
square up to the first empty square of that line moves one square further along; when the line \
has no empty square, the last marker of the line falls off the board.

A *straight* of a colour is a row or a column holding $N$ markers of that colour. After each \
move, if one colour has more straights than the other, that colour wins, even when it is not \
the mover's colour; equal counts do not end the game.
{repetition}
Given the transcript of a game, decide who won. Moves after the move that ends the game are \
read but not played. If `QUIT` comes before any move ends the game, the game is a tie.

## Input

The board size $N$ ($1 \\le N \\le 100$) on the first line, then one move per line, then a line \
`QUIT`. A move is one of the letters `L`, `R`, `T`, `B` followed by an index from $1$ to $N$.

The input may instead hold several games: the number of games $T$ ($T \\ge 1$), an empty line, \
then the $T$ games, with one empty line between two games.

## Output

For each game, `X WINS`, `O WINS` or `TIE GAME` on a line of its own, with an empty line \
between the verdicts of two games.
"
    )
}

/// The C solution, with the rule set (and a planted bug) chosen by definitions before it.
fn solution(rules: Rules, plant: &str) -> String {
    let mut source = String::new();
    match rules {
        Rules::Waterloo => {}
        Rules::Icfp98 => source.push_str("#define RULES_ICFP98\n"),
        Rules::Icfp98Board => source.push_str("#define RULES_ICFP98_BOARD\n"),
    }
    if !plant.is_empty() {
        source.push_str(&format!("#define {plant}\n"));
    }
    source.push_str(include_str!("../../examples/judges/pousse.c"));
    source
}

/// A game of `moves` moves on an `n` x `n` board, pushing along every line in turn.
fn sweep(n: usize, moves: usize) -> Vec<u8> {
    let mut text = format!("{n}\n");
    for k in 0..moves {
        let edge = ["L", "T", "R", "B"][(k / n) % 4];
        text.push_str(&format!("{edge}{}\n", k % n + 1));
    }
    text.push_str("QUIT\n");
    text.into_bytes()
}

/// The package's content under `rules`: a data table (the cases written out, listed in
/// tests/layers.rs as allowed its length).
pub fn content(rules: Rules) -> Content {
    let corpus = |name: &str, text: &str| (name.to_string(), text.as_bytes().to_vec());
    Content {
        title: "Pousse".into(),
        source: "ICFP Programming Contest 1998; UVa 844".into(),
        statement: statement(rules),
        samples: vec![
            corpus("tie", include_str!("../../corpus/pousse/sample-1-tie.in")),
            corpus(
                "x-wins",
                include_str!("../../corpus/pousse/sample-2-x-wins.in"),
            ),
        ],
        edge_cases: vec![
            corpus(
                "n1-row-and-column",
                include_str!("../../corpus/pousse/n1-first-move-makes-row-and-column.in"),
            ),
            corpus(
                "n1-moves-after-the-end",
                include_str!("../../corpus/pousse/n1-moves-after-decision-are-ignored.in"),
            ),
            corpus(
                "quit-at-once",
                include_str!("../../corpus/pousse/quit-immediately.in"),
            ),
            corpus(
                "fall-off-at-both-ends",
                include_str!("../../corpus/pousse/fall-off-at-both-ends.in"),
            ),
            corpus(
                "o-move-makes-x-win",
                include_str!("../../corpus/pousse/o-move-makes-x-win.in"),
            ),
            corpus(
                "equal-straights-go-on",
                include_str!("../../corpus/pousse/equal-straights-do-not-end-the-game.in"),
            ),
            corpus(
                "straight-after-equal-counts",
                include_str!("../../corpus/pousse/straight-after-equal-counts.in"),
            ),
            corpus(
                "one-to-two",
                include_str!("../../corpus/pousse/unequal-straights-one-to-two-o-wins.in"),
            ),
            corpus(
                "two-to-one",
                include_str!("../../corpus/pousse/unequal-straights-two-to-one-x-wins.in"),
            ),
            corpus(
                "full-column-push",
                include_str!("../../corpus/pousse/full-column-push-leaves-board-unchanged.in"),
            ),
            corpus(
                "same-board-same-side",
                include_str!("../../corpus/pousse/same-board-same-side-to-move.icfp98.in"),
            ),
            corpus(
                "multi-case",
                include_str!("../../corpus/pousse/multi-case-uva844.in"),
            ),
            corpus(
                "multi-case-repetitions",
                include_str!("../../corpus/pousse/multi-case-repetitions.icfp98.in"),
            ),
            ("largest-board-long-game".into(), sweep(100, 20_000)),
            ("small-board-long-game".into(), sweep(7, 5_000)),
        ],
        submissions: vec![
            ("accepted".into(), "pousse.c".into(), solution(rules, "")),
            (
                "wrong_answer".into(),
                "mover_only.c".into(),
                solution(rules, "PLANT_MOVER_ONLY"),
            ),
        ],
        generator_rules: vec![
            GeneratorRule {
                name: "random",
                knobs: "",
                purpose:
                    "the generator's mix: small boards, races, pushes into full lines, repetitions",
            },
            GeneratorRule {
                name: "largest-board",
                knobs: "--n 100",
                purpose: "the largest board, 100 x 100",
            },
            GeneratorRule {
                name: "long-game",
                knobs: "--n 9 --undecided --moves 70000",
                purpose:
                    "70,000 moves that end nothing: past fixed buffers of 32,767 or 65,535 moves",
            },
        ],
    }
}
