//! Pousse games built move by move, each move chosen by what it does on a copy of the board:
//! the generator's undecided and steered games, and the corners of the contest's limits.

use super::{BoardRepr, Colour, Edge, Move, Rules};
use crate::util::hash::MixedKeys;
use crate::util::random::{pick, Entropy};

/// The fewest and most moves of the extremes' long games: from one past a 32,767-move buffer
/// (a real judge's bug) to 10^5.
pub const LONG_GAME_MOVES: (usize, usize) = (32_768, 100_000);

pub(super) fn random_move(e: &mut dyn Entropy, n: usize) -> Move {
    Move::new(*pick(e, &Edge::ALL), e.below(n as u64) as u32 + 1)
}

/// A game built move by move on a copy of the board, so that each move can be chosen by what
/// it does: keeping the game undecided (no straight majority, no repeated configuration under
/// the ICFP rule sets), or ending it in a chosen way. Configurations are told apart by their
/// hash, so a rare collision only changes which move is chosen.
pub(super) struct Steered<B> {
    n: usize,
    rules: Rules,
    pub(super) board: B,
    scratch: B,
    /// The configurations seen, under the ICFP rule sets (empty under waterloo).
    seen: MixedKeys,
    pub(super) moves: Vec<Move>,
}

/// What a move does, seen before it is played.
pub(super) struct Effect {
    pub(super) mv: Move,
    pub(super) mover: Colour,
    /// Straights of X and O after it.
    pub(super) straights: (u32, u32),
    /// Whether it repeats a configuration (under the ICFP rule sets).
    pub(super) repeats: bool,
    /// Whether the pushed line was full before the move (a marker fell off).
    pub(super) full_line: bool,
}

impl Effect {
    pub(super) fn decisive(&self) -> bool {
        self.straights.0 != self.straights.1 || self.repeats
    }

    /// Whether the colour that did not move wins by this move.
    pub(super) fn opponent_wins(&self) -> bool {
        let (x, o) = self.straights;
        match self.mover {
            Colour::X => o > x,
            Colour::O => x > o,
        }
    }
}

impl<B: BoardRepr> Steered<B> {
    pub(super) fn new(n: usize, rules: Rules) -> Steered<B> {
        let board = B::empty(n, true);
        Steered {
            n,
            rules,
            scratch: board.clone(),
            board,
            seen: MixedKeys::default(),
            moves: Vec::new(),
        }
    }

    fn key(&self, b: &B, played: usize) -> u64 {
        let side = if self.rules == Rules::Icfp98 && played % 2 == 1 {
            0x5bd1_e995
        } else {
            0
        };
        crate::util::hash::mix64(b.contents_hash()) ^ side
    }

    /// Tries up to `8 max(N, 4)` drawn moves and plays the first for which `accept` holds;
    /// `false` when none does.
    pub(super) fn choose(
        &mut self,
        e: &mut dyn Entropy,
        draw: &dyn Fn(&mut dyn Entropy) -> Move,
        accept: impl Fn(&Effect) -> bool,
    ) -> bool {
        self.choose_on(e, draw, |effect, _| accept(effect))
    }

    /// [`choose`](Self::choose), `accept` seeing the board after the move too.
    pub(super) fn choose_on(
        &mut self,
        e: &mut dyn Entropy,
        draw: &dyn Fn(&mut dyn Entropy) -> Move,
        accept: impl Fn(&Effect, &B) -> bool,
    ) -> bool {
        // The moves already tried and refused in this call (boards up to 32: 4 N moves fit a
        // u128): drawing one again changes nothing, so it is not played again.
        let mut refused: u128 = 0;
        for _ in 0..8 * self.n.max(4) {
            let mv = draw(e);
            let bit = if self.n <= 32 {
                1u128 << (mv.edge as usize * self.n + mv.index as usize - 1)
            } else {
                0
            };
            if refused & bit != 0 {
                continue;
            }
            if self.try_play(mv, &accept) {
                return true;
            }
            refused |= bit;
        }
        false
    }

    /// Plays `mv` when `accept` holds of what it does (and of the board after it).
    pub(super) fn try_play(&mut self, mv: Move, accept: impl Fn(&Effect, &B) -> bool) -> bool {
        let mover = Colour::of_move(self.moves.len() as u64 + 1);
        let before = self.board.markers();
        self.scratch.clone_from(&self.board);
        self.scratch.play_unchecked(mv, mover);
        let repetition = self.rules.forbids_repetition();
        let key = if repetition {
            self.key(&self.scratch, self.moves.len() + 1)
        } else {
            0
        };
        let effect = Effect {
            mv,
            mover,
            straights: self.scratch.straights(),
            repeats: repetition && self.seen.contains(&key),
            full_line: self.scratch.markers() == before,
        };
        if !accept(&effect, &self.scratch) {
            return false;
        }
        if repetition {
            self.seen.insert(key);
        }
        std::mem::swap(&mut self.board, &mut self.scratch);
        self.moves.push(mv);
        true
    }

    /// Plays a move that leaves the game undecided and satisfies `prefer`; `false` when none
    /// turns up.
    pub(super) fn undecided(
        &mut self,
        e: &mut dyn Entropy,
        draw: &dyn Fn(&mut dyn Entropy) -> Move,
        prefer: impl Fn(&Effect) -> bool,
    ) -> bool {
        self.choose(e, draw, |effect| !effect.decisive() && prefer(effect))
    }
}
