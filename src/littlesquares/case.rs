//! Random and shrinkable LittleSquares grids: the one generator behind `referee gen
//! littlesquares`, `stress`, `audit`, the fuzz targets and the property tests.

use super::{within_contest_limits, LittleSquares};
use crate::game::corrupt::{change_byte, edit_line, insert_line};
use crate::game::knobs::{Knob, KnobError, Knobs};
use crate::game::{Case, Constraints, EXTREME_PERCENT};
use crate::util::error::JudgeError;
use crate::util::random::{pick, Entropy};

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
    /// Random styles exclude the wide grids of the engine's own tests (for auditing programs,
    /// whose time per case matters; the extremes stay, at their share).
    pub programs: bool,
    /// Every grid within the contest's limits (an even number of rows and columns, 2 to 10).
    pub contest: bool,
    /// The smallest interesting grids: one or two rows of one to six squares (see
    /// [`Case::small_shape`]).
    pub small: bool,
}

/// The contest's largest grid side.
const CONTEST_SIDE: usize = 10;

/// The largest grids of the extremes beyond the contest's limits: rows and columns.
pub const ENGINE_EXTREME: (usize, usize) = (300, 400);

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
    /// What real judges break at ([`GridCase::extreme`]): the largest grids the limits allow
    /// and the thinnest, empty, full, a single empty square, a checkerboard.
    Extreme,
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

    /// A grid of a random style under `shape` (see [`Case::generate`]), before any fitting.
    fn drawn(e: &mut dyn Entropy, shape: &GridShape) -> GridCase {
        let set = shape.rows.is_some() || shape.cols.is_some() || shape.filled.is_some();
        let style = if set {
            Style::Small
        } else if e.below(100) >= 100 - EXTREME_PERCENT {
            Style::Extreme
        } else {
            match e.below(100) {
                0..50 => Style::Small,
                50..70 => Style::Strip,
                70..85 => Style::Bands,
                _ if shape.programs => Style::Small,
                _ => Style::Wide,
            }
        };
        match style {
            Style::Small => GridCase::small(e, shape),
            Style::Extreme => {
                let most = if shape.contest {
                    (CONTEST_SIDE, CONTEST_SIDE)
                } else {
                    ENGINE_EXTREME
                };
                GridCase::extreme(e, most)
            }
            Style::Strip => {
                let mut budget = REFERENCE_EMPTY;
                let width = 2 + e.below(25) as usize;
                let grid = GridCase {
                    rows: strip(e, width, &mut budget).to_vec(),
                };
                grid.balanced_by_chance(e)
            }
            Style::Bands => {
                let mut budget = REFERENCE_EMPTY;
                let (rows, width) = (3 + e.below(3) as usize, 2 + e.below(15) as usize);
                let grid = GridCase::bands(e, rows, width, &mut budget, 0.5);
                grid.capped(REFERENCE_EMPTY).balanced_by_chance(e)
            }
            Style::Wide => GridCase::wide(e),
        }
    }

    /// This grid, or (at even odds) this grid balanced with the reference's budget left.
    fn balanced_by_chance(self, e: &mut dyn Entropy) -> GridCase {
        if e.chance(0.5) {
            self
        } else {
            let left = REFERENCE_EMPTY - self.empty();
            self.balanced(left)
        }
    }

    /// `rows` rows of `width` columns: strips of two rows drawn from `budget`, and an odd last
    /// row filled at odds `filled_odds`.
    fn bands(
        e: &mut dyn Entropy,
        rows: usize,
        width: usize,
        budget: &mut usize,
        filled_odds: f64,
    ) -> GridCase {
        let mut grid = Vec::with_capacity(rows);
        while grid.len() + 2 <= rows {
            grid.extend(strip(e, width, budget));
        }
        if grid.len() < rows {
            grid.push((0..width).map(|_| e.chance(filled_odds)).collect());
        }
        GridCase { rows: grid }
    }

    /// A wide grid of 1 to 6 rows: bands of long runs (mostly 5 to 12 columns), balanced, or
    /// squares filled at random.
    fn wide(e: &mut dyn Entropy) -> GridCase {
        let rows = 1 + e.below(6) as usize;
        if rows >= 2 && e.chance(0.5) {
            let width = 30 + e.below(171) as usize;
            let mut budget = usize::MAX;
            GridCase::bands(e, rows, width, &mut budget, 0.3).balanced(usize::MAX)
        } else {
            let width = 30 + e.below(371) as usize;
            let filled = e.below(30) as f64 / 100.0;
            let rows = (0..rows)
                .map(|_| (0..width).map(|_| !e.chance(filled)).collect())
                .collect();
            GridCase { rows }
        }
    }

    /// A small grid (up to 8 x 8 unless `shape` sets its size), squares filled at random.
    fn small(e: &mut dyn Entropy, shape: &GridShape) -> GridCase {
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

    /// An extreme grid of at most `most` rows and columns.
    fn extreme(e: &mut dyn Entropy, most: (usize, usize)) -> GridCase {
        let (rows, cols) = match e.below(4) {
            0 => most,
            1 => (2, most.1),
            2 => (most.0, 2),
            _ => (2 + 2 * e.below(most.0 as u64 / 2) as usize, most.1),
        };
        let grid = |f: &mut dyn FnMut(usize, usize) -> bool| GridCase {
            rows: (0..rows)
                .map(|r| (0..cols).map(|c| f(r, c)).collect())
                .collect(),
        };
        match e.below(5) {
            0 => grid(&mut |_, _| true),
            1 => grid(&mut |_, _| false),
            2 => {
                let at = (e.below(rows as u64) as usize, e.below(cols as u64) as usize);
                grid(&mut |r, c| (r, c) == at)
            }
            3 => grid(&mut |r, c| (r + c) % 2 == 0),
            _ => grid(&mut |_, _| !e.chance(0.1)),
        }
    }

    /// Corner `k` of grids of at most `most` rows and columns (none past the last): the largest
    /// grid empty, full, with one empty square, as a checkerboard (single squares only), drawn
    /// until the first player wins and until the second does; the thinnest bands of the
    /// largest length, fully empty, across and down. A judge's arrays sized one short, or a
    /// band loop that stops a row early, break only there.
    fn corner_of(e: &mut dyn Entropy, most: (usize, usize), k: usize) -> Option<GridCase> {
        let (rows, cols) = most;
        let grid = |rows: usize, cols: usize, f: &mut dyn FnMut(usize, usize) -> bool| GridCase {
            rows: (0..rows)
                .map(|r| (0..cols).map(|c| f(r, c)).collect())
                .collect(),
        };
        let drawn_until = |e: &mut dyn Entropy, verdict: &str| {
            let mut drawn = grid(rows, cols, &mut |_, _| true);
            for _ in 0..20 {
                let filled = e.below(90) as f64 / 100.0;
                drawn = grid(rows, cols, &mut |_, _| !e.chance(filled));
                let judged = super::judge(&drawn.input()[..]).ok()?;
                if judged
                    .first()
                    .is_some_and(|j| crate::game::Judged::verdict(j) == verdict)
                {
                    return Some(drawn);
                }
            }
            Some(drawn)
        };
        match k {
            0 => Some(grid(rows, cols, &mut |_, _| true)),
            1 => Some(grid(rows, cols, &mut |_, _| false)),
            2 => {
                let at = (e.below(rows as u64) as usize, e.below(cols as u64) as usize);
                Some(grid(rows, cols, &mut |r, c| (r, c) == at))
            }
            3 => Some(grid(rows, cols, &mut |r, c| (r + c) % 2 == 0)),
            4 => drawn_until(e, "first"),
            5 => drawn_until(e, "second"),
            6 => Some(grid(2, cols, &mut |_, _| true)),
            7 => Some(grid(rows, 2, &mut |_, _| true)),
            _ => None,
        }
    }

    /// The grid made to fit the contest's limits: rows and columns cut to at most 10, and
    /// filled rows or columns added up to an even count of at least 2.
    fn fitted(mut self) -> GridCase {
        let fit = |v: usize| (v.min(CONTEST_SIDE) + 1).max(2) / 2 * 2;
        let (rows, cols) = (fit(self.rows.len()), fit(self.rows[0].len()));
        self.rows.truncate(rows);
        for row in &mut self.rows {
            row.resize(cols, false);
        }
        self.rows.resize(rows, vec![false; cols]);
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

    fn for_programs(constraints: Constraints) -> GridShape {
        GridShape {
            programs: true,
            contest: constraints == Constraints::Contest,
            ..GridShape::default()
        }
    }

    fn from_input(input: &[u8], (): ()) -> Result<Vec<GridCase>, JudgeError> {
        let grids = referee_reference::littlesquares::grids(input)?;
        Ok(grids
            .into_iter()
            .map(|grid| GridCase {
                rows: grid
                    .into_iter()
                    .map(|row| row.into_iter().map(|b| b == b'.').collect())
                    .collect(),
            })
            .collect())
    }

    fn shape(knobs: &Knobs) -> Result<GridShape, KnobError> {
        let (rows, cols) = knobs.grid()?;
        let widest = super::fold::MAX_WIDTH as u64;
        if let Some(cols) = cols.filter(|&c| c > widest) {
            return Err(KnobError::OverMost {
                name: "cols".into(),
                most: widest,
                why: "the widest row the engine reads".into(),
                value: cols,
            });
        }
        Ok(GridShape {
            rows: rows.map(|r| r as usize),
            cols: cols.map(|c| c as usize),
            filled: knobs.fraction("filled")?,
            programs: false,
            contest: false,
            small: false,
        })
    }

    /// With no knob set, a grid of one of five styles: any small shape (odd sizes and single
    /// rows included) with at most [`MAX_EMPTY`] empty squares; two-row strips and bands of
    /// long runs of empty columns, within the reference's limit; wide grids beyond it; the
    /// extremes, for [`EXTREME_PERCENT`] of the grids. Otherwise any shape at the density
    /// asked. With `contest`, every grid is then fitted to the contest's limits.
    fn generate(e: &mut dyn Entropy, _: Option<()>, shape: &GridShape) -> GridCase {
        if shape.small {
            let (rows, cols) = (1 + e.below(2) as usize, 1 + e.below(6) as usize);
            let filled = e.below(50) as f64 / 100.0;
            return GridCase {
                rows: (0..rows)
                    .map(|_| (0..cols).map(|_| !e.chance(filled)).collect())
                    .collect(),
            };
        }
        let grid = GridCase::drawn(e, shape);
        if shape.contest && !within_contest_limits(grid.rows.len(), grid.rows[0].len()) {
            grid.fitted()
        } else {
            grid
        }
    }

    /// The corners of [`GridCase::corner_of`], for programs' shapes.
    fn corner(e: &mut dyn Entropy, _: Option<()>, shape: &GridShape, k: usize) -> Option<GridCase> {
        if !shape.programs {
            return None;
        }
        let most = if shape.contest {
            (CONTEST_SIDE, CONTEST_SIDE)
        } else {
            ENGINE_EXTREME
        };
        GridCase::corner_of(e, most, k)
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

    fn small_shape(&self) -> Option<GridShape> {
        (self.rows.len() > 2 || self.rows[0].len() > 6).then(|| GridShape {
            small: true,
            ..GridShape::default()
        })
    }

    /// In order: the top half of the bands, the left half of the columns (each an even count,
    /// so that a grid inside the contest's limits stays inside), each band (two rows) and each
    /// pair of adjacent columns removed, last first, then each single row and column, then
    /// each empty square filled. Lazy.
    fn shrink(&self) -> Box<dyn Iterator<Item = GridCase> + '_> {
        let (r, c) = (self.rows.len(), self.rows[0].len());
        let keep_rows = move |keep: &dyn Fn(usize) -> bool| GridCase {
            rows: (0..r)
                .filter(|&i| keep(i))
                .map(|i| self.rows[i].clone())
                .collect(),
        };
        let keep_cols = move |keep: &dyn Fn(usize) -> bool| GridCase {
            rows: self
                .rows
                .iter()
                .map(|row| (0..c).filter(|&j| keep(j)).map(|j| row[j]).collect())
                .collect(),
        };
        let half_rows = (r >= 4).then(|| keep_rows(&|i| i < r / 4 * 2));
        let half_cols = (c >= 4).then(|| keep_cols(&|j| j < c / 4 * 2));
        let bands = (0..if r > 2 { r / 2 } else { 0 })
            .rev()
            .map(move |k| keep_rows(&|i| i / 2 != k));
        let column_pairs = (0..if c > 2 { c - 1 } else { 0 })
            .rev()
            .map(move |j| keep_cols(&|x| x != j && x != j + 1));
        let single_rows = (0..if r > 1 { r } else { 0 })
            .rev()
            .map(move |skip| keep_rows(&|i| i != skip));
        let single_cols = (0..if c > 1 { c } else { 0 })
            .rev()
            .map(move |skip| keep_cols(&|j| j != skip));
        let filled = (0..r * c)
            .filter(move |&at| self.rows[at / c][at % c])
            .map(move |at| {
                let mut rows = self.rows.clone();
                rows[at / c][at % c] = false;
                GridCase { rows }
            });
        Box::new(
            half_rows
                .into_iter()
                .chain(half_cols)
                .chain(bands)
                .chain(column_pairs)
                .chain(single_rows)
                .chain(single_cols)
                .chain(filled),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Judged;
    use crate::util::random::Rng;

    #[test]
    fn every_corner_is_the_largest_grid_it_says() {
        let verdict =
            |grid: &GridCase| super::super::judge(&grid.input()[..]).unwrap()[0].verdict();
        let shape = GridCase::for_programs(Constraints::Contest);
        let corners: Vec<GridCase> = (0..)
            .map_while(|k| {
                <GridCase as Case>::corner(&mut Rng::for_item(3, k), None, &shape, k as usize)
            })
            .collect();
        assert_eq!(corners.len(), 8);
        for (k, grid) in corners.iter().enumerate() {
            let (rows, cols) = (grid.rows.len(), grid.rows[0].len());
            assert!(
                within_contest_limits(rows, cols),
                "corner {k}: {rows} x {cols}"
            );
            assert!(rows == CONTEST_SIDE || cols == CONTEST_SIDE, "corner {k}");
        }
        assert_eq!(verdict(&corners[4]), "first");
        assert_eq!(verdict(&corners[5]), "second");
        assert!(corners[0].rows.iter().flatten().all(|&e| e));
        assert!(corners[1].rows.iter().flatten().all(|&e| !e));
        // Not for other shapes.
        let mut rng = Rng::new(1);
        assert!(<GridCase as Case>::corner(&mut rng, None, &GridShape::default(), 0).is_none());
    }
}
