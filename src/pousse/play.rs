//! A match in progress: the board, whose turn it is, and (for the ICFP rule sets) the history
//! of configurations needed to detect a repetition.

use super::board::{Board, SizeError, MAX_N};
use super::history::{History, PackedMove, BATCH};
use super::{BoardRepr, Colour, Move, Reason, Rules};
use crate::util::hash::mix64;

/// Added to the hash of a configuration in which O is to move (`icfp98` only).
const O_TO_MOVE_KEY: u64 = 0x6A09_E667_F3BC_C909;

/// How a game ended: winner, decisive move, reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The winner.
    pub winner: Colour,
    /// The 1-based number of the decisive move.
    pub at: u64,
    /// Why.
    pub reason: Reason,
}

/// A Pousse match (one game in progress) under one rule set, on board representation `B` ([`Board`] for any size;
/// [`SmallBoard`](super::SmallBoard) is faster for N <= 8).
pub struct Match<B = Board> {
    n: usize,
    board: B,
    rules: Rules,
    played: u64,
    history: Option<History>,
    decision: Option<Decision>,
    /// Masks configuration keys; all ones except in tests that force every key to collide.
    key_mask: u64,
}

impl Match<Board> {
    /// A new game on an empty `n` x `n` board.
    pub fn new(n: usize, rules: Rules) -> Result<Match, SizeError> {
        Match::on(n, rules)
    }
}

impl<B: BoardRepr> Match<B> {
    /// A new game on an empty `n` x `n` board of representation `B`; the caller makes sure
    /// `B` supports size `n` (every size in `1..=MAX_N` for [`Board`], `1..=8` for
    /// [`SmallBoard`](super::SmallBoard)).
    pub fn on(n: usize, rules: Rules) -> Result<Match<B>, SizeError> {
        if n == 0 || n > MAX_N {
            return Err(SizeError(n));
        }
        let board = B::empty(n, rules.forbids_repetition());
        let history = rules.forbids_repetition().then(History::new);
        Ok(Match {
            n,
            board,
            rules,
            played: 0,
            history,
            decision: None,
            key_mask: !0,
        })
    }

    /// The board.
    pub fn board(&self) -> &B {
        &self.board
    }

    /// How the game ended, as far as known: after [`play`](Self::play), exactly; after
    /// [`play_batched`](Self::play_batched), a repetition may still wait for
    /// [`finish`](Self::finish).
    pub fn decision(&self) -> Option<Decision> {
        self.decision
    }

    /// Plays the next move (X first, alternating) and returns the decision if it ended the
    /// game. Once the game has ended, further moves are ignored.
    ///
    /// The move's index must be in `1..=n` (the parser guarantees it).
    pub fn play(&mut self, mv: Move) -> Option<Decision> {
        self.play_batched(mv);
        self.finish()
    }

    /// Plays the next move like [`play`](Self::play), but checks for a repetition only once
    /// every [`BATCH`] moves (or when the straights decide, or at [`finish`](Self::finish)),
    /// which is several times faster on long games. Moves played after an undiscovered
    /// repetition are wasted work, never a different verdict.
    #[inline]
    pub fn play_batched(&mut self, mv: Move) {
        if self.decision.is_some() {
            return;
        }
        self.played += 1;
        let mover = Colour::of_move(self.played);
        self.board.play_unchecked(mv, mover);
        let (x, o) = self.board.straights();
        if x != o {
            // A repetition at an earlier move ends the game before these straights.
            self.check_repetitions();
            if self.decision.is_none() {
                let winner = if x > o { Colour::X } else { Colour::O };
                self.decision = Some(Decision {
                    winner,
                    at: self.played,
                    reason: Reason::Straights { x, o },
                });
            }
        } else if self.history.is_some() {
            let key = self.key();
            let history = self.history.as_mut().expect("history exists");
            history.record(mv, key);
            if history.unchecked() >= BATCH {
                self.check_repetitions();
            }
        }
    }

    /// Finishes any pending repetition check and returns the decision.
    pub fn finish(&mut self) -> Option<Decision> {
        if self.decision.is_none() {
            self.check_repetitions();
        }
        self.decision
    }

    /// The configuration key after the latest move.
    fn key(&self) -> u64 {
        let side = if self.rules == Rules::Icfp98 && Colour::of_move(self.played + 1) == Colour::O {
            O_TO_MOVE_KEY
        } else {
            0
        };
        mix64(self.board.contents_hash() ^ side) & self.key_mask
    }

    /// Checks the recorded but unchecked configurations; on a repetition, decides the game.
    fn check_repetitions(&mut self) {
        let Some(history) = self.history.as_mut() else {
            return;
        };
        if history.unchecked() == 0 {
            return;
        }
        let (n, rules, played, board) = (self.n, self.rules, self.played, &self.board);
        let found = history.check(|moves, j, k| {
            let same_side = (k - j) % 2 == 0;
            if !same_side && rules != Rules::Icfp98Board {
                return false;
            }
            let later = if k == played {
                board.clone()
            } else {
                board_after::<B>(n, &moves[..k as usize])
            };
            board_after::<B>(n, &moves[..j as usize]).same_contents(&later)
        });
        if let Some((k, earlier)) = found {
            self.decision = Some(Decision {
                winner: Colour::of_move(k).other(),
                at: k,
                reason: Reason::Repetition { earlier },
            });
        }
    }
}

/// The board after playing `moves` from the empty board of size `n`.
fn board_after<B: BoardRepr>(n: usize, moves: &[PackedMove]) -> B {
    let mut board = B::empty(n, false);
    for (i, &mv) in moves.iter().enumerate() {
        board.play_unchecked(mv.unpack(), Colour::of_move(i as u64 + 1));
    }
    board
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pousse::Edge;
    use crate::util::random::{Entropy, Rng};

    /// `count` random moves on an `n` x `n` board, most of them from a palette of three, so
    /// that positions repeat.
    fn random_moves(rng: &mut Rng, n: usize, count: usize) -> Vec<Move> {
        let one = |rng: &mut Rng| {
            Move::new(
                Edge::ALL[rng.below(4) as usize],
                rng.below(n as u64) as u32 + 1,
            )
        };
        let palette: Vec<Move> = (0..3).map(|_| one(rng)).collect();
        (0..count)
            .map(|_| {
                if rng.chance(0.8) {
                    palette[rng.below(3) as usize]
                } else {
                    one(rng)
                }
            })
            .collect()
    }

    #[test]
    fn sizes_outside_the_board_limits_are_refused() {
        for rules in Rules::ALL {
            assert_eq!(Match::new(0, rules).err(), Some(SizeError(0)));
            assert_eq!(
                Match::new(MAX_N + 1, rules).err(),
                Some(SizeError(MAX_N + 1))
            );
            assert!(Match::new(1, rules).is_ok() && Match::new(MAX_N, rules).is_ok());
        }
    }

    /// With every configuration key equal, each move is compared with every earlier one by
    /// exact board comparison: verdicts must not change. (Real 64-bit keys never collide in
    /// tests, so without this the exact confirmation would go unchecked.) Both board
    /// representations: each confirms with its own `same_contents`.
    #[test]
    fn verdicts_do_not_depend_on_hash_collisions() {
        use crate::pousse::SmallBoard;
        let mut decided = 0;
        for seed in 0..300 {
            let mut rng = Rng::new(seed);
            let rules = [Rules::Icfp98, Rules::Icfp98Board][seed as usize % 2];
            let n = 1 + rng.below(4) as usize;
            let moves = random_moves(&mut rng, n, 60);
            decided += collisions_change_nothing::<Board>(n, rules, &moves, seed) as u32;
            match n {
                1 => collisions_change_nothing::<SmallBoard<1>>(n, rules, &moves, seed),
                2 => collisions_change_nothing::<SmallBoard<2>>(n, rules, &moves, seed),
                3 => collisions_change_nothing::<SmallBoard<3>>(n, rules, &moves, seed),
                _ => collisions_change_nothing::<SmallBoard<4>>(n, rules, &moves, seed),
            };
        }
        assert!(decided > 100, "{decided}");
    }

    /// Plays `moves` in a game with honest keys and in one whose keys all collide, requiring
    /// the same decisions; returns whether the game was decided.
    fn collisions_change_nothing<B: BoardRepr>(
        n: usize,
        rules: Rules,
        moves: &[Move],
        seed: u64,
    ) -> bool {
        let mut honest = Match::<B>::on(n, rules).unwrap();
        let mut colliding = Match::<B>::on(n, rules).unwrap();
        colliding.key_mask = 0;
        for &m in moves {
            assert_eq!(honest.play(m), colliding.play(m), "seed {seed}");
        }
        honest.decision().is_some()
    }
}
