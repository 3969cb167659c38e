//! Random and shrinkable Pousse cases.

use std::fmt;

use crate::game::Pousse;
use crate::generate::{pousse_moves, pousse_transcript, PousseShape, Rng};
use crate::pousse::{Edge, Move, Rules};

/// A Pousse game: board size, moves and rule set.
#[derive(Clone, PartialEq, Eq)]
pub struct PousseCase {
    /// Board size.
    pub n: usize,
    /// Moves (indices within 1..=n).
    pub moves: Vec<Move>,
    /// Rule set.
    pub rules: Rules,
}

/// The transcript itself, ready to judge (`--rules` in a comment line above it).
impl fmt::Debug for PousseCase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "# --rules {}", self.rules)?;
        f.write_str(&pousse_transcript(self.n, &self.moves))
    }
}

impl super::Case for PousseCase {
    type G = Pousse;

    fn options(&self) -> Rules {
        self.rules
    }

    fn input(&self) -> Vec<u8> {
        pousse_transcript(self.n, &self.moves).into_bytes()
    }

    /// N mostly 1..=8, a quarter of the time up to 100; 0..=200 moves, 80% of them from a
    /// palette of 1..=4 moves so that straights and repetitions are frequent.
    fn random(rng: &mut Rng, rules: Option<Rules>) -> PousseCase {
        let rules = rules.unwrap_or(Rules::ALL[rng.below(3) as usize]);
        let n = if rng.chance(0.75) {
            1 + rng.below(8) as usize
        } else {
            9 + rng.below(92) as usize
        };
        let shape = PousseShape {
            n,
            moves: rng.below(201) as usize,
            palette: 1 + rng.below(4) as usize,
            undecided: false,
            rules,
        };
        let moves = pousse_moves(rng, &shape);
        PousseCase { n, moves, rules }
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

#[cfg(feature = "arbitrary")]
impl<'a> arbitrary::Arbitrary<'a> for PousseCase {
    /// The same biases as [`super::Case::random`], driven by the fuzzer's bytes.
    fn arbitrary(u: &mut arbitrary::Unstructured<'a>) -> arbitrary::Result<PousseCase> {
        let rules = Rules::ALL[u.int_in_range(0..=2)?];
        let n: usize = if u.ratio(3, 4)? {
            u.int_in_range(1..=8)?
        } else {
            u.int_in_range(9..=130)?
        };
        let any_move = |u: &mut arbitrary::Unstructured<'a>| -> arbitrary::Result<Move> {
            Ok(Move::new(
                Edge::ALL[u.int_in_range(0..=3)?],
                u.int_in_range(1..=n as u32)?,
            ))
        };
        let palette_len = u.int_in_range(1..=4)?;
        let mut palette = Vec::with_capacity(palette_len);
        for _ in 0..palette_len {
            palette.push(any_move(u)?);
        }
        let mut moves = Vec::new();
        while moves.len() < 300 && !u.is_empty() {
            let m = if u.ratio(4, 5)? {
                palette[u.choose_index(palette.len())?]
            } else {
                any_move(u)?
            };
            moves.push(m);
        }
        Ok(PousseCase { n, moves, rules })
    }
}
