//! One push: the shift of a line's segment, tile by tile in place, and the statuses it changes.

use super::lines::Line;
use super::tiles::{tile_key, Lanes};
use super::{Board, Colour};

impl Board {
    /// Inserts a marker of `mover` into line `line` (a row when `ROWS`, else a column) at
    /// position 0 when `UP`, else at position `n - 1`, shifting the segment up to the first
    /// empty square (or the whole line, whose far end falls off); then brings the statuses of
    /// the line and of the crossing lines up to date. The hash is maintained when `HASH`.
    #[inline]
    pub(super) fn push<const ROWS: bool, const UP: bool, const HASH: bool>(
        &mut self,
        line: usize,
        mover: Colour,
    ) {
        let status = self.lines(ROWS)[line];
        // The empty square the push fills (if any): the segment ends there.
        let filled = match status {
            Line::Open { .. } => self.empty_square(ROWS, line, UP),
            _ => None,
        };
        let touches = self.shift_segment::<ROWS, UP, HASH>(line, mover, filled);
        if let Some(e) = filled {
            self.fill::<ROWS>(line, e);
        }
        self.crossing_changed::<ROWS>(line, touches);
        self.pushed_line_changed::<ROWS, UP>(line, status, filled, mover);
    }

    /// Shifts the segment of line `line` from its entry to `filled` (or the whole line) one
    /// position along, `mover`'s marker entering; returns how many entries of `touched` it
    /// wrote.
    #[inline(always)]
    fn shift_segment<const ROWS: bool, const UP: bool, const HASH: bool>(
        &mut self,
        line: usize,
        mover: Colour,
        filled: Option<usize>,
    ) -> usize {
        let n = self.n;
        let (lo, hi) = match (filled, UP) {
            (Some(e), true) => (0, e),
            (Some(e), false) => (e, n - 1),
            (None, _) => (0, n - 1),
        };
        let lanes = Lanes::of(ROWS, self.t, line);
        let (k_lo, k_hi) = (lo / 8, hi / 8);
        let (q_lo, q_hi) = (lo % 8, hi % 8);
        let watch = if ROWS {
            &self.watch_cols
        } else {
            &self.watch_rows
        };
        let mut shift = Shift::<ROWS, UP, HASH> {
            x: &mut self.x,
            watch,
            touched: &mut self.touched,
            lanes,
            entry: lanes.spread(if UP { 1 } else { 0x80 }),
            carry: 0,
            hash: 0,
            touches: 0,
        };
        let mover_bit = (mover == Colour::X) as u64;
        if UP {
            shift.carry = mover_bit << lanes.bit(0);
            shift.whole_tiles(0, k_hi);
            shift.tile(k_hi, (2 << q_hi) - 1);
        } else {
            shift.carry = mover_bit << lanes.bit(q_hi);
            let below = if k_lo == k_hi { (1 << q_lo) - 1 } else { 0 };
            shift.tile(k_hi, (2 << q_hi) - 1 - below);
            if k_lo < k_hi {
                shift.whole_tiles(k_lo + 1, k_hi);
                shift.tile(k_lo, 0xFF - ((1 << q_lo) - 1));
            }
        }
        let (hash, touches) = (shift.hash, shift.touches);
        self.hash ^= hash;
        touches
    }

    /// Brings up to date the crossing lines whose watched squares the push of line `line`
    /// changed: the first `touches` entries of `touched`.
    #[inline(always)]
    fn crossing_changed<const ROWS: bool>(&mut self, line: usize, touches: usize) {
        let lanes = Lanes::of(ROWS, self.t, line);
        for t in 0..touches {
            let (k, mut bits) = self.touched[t];
            while bits != 0 {
                let crossing = 8 * k as usize + lanes.position_across(bits.trailing_zeros());
                if ROWS {
                    self.changed::<false>(crossing, line);
                } else {
                    self.changed::<true>(crossing, line);
                }
                bits &= bits - 1;
            }
        }
    }

    /// Brings the status of the pushed line up to date: it was `status` before the push, which
    /// filled its empty square `filled` (if any) with the segment.
    #[inline(always)]
    fn pushed_line_changed<const ROWS: bool, const UP: bool>(
        &mut self,
        line: usize,
        status: Line,
        filled: Option<usize>,
        mover: Colour,
    ) {
        let entry = if UP { 0 } else { self.n - 1 };
        match status {
            Line::Open { empty } if Some(empty as usize) != filled => {}
            Line::Open { .. } => self.reopen::<ROWS>(line, entry),
            Line::Straight(colour) if colour == mover => {}
            // The rest moved along and is still of the other colour; only the entry changed.
            Line::Straight(_) => self.changed::<ROWS>(line, entry),
            Line::Mixed { x_at, o_at } => self.markers_moved::<ROWS, UP>(line, x_at, o_at, mover),
        }
    }

    /// Brings up to date a full line whose named markers were at `x_at` and `o_at` before a
    /// push of `mover`: they moved one square along, unless they fell off, and the entering
    /// marker can stand in for one that fell.
    #[inline(always)]
    fn markers_moved<const ROWS: bool, const UP: bool>(
        &mut self,
        line: usize,
        x_at: u16,
        o_at: u16,
        mover: Colour,
    ) {
        let n = self.n;
        let entry = if UP { 0 } else { n - 1 };
        let follow = |at: u16, colour: Colour| {
            let at = at as usize;
            if at != if UP { n - 1 } else { 0 } {
                Some(if UP { at + 1 } else { at - 1 })
            } else {
                (mover == colour).then_some(entry)
            }
        };
        match (follow(x_at, Colour::X), follow(o_at, Colour::O)) {
            (Some(new_x), Some(new_o)) => {
                // The usual case, without `set`: move the two watched squares.
                let lanes = Lanes::of(ROWS, self.t, line);
                let own = if ROWS {
                    &mut self.watch_rows
                } else {
                    &mut self.watch_cols
                };
                for pos in [x_at as usize, o_at as usize, new_x, new_o] {
                    own[lanes.tile(pos / 8)] ^= 1 << lanes.bit(pos % 8);
                }
                let status = Line::Mixed {
                    x_at: new_x as u16,
                    o_at: new_o as u16,
                };
                if ROWS {
                    self.rows[line] = status;
                } else {
                    self.cols[line] = status;
                }
            }
            (new_x, new_o) => {
                let status = self.colours::<ROWS>(line, new_x, new_o, entry);
                self.set::<ROWS>(line, status);
            }
        }
    }
}

/// One push under way, tile by tile along the pushed segment of a line (a row when `ROWS`),
/// towards higher positions when `UP`.
struct Shift<'a, const ROWS: bool, const UP: bool, const HASH: bool> {
    x: &'a mut [u64],
    /// The crossing lines' watch plane.
    watch: &'a [u64],
    /// The tile-positions with changed squares that `watch` holds, and those squares; the
    /// first `touches` entries are this push's.
    touched: &'a mut [(u32, u64)],
    lanes: Lanes,
    /// The bit where the carry enters a tile shifted whole.
    entry: u64,
    /// The marker (X = 1) entering the next tile, at its entry bit.
    carry: u64,
    /// The change of the hash so far (when `HASH`).
    hash: u64,
    touches: usize,
}

impl<const ROWS: bool, const UP: bool, const HASH: bool> Shift<'_, ROWS, UP, HASH> {
    /// Shifts the squares `positions` (a byte, bit q = position q) of tile-position `k` one
    /// position along; the carry enters at the first of them, and the square leaving at
    /// position 7 (`UP`) or 0 becomes the next carry.
    #[inline(always)]
    fn tile(&mut self, k: usize, positions: u64) {
        let i = self.lanes.tile(k);
        let mask = self.lanes.spread(positions);
        let hit = self.step(i, mask);
        record(self.touched, &mut self.touches, k, hit);
    }

    /// [`tile`](Shift::tile) for every tile-position in `a..b`, all of whose squares shift, in
    /// the order of the push.
    #[inline(always)]
    fn whole_tiles(&mut self, a: usize, b: usize) {
        if a >= b {
            return;
        }
        let mask = self.lanes.spread(0xFF);
        let (first, last) = (self.lanes.tile(a), self.lanes.tile(b - 1));
        let (mut carry, mut hash, entry) = (self.carry, self.hash, self.entry);
        // Chunks of `step` tiles starting at the line's tiles: the tiles are the chunks' heads,
        // and no index needs a bounds check.
        let step = self.lanes.step;
        let tiles = self.x[first..=last].chunks_mut(step);
        let watched = self.watch[first..=last].chunks(step);
        let mut visit = |k: usize, tile: &mut [u64], watched: &[u64]| {
            if let ([tile, ..], [watched, ..]) = (tile, watched) {
                let i = first + (k - a) * step;
                let (hit, leaving) =
                    step_tile::<ROWS, UP, HASH>(tile, *watched, mask, carry, entry, i, &mut hash);
                carry = leaving;
                record(self.touched, &mut self.touches, k, hit);
            }
        };
        if UP {
            for (k, (tile, watched)) in (a..b).zip(tiles.zip(watched)) {
                visit(k, tile, watched);
            }
        } else {
            for (k, (tile, watched)) in (a..b).rev().zip(tiles.zip(watched).rev()) {
                visit(k, tile, watched);
            }
        }
        self.carry = carry;
        self.hash = hash;
    }

    /// Shifts the lane bits `mask` of tile `i`; returns its changed squares that are watched.
    #[inline(always)]
    fn step(&mut self, i: usize, mask: u64) -> u64 {
        let (hit, carry) = step_tile::<ROWS, UP, HASH>(
            &mut self.x[i],
            self.watch[i],
            mask,
            self.carry,
            self.entry,
            i,
            &mut self.hash,
        );
        self.carry = carry;
        hit
    }
}

/// Records the watched squares `hit` changed in tile-position `k` as `touched[*touches]`, if
/// any. (A branch: on a random board about one tile in ten has such a square, and an
/// unconditional store per tile costs more than the occasional misprediction.)
#[inline(always)]
fn record(touched: &mut [(u32, u64)], touches: &mut usize, k: usize, hit: u64) {
    if hit != 0 {
        touched[*touches] = (k as u32, hit);
        *touches += 1;
    }
}

/// Shifts the lane bits `mask` of `*tile` (index `i`) one position along a line (a row when
/// `ROWS`, towards higher positions when `UP`), `carry` entering (at its bit, or 0); returns
/// the changed bits among `watched`, and the square leaving the tile's last position, placed
/// at `entry`, the first position of the next tile. Adds the change to `hash` when `HASH`.
#[inline(always)]
fn step_tile<const ROWS: bool, const UP: bool, const HASH: bool>(
    tile: &mut u64,
    watched: u64,
    mask: u64,
    carry: u64,
    entry: u64,
    i: usize,
    hash: &mut u64,
) -> (u64, u64) {
    // One position along a lane: 1 bit for a row, 8 for a column; the last square of a whole
    // lane is 7 positions from the first.
    let (one, seven) = if ROWS { (1, 7) } else { (8, 56) };
    let old = *tile;
    let lane = old & mask;
    let moved = if UP { lane << one } else { lane >> one };
    let new = (old & !mask) | (moved & mask) | carry;
    *tile = new;
    if HASH {
        *hash ^= tile_key(i, old) ^ tile_key(i, new);
    }
    let leaving = if UP { old >> seven } else { old << seven } & entry;
    ((old ^ new) & watched, leaving)
}
