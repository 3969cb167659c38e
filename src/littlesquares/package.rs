//! LittleSquares' Kattis problem package: the statement, the examples, edge cases and
//! solutions.

use crate::game::problem::{Content, GeneratorRule};

const STATEMENT: &str = "Two players take turns on a grid of squares, some of them already filled \
(`#`), the others empty (`.`). A move fills either one empty square of the bottom row of a band, \
or a whole $2 \\times 2$ block of empty squares, where the grid's rows are taken in bands of two \
(rows $1$ and $2$, rows $3$ and $4$, ...) and a block lies inside one band. Whoever fills the \
last empty square wins; a player with no move loses.

Given the grid, decide whether the player to move (`first`) or the other player (`second`) wins \
when both play perfectly.

## Input

One or more grids, separated by one empty line. A grid is an even number of rows, from $2$ to \
$10$, each of the same even length from $2$ to $10$, made of `.` and `#`.

## Output

For each grid, `first` or `second` on a line of its own.
";

/// The C solution, with a planted bug chosen by a definition before it.
fn solution(plant: &str) -> String {
    let mut source = String::new();
    if !plant.is_empty() {
        source.push_str(&format!("#define {plant}\n"));
    }
    source.push_str(include_str!("../../examples/judges/littlesquares.c"));
    source
}

/// Every 2 x 2 .. 10 x 10 grid shape (even sides), empty, and full.
fn shapes() -> Vec<(String, Vec<u8>)> {
    let mut cases = Vec::new();
    for (fill, what) in [('.', "empty"), ('#', "full")] {
        let mut text = String::new();
        for rows in (2..=10).step_by(2) {
            for cols in (2..=10).step_by(2) {
                if !text.is_empty() {
                    text.push('\n');
                }
                for _ in 0..rows {
                    text.extend(std::iter::repeat_n(fill, cols));
                    text.push('\n');
                }
            }
        }
        cases.push((format!("every-size-{what}"), text.into_bytes()));
    }
    cases
}

/// The package's content: a data table (the cases written out, listed in tests/layers.rs as
/// allowed its length).
pub fn content() -> Content {
    let corpus = |name: &str, text: &str| (name.to_string(), text.as_bytes().to_vec());
    let mut edge_cases = vec![
        corpus(
            "full-grid",
            include_str!("../../corpus/littlesquares/full-grid-is-a-loss.in"),
        ),
        corpus(
            "lone-bottom-square",
            include_str!("../../corpus/littlesquares/lone-bottom-cell-must-be-filled.in"),
        ),
        corpus(
            "several-grids",
            include_str!("../../corpus/littlesquares/multi-grid-rows-form.in"),
        ),
        corpus(
            "run-of-8",
            include_str!("../../corpus/littlesquares/run-of-8-against-a-lone-square.in"),
        ),
        corpus(
            "grundy-values-not-bits",
            include_str!("../../corpus/littlesquares/xor-grundy-values-not-win-bits.in"),
        ),
    ];
    edge_cases.extend(shapes());
    Content {
        title: "Little Squares".into(),
        source: "TopCoder SRM 389".into(),
        statement: STATEMENT.into(),
        samples: vec![
            corpus(
                "empty-2x2",
                include_str!("../../corpus/littlesquares/example-0-empty-2x2.in"),
            ),
            corpus(
                "example-1",
                include_str!("../../corpus/littlesquares/example-1.in"),
            ),
            corpus(
                "4x2",
                include_str!("../../corpus/littlesquares/example-2-4x2.in"),
            ),
            corpus(
                "2x4",
                include_str!("../../corpus/littlesquares/example-3-2x4.in"),
            ),
            corpus(
                "example-4",
                include_str!("../../corpus/littlesquares/example-4.in"),
            ),
            corpus(
                "8x8",
                include_str!("../../corpus/littlesquares/example-5-8x8.in"),
            ),
        ],
        edge_cases,
        submissions: vec![
            ("accepted".into(), "littlesquares.c".into(), solution("")),
            (
                "wrong_answer".into(),
                "xor_bits.c".into(),
                solution("PLANT_XOR_BITS"),
            ),
        ],
        generator_rules: vec![
            GeneratorRule {
                name: "random",
                knobs: "",
                purpose: "the generator's mix of grid sizes and fillings",
            },
            GeneratorRule {
                name: "largest-grid",
                knobs: "--rows 10 --cols 10",
                purpose: "the largest grid, 10 x 10",
            },
            GeneratorRule {
                name: "longest-play",
                knobs: "--rows 10 --cols 10 --filled 0.1",
                purpose: "10 x 10 grids nine tenths empty: the longest plays",
            },
        ],
    }
}
