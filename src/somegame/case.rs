//! Random and shrinkable Some Game boards: the one generator behind `referee gen somegame`,
//! `stress`, `audit`, the fuzz targets and the property tests. Boards come from random play in
//! turn order stopped at a random point (sometimes past a win), plus a few squares rewritten
//! with random values, so that all three verdicts occur.

use super::SomeGame;
use crate::game::Case;
use crate::knobs::{Knob, Knobs};
use crate::random::{pick, Entropy};

/// A board with its header values.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardCase {
    /// Players.
    pub players: u64,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Winning length.
    pub k: u64,
    /// Row-major cells.
    pub cells: Vec<u64>,
}

/// The settings of the generator; `None` leaves a choice random.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BoardShape {
    /// Players (random: 1..=4).
    pub players: Option<u64>,
    /// Rows (random: 1..=7).
    pub rows: Option<usize>,
    /// Columns (random: 1..=7).
    pub cols: Option<usize>,
    /// Winning length (random: 0..=6).
    pub k: Option<u64>,
    /// The fraction of the squares filled by play in turn order (random: 0 to 0.7).
    pub fill: Option<f64>,
    /// Squares rewritten with random values afterwards (random: none, or 1 or 2 three times
    /// in ten).
    pub perturb: Option<usize>,
    /// A torus small enough for the reachability oracle (at most 3 x 3, or strips of up to 6
    /// squares), 1 to 3 players, K up to 5, every square any value from 0 to P.
    pub tiny: bool,
}

/// The tori small enough for the reachability oracle.
const TINY: [(usize, usize); 12] = [
    (1, 1),
    (1, 2),
    (1, 3),
    (1, 4),
    (1, 5),
    (1, 6),
    (2, 2),
    (2, 3),
    (3, 2),
    (2, 1),
    (3, 1),
    (3, 3),
];

impl BoardCase {
    fn without_row(&self, skip: usize) -> BoardCase {
        let cells = self
            .cells
            .chunks(self.cols)
            .enumerate()
            .filter(|(i, _)| *i != skip)
            .flat_map(|(_, row)| row.iter().copied())
            .collect();
        BoardCase {
            rows: self.rows - 1,
            cells,
            ..self.clone()
        }
    }

    fn without_col(&self, skip: usize) -> BoardCase {
        let cells = self
            .cells
            .chunks(self.cols)
            .flat_map(|row| {
                row.iter()
                    .enumerate()
                    .filter(|(j, _)| *j != skip)
                    .map(|(_, v)| *v)
            })
            .collect();
        BoardCase {
            cols: self.cols - 1,
            cells,
            ..self.clone()
        }
    }

    fn tiny(e: &mut dyn Entropy) -> BoardCase {
        let (rows, cols) = *pick(e, &TINY);
        let players = 1 + e.below(3);
        let k = e.below(6);
        let cells = (0..rows * cols).map(|_| e.below(players + 1)).collect();
        BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        }
    }
}

/// `fill` of the squares written in turn order at random places (which may well continue
/// past a win: such boards are `ERROR`), then `perturb` random squares rewritten with values
/// from 0 to P + 1.
fn cells(e: &mut dyn Entropy, players: u64, n: usize, fill: f64, perturb: usize) -> Vec<u64> {
    let mut cells = vec![0u64; n];
    let filled = ((n as f64) * fill) as usize;
    // A random prefix of a permutation (partial Fisher-Yates).
    let mut order: Vec<usize> = (0..n).collect();
    for i in 0..filled.min(n) {
        let j = i + e.below((n - i) as u64) as usize;
        order.swap(i, j);
        cells[order[i]] = (i as u64 % players) + 1;
    }
    for _ in 0..perturb {
        let at = e.below(n as u64) as usize;
        cells[at] = e.below(players + 2);
    }
    cells
}

impl Case for BoardCase {
    type Game = SomeGame;
    type Shape = BoardShape;
    const KNOBS: &'static [Knob] = &[
        Knob::count("players", "players"),
        Knob::count("rows", "rows"),
        Knob::count("cols", "columns"),
        Knob::count("k", "winning length"),
        Knob::fraction(
            "fill",
            "fraction of squares filled by random play in turn order",
        ),
        Knob::count("perturb", "squares rewritten with random values afterwards"),
        Knob::switch(
            "tiny",
            "a torus of at most 12 squares with any values (for the reachability oracle)",
        ),
    ];

    fn shape(knobs: &Knobs) -> Result<BoardShape, String> {
        Ok(BoardShape {
            players: knobs.positive("players")?,
            rows: knobs.positive("rows")?,
            cols: knobs.positive("cols")?,
            k: knobs.count("k")?,
            fill: knobs.fraction("fill")?,
            perturb: knobs.count("perturb")?,
            tiny: knobs.switch("tiny"),
        })
    }

    fn generate(e: &mut dyn Entropy, _: Option<()>, shape: &BoardShape) -> BoardCase {
        if shape.tiny {
            return BoardCase::tiny(e);
        }
        let players = shape.players.unwrap_or_else(|| 1 + e.below(4));
        let rows = shape.rows.unwrap_or_else(|| 1 + e.below(7) as usize);
        let cols = shape.cols.unwrap_or_else(|| 1 + e.below(7) as usize);
        let k = shape.k.unwrap_or_else(|| e.below(7));
        let fill = shape
            .fill
            .unwrap_or_else(|| e.below(101) as f64 / 100.0 * 0.7);
        let perturb = shape.perturb.unwrap_or_else(|| {
            if e.chance(0.3) {
                1 + e.below(2) as usize
            } else {
                0
            }
        });
        let cells = cells(e, players, rows * cols, fill, perturb);
        BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        }
    }

    fn options(&self) {}

    fn input(&self) -> Vec<u8> {
        let mut s = format!("{} {} {} {}\n", self.players, self.rows, self.cols, self.k);
        for row in self.cells.chunks(self.cols) {
            for (i, v) in row.iter().enumerate() {
                if i > 0 {
                    s.push(' ');
                }
                s.push_str(&v.to_string());
            }
            s.push('\n');
        }
        s.into_bytes()
    }

    fn shape_label(&self) -> String {
        format!(
            "P={} {}x{} K={}",
            self.players, self.rows, self.cols, self.k
        )
    }

    fn shrink(&self) -> Vec<BoardCase> {
        let mut out = Vec::new();
        if self.rows > 1 {
            out.push(self.without_row(self.rows - 1));
            out.push(self.without_row(0));
        }
        if self.cols > 1 {
            out.push(self.without_col(self.cols - 1));
            out.push(self.without_col(0));
        }
        if self.k > 1 {
            out.push(BoardCase {
                k: self.k - 1,
                ..self.clone()
            });
        }
        if self.players > 1 && self.cells.iter().all(|&v| v < self.players) {
            out.push(BoardCase {
                players: self.players - 1,
                ..self.clone()
            });
        }
        for i in 0..self.cells.len() {
            if self.cells[i] != 0 {
                let mut cells = self.cells.clone();
                cells[i] = 0;
                out.push(BoardCase {
                    cells,
                    ..self.clone()
                });
            }
        }
        out
    }
}
