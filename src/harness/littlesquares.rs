//! Random and shrinkable LittleSquares grids, within the reference's search limit.

use std::fmt;

use crate::game::LittleSquares;
use crate::generate::Rng;

/// The most empty squares in a generated grid (the reference searches up to 24; fewer keeps
/// each comparison fast).
pub const MAX_EMPTY: usize = 18;

/// A grid: `true` for an empty square.
#[derive(Clone, PartialEq, Eq)]
pub struct GridCase {
    /// Rows of squares.
    pub rows: Vec<Vec<bool>>,
}

impl fmt::Debug for GridCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&String::from_utf8_lossy(&super::Case::input(self)))
    }
}

impl GridCase {
    /// Fills squares (from the end) until at most [`MAX_EMPTY`] are empty.
    fn capped(mut self) -> GridCase {
        let mut empty: usize = self.rows.iter().flatten().filter(|&&e| e).count();
        for row in self.rows.iter_mut().rev() {
            for sq in row.iter_mut().rev() {
                if empty > MAX_EMPTY && *sq {
                    *sq = false;
                    empty -= 1;
                }
            }
        }
        self
    }
}

impl super::Case for GridCase {
    type G = LittleSquares;

    fn options(&self) {}

    fn input(&self) -> Vec<u8> {
        let mut s = Vec::new();
        for row in &self.rows {
            s.extend(row.iter().map(|&e| if e { b'.' } else { b'#' }));
            s.push(b'\n');
        }
        s
    }

    /// Any shape from 1 x 1 to 8 x 8 (odd sizes included), a random fill density.
    fn random(rng: &mut Rng, _: Option<()>) -> GridCase {
        let (r, c) = (1 + rng.below(8) as usize, 1 + rng.below(8) as usize);
        let filled = rng.below(90) as f64 / 100.0;
        let rows = (0..r)
            .map(|_| (0..c).map(|_| !rng.chance(filled)).collect())
            .collect();
        GridCase { rows }.capped()
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

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for GridCase {
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<GridCase> {
        let r: usize = u.int_in_range(1..=8)?;
        let c: usize = u.int_in_range(1..=8)?;
        let mut rows = vec![vec![false; c]; r];
        for row in rows.iter_mut() {
            for sq in row.iter_mut() {
                *sq = u.arbitrary()?;
            }
        }
        Ok(GridCase { rows }.capped())
    }
}
