//! Random and shrinkable LittleSquares grids: the one generator behind `referee gen
//! littlesquares`, `stress`, `audit`, the fuzz targets and the property tests.

use super::LittleSquares;
use crate::game::Case;
use crate::knobs::{Knob, Knobs};
use crate::random::Entropy;

/// The most empty squares in a grid of random size (the reference searches up to 24; fewer
/// keeps each comparison fast).
pub const MAX_EMPTY: usize = 18;

/// A grid: `true` for an empty square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridCase {
    /// Rows of squares.
    pub rows: Vec<Vec<bool>>,
}

/// The settings of the generator; `None` leaves a choice random.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct GridShape {
    /// Rows (random: 1..=8).
    pub rows: Option<usize>,
    /// Columns (random: 1..=8).
    pub cols: Option<usize>,
    /// The probability that a square is filled (random: 0 to 0.89).
    pub filled: Option<f64>,
}

impl GridCase {
    /// Fills squares (from the end) until at most `max_empty` are empty.
    fn capped(mut self, max_empty: usize) -> GridCase {
        let mut empty: usize = self.rows.iter().flatten().filter(|&&e| e).count();
        for row in self.rows.iter_mut().rev() {
            for sq in row.iter_mut().rev() {
                if empty > max_empty && *sq {
                    *sq = false;
                    empty -= 1;
                }
            }
        }
        self
    }
}

impl Case for GridCase {
    type Game = LittleSquares;
    type Shape = GridShape;
    const KNOBS: &'static [Knob] = &[
        Knob::count("rows", "rows"),
        Knob::count("cols", "columns"),
        Knob::fraction("filled", "probability that a square is filled"),
    ];

    fn shape(knobs: &Knobs) -> Result<GridShape, String> {
        Ok(GridShape {
            rows: knobs.positive("rows")?,
            cols: knobs.positive("cols")?,
            filled: knobs.fraction("filled")?,
        })
    }

    /// Any shape from 1 x 1 to 8 x 8 (odd sizes included) and a random fill density when the
    /// size is random; a grid of random size keeps at most [`MAX_EMPTY`] empty squares.
    fn generate(e: &mut dyn Entropy, _: Option<()>, shape: &GridShape) -> GridCase {
        let r = shape.rows.unwrap_or_else(|| 1 + e.below(8) as usize);
        let c = shape.cols.unwrap_or_else(|| 1 + e.below(8) as usize);
        let filled = shape.filled.unwrap_or_else(|| e.below(90) as f64 / 100.0);
        let rows = (0..r)
            .map(|_| (0..c).map(|_| !e.chance(filled)).collect())
            .collect();
        let grid = GridCase { rows };
        if shape.rows.is_none() && shape.cols.is_none() {
            grid.capped(MAX_EMPTY)
        } else {
            grid
        }
    }

    fn options(&self) {}

    fn input(&self) -> Vec<u8> {
        let mut s = Vec::with_capacity(self.rows.len() * (self.rows[0].len() + 1));
        for row in &self.rows {
            s.extend(row.iter().map(|&e| if e { b'.' } else { b'#' }));
            s.push(b'\n');
        }
        s
    }

    fn shape_label(&self) -> String {
        format!("{}x{}", self.rows.len(), self.rows[0].len())
    }

    fn shrink(&self) -> Vec<GridCase> {
        let mut out = Vec::new();
        let (r, c) = (self.rows.len(), self.rows[0].len());
        if r > 1 {
            for skip in [r - 1, 0] {
                let mut rows = self.rows.clone();
                rows.remove(skip);
                out.push(GridCase { rows });
            }
        }
        if c > 1 {
            for skip in [c - 1, 0] {
                let rows = self
                    .rows
                    .iter()
                    .map(|row| {
                        let mut row = row.clone();
                        row.remove(skip);
                        row
                    })
                    .collect();
                out.push(GridCase { rows });
            }
        }
        for i in 0..r {
            for j in 0..c {
                if self.rows[i][j] {
                    let mut rows = self.rows.clone();
                    rows[i][j] = false;
                    out.push(GridCase { rows });
                }
            }
        }
        out
    }
}
