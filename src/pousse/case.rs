//! Random and shrinkable Pousse games: the one generator behind `referee gen pousse`, `stress`,
//! `audit`, the fuzz targets and the property tests.

use super::{Board, Colour, Edge, Match, Move, Pousse, Rules, MAX_N};
use crate::game::Case;
use crate::knobs::{Knob, Knobs};
use crate::random::{pick, Entropy};
use std::collections::HashSet;

/// A Pousse game: board size, moves and rule set.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PousseCase {
    /// Board size.
    pub n: usize,
    /// Moves (indices within 1..=n).
    pub moves: Vec<Move>,
    /// Rule set.
    pub rules: Rules,
}

/// The settings of the generator; `None` leaves a choice random.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PousseShape {
    /// Board size (random: 1..=8 three times in four, else 9..=100).
    pub n: Option<usize>,
    /// Moves before `QUIT` (random: 0..=200).
    pub moves: Option<usize>,
    /// Draw 80% of the moves from a palette of this many moves, so that straights and
    /// repetitions are frequent; 0 for uniform moves (random: 1..=4).
    pub palette: Option<usize>,
    /// Only moves that leave the game undecided under the rule set, so a judge must play the
    /// whole game (see [`moves`]).
    pub undecided: bool,
}

impl PousseShape {
    /// The shape of a game on an `n` x `n` board with `moves` moves drawn from a palette of
    /// `palette` moves.
    pub fn fixed(n: usize, moves: usize, palette: usize, undecided: bool) -> PousseShape {
        PousseShape {
            n: Some(n),
            moves: Some(moves),
            palette: Some(palette),
            undecided,
        }
    }
}

fn random_move(e: &mut dyn Entropy, n: usize) -> Move {
    Move::new(*pick(e, &Edge::ALL), e.below(n as u64) as u32 + 1)
}

/// Above this board size, undecided games are made of plain random moves cut before any
/// decisive one, instead of trying every move on a copy of the board.
pub const UNDECIDED_BY_TRIAL: usize = 64;

/// The moves of a random game of `count` moves on an `n` x `n` board. With `palette` > 0, 80%
/// of the moves come from `palette` moves drawn first. With `undecided`, each move is drawn
/// until one leaves the straight counts equal and (ICFP rule sets) repeats no configuration
/// seen so far; when no such move turns up in `8 N` draws the game stops early, so it may be
/// shorter than asked. Above [`UNDECIDED_BY_TRIAL`], see there.
pub fn moves(
    e: &mut dyn Entropy,
    n: usize,
    count: usize,
    palette: usize,
    undecided: bool,
    rules: Rules,
) -> Vec<Move> {
    let palette: Vec<Move> = (0..palette).map(|_| random_move(e, n)).collect();
    let draw = |e: &mut dyn Entropy| {
        if !palette.is_empty() && e.chance(0.8) {
            *pick(e, &palette)
        } else {
            random_move(e, n)
        }
    };
    if !undecided {
        return (0..count).map(|_| draw(e)).collect();
    }
    if n > UNDECIDED_BY_TRIAL {
        // Trying each move on a copy of the board costs O(N^2) per move here; random moves
        // essentially never make a straight of N or repeat a position at this size. Play
        // them, and cut the game before a decisive move should one happen.
        let mut moves: Vec<Move> = (0..count).map(|_| draw(e)).collect();
        let mut game = Match::new(n, rules).expect("valid size");
        if let Some(k) = moves.iter().position(|&m| game.play(m).is_some()) {
            moves.truncate(k);
        }
        return moves;
    }
    let mut board = Board::new(n, true).expect("valid size");
    let mut seen: HashSet<u64> = HashSet::new();
    let key = |b: &Board, played: usize| {
        let side = if rules == Rules::Icfp98 && played % 2 == 1 {
            0x5bd1_e995
        } else {
            0
        };
        b.hash() ^ side
    };
    let mut moves = Vec::with_capacity(count);
    let mut scratch = board.clone();
    'game: while moves.len() < count {
        let mover = Colour::of_move(moves.len() as u64 + 1);
        for _ in 0..8 * n.max(4) {
            let mv = draw(e);
            scratch.clone_from(&board);
            scratch.play_unchecked(mv, mover);
            let (x, o) = scratch.straights();
            let k = key(&scratch, moves.len() + 1);
            if x == o && (!rules.forbids_repetition() || !seen.contains(&k)) {
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

/// A Pousse transcript in the single-game format.
pub fn transcript(n: usize, moves: &[Move]) -> String {
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

impl Case for PousseCase {
    type Game = Pousse;
    type Shape = PousseShape;
    const KNOBS: &'static [Knob] = &[
        Knob::count("n", "board size"),
        Knob::count("moves", "moves per game"),
        Knob::count("palette", "draw 80% of the moves from a palette of this many (0: uniform moves)"),
        Knob::switch("undecided", "only moves that do not end the game under --rules (long games a judge must play to the end)"),
    ];

    fn shape(knobs: &Knobs) -> Result<PousseShape, String> {
        let n = knobs.count::<usize>("n")?;
        if let Some(n) = n.filter(|n| !(1..=MAX_N).contains(n)) {
            return Err(format!("--n must be from 1 to {MAX_N}, not {n}"));
        }
        Ok(PousseShape {
            n,
            moves: knobs.count("moves")?,
            palette: knobs.count("palette")?,
            undecided: knobs.switch("undecided"),
        })
    }

    fn generate(e: &mut dyn Entropy, rules: Option<Rules>, shape: &PousseShape) -> PousseCase {
        let rules = rules.unwrap_or_else(|| *pick(e, &Rules::ALL));
        let n = shape.n.unwrap_or_else(|| {
            if e.chance(0.75) {
                1 + e.below(8) as usize
            } else {
                9 + e.below(92) as usize
            }
        });
        let count = shape.moves.unwrap_or_else(|| e.below(201) as usize);
        let palette = shape.palette.unwrap_or_else(|| 1 + e.below(4) as usize);
        let moves = moves(e, n, count, palette, shape.undecided, rules);
        PousseCase { n, moves, rules }
    }

    fn options(&self) -> Rules {
        self.rules
    }

    fn input(&self) -> Vec<u8> {
        transcript(self.n, &self.moves).into_bytes()
    }

    fn shape_label(&self) -> String {
        format!("N={}", self.n)
    }

    fn shrink(&self) -> Vec<PousseCase> {
        let mut out = Vec::new();
        let with = |moves: Vec<Move>| PousseCase {
            moves,
            ..self.clone()
        };
        // Drop chunks of moves, large chunks first.
        let len = self.moves.len();
        let mut chunk = len / 2;
        while chunk >= 1 {
            for start in (0..len).step_by(chunk) {
                let mut m = self.moves.clone();
                m.drain(start..(start + chunk).min(len));
                out.push(with(m));
            }
            chunk /= 2;
        }
        // A smaller board (moves beyond it dropped).
        if self.n > 1 {
            let n = self.n - 1;
            let moves = self
                .moves
                .iter()
                .copied()
                .filter(|m| m.index as usize <= n)
                .collect();
            out.push(PousseCase {
                n,
                moves,
                rules: self.rules,
            });
        }
        // Simpler moves: lower indices, then edge L.
        for (i, m) in self.moves.iter().enumerate() {
            if m.index > 1 {
                let mut moves = self.moves.clone();
                moves[i] = Move::new(m.edge, m.index - 1);
                out.push(with(moves));
            }
            if m.edge != Edge::Left {
                let mut moves = self.moves.clone();
                moves[i] = Move::new(Edge::Left, m.index);
                out.push(with(moves));
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::random::Rng;

    #[test]
    fn undecided_games_never_end() {
        for rules in Rules::ALL {
            for n in [2, 3, 4, 8, 65] {
                let moves = moves(&mut Rng::new(n as u64), n, 2000, 0, true, rules);
                let text = transcript(n, &moves);
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
    fn same_seed_same_case_and_knobs_fix_the_shape() {
        let shape = PousseShape::fixed(5, 50, 3, false);
        let a = PousseCase::generate(&mut Rng::new(9), Some(Rules::Icfp98), &shape);
        let b = PousseCase::generate(&mut Rng::new(9), Some(Rules::Icfp98), &shape);
        assert_eq!(a, b);
        assert_eq!((a.n, a.moves.len(), a.rules), (5, 50, Rules::Icfp98));
        let knobs = Knobs::new([("n", "0")]);
        assert!(PousseCase::shape(&knobs).is_err());
        let knobs = Knobs::new([("n", "7"), ("undecided", "true")]);
        let shape = PousseCase::shape(&knobs).unwrap();
        assert_eq!(
            (shape.n, shape.moves, shape.undecided),
            (Some(7), None, true)
        );
    }
}
