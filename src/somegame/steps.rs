//! The eight steps of Some Game's lines, reduced modulo the torus, and the cycles they make.
//!
//! A step d = (dr, dc) splits the R x C torus into cycles s, s + d, s + 2d, ... (indices modulo
//! R and C), all of the same length; d and -d give the same lines, so only eight steps count.

/// The eight steps: rows, columns, both diagonals, and the four knight hops (d and -d give the
/// same lines).
pub const STEPS: [(i64, i64); 8] = [
    (0, 1),
    (1, 0),
    (1, 1),
    (1, -1),
    (1, 2),
    (2, 1),
    (1, -2),
    (2, -1),
];

/// The greatest common divisor.
pub fn gcd(a: u64, b: u64) -> u64 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A step reduced modulo the board: `(dr, dc)` with `0 <= dr < R`, `0 <= dc < C`.
#[derive(Clone, Copy)]
pub struct Step {
    /// Rows moved, `0..R`.
    pub dr: usize,
    /// Columns moved, `0..C`.
    pub dc: usize,
    rows: usize,
    cols: usize,
    /// The length of every cycle of this step.
    pub cycle: u64,
}

impl Step {
    /// The step `(dr, dc)` on a board of `rows` x `cols`, reduced modulo the board.
    pub fn new((dr, dc): (i64, i64), rows: usize, cols: usize) -> Step {
        let dr = dr.rem_euclid(rows as i64) as usize;
        let dc = dc.rem_euclid(cols as i64) as usize;
        let r_period = rows as u64 / gcd(rows as u64, dr as u64);
        let c_period = cols as u64 / gcd(cols as u64, dc as u64);
        let cycle = r_period / gcd(r_period, c_period) * c_period;
        Step {
            dr,
            dc,
            rows,
            cols,
            cycle,
        }
    }

    /// The square before `(r, c)`.
    #[inline]
    pub fn prev(&self, (r, c): (usize, usize)) -> (usize, usize) {
        let r = if r >= self.dr {
            r - self.dr
        } else {
            r + self.rows - self.dr
        };
        let c = if c >= self.dc {
            c - self.dc
        } else {
            c + self.cols - self.dc
        };
        (r, c)
    }

    /// The square after `(r, c)`.
    #[inline]
    pub fn next(&self, (r, c): (usize, usize)) -> (usize, usize) {
        let mut r = r + self.dr;
        if r >= self.rows {
            r -= self.rows;
        }
        let mut c = c + self.dc;
        if c >= self.cols {
            c -= self.cols;
        }
        (r, c)
    }
}
