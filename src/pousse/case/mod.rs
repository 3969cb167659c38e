//! Random and shrinkable Pousse games: the one generator behind `referee gen pousse`, `stress`,
//! `audit`, the fuzz targets and the property tests.

mod extremes;
mod generate;
mod moves;
mod shrink;
mod smallest;
mod styles;
#[cfg(test)]
mod tests;

pub use generate::PousseShape;
pub use moves::{moves, ENGINE_EXTREME_N, UNDECIDED_BY_TRIAL};
pub use smallest::{SMALLEST_MOVES, SMALLEST_PER_SIZE};
pub use styles::Style;

use super::{Edge, Move, Pousse, Rules, MAX_N};
use crate::game::corrupt::{change_byte, edit_line, insert_line};
use crate::game::knobs::{Knob, KnobError, Knobs, MOST_UNITS};
use crate::game::{Case, Constraints};
use crate::util::error::JudgeError;
use crate::util::random::{pick, Entropy};

pub use super::steered::LONG_GAME_MOVES;

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

/// A Pousse transcript in the single-game format.
pub fn transcript(n: usize, moves: &[Move]) -> String {
    let mut s = String::with_capacity(moves.len() * 5 + 16);
    s.push_str(&n.to_string());
    s.push('\n');
    let mut digits = [0u8; 10];
    for m in moves {
        s.push(m.edge.letter());
        // The index's digits, written from the last.
        let (mut v, mut at) = (m.index, digits.len());
        loop {
            at -= 1;
            digits[at] = b'0' + (v % 10) as u8;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        s.push_str(std::str::from_utf8(&digits[at..]).expect("ASCII digits"));
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
        Knob::switch("undecided", "only moves that do not end the game under --rules (long games a judge must play to the end; the game stops early when no such move turns up)"),
    ];

    fn for_programs(constraints: Constraints) -> PousseShape {
        PousseShape {
            programs: true,
            contest: constraints == Constraints::Contest,
            ..PousseShape::default()
        }
    }

    fn from_input(input: &[u8], rules: Rules) -> Result<Vec<PousseCase>, JudgeError> {
        let mut parser = super::parse::Parser::new(input);
        let mut cases = Vec::new();
        let mut buffer = vec![Move::new(Edge::Left, 1); 256];
        while let Some(n) = parser.next_game()? {
            let mut moves = Vec::new();
            loop {
                let got = parser.next_moves(&mut buffer)?;
                if got == 0 {
                    break;
                }
                moves.extend_from_slice(&buffer[..got]);
            }
            cases.push(PousseCase { n, moves, rules });
        }
        Ok(cases)
    }

    fn shape(knobs: &Knobs) -> Result<PousseShape, KnobError> {
        let n = knobs.count::<usize>("n")?;
        if let Some(n) = n.filter(|n| !(1..=MAX_N).contains(n)) {
            return Err(KnobError::OutOfRange {
                name: "n".into(),
                least: 1,
                most: MAX_N as u64,
                value: n as u64,
            });
        }
        Ok(PousseShape {
            n,
            moves: knobs
                .within("moves", MOST_UNITS, "the moves of a case gen can hold")?
                .map(|m| m as usize),
            palette: knobs.count("palette")?,
            undecided: knobs.switch("undecided"),
            style: None,
            programs: false,
            contest: false,
            small: false,
        })
    }

    fn generate(e: &mut dyn Entropy, rules: Option<Rules>, shape: &PousseShape) -> PousseCase {
        generate::generate(e, rules, shape)
    }

    /// The corners of [`super::corners`], for programs' shapes.
    fn corner(
        e: &mut dyn Entropy,
        rules: Option<Rules>,
        shape: &PousseShape,
        k: usize,
    ) -> Option<PousseCase> {
        if !shape.programs || k >= super::corners::count() {
            return None;
        }
        let rules = rules.unwrap_or_else(|| *pick(e, &Rules::ALL));
        let (n, moves) = super::corners::corner(e, rules, shape.largest(), k)?;
        Some(PousseCase { n, moves, rules })
    }

    fn options(&self) -> Rules {
        self.rules
    }

    fn input(&self) -> Vec<u8> {
        transcript(self.n, &self.moves).into_bytes()
    }

    /// A changed byte, an index past N (or 0), no `QUIT`, a lowercase letter, a blank line
    /// inside the game, a leading zero, or a trailing space.
    fn corrupt(&self, e: &mut dyn Entropy) -> Vec<u8> {
        let input = self.input();
        let is_move =
            |i: usize, l: &[u8]| i > 0 && matches!(l.first(), Some(b'L' | b'R' | b'T' | b'B'));
        let n = self.n;
        match e.below(7) {
            0 => change_byte(&input, b"\n\r 0123456789LRTBQUITlrtbx+-", e),
            1 => edit_line(&input, e, is_move, |l, e| {
                let index = if e.chance(0.8) { n + 1 } else { 0 };
                Some(format!("{}{index}", l[0] as char).into_bytes())
            }),
            2 => edit_line(&input, e, |_, l| l == b"QUIT", |_, _| None),
            3 => edit_line(&input, e, is_move, |l, _| {
                let mut l = l.to_vec();
                l[0] = l[0].to_ascii_lowercase();
                Some(l)
            }),
            4 => insert_line(&input, b"", e),
            5 => edit_line(&input, e, is_move, |l, _| {
                Some([&l[..1], b"0", &l[1..]].concat())
            }),
            _ => edit_line(&input, e, |_, _| true, |l, _| Some([l, b" "].concat())),
        }
    }

    fn shape_label(&self) -> String {
        format!("N={}", self.n)
    }

    fn steps(&self) -> Option<usize> {
        Some(self.moves.len())
    }

    fn prefix(&self, steps: usize) -> PousseCase {
        PousseCase {
            moves: self.moves[..steps.min(self.moves.len())].to_vec(),
            ..self.clone()
        }
    }

    /// Every game of 1 to [`SMALLEST_MOVES`] moves on boards of 1 x 1 to 4 x 4, fewest moves
    /// first, then smallest board, as long as the games of that size are at most
    /// [`SMALLEST_PER_SIZE`]; only those whose moves but the last leave the game undecided.
    fn smallest(rules: Rules) -> Box<dyn Iterator<Item = PousseCase>> {
        smallest::smallest(rules)
    }

    fn small_shape(&self) -> Option<PousseShape> {
        (self.n > 2 || self.moves.len() > 8).then(|| PousseShape {
            small: true,
            ..PousseShape::default()
        })
    }

    /// In order: the moves after the engine's decisive move cut; smaller boards (half the
    /// size with indices clamped, one less with the last line's moves dropped or clamped);
    /// the last half, quarter, ... of the moves cut; chunks of moves dropped, halves first;
    /// every pair of consecutive moves (which keeps every later move's colour); a row and
    /// column taken out; in short games any two moves of different colours; single moves;
    /// a move replaced by a simpler one (on boards up to 8 in games up to 64 moves, any move
    /// before it in the order `L1 < ... < B{N}`; else a lower index, edge `L`).
    /// Lazy: a game of 10^5 moves has about 10^6 candidates, made one at a time.
    fn shrink(&self) -> Box<dyn Iterator<Item = PousseCase> + '_> {
        shrink::shrink(self)
    }
}
