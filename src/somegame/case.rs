//! Random and shrinkable Some Game boards: the one generator behind `referee gen somegame`,
//! `stress`, `audit`, the fuzz targets and the property tests. Boards come from random play in
//! turn order stopped at a random point (sometimes past a win), plus a few squares rewritten
//! with random values, so that all three verdicts occur.

use super::steps::{Step, STEPS};
use super::{SomeGame, CONTEST_MAX_SQUARES};
use crate::game::corrupt::{change_byte, edit_line};
use crate::game::knobs::{Knob, KnobError, Knobs, MOST_UNITS};
use crate::game::{Case, Constraints, EXTREME_PERCENT};
use crate::util::error::JudgeError;
use crate::util::random::{pick, Entropy};

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
    /// Random styles exclude the large boards of the engine's own tests (for auditing
    /// programs, whose time per case matters; the extremes stay, at their share).
    pub programs: bool,
    /// Every board within the contest's limit (at most [`CONTEST_MAX_SQUARES`] squares).
    pub contest: bool,
}

/// The most squares of the extremes beyond the contest's limit.
pub const ENGINE_EXTREME_SQUARES: usize = 200_000;

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

/// Gives each of `players` `each` of the free squares of `cells`, drawn at random (one
/// shuffle of the free squares: linear in the board).
fn fill_others(
    e: &mut dyn Entropy,
    cells: &mut [u64],
    players: impl Iterator<Item = u64>,
    each: usize,
) {
    let mut free: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
    let mut next = 0;
    for player in players {
        for _ in 0..each {
            if next == free.len() {
                return;
            }
            let pick = next + e.below((free.len() - next) as u64) as usize;
            free.swap(next, pick);
            cells[free[next]] = player;
            next += 1;
        }
    }
}

impl BoardCase {
    /// A line of the last mover (player P, every player owning as many squares) along a random
    /// step: K squares from a start near the bottom right corner, so that it wraps across the
    /// glued edges, or (`whole_cycle`) a whole cycle of the step, with K above its length.
    /// The other players' stones go anywhere free; sometimes one square of the line is left out.
    fn with_line(e: &mut dyn Entropy, whole_cycle: bool) -> BoardCase {
        let players = 1 + e.below(3);
        let (rows, cols) = (1 + e.below(6) as usize, 1 + e.below(6) as usize);
        let step = Step::new(*pick(e, &STEPS), rows, cols);
        let k = if whole_cycle {
            step.cycle + 1 + e.below(3)
        } else {
            1 + e.below(step.cycle.min(6))
        };
        let start = (
            rows - 1 - e.below(rows.min(2) as u64) as usize,
            cols - 1 - e.below(cols.min(2) as u64) as usize,
        );
        let mut cells = vec![0u64; rows * cols];
        let mut at = start;
        for _ in 0..if whole_cycle { step.cycle } else { k } {
            cells[at.0 * cols + at.1] = players;
            at = step.next(at);
        }
        let line: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] != 0).collect();
        if line.len() > 1 && e.chance(0.3) {
            cells[*pick(e, &line)] = 0;
        }
        let owned = cells.iter().filter(|&&v| v != 0).count();
        for player in 1..players {
            for _ in 0..owned {
                let free: Vec<usize> = (0..cells.len()).filter(|&i| cells[i] == 0).collect();
                if free.is_empty() {
                    break;
                }
                cells[*pick(e, &free)] = player;
            }
        }
        BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        }
    }

    /// An extreme board of at most `most` squares: the largest boards, as a square and as a
    /// single row or column; K at 0, 1, beyond the board and at 2^63 - 1; one player or more
    /// players than squares; empty and full boards; the longest lines (every value of many
    /// digits, an impossible board).
    fn extreme(e: &mut dyn Entropy, most: usize) -> BoardCase {
        let side = (most as f64).sqrt() as usize;
        let (rows, cols) = match e.below(4) {
            0 => (side, side),
            1 => (1, most),
            2 => (most, 1),
            _ => (1 + e.below(side as u64) as usize, side),
        };
        let n = rows * cols;
        let k = match e.below(5) {
            0 => 0,
            1 => 1,
            2 => (rows.max(cols) + 1) as u64,
            3 => i64::MAX as u64,
            _ => 2 + e.below(8),
        };
        let (players, cells) = match e.below(5) {
            // Empty.
            0 => (1 + e.below(4), vec![0; n]),
            // Full, in turn order.
            1 => {
                let players = 1 + e.below(4);
                (players, cells(e, players, n, 1.0, 0))
            }
            // More players than squares: every stone another player's.
            2 => {
                let players = (n as u64).saturating_mul(2).max(2);
                let filled = e.below(n as u64 + 1) as f64 / n as f64;
                (players, cells(e, players, n, filled, 0))
            }
            // The longest lines: every value of ten digits.
            3 => {
                let players = 9_999_999_999;
                (
                    players,
                    (0..n)
                        .map(|_| 1_000_000_000 + e.below(9_000_000_000))
                        .collect(),
                )
            }
            _ => {
                let players = 2 + e.below(3);
                let fill = e.below(71) as f64 / 100.0;
                (players, cells(e, players, n, fill, 0))
            }
        };
        BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        }
    }

    /// Corner `k` of boards of at most `most` squares (none past the last): on the largest
    /// square board, a win along each step, its line wrapping across the glued edges; a win on
    /// the longest single row and single column (player 1's one stone near the far end); the
    /// largest board full with no line; and two
    /// impossible boards there: a line of a player who did not move last, and a win with one
    /// stone too many. A judge whose arrays or loops stop one square short of 10,000 breaks
    /// only there.
    fn corner_of(e: &mut dyn Entropy, most: usize, k: usize) -> Option<BoardCase> {
        let side = (most as f64).sqrt() as usize;
        let steps = STEPS.len();
        let players = 2 + e.below(3);
        let board = match k {
            k if k < steps => BoardCase::won(e, side, side, STEPS[k], players, players),
            // On a single row or column each square is a cycle of its own: the first stone
            // wins, so the only win is player 1's single stone, here near the far end.
            k if k == steps || k == steps + 1 => {
                let (rows, cols) = if k == steps { (1, most) } else { (most, 1) };
                let mut cells = vec![0u64; most];
                cells[most - 1 - e.below(2) as usize] = 1;
                BoardCase {
                    players,
                    rows,
                    cols,
                    k: 1 + e.below(most as u64),
                    cells,
                }
            }
            k if k == steps + 2 => {
                let n = side * side;
                let mut cells = vec![0u64; n];
                let owned = n as u64 / players;
                fill_others(e, &mut cells, 1..players + 1, owned as usize);
                BoardCase {
                    players,
                    rows: side,
                    cols: side,
                    k: side as u64 + 1,
                    cells,
                }
            }
            k if k == steps + 3 => {
                let step = *pick(e, &STEPS);
                BoardCase::won(e, side, side, step, 1, players)
            }
            k if k == steps + 4 => {
                let step = *pick(e, &STEPS);
                let mut board = BoardCase::won(e, side, side, step, players, players);
                let free: Vec<usize> = (0..board.cells.len())
                    .filter(|&i| board.cells[i] == 0)
                    .collect();
                if let Some(&at) = free.get(e.below(free.len().max(1) as u64) as usize) {
                    board.cells[at] = 1 + e.below(players);
                }
                board
            }
            _ => return None,
        };
        Some(board)
    }

    /// A `rows` x `cols` board where `owner` has a line along `step` (K from 5 to the board's
    /// longer side, from a square near the bottom right corner, so that it wraps across the
    /// glued edges) and every one of the `players` owns as many squares, placed at random.
    fn won(
        e: &mut dyn Entropy,
        rows: usize,
        cols: usize,
        step: (i64, i64),
        owner: u64,
        players: u64,
    ) -> BoardCase {
        let step = Step::new(step, rows, cols);
        let longest = step.cycle.min(rows.max(cols) as u64).max(5);
        let k = 5 + e.below(longest - 4);
        let mut cells = vec![0u64; rows * cols];
        let mut at = (
            rows - 1 - e.below(rows.min(2) as u64) as usize,
            cols - 1 - e.below(cols.min(2) as u64) as usize,
        );
        let mut placed = 0;
        for _ in 0..k.min(step.cycle) {
            if cells[at.0 * cols + at.1] == 0 {
                cells[at.0 * cols + at.1] = owner;
                placed += 1;
            }
            at = step.next(at);
        }
        let others = (1..players + 1).filter(|&p| p != owner);
        fill_others(e, &mut cells, others, placed);
        BoardCase {
            players,
            rows,
            cols,
            k,
            cells,
        }
    }

    /// A board of random play in turn order with one stone more or one fewer.
    fn off_by_one(e: &mut dyn Entropy) -> BoardCase {
        let shape = BoardShape {
            perturb: Some(0),
            ..BoardShape::default()
        };
        let mut board = BoardCase::generate(e, None, &shape);
        let (free, taken): (Vec<usize>, Vec<usize>) =
            (0..board.cells.len()).partition(|&i| board.cells[i] == 0);
        if !taken.is_empty() && (free.is_empty() || e.chance(0.5)) {
            board.cells[*pick(e, &taken)] = 0;
        } else if !free.is_empty() {
            board.cells[*pick(e, &free)] = 1 + e.below(board.players);
        }
        board
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

    fn for_programs(constraints: Constraints) -> BoardShape {
        BoardShape {
            programs: true,
            contest: constraints == Constraints::Contest,
            ..BoardShape::default()
        }
    }

    fn from_input(input: &[u8], (): ()) -> Result<Vec<BoardCase>, JudgeError> {
        let boards = referee_reference::somegame::parse(input)?;
        Ok(boards
            .into_iter()
            .map(|b| BoardCase {
                players: b.players,
                rows: b.rows,
                cols: b.cols,
                k: b.k,
                cells: b.cells.into_iter().flatten().collect(),
            })
            .collect())
    }

    fn shape(knobs: &Knobs) -> Result<BoardShape, KnobError> {
        let (rows, cols) = knobs.grid()?;
        let players = knobs.within("players", MOST_UNITS, "the squares of a case gen can hold")?;
        Ok(BoardShape {
            players,
            rows: rows.map(|r| r as usize),
            cols: cols.map(|c| c as usize),
            k: knobs.count("k")?,
            fill: knobs.fraction("fill")?,
            perturb: knobs.count("perturb")?,
            tiny: knobs.switch("tiny"),
            programs: false,
            contest: false,
        })
    }

    /// With no knob set, a board of one of five styles: random play in turn order (sometimes
    /// past a win, sometimes perturbed); a line of the last mover along a random step, placed to
    /// wrap across the glued edges, with the others' stones in turn order; a whole cycle shorter
    /// than K owned by one player; a legal board with one stone too many or too few; a large
    /// board (20 to 120 squares a side) where the scan and the walk of whole cycles must agree.
    /// The corners of [`BoardCase::corner_of`], for programs' shapes.
    fn corner(
        e: &mut dyn Entropy,
        _: Option<()>,
        shape: &BoardShape,
        k: usize,
    ) -> Option<BoardCase> {
        if !shape.programs {
            return None;
        }
        let most = if shape.contest {
            CONTEST_MAX_SQUARES as usize
        } else {
            ENGINE_EXTREME_SQUARES
        };
        BoardCase::corner_of(e, most, k)
    }

    fn generate(e: &mut dyn Entropy, _: Option<()>, shape: &BoardShape) -> BoardCase {
        if shape.tiny {
            return BoardCase::tiny(e);
        }
        let set = shape.players.is_some()
            || shape.rows.is_some()
            || shape.cols.is_some()
            || shape.k.is_some()
            || shape.fill.is_some()
            || shape.perturb.is_some();
        if !set && e.below(100) >= 100 - EXTREME_PERCENT {
            let most = if shape.contest {
                CONTEST_MAX_SQUARES as usize
            } else {
                ENGINE_EXTREME_SQUARES
            };
            return BoardCase::extreme(e, most);
        }
        if !set {
            match e.below(100) {
                0..45 => {}
                45..65 => return BoardCase::with_line(e, false),
                65..75 => return BoardCase::with_line(e, true),
                75..90 => return BoardCase::off_by_one(e),
                _ if shape.programs => {}
                _ => {
                    let size = |e: &mut dyn Entropy| 20 + e.below(101) as usize;
                    let large = BoardShape {
                        players: Some(2 + e.below(3)),
                        rows: Some(size(e)),
                        cols: Some(size(e)),
                        k: Some(3 + e.below(6)),
                        fill: Some(0.3 + e.below(41) as f64 / 100.0),
                        perturb: Some(0),
                        tiny: false,
                        programs: false,
                        contest: false,
                    };
                    return BoardCase::generate(e, None, &large);
                }
            }
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

    /// A changed byte, a value too many or too few in a row, a row missing, a header of three
    /// or five numbers, or a negative number.
    fn corrupt(&self, e: &mut dyn Entropy) -> Vec<u8> {
        let input = self.input();
        let row = |i: usize, _: &[u8]| i > 0;
        match e.below(6) {
            0 => change_byte(&input, b"0123456789 -x\n\t\r", e),
            1 => edit_line(&input, e, row, |l, _| {
                let mut values: Vec<&[u8]> = l.split(|&b| b == b' ').collect();
                values.pop();
                Some(values.join(&b' '))
            }),
            2 => edit_line(&input, e, row, |l, _| Some([l, b" 0"].concat())),
            3 => edit_line(&input, e, row, |_, _| None),
            4 => edit_line(
                &input,
                e,
                |i, _| i == 0,
                |l, e| {
                    let mut values: Vec<&[u8]> = l.split(|&b| b == b' ').collect();
                    if e.chance(0.5) {
                        values.pop();
                    } else {
                        values.push(b"1");
                    }
                    Some(values.join(&b' '))
                },
            ),
            _ => edit_line(&input, e, |_, _| true, |l, _| Some([b"-", l].concat())),
        }
    }

    fn small_shape(&self) -> Option<BoardShape> {
        (self.rows * self.cols > 6).then(|| BoardShape {
            tiny: true,
            ..BoardShape::default()
        })
    }

    /// The reachability oracle ([`super::oracle`]) decides the tiny tori.
    fn oracle() -> Option<(&'static str, BoardShape)> {
        Some((
            "reachability_oracle",
            BoardShape {
                tiny: true,
                ..BoardShape::default()
            },
        ))
    }

    fn oracle_agrees(&self) -> Result<(), crate::game::Disagreement> {
        super::oracle::engine_agrees(self)
    }

    fn shape_label(&self) -> String {
        format!(
            "P={} {}x{} K={}",
            self.players, self.rows, self.cols, self.k
        )
    }

    /// In order: half the rows, half the columns; K lowered (to 1, to half, by one); the
    /// highest player dropped when it owns nothing; one stone of every player taken at once
    /// (which keeps the turn order's counts); each row and each column removed, last first;
    /// each stone taken; each value lowered by one. Lazy.
    fn shrink(&self) -> Box<dyn Iterator<Item = BoardCase> + '_> {
        let (r, c) = (self.rows, self.cols);
        let keep = move |rows: &dyn Fn(usize) -> bool, cols: &dyn Fn(usize) -> bool| {
            let kept_rows: Vec<usize> = (0..r).filter(|&i| rows(i)).collect();
            let kept_cols: Vec<usize> = (0..c).filter(|&j| cols(j)).collect();
            BoardCase {
                rows: kept_rows.len(),
                cols: kept_cols.len(),
                cells: kept_rows
                    .iter()
                    .flat_map(|&i| kept_cols.iter().map(move |&j| self.cells[i * c + j]))
                    .collect(),
                ..self.clone()
            }
        };
        let halves = [
            (r >= 2).then(|| keep(&|i| i < r / 2, &|_| true)),
            (c >= 2).then(|| keep(&|_| true, &|j| j < c / 2)),
        ]
        .into_iter()
        .flatten();
        let with_k = move |k: u64| BoardCase { k, ..self.clone() };
        let mut ks: Vec<u64> = [1, self.k / 2, self.k.saturating_sub(1)]
            .into_iter()
            .filter(|&k| k < self.k)
            .collect();
        ks.dedup();
        let lower_k = ks.into_iter().map(with_k);
        let fewer_players = (self.players > 1 && self.cells.iter().all(|&v| v < self.players))
            .then(|| BoardCase {
                players: self.players - 1,
                ..self.clone()
            });
        let rounds = self.cells.iter().filter(|&&v| v == 1).count();
        let one_each = (0..rounds).filter_map(move |round| {
            let mut cells = self.cells.clone();
            for player in 1..=self.players.min(self.cells.len() as u64) {
                let at = (0..cells.len())
                    .filter(|&i| cells[i] == player)
                    .nth(round)?;
                cells[at] = 0;
            }
            Some(BoardCase {
                cells,
                ..self.clone()
            })
        });
        let rows = (0..if r > 1 { r } else { 0 })
            .rev()
            .map(move |skip| keep(&|i| i != skip, &|_| true));
        let cols = (0..if c > 1 { c } else { 0 })
            .rev()
            .map(move |skip| keep(&|_| true, &|j| j != skip));
        let changed = move |at: usize, v: u64| {
            let mut cells = self.cells.clone();
            cells[at] = v;
            BoardCase {
                cells,
                ..self.clone()
            }
        };
        let taken = (0..self.cells.len())
            .filter(move |&at| self.cells[at] != 0)
            .map(move |at| changed(at, 0));
        let lowered = (0..self.cells.len())
            .filter(move |&at| self.cells[at] > 1)
            .map(move |at| changed(at, self.cells[at] - 1));
        Box::new(
            halves
                .chain(lower_k)
                .chain(fewer_players)
                .chain(one_each)
                .chain(rows)
                .chain(cols)
                .chain(taken)
                .chain(lowered),
        )
    }
}

#[cfg(test)]
mod corner_tests {
    use super::*;
    use crate::game::Judged;
    use crate::util::random::Rng;

    #[test]
    fn every_corner_is_the_largest_board_with_the_verdict_it_says() {
        let shape = BoardCase::for_programs(Constraints::Contest);
        let corners: Vec<BoardCase> = (0..)
            .map_while(|k| {
                <BoardCase as Case>::corner(&mut Rng::for_item(5, k), None, &shape, k as usize)
            })
            .collect();
        assert_eq!(corners.len(), STEPS.len() + 5);
        for (k, board) in corners.iter().enumerate() {
            assert_eq!(
                board.cells.len(),
                CONTEST_MAX_SQUARES as usize,
                "corner {k}"
            );
            let verdict = super::super::judge(&board.input()[..]).unwrap()[0].verdict();
            let steps = STEPS.len();
            let wanted = match k {
                k if k < steps => format!("PLAYER {}", board.players),
                k if k < steps + 2 => "PLAYER 1".to_string(),
                k if k == steps + 2 => "NO WINNERS".to_string(),
                _ => "ERROR".to_string(),
            };
            assert_eq!(
                verdict, wanted,
                "corner {k}: {} x {}",
                board.rows, board.cols
            );
        }
    }
}
