//! Random and shrinkable LittleSquares grids: the one generator behind `referee gen
//! littlesquares`, `stress`, `audit`, the fuzz targets and the property tests.

use super::LittleSquares;
use crate::game::Case;
use crate::harness::corrupt::{change_byte, edit_line, insert_line};
use crate::knobs::{Knob, Knobs};
use crate::random::{pick, Entropy};

/// The most empty squares in a small grid of random size (the reference searches up to 24;
/// fewer keeps each comparison fast).
pub const MAX_EMPTY: usize = 18;

/// The reference's own limit of empty squares: strips and bands stay within it.
pub const REFERENCE_EMPTY: usize = 24;

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
    /// Random styles exclude the wide grids (for auditing programs, whose time per case
    /// matters).
    pub moderate: bool,
}

/// The kinds of random grids.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Any shape up to 8 x 8, odd sizes and single rows included, at most 18 empty squares.
    Small,
    /// A two-row strip of runs of fully empty columns (mostly 5 to 12 long) cut by filled
    /// columns and lone squares, up to 24 empty squares.
    Strip,
    /// Three to five rows: two or so bands of such runs and an odd last row.
    Bands,
    /// One to six rows of 30 to 400 columns, mostly empty: beyond the reference, for the
    /// Grundy value from the definitions.
    Wide,
}

/// A band of two rows of `width` columns made of runs of fully empty columns (mostly 5 to 12
/// long) between filled columns and lone empty squares, with at most `budget` empty squares.
fn strip(e: &mut dyn Entropy, width: usize, budget: &mut usize) -> [Vec<bool>; 2] {
    let mut band = [Vec::with_capacity(width), Vec::with_capacity(width)];
    while band[0].len() < width {
        let long = e.chance(0.7);
        let wanted = if long { 5 + e.below(8) } else { 1 + e.below(4) } as usize;
        let run = wanted.min(width - band[0].len()).min(*budget / 2);
        for row in band.iter_mut() {
            row.extend(std::iter::repeat_n(true, run));
        }
        *budget -= 2 * run;
        if band[0].len() == width {
            break;
        }
        // A cut: a filled column, or a lone empty square above or below.
        let lone = *budget > 0 && e.chance(0.4);
        let top = lone && e.chance(0.5);
        band[0].push(top);
        band[1].push(lone && !top);
        *budget -= usize::from(lone);
    }
    band
}

/// The longest run a balancing run may be.
const LONGEST_BALANCING_RUN: usize = 64;

impl GridCase {
    /// Empty squares.
    fn empty(&self) -> usize {
        self.rows.iter().flatten().filter(|&&e| e).count()
    }

    /// Makes the grid's Grundy value 0 (a loss for the player to move), where that takes at
    /// most `budget` more empty squares: after a filled column, a run of fully empty columns in
    /// the first band whose value (from the definitions, [`super::oracle`]) is the grid's, or
    /// such a run and a lone square; every other row is filled in the added columns. On a
    /// balanced grid, one wrong run value anywhere flips the verdict. Grids of one row stay as
    /// they are.
    fn balanced(mut self, budget: usize) -> GridCase {
        if self.rows.len() < 2 {
            return self;
        }
        let text: Vec<Vec<u8>> = self
            .rows
            .iter()
            .map(|row| row.iter().map(|&e| if e { b'.' } else { b'#' }).collect())
            .collect();
        let value = super::oracle::value(&text);
        let g = super::oracle::run_values(LONGEST_BALANCING_RUN);
        let run_worth = |v: u32| g.iter().position(|&x| x == v);
        let (run, lone) = match (run_worth(value), run_worth(value ^ 1)) {
            (Some(run), _) if 2 * run <= budget => (run, false),
            (_, Some(run)) if 2 * run < budget => (run, true),
            _ => return self,
        };
        let columns = 1 + run + usize::from(lone);
        for (r, row) in self.rows.iter_mut().enumerate() {
            let added = (0..columns).map(|c| match (r, c) {
                (0 | 1, c) if c >= 1 && c <= run => true,
                (0, c) => lone && c == run + 1,
                _ => false,
            });
            row.extend(added);
        }
        self
    }

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

    fn moderate() -> GridShape {
        GridShape {
            moderate: true,
            ..GridShape::default()
        }
    }

    fn shape(knobs: &Knobs) -> Result<GridShape, String> {
        Ok(GridShape {
            rows: knobs.positive("rows")?,
            cols: knobs.positive("cols")?,
            filled: knobs.fraction("filled")?,
            moderate: false,
        })
    }

    /// With no knob set, a grid of one of four styles: any small shape (odd sizes and single
    /// rows included) with at most [`MAX_EMPTY`] empty squares; two-row strips and bands of
    /// long runs of empty columns, within the reference's limit; wide grids beyond it.
    /// Otherwise any shape at the density asked.
    fn generate(e: &mut dyn Entropy, _: Option<()>, shape: &GridShape) -> GridCase {
        let set = shape.rows.is_some() || shape.cols.is_some() || shape.filled.is_some();
        let style = if set {
            Style::Small
        } else {
            match e.below(100) {
                0..50 => Style::Small,
                50..70 => Style::Strip,
                70..85 => Style::Bands,
                _ if shape.moderate => Style::Small,
                _ => Style::Wide,
            }
        };
        match style {
            Style::Small => {}
            Style::Strip => {
                let mut budget = REFERENCE_EMPTY;
                let width = 2 + e.below(25) as usize;
                let grid = GridCase {
                    rows: strip(e, width, &mut budget).to_vec(),
                };
                return if e.chance(0.5) {
                    grid
                } else {
                    let left = REFERENCE_EMPTY - grid.empty();
                    grid.balanced(left)
                };
            }
            Style::Bands => {
                let mut budget = REFERENCE_EMPTY;
                let (rows, width) = (3 + e.below(3) as usize, 2 + e.below(15) as usize);
                let mut grid = Vec::with_capacity(rows);
                while grid.len() + 2 <= rows {
                    grid.extend(strip(e, width, &mut budget));
                }
                if grid.len() < rows {
                    grid.push((0..width).map(|_| e.chance(0.5)).collect());
                }
                let grid = GridCase { rows: grid }.capped(REFERENCE_EMPTY);
                return if e.chance(0.5) {
                    grid
                } else {
                    let left = REFERENCE_EMPTY - grid.empty();
                    grid.balanced(left)
                };
            }
            Style::Wide => {
                let rows = 1 + e.below(6) as usize;
                let grid = if rows >= 2 && e.chance(0.5) {
                    // Bands of long runs (mostly 5 to 12 columns), balanced.
                    let width = 30 + e.below(171) as usize;
                    let mut budget = usize::MAX;
                    let mut grid = Vec::with_capacity(rows);
                    while grid.len() + 2 <= rows {
                        grid.extend(strip(e, width, &mut budget));
                    }
                    if grid.len() < rows {
                        grid.push((0..width).map(|_| e.chance(0.3)).collect());
                    }
                    GridCase { rows: grid }.balanced(usize::MAX)
                } else {
                    let width = 30 + e.below(371) as usize;
                    let filled = e.below(30) as f64 / 100.0;
                    let rows = (0..rows)
                        .map(|_| (0..width).map(|_| !e.chance(filled)).collect())
                        .collect();
                    GridCase { rows }
                };
                return grid;
            }
        }
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

    /// A changed byte, a row one square short or long, a line of blanks, or the literal form
    /// with one of its marks changed or missing.
    fn corrupt(&self, e: &mut dyn Entropy) -> Vec<u8> {
        let input = self.input();
        match e.below(5) {
            0 => change_byte(&input, b".#x \n{}\",\r\t", e),
            1 => edit_line(
                &input,
                e,
                |_, _| true,
                |l, e| {
                    let mut l = l.to_vec();
                    if e.chance(0.5) && !l.is_empty() {
                        l.pop();
                    } else {
                        l.push(b'.');
                    }
                    Some(l)
                },
            ),
            2 => insert_line(&input, b" ", e),
            _ => {
                let literal = format!(
                    "{{{}}}\n",
                    self.rows
                        .iter()
                        .map(|row| {
                            let squares: String =
                                row.iter().map(|&e| if e { '.' } else { '#' }).collect();
                            format!("\"{squares}\"")
                        })
                        .collect::<Vec<_>>()
                        .join(", ")
                );
                let marks: Vec<usize> = literal
                    .bytes()
                    .enumerate()
                    .filter(|(_, b)| b"{}\",".contains(b))
                    .map(|(i, _)| i)
                    .collect();
                let mut bytes = literal.into_bytes();
                let at = *pick(e, &marks);
                if e.chance(0.5) {
                    bytes.remove(at);
                } else {
                    bytes[at] = *pick(e, b"{}\",. x");
                }
                bytes
            }
        }
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
