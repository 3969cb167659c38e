//! Seeded random inputs for every game: used by `referee gen`, `referee stress`, the fuzz
//! targets' seeds and the benchmarks. Deterministic for a given seed and shape.

use std::collections::HashSet;

use crate::pousse::{Board, Colour, Edge, Move, Rules};

/// SplitMix64: a small, fast, seedable generator (statistical quality is plenty here).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        crate::pousse::board::mix64(self.0)
    }

    /// A value in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((self.next_u64() as u128 * n as u128) >> 64) as u64
    }

    /// `true` with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        let unit = (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        unit < p
    }
}

/// The shape of a random Pousse game.
#[derive(Debug, Clone, Copy)]
pub struct PousseShape {
    /// Board size.
    pub n: usize,
    /// Moves before `QUIT`.
    pub moves: usize,
    /// Draw most moves from a palette of this many moves (0: every move uniform), which makes
    /// straights and repetitions frequent.
    pub palette: usize,
    /// Only moves that do not end the game under `rules` (so a judge must play every move).
    pub undecided: bool,
    /// The rule set `undecided` refers to.
    pub rules: Rules,
}

fn random_move(rng: &mut Rng, n: usize) -> Move {
    Move::new(
        Edge::ALL[rng.below(4) as usize],
        rng.below(n as u64) as u32 + 1,
    )
}

/// Above this board size, `undecided` games are made of plain random moves cut before any
/// decisive one, instead of trying every move on a copy of the board.
pub const UNDECIDED_BY_TRIAL: usize = 64;

/// The moves of a random Pousse game. With `undecided`, each move is drawn until one leaves
/// the straight counts equal and (ICFP rule sets) repeats no configuration seen so far; when no
/// such move turns up in `8 N` draws the game stops early, so it may be shorter than asked.
/// Above [`UNDECIDED_BY_TRIAL`], see there.
pub fn pousse_moves(rng: &mut Rng, shape: &PousseShape) -> Vec<Move> {
    let n = shape.n;
    let palette: Vec<Move> = (0..shape.palette).map(|_| random_move(rng, n)).collect();
    let draw = |rng: &mut Rng| {
        if !palette.is_empty() && rng.chance(0.8) {
            palette[rng.below(palette.len() as u64) as usize]
        } else {
            random_move(rng, n)
        }
    };
    if !shape.undecided {
        return (0..shape.moves).map(|_| draw(rng)).collect();
    }
    if n > UNDECIDED_BY_TRIAL {
        // Trying each move on a copy of the board costs O(N^2) per move here; random moves
        // essentially never make a straight of N or repeat a position at this size. Play
        // them, and cut the game before a decisive move should one happen.
        let mut moves: Vec<Move> = (0..shape.moves).map(|_| draw(rng)).collect();
        let mut game = crate::pousse::Game::new(n, shape.rules).expect("valid size");
        if let Some(k) = moves.iter().position(|&m| game.play(m).is_some()) {
            moves.truncate(k);
        }
        return moves;
    }
    let mut board = Board::new(n, true).expect("valid size");
    let mut seen: HashSet<u64> = HashSet::new();
    let key = |b: &Board, played: usize| {
        let side = if shape.rules == Rules::Icfp98 && played % 2 == 1 {
            0x5bd1_e995
        } else {
            0
        };
        b.hash() ^ side
    };
    let mut moves = Vec::with_capacity(shape.moves);
    let mut scratch = board.clone();
    'game: while moves.len() < shape.moves {
        let mover = Colour::of_move(moves.len() as u64 + 1);
        for _ in 0..8 * n.max(4) {
            let mv = draw(rng);
            scratch.clone_from(&board);
            scratch.play_unchecked(mv, mover);
            let (x, o) = scratch.straights();
            let k = key(&scratch, moves.len() + 1);
            if x == o && (!shape.rules.forbids_repetition() || !seen.contains(&k)) {
                seen.insert(k);
                std::mem::swap(&mut board, &mut scratch);
                moves.push(mv);
                continue 'game;
            }
        }
        break;
    }
    moves
}

/// A Pousse transcript (single-game format).
pub fn pousse_transcript(n: usize, moves: &[Move]) -> String {
    let mut s = String::with_capacity(moves.len() * 4 + 16);
    s.push_str(&n.to_string());
    s.push('\n');
    for m in moves {
        s.push_str(&m.to_string());
        s.push('\n');
    }
    s.push_str("QUIT\n");
    s
}

/// A random LittleSquares grid (rows of `.`/`#`), each square filled with probability
/// `filled`.
pub fn littlesquares_grid(rng: &mut Rng, rows: usize, cols: usize, filled: f64) -> String {
    let mut s = String::with_capacity(rows * (cols + 1));
    for _ in 0..rows {
        for _ in 0..cols {
            s.push(if rng.chance(filled) { '#' } else { '.' });
        }
        s.push('\n');
    }
    s
}

/// The shape of a random Some Game board.
#[derive(Debug, Clone, Copy)]
pub struct SomeGameShape {
    /// Players.
    pub players: u64,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Winning length.
    pub k: u64,
    /// Fraction of the squares filled by random play (in turn order).
    pub fill: f64,
    /// Squares changed to random values afterwards (to produce impossible boards).
    pub perturb: usize,
}

/// A random Some Game board: `fill` of the squares written in turn order at random places
/// (which may well continue past a win: such boards are `ERROR`), then `perturb` random
/// squares rewritten.
pub fn somegame_cells(rng: &mut Rng, shape: &SomeGameShape) -> Vec<u64> {
    let n = shape.rows * shape.cols;
    let mut cells = vec![0u64; n];
    let filled = ((n as f64) * shape.fill) as usize;
    // A random prefix of a permutation (partial Fisher-Yates).
    let mut order: Vec<usize> = (0..n).collect();
    for i in 0..filled.min(n) {
        let j = i + rng.below((n - i) as u64) as usize;
        order.swap(i, j);
        cells[order[i]] = (i as u64 % shape.players) + 1;
    }
    for _ in 0..shape.perturb {
        let at = rng.below(n as u64) as usize;
        cells[at] = rng.below(shape.players + 2);
    }
    cells
}

/// A Some Game data set as text.
pub fn somegame_text(shape: &SomeGameShape, cells: &[u64]) -> String {
    let mut s = format!(
        "{} {} {} {}\n",
        shape.players, shape.rows, shape.cols, shape.k
    );
    for row in cells.chunks(shape.cols) {
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                s.push(' ');
            }
            s.push_str(&v.to_string());
        }
        s.push('\n');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn undecided_games_never_end() {
        for rules in Rules::ALL {
            for n in [2, 3, 4, 8, 65] {
                let shape = PousseShape {
                    n,
                    moves: 2000,
                    palette: 0,
                    undecided: true,
                    rules,
                };
                let moves = pousse_moves(&mut Rng::new(n as u64), &shape);
                let text = pousse_transcript(n, &moves);
                let j = crate::pousse::judge::judge(text.as_bytes(), rules).unwrap();
                assert_eq!(j[0].decisive_move, None, "{rules} n={n}");
                // Above UNDECIDED_BY_TRIAL the game is cut before its first decisive move
                // (at N = 65 under icfp98, a real repetition near move 1955).
                if (4..=UNDECIDED_BY_TRIAL).contains(&n) {
                    assert_eq!(moves.len(), 2000, "{rules} n={n}");
                }
            }
        }
    }

    #[test]
    fn same_seed_same_output() {
        let shape = PousseShape {
            n: 5,
            moves: 50,
            palette: 3,
            undecided: false,
            rules: Rules::Waterloo,
        };
        assert_eq!(
            pousse_moves(&mut Rng::new(9), &shape),
            pousse_moves(&mut Rng::new(9), &shape)
        );
        assert_eq!(
            littlesquares_grid(&mut Rng::new(1), 3, 4, 0.3),
            littlesquares_grid(&mut Rng::new(1), 3, 4, 0.3)
        );
    }
}
