//! A fast first look at a Some Game board: which players have a line, and where the last
//! mover's lines are, for small K and P.
//!
//! The engine's walk ([`super::engine`]) finds every run with its position, which the
//! winning-move check needs, at ~30 instructions per square and step. Most boards never get
//! that far: if a player other than the last mover has a line the board is impossible, and if
//! nobody has one nobody has won. This scan answers "who has a line" with run counters
//! computed a whole row at a time, 16 squares per vector operation, and records the last
//! mover's squares whose counter reached K (every line holds one), from which the engine walks
//! just those lines.
//!
//! For a step d = (dr, dc) (reduced modulo the board), the counter of square s is the number
//! of consecutive squares of its owner ending at s along d, capped at K:
//!
//! `count(s) = owner(s) == 0 ? 0 : owner(s) == owner(s - d) ? min(count(s - d) + 1, K) : 1`
//!
//! When dr >= 1, `s - d` lies in an earlier row, so a row's counters follow from the row dr
//! above, shifted by dc columns: two contiguous pieces, no dependency inside the row. The
//! board is a torus, so the first dr rows follow from the last ones: the rows are swept once
//! with the rows above row 0 counting 0 (every counter then is a lower bound of the true run,
//! exact once the chain behind it is K long), then dr x (K - 1) rows more (round the board
//! again as often as needed), after which every square has K squares of chain behind it. Squares may repeat (a short cycle
//! owned by one player is a line of every length); the counters follow the cycle round as
//! often as needed, as the definition does. A step with dr = 0 (the row step, or any step on
//! a board of one row) is the step (dc, 0) of the transposed board. The scan stops as soon as
//! every player has a line.
//!
//! A step that reduces to (0, 0) (a knight hop on a board of one or two rows, ...) makes every
//! square its own cycle, so every stone is a line. The scan reads the board as bytes (the
//! engine converts boards whose values fit) and declines (returns `None`) when K is above
//! 254, which its byte counters cannot count to.

#[cfg(test)]
use super::board::Cells;
use super::board::DataSet;
use super::steps::{Step, STEPS};

/// A set of players 0..=255: bit p % 64 of word p / 64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
struct Players([u64; 4]);

impl Players {
    fn add(&mut self, player: u8) {
        self.0[usize::from(player / 64)] |= 1 << (player % 64);
    }

    fn has(&self, player: u64) -> bool {
        player < 256 && self.0[player as usize / 64] >> (player % 64) & 1 == 1
    }

    fn union(self, other: Players) -> Players {
        Players(std::array::from_fn(|w| self.0[w] | other.0[w]))
    }
}

/// Which players have a line, step by step (indices into [`STEPS`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LineOwners {
    by_step: [Players; STEPS.len()],
}

impl LineOwners {
    fn all(&self) -> Players {
        self.by_step
            .iter()
            .fold(Players::default(), |all, &p| all.union(p))
    }

    /// Whether `player` has a line.
    pub fn has(&self, player: u64) -> bool {
        self.all().has(player)
    }

    /// The lowest-numbered player other than `last` who has a line.
    pub fn lowest_other(&self, last: u64) -> Option<u64> {
        let all = self.all();
        (1..256).find(|&p| p != last && all.has(p))
    }
}

/// The most squares recorded for one step in [`Hits`].
pub const MAX_HITS: usize = 1 << 12;

/// Squares of one player whose counter reached K along one step: each lies on a line of that
/// player, and every line of the player along the step holds at least one of them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hits {
    /// Row-major square indices (a square may appear more than once).
    pub squares: Vec<usize>,
    /// More than [`MAX_HITS`] squares: `squares` holds only the first ones.
    pub overflow: bool,
}

/// The scan's findings: who has a line along each step, and where the chosen player's lines
/// are.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Scan {
    /// Who has a line.
    pub owners: LineOwners,
    /// Per step of [`STEPS`], squares of the player asked about (the last mover) on a line.
    pub hits: [Hits; STEPS.len()],
}

/// Who has a line on `set`'s board, given as bytes in `cells`, and where `last`'s lines are;
/// `None` when the scan does not apply (K above 254; see the module documentation).
pub fn scan(set: &DataSet, cells: &[u8], last: u64) -> Option<Scan> {
    let mut found = Scan::default();
    found.owners = line_owners_and_hits(set, cells, last, &mut found.hits)?;
    Some(found)
}

/// Who has a line on `set`'s board, given as bytes in `cells`, or `None` when the scan does
/// not apply (K above 254; see the module documentation).
pub fn line_owners(set: &DataSet, cells: &[u8]) -> Option<LineOwners> {
    line_owners_and_hits(set, cells, u64::MAX, &mut Default::default())
}

/// [`line_owners`], also filling `hits` with the squares of `last` on lines.
fn line_owners_and_hits(
    set: &DataSet,
    cells: &[u8],
    last: u64,
    hits: &mut [Hits; STEPS.len()],
) -> Option<LineOwners> {
    let (rows, cols) = (set.rows, set.cols);
    let k = u8::try_from(set.k)
        .ok()
        .filter(|&k| (1..=254).contains(&k))?;
    let mut owners = LineOwners::default();
    // Once every player (two at least) has a line, someone other than the last mover has
    // one: the board is impossible whoever moved last, and nothing is left to learn.
    let mut everyone = Players::default();
    (1..=set.players.min(255) as u8).for_each(|p| everyone.add(p));
    let mut counts = Vec::new();
    let mut transposed = Vec::new();
    for (i, step) in STEPS.iter().map(|&d| Step::new(d, rows, cols)).enumerate() {
        if set.players >= 2 && owners.all() == everyone {
            break;
        }
        let mut finder = Finder {
            k,
            owners: &mut owners.by_step[i],
            last,
            hits: &mut hits[i],
            transposed: step.dr == 0,
        };
        if (step.dr, step.dc) == (0, 0) {
            // Every square is its own cycle: a stone is a line of every length.
            for (square, &v) in cells.iter().enumerate().filter(|(_, &v)| v != 0) {
                finder.note(v, square);
            }
        } else if step.dr == 0 {
            // Along the rows: the step (dc, 0) of the transposed board.
            if transposed.is_empty() {
                transposed = transpose(cells, rows, cols);
            }
            let step = Step::new((step.dc as i64, 0), cols, rows);
            across_rows(&transposed, cols, rows, &step, &mut counts, &mut finder);
        } else {
            across_rows(cells, rows, cols, &step, &mut counts, &mut finder);
        }
    }
    Some(owners)
}

/// The `cols x rows` board whose row c is column c of the `rows x cols` board `cells`: 8 x 8
/// blocks transposed in registers, the ragged edges square by square.
fn transpose(cells: &[u8], rows: usize, cols: usize) -> Vec<u8> {
    let mut out = vec![0u8; cells.len()];
    let (full_rows, full_cols) = (rows / 8 * 8, cols / 8 * 8);
    for r0 in (0..full_rows).step_by(8) {
        for c0 in (0..full_cols).step_by(8) {
            let block: [u64; 8] = std::array::from_fn(|i| {
                let at = (r0 + i) * cols + c0;
                u64::from_le_bytes(cells[at..at + 8].try_into().expect("8 bytes"))
            });
            for (j, word) in transpose8(block).iter().enumerate() {
                let at = (c0 + j) * rows + r0;
                out[at..at + 8].copy_from_slice(&word.to_le_bytes());
            }
        }
    }
    for r in 0..rows {
        let first_left = if r < full_rows { full_cols } else { 0 };
        for c in first_left..cols {
            out[c * rows + r] = cells[r * cols + c];
        }
    }
    out
}

/// Transposes the 8 x 8 byte matrix whose row i is `m[i]` (byte j is column j): swaps of
/// 4 x 4, then 2 x 2, then 1 x 1 blocks across the diagonal.
fn transpose8(mut m: [u64; 8]) -> [u64; 8] {
    for (half, mask) in [
        (4, 0x0000_0000_FFFF_FFFFu64),
        (2, 0x0000_FFFF_0000_FFFF),
        (1, 0x00FF_00FF_00FF_00FF),
    ] {
        let shift = 8 * half as u32;
        for i in (0..8).filter(|i| i & half == 0) {
            let t = ((m[i] >> shift) ^ m[i + half]) & mask;
            m[i] ^= t << shift;
            m[i + half] ^= t;
        }
    }
    m
}

/// The counters of a step with dr >= 1, row by row: the full sweep, then dr x (K - 1) rows
/// more, going round as often as needed.
fn across_rows(
    cells: &[u8],
    rows: usize,
    cols: usize,
    step: &Step,
    counts: &mut Vec<u8>,
    finder: &mut Finder,
) {
    let k = finder.k;
    // Sweep row i needs the counters of sweep row i - dr only: a ring of dr + 1 rows, where
    // the rows before the first read as no run at all.
    let ring = step.dr + 1;
    counts.clear();
    counts.resize(ring * cols, 0);
    for i in 0..rows + step.dr * usize::from(k - 1) {
        let r = i % rows;
        let above = (r + rows - step.dr) % rows;
        let (row, above_row) = two_rows(counts, cols, i % ring, (i + 1) % ring);
        let (cur, prev) = (&cells[r * cols..][..cols], &cells[above * cols..][..cols]);
        // Column c follows column c - dc of the row above: columns dc.. from 0.., and
        // columns ..dc from the last dc columns.
        let split = cols - step.dc;
        let mut reached = advance(
            &cur[step.dc..],
            &prev[..split],
            &above_row[..split],
            &mut row[step.dc..],
            k,
        );
        reached |= advance(
            &cur[..step.dc],
            &prev[split..],
            &above_row[split..],
            &mut row[..step.dc],
            k,
        );
        if reached {
            finder.note_row(cur, row, r, rows);
        }
    }
}

/// Row `r` of `counts` mutably and row `above` (a different row) shared (rows of `cols`).
fn two_rows(counts: &mut [u8], cols: usize, r: usize, above: usize) -> (&mut [u8], &[u8]) {
    debug_assert_ne!(r, above);
    if r < above {
        let (low, high) = counts.split_at_mut(above * cols);
        (&mut low[r * cols..][..cols], &high[..cols])
    } else {
        let (low, high) = counts.split_at_mut(r * cols);
        (&mut high[..cols], &low[above * cols..][..cols])
    }
}

/// One piece of a row: `out[i]` is the counter of the square owned by `cur[i]` whose
/// predecessor is owned by `prev[i]` with counter `prev_count[i]`. Returns whether a counter
/// reached K. Written without branches so that the compiler vectorises it.
#[inline]
fn advance(cur: &[u8], prev: &[u8], prev_count: &[u8], out: &mut [u8], k: u8) -> bool {
    let mut reached = 0u8;
    for (((&v, &p), &n), o) in cur.iter().zip(prev).zip(prev_count).zip(out) {
        let filled = u8::from(v != 0);
        let longer = (n + 1).min(k);
        *o = if v == p { longer * filled } else { filled };
        reached |= u8::from(*o == k);
    }
    reached != 0
}

/// Where the owners of lines along one step are recorded.
struct Finder<'a> {
    k: u8,
    owners: &'a mut Players,
    /// The player whose squares on lines are recorded in `hits`.
    last: u64,
    hits: &'a mut Hits,
    /// Rows are the board's columns (the row step, on the transposed board).
    transposed: bool,
}

impl Finder<'_> {
    /// Records a square of `owner` (row-major index `square` on the board) on a line.
    fn note(&mut self, owner: u8, square: usize) {
        self.owners.add(owner);
        if u64::from(owner) == self.last {
            if self.hits.squares.len() < MAX_HITS {
                self.hits.squares.push(square);
            } else {
                self.hits.overflow = true;
            }
        }
    }

    /// Records the squares of row `r` (of `rows`) whose counter reached K.
    #[cold]
    fn note_row(&mut self, cur: &[u8], counts: &[u8], r: usize, rows: usize) {
        let cols = cur.len();
        for (c, (&v, &n)) in cur.iter().zip(counts).enumerate() {
            if n == self.k {
                // On the transposed board, square (r, c) is the board's (c, r).
                let square = if self.transposed {
                    c * rows + r
                } else {
                    r * cols + c
                };
                self.note(v, square);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan of a board whose values fit in bytes.
    fn scan(board: &DataSet) -> Option<LineOwners> {
        let bytes: Vec<u8> = (board.cells.to_vec().into_iter())
            .map(|v| u8::try_from(v).unwrap())
            .collect();
        line_owners(board, &bytes)
    }

    fn set(players: u64, k: u64, rows: &[&[u32]]) -> DataSet {
        DataSet {
            players,
            rows: rows.len(),
            cols: rows[0].len(),
            k,
            cells: rows.concat().into(),
        }
    }

    #[test]
    fn lines_along_every_kind_of_step() {
        // The first sample: a main diagonal of a 3 x 3 board is a cycle, a line for K = 4.
        let diagonal = set(1, 4, &[&[1, 0, 0], &[0, 1, 0], &[0, 0, 1]]);
        let owners = scan(&diagonal).expect("scan applies");
        assert!(owners.has(1));
        // Rows: three in a row is not four on a row of four squares...
        let mut board = set(2, 4, &[&[1, 1, 1, 0], &[2, 2, 0, 0], &[0; 4], &[0; 4]]);
        assert_eq!(scan(&board), Some(LineOwners::default()));
        // ...but it is when the row closes round the torus.
        board.cells = Cells::Bytes(vec![1, 1, 1, 1, 2, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let owners = scan(&board).expect("scan applies");
        assert!(owners.has(1) && !owners.has(2));
        assert_eq!(owners.lowest_other(2), Some(1));
        assert_eq!(owners.lowest_other(1), None);
        // Two in a row on a row, a column, a diagonal, a knight hop across the edge.
        board.k = 2;
        for (a, b) in [(4, 5), (4, 8), (4, 9), (4, 15), (7, 9), (7, 14)] {
            let mut cells = vec![0; 16];
            cells[a] = 2;
            cells[b] = 2;
            board.cells = Cells::Bytes(cells);
            let owners = scan(&board).expect("scan applies");
            assert!(owners.has(2), "squares {a} and {b}");
            assert_eq!(owners.lowest_other(1), Some(2));
        }
        // Squares 4 and 14 (rows 1 and 3, columns 0 and 2) are no step apart.
        let mut cells = vec![0; 16];
        cells[4] = 2;
        cells[14] = 2;
        board.cells = Cells::Bytes(cells);
        assert_eq!(scan(&board), Some(LineOwners::default()));
    }

    #[test]
    fn transpose_moves_every_square() {
        for (rows, cols) in [(1, 1), (8, 8), (3, 17), (16, 9), (21, 40), (64, 7)] {
            let cells: Vec<u8> = (0..rows * cols).map(|i| (i * 7 % 251) as u8).collect();
            let t = transpose(&cells, rows, cols);
            for r in 0..rows {
                for c in 0..cols {
                    assert_eq!(
                        t[c * rows + r],
                        cells[r * cols + c],
                        "{rows} x {cols}: ({r}, {c})"
                    );
                }
            }
        }
    }

    #[test]
    fn declines_what_its_counters_cannot_hold() {
        let mut board = set(300, 254, &[&[1, 0], &[0, 0]]);
        assert!(scan(&board).is_some());
        board.k = 255;
        assert_eq!(scan(&board), None);
        // One square: every step is (0, 0), each square its own cycle.
        assert!(scan(&set(1, 1, &[&[1]])).unwrap().has(1));
        assert!(scan(&set(2, 3, &[&[0, 2]])).unwrap().has(2));
    }
}
