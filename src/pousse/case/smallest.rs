//! Every smallest game in order ([`Case::smallest`](crate::game::Case::smallest)).

use super::PousseCase;
use crate::pousse::{Edge, Match, Move, Rules};

/// The most moves of [`Case::smallest`](crate::game::Case::smallest)'s games.
pub const SMALLEST_MOVES: usize = 6;

/// The most games of one board size and length [`Case::smallest`](crate::game::Case::smallest) goes through (4 x 4 boards up
/// to four moves, 3 x 3 up to five, 2 x 2 up to six).
pub const SMALLEST_PER_SIZE: u64 = 300_000;

/// The games of `moves` moves on an `n` x `n` board whose moves but the last leave the game
/// undecided, in the order of their moves (`L1 < L2 < ... < B{n}`): a counter over the moves,
/// where a prefix that decides skips every game that starts with it.
struct SmallGames {
    n: usize,
    rules: Rules,
    /// Each move's number among the `4 n` moves; `None` once every game was given.
    digits: Option<Vec<usize>>,
}

impl SmallGames {
    fn new(n: usize, moves: usize, rules: Rules) -> SmallGames {
        SmallGames {
            n,
            rules,
            digits: Some(vec![0; moves]),
        }
    }

    fn moves_of(&self, digits: &[usize]) -> Vec<Move> {
        digits
            .iter()
            .map(|&d| Move::new(Edge::ALL[d / self.n], (d % self.n) as u32 + 1))
            .collect()
    }

    /// Moves on to the next game after every game whose first `at + 1` moves are these.
    fn skip_from(&mut self, at: usize) {
        let Some(digits) = self.digits.as_mut() else {
            return;
        };
        for d in digits[at + 1..].iter_mut() {
            *d = 0;
        }
        let mut i = at;
        loop {
            digits[i] += 1;
            if digits[i] < 4 * self.n {
                return;
            }
            digits[i] = 0;
            if i == 0 {
                self.digits = None;
                return;
            }
            i -= 1;
        }
    }
}

impl Iterator for SmallGames {
    type Item = PousseCase;

    fn next(&mut self) -> Option<PousseCase> {
        loop {
            let digits = self.digits.clone()?;
            let moves = self.moves_of(&digits);
            let mut game = Match::new(self.n, self.rules).expect("a small board");
            let decided = moves.iter().position(|&m| game.play(m).is_some());
            match decided {
                Some(at) if at + 1 < moves.len() => self.skip_from(at),
                _ => {
                    self.skip_from(moves.len() - 1);
                    return Some(PousseCase {
                        n: self.n,
                        moves,
                        rules: self.rules,
                    });
                }
            }
        }
    }
}

/// Every game of 1 to [`SMALLEST_MOVES`] moves on boards of 1 x 1 to 4 x 4, fewest moves
/// first, then smallest board, as long as the games of that size are at most
/// [`SMALLEST_PER_SIZE`]; only those whose moves but the last leave the game undecided.
pub(super) fn smallest(rules: Rules) -> Box<dyn Iterator<Item = PousseCase>> {
    let sizes = (1..=SMALLEST_MOVES).flat_map(|moves| {
        (1..=4usize)
            .filter(move |&n| ((4 * n) as u64).pow(moves as u32) <= SMALLEST_PER_SIZE)
            .map(move |n| (n, moves))
    });
    Box::new(sizes.flat_map(move |(n, moves)| SmallGames::new(n, moves, rules)))
}
