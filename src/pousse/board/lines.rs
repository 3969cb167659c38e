//! The status of each line (row or column) and the watched squares that keep it true, as the
//! [board's docs](super) describe under "Straights by witness".

use super::tiles::{occupied_key, Lanes};
use super::{Board, Colour};

/// What is known about one line (row or column): enough to tell whether it is a straight, and
/// which of its squares could change that.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Line {
    /// Not full: the square at position `empty` is empty. Nothing is watched.
    Open { empty: u16 },
    /// Full, with X at position `x_at` and O at position `o_at`. Those two are watched.
    Mixed { x_at: u16, o_at: u16 },
    /// Full of one colour. Every square is watched.
    Straight(Colour),
}

impl Board {
    /// Marks the square at position `pos` of line `line` (a row when `R`) occupied, and
    /// names another empty square for the crossing line if it had named this one. (The
    /// pushed line's own status is the caller's.)
    pub(super) fn fill<const R: bool>(&mut self, line: usize, pos: usize) {
        let words = self.words;
        let (row, col) = if R { (line, pos) } else { (pos, line) };
        self.occupied_rows[row * words + col / 64] |= 1 << (col % 64);
        self.occupied_cols[col * words + row / 64] |= 1 << (row % 64);
        if self.hashing {
            self.hash ^= occupied_key(row * self.n + col);
        }
        let named = Line::Open { empty: line as u16 };
        if R && self.cols[pos] == named {
            self.reopen::<false>(pos, line);
        } else if !R && self.rows[pos] == named {
            self.reopen::<true>(pos, line);
        }
    }

    /// Re-establishes the status of a line whose named empty square was just filled: another
    /// empty square, or (the line is now full) its colours, looked for near `near`.
    pub(super) fn reopen<const R: bool>(&mut self, line: usize, near: usize) {
        let status = match self.empty_square(R, line, true) {
            Some(empty) => Line::Open {
                empty: empty as u16,
            },
            None => self.colours::<R>(line, None, None, near),
        };
        self.set::<R>(line, status);
    }

    /// Brings the status of line `line` (a row when `R`) up to date after its watched square
    /// at position `pos` changed colour (and no other square did, or only along with their
    /// names, see [`push`](Board::push)).
    pub(super) fn changed<const R: bool>(&mut self, line: usize, pos: usize) {
        match self.lines(R)[line] {
            Line::Mixed { x_at, o_at } => {
                // `pos` is one of the two named squares: name another of its old colour.
                debug_assert!(pos == x_at as usize || pos == o_at as usize);
                let lost = if pos == x_at as usize {
                    Colour::X
                } else {
                    Colour::O
                };
                let Some(other) = self.find::<R>(line, lost, pos) else {
                    return self.set::<R>(line, Line::Straight(lost.other()));
                };
                let lanes = Lanes::of(R, self.t, line);
                let plane = if R {
                    &mut self.watch_rows
                } else {
                    &mut self.watch_cols
                };
                plane[lanes.tile(pos / 8)] ^= 1 << lanes.bit(pos % 8);
                plane[lanes.tile(other / 8)] ^= 1 << lanes.bit(other % 8);
                let status = match lost {
                    Colour::X => Line::Mixed {
                        x_at: other as u16,
                        o_at,
                    },
                    Colour::O => Line::Mixed {
                        x_at,
                        o_at: other as u16,
                    },
                };
                if R {
                    self.rows[line] = status;
                } else {
                    self.cols[line] = status;
                }
            }
            Line::Straight(colour) => {
                let status = match self.find::<R>(line, colour, pos) {
                    Some(other) => {
                        let (x_at, o_at) = match colour {
                            Colour::X => (other, pos),
                            Colour::O => (pos, other),
                        };
                        Line::Mixed {
                            x_at: x_at as u16,
                            o_at: o_at as u16,
                        }
                    }
                    None => Line::Straight(colour.other()),
                };
                self.set::<R>(line, status);
            }
            // Open lines watch nothing.
            Line::Open { .. } => {}
        }
    }

    /// The status of a full line given an X square and an O square where known, the others
    /// looked for starting at the tile of `near`.
    pub(super) fn colours<const R: bool>(
        &self,
        line: usize,
        x_at: Option<usize>,
        o_at: Option<usize>,
        near: usize,
    ) -> Line {
        let x_at = x_at.or_else(|| self.find::<R>(line, Colour::X, near));
        let o_at = o_at.or_else(|| self.find::<R>(line, Colour::O, near));
        match (x_at, o_at) {
            (Some(x_at), Some(o_at)) => Line::Mixed {
                x_at: x_at as u16,
                o_at: o_at as u16,
            },
            (Some(_), None) => Line::Straight(Colour::X),
            (None, _) => Line::Straight(Colour::O),
        }
    }

    /// A position of full line `line` (a row when `R`) holding `colour`, looking tile by tile
    /// from the tile of `near` onwards (wrapping around), so that named squares stay spread
    /// over the board.
    pub(super) fn find<const R: bool>(
        &self,
        line: usize,
        colour: Colour,
        near: usize,
    ) -> Option<usize> {
        let lanes = Lanes::of(R, self.t, line);
        let start = near / 8;
        let mut k = start;
        loop {
            let xs = lanes.gather(self.x[lanes.tile(k)]);
            let on_board = if k + 1 == self.t {
                self.last_tile
            } else {
                0xFF
            };
            let wanted = match colour {
                Colour::X => xs,
                Colour::O => !xs & on_board,
            };
            if wanted != 0 {
                return Some(8 * k + wanted.trailing_zeros() as usize);
            }
            k = if k + 1 == self.t { 0 } else { k + 1 };
            if k == start {
                return None;
            }
        }
    }

    /// Sets the status of a line (a row when `R`), keeping the watch plane and the straight
    /// counts in step.
    pub(super) fn set<const R: bool>(&mut self, line: usize, status: Line) {
        let old = self.lines(R)[line];
        if old == status {
            return;
        }
        self.watch::<R>(line, old);
        self.watch::<R>(line, status);
        if R {
            self.rows[line] = status;
        } else {
            self.cols[line] = status;
        }
    }

    /// Toggles the watched squares of `status` (line `line`, a row when `R`) and counts its
    /// straight out (if it is the line's status) or in.
    pub(super) fn watch<const R: bool>(&mut self, line: usize, status: Line) {
        let lanes = Lanes::of(R, self.t, line);
        let on = self.lines(R)[line] != status;
        let plane = if R {
            &mut self.watch_rows
        } else {
            &mut self.watch_cols
        };
        let mut flip = |pos: usize| {
            let i = lanes.tile(pos / 8);
            plane[i] ^= 1 << lanes.bit(pos % 8);
        };
        match status {
            Line::Open { .. } => {}
            Line::Mixed { x_at, o_at } => {
                flip(x_at as usize);
                flip(o_at as usize);
            }
            Line::Straight(colour) => {
                for k in 0..self.t {
                    let on_board = if k + 1 == self.t {
                        self.last_tile
                    } else {
                        0xFF
                    };
                    plane[lanes.tile(k)] ^= lanes.spread(on_board);
                }
                let count = &mut self.straights[(colour == Colour::O) as usize];
                if on {
                    *count += 1;
                } else {
                    *count -= 1;
                }
            }
        }
    }
}
