//! Random and shrinkable Some Game boards: random play in turn order stopped at a random
//! point, sometimes past a win, plus a few perturbed squares, so that all three verdicts occur.

use std::fmt;

use crate::game::SomeGame;
use crate::generate::{somegame_cells, somegame_text, Rng, SomeGameShape};

/// A board with its header values.
#[derive(Clone, PartialEq, Eq)]
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

impl fmt::Debug for BoardCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&super::Case::input(self)))
    }
}

impl BoardCase {
    fn shape(&self) -> SomeGameShape {
        SomeGameShape {
            players: self.players,
            rows: self.rows,
            cols: self.cols,
            k: self.k,
            fill: 0.0,
            perturb: 0,
        }
    }

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
}

impl super::Case for BoardCase {
    type G = SomeGame;

    fn options(&self) {}

    fn input(&self) -> Vec<u8> {
        somegame_text(&self.shape(), &self.cells).into_bytes()
    }

    fn random(rng: &mut Rng, _: Option<()>) -> BoardCase {
        let shape = SomeGameShape {
            players: 1 + rng.below(4),
            rows: 1 + rng.below(7) as usize,
            cols: 1 + rng.below(7) as usize,
            k: rng.below(7),
            fill: rng.below(101) as f64 / 100.0 * 0.7,
            perturb: if rng.chance(0.3) {
                1 + rng.below(2) as usize
            } else {
                0
            },
        };
        let cells = somegame_cells(rng, &shape);
        BoardCase {
            players: shape.players,
            rows: shape.rows,
            cols: shape.cols,
            k: shape.k,
            cells,
        }
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

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for BoardCase {
    /// Random legal play (turn order) to a point chosen by the fuzzer, then a few squares
    /// rewritten with arbitrary small values.
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<BoardCase> {
        let players: u64 = u.int_in_range(1..=4)?;
        let rows: usize = u.int_in_range(1..=7)?;
        let cols: usize = u.int_in_range(1..=7)?;
        let k: u64 = u.int_in_range(0..=6)?;
        let mut cells = vec![0u64; rows * cols];
        let stones = u.int_in_range(0..=rows * cols)?;
        for turn in 0..stones {
            let free: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
            let at = free[u.choose_index(free.len())?];
            cells[at] = turn as u64 % players + 1;
        }
        for _ in 0..u.int_in_range(0..=2)? {
            let at = u.choose_index(cells.len())?;
            cells[at] = u.int_in_range(0..=players + 1)?;
        }
        Ok(BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        })
    }
}

/// A board on a tiny torus (at most 3 x 3, 1 x N or 2 x N strips up to 6 squares), P = 1..3,
/// K = 0..5: small enough for the reachability oracle.
#[derive(Clone, PartialEq, Eq)]
pub struct TinyTorusCase(pub BoardCase);

impl fmt::Debug for TinyTorusCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl TinyTorusCase {
    /// Whether the engine's verdict is the oracle's (the reference is compared separately).
    pub fn engine_agrees_with_oracle(&self) -> Result<(), String> {
        let b = &self.0;
        let want =
            crate::somegame::oracle::cached_verdict(&b.cells, b.players, b.rows, b.cols, b.k);
        let got = crate::somegame::judge(&super::Case::input(b)[..]).map_err(|e| e.to_string())?;
        if got[0].verdict == want {
            Ok(())
        } else {
            Err(format!("engine {:?}, oracle {want:?}", got[0].verdict))
        }
    }
}

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for TinyTorusCase {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<TinyTorusCase> {
        const SHAPES: [(usize, usize); 12] = [
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
        let (rows, cols) = SHAPES[u.choose_index(SHAPES.len())?];
        let players: u64 = u.int_in_range(1..=3)?;
        let k: u64 = u.int_in_range(0..=5)?;
        let mut cells = vec![0u64; rows * cols];
        for c in cells.iter_mut() {
            *c = u.int_in_range(0..=players)?;
        }
        Ok(TinyTorusCase(BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        }))
    }
}
