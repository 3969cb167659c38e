//! Some Game's Kattis problem package: the statement, the examples, edge cases and solutions.

use crate::game::problem::{Content, GeneratorRule};

const STATEMENT: &str = "$P$ players play on an $R \\times C$ board whose left and right edges \
are glued together, and whose top and bottom edges are glued too. Every square starts as $0$. \
Player $1$ moves first, then $2$, ..., then $P$, then $1$ again; a move writes the mover's number \
on a square holding $0$.

A *line* is a sequence of squares $s, s + d, s + 2d, \\ldots$ for one step $d$, indices taken \
modulo $R$ and $C$. The steps are $(0, 1)$, $(1, 0)$, $(1, 1)$ and $(1, -1)$, and the knight hops \
$(1, 2)$, $(2, 1)$, $(1, -2)$ and $(2, -1)$; a line keeps one step throughout. A player *has a \
line* when $K$ consecutive squares of a line hold that player's number (squares may repeat when \
a line closes on itself). The game ends as soon as a player has a line (when several do, the \
lowest-numbered wins), or when no square holds $0$; no move is made after the end.

Given a board, print `PLAYER x` if player $x$ has won, `NO WINNERS` if nobody has won, and \
`ERROR` if no legal play from the empty board reaches it.

## Input

Data sets until the end of the input. Each starts with a line of four integers $P$, $R$, $C$ \
and $K$ ($P, R, C \\ge 1$, $R \\cdot C \\le 10^4$, $0 \\le K$), followed by $R$ lines of $C$ \
integers from $0$ to $P$.

## Output

For each data set, its verdict on a line of its own, with an empty line between two verdicts.
";

/// The Python solution; with `plant`, its planted bug switched on.
fn solution(plant: Option<&str>) -> String {
    let source = include_str!("../../examples/judges/somegame.py");
    match plant {
        None => source.to_string(),
        Some(plant) => source.replace(
            "PLANT = sys.argv[sys.argv.index(\"--plant\") + 1] if \"--plant\" in sys.argv else None",
            &format!("PLANT = \"{plant}\""),
        ),
    }
}

/// The package's content: a data table (the cases written out, listed in tests/layers.rs as
/// allowed its length).
pub fn content() -> Content {
    let corpus = |name: &str, text: &str| (name.to_string(), text.as_bytes().to_vec());
    Content {
        title: "Some Game".into(),
        source: "DMOJ ioiqrp5, April Fools Contest 2017".into(),
        statement: STATEMENT.into(),
        samples: vec![
            corpus(
                "diagonal-cycle",
                include_str!("../../corpus/somegame/sample-1-diagonal-cycle-k4.in"),
            ),
            corpus(
                "wrapping-diagonal",
                include_str!("../../corpus/somegame/sample-2-wrapping-diagonal.in"),
            ),
            corpus(
                "impossible",
                include_str!("../../corpus/somegame/sample-3-impossible.in"),
            ),
            corpus(
                "no-winners",
                include_str!("../../corpus/somegame/sample-4-no-winners.in"),
            ),
        ],
        edge_cases: vec![
            corpus(
                "both-players-have-lines",
                include_str!("../../corpus/somegame/both-players-have-lines.in"),
            ),
            corpus(
                "one-stone-too-many",
                include_str!("../../corpus/somegame/counts-one-stone-too-many.in"),
            ),
            corpus(
                "player-owed-nothing",
                include_str!("../../corpus/somegame/counts-player-owed-nothing.in"),
            ),
            corpus(
                "every-removal-leaves-a-line",
                include_str!("../../corpus/somegame/every-removal-leaves-a-line.in"),
            ),
            corpus(
                "k0-any-stone",
                include_str!("../../corpus/somegame/k0-any-stone.in"),
            ),
            corpus(
                "k0-empty-board",
                include_str!("../../corpus/somegame/k0-empty-board.in"),
            ),
            corpus(
                "k1-first-stone",
                include_str!("../../corpus/somegame/k1-first-stone-already-won.in"),
            ),
            corpus(
                "last-mover-first-of-round",
                include_str!("../../corpus/somegame/last-mover-is-the-first-of-the-round.in"),
            ),
            corpus(
                "line-of-non-last-mover",
                include_str!("../../corpus/somegame/line-of-non-last-mover.in"),
            ),
            corpus(
                "one-row-torus",
                include_str!("../../corpus/somegame/one-row-torus-stone-is-a-line.in"),
            ),
            corpus(
                "player-2-wins",
                include_str!("../../corpus/somegame/player-2-wins.in"),
            ),
            corpus(
                "samples-stacked",
                include_str!("../../corpus/somegame/samples-stacked.in"),
            ),
            corpus(
                "two-by-two-cycles",
                include_str!("../../corpus/somegame/two-by-two-diagonal-cycles.in"),
            ),
            corpus(
                "value-above-p",
                include_str!("../../corpus/somegame/value-above-p.in"),
            ),
        ],
        submissions: vec![
            ("accepted".into(), "somegame.py".into(), solution(None)),
            (
                "wrong_answer".into(),
                "no_wrap.py".into(),
                solution(Some("no-wrap")),
            ),
        ],
        generator_rules: vec![
            GeneratorRule {
                name: "random",
                knobs: "",
                purpose: "the generator's mix of boards, players and lines",
            },
            GeneratorRule {
                name: "largest-board",
                knobs: "--rows 100 --cols 100",
                purpose: "the largest board, 100 x 100",
            },
            GeneratorRule {
                name: "full-board",
                knobs: "--rows 100 --cols 100 --fill 1",
                purpose: "a 100 x 100 board filled by play: the longest game",
            },
        ],
    }
}
