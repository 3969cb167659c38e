//! The smaller games a failing game shrinks to ([`Case::shrink`](crate::game::Case::shrink)).

use super::PousseCase;
use crate::pousse::{Edge, Match, Move};

/// The number of moves up to and including the engine's decisive move, when moves follow it.
fn decided_after(case: &PousseCase) -> Option<usize> {
    let mut game = Match::new(case.n, case.rules).ok()?;
    let at = case.moves.iter().find_map(|&m| game.play(m))?.at as usize;
    (at < case.moves.len()).then_some(at)
}

/// The longest game whose shrinking drops every two moves an odd distance apart (a quadratic
/// number of candidates).
const FAR_PAIRS_UP_TO: usize = 64;

/// Chunk sizes for dropping moves from a game of `len`: halves, quarters, ... down to two.
fn chunk_sizes(len: usize) -> impl Iterator<Item = usize> {
    std::iter::successors((len >= 4).then_some(len / 2), |&c| (c > 3).then_some(c / 2))
}

/// In order: the moves after the engine's decisive move cut; smaller boards (half the
/// size with indices clamped, one less with the last line's moves dropped or clamped);
/// the last half, quarter, ... of the moves cut; chunks of moves dropped, halves first;
/// every pair of consecutive moves (which keeps every later move's colour); a row and
/// column taken out; in short games any two moves of different colours; single moves;
/// a move replaced by a simpler one (on boards up to 8 in games up to 64 moves, any move
/// before it in the order `L1 < ... < B{N}`; else a lower index, edge `L`).
/// Lazy: a game of 10^5 moves has about 10^6 candidates, made one at a time.
pub(super) fn shrink(case: &PousseCase) -> Box<dyn Iterator<Item = PousseCase> + '_> {
    Box::new(
        decided_after(case)
            .map(|at| with_moves(case, case.moves[..at].to_vec()))
            .into_iter()
            .chain(smaller_boards(case))
            .chain(tails(case))
            .chain(chunks(case))
            .chain(pairs(case))
            .chain(without_lines(case))
            .chain(far_pairs(case))
            .chain(singles(case))
            .chain(simpler_moves(case)),
    )
}

/// `case` with `moves` instead of its own.
fn with_moves(case: &PousseCase, moves: Vec<Move>) -> PousseCase {
    PousseCase {
        moves,
        ..case.clone()
    }
}

/// `case` without its moves `start..end`.
fn dropped(case: &PousseCase, start: usize, end: usize) -> PousseCase {
    let len = case.moves.len();
    let mut moves = Vec::with_capacity(len);
    moves.extend_from_slice(&case.moves[..start]);
    moves.extend_from_slice(&case.moves[end.min(len)..]);
    with_moves(case, moves)
}

/// `case` on an `n` x `n` board (smaller than its own), the moves past `n` clamped to `n`
/// (`clamp`) or dropped.
fn resized(case: &PousseCase, n: usize, clamp: bool) -> PousseCase {
    PousseCase {
        n,
        moves: case
            .moves
            .iter()
            .filter(|m| clamp || m.index as usize <= n)
            .map(|m| Move::new(m.edge, m.index.min(n as u32)))
            .collect(),
        rules: case.rules,
    }
}

/// Half the board with indices clamped (above 3), then one less with the last line's moves
/// dropped, then clamped.
fn smaller_boards(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    (case.n > 1)
        .then(|| {
            let half = (case.n > 3).then(|| resized(case, case.n / 2, true));
            half.into_iter().chain([
                resized(case, case.n - 1, false),
                resized(case, case.n - 1, true),
            ])
        })
        .into_iter()
        .flatten()
}

/// The last half, quarter, ... of the moves cut, down to the last one: a failure that needs a
/// long game (a buffer of fixed size) shrinks in logarithmically many steps.
fn tails(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    let len = case.moves.len();
    std::iter::successors((len >= 1).then_some(len.div_ceil(2)), |&k| {
        (k > 1).then_some(k / 2)
    })
    .map(move |k| with_moves(case, case.moves[..len - k].to_vec()))
}

/// Chunks of moves dropped, halves first.
fn chunks(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    let len = case.moves.len();
    chunk_sizes(len).flat_map(move |chunk| {
        (0..len)
            .step_by(chunk)
            .map(move |start| dropped(case, start, start + chunk))
    })
}

/// Every two consecutive moves dropped (every later move keeps its colour).
fn pairs(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    (0..case.moves.len().saturating_sub(1)).map(move |start| dropped(case, start, start + 2))
}

/// Row and column k taken out of the board: their moves dropped, the lines after them
/// renumbered.
fn without_lines(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    let without_line = move |k: u32| PousseCase {
        n: case.n - 1,
        moves: case
            .moves
            .iter()
            .filter(|m| m.index != k)
            .map(|m| Move::new(m.edge, if m.index > k { m.index - 1 } else { m.index }))
            .collect(),
        rules: case.rules,
    };
    (1..if case.n > 1 { case.n as u32 } else { 0 }).map(without_line)
}

/// In short games, any two moves an odd distance apart dropped (one of each colour, so every
/// later move keeps its colour).
fn far_pairs(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    let len = case.moves.len();
    (0..if len <= FAR_PAIRS_UP_TO { len } else { 0 }).flat_map(move |i| {
        (i + 3..len).step_by(2).map(move |j| {
            let moves = (0..len)
                .filter(|&x| x != i && x != j)
                .map(|x| case.moves[x])
                .collect();
            with_moves(case, moves)
        })
    })
}

/// Every single move dropped.
fn singles(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    (0..case.moves.len()).map(move |start| dropped(case, start, start + 1))
}

/// A move replaced by a simpler one: on small boards in short games every move before it in
/// the order L1 < L2 < ... < B{N}, elsewhere a lower index or the edge L.
fn simpler_moves(case: &PousseCase) -> impl Iterator<Item = PousseCase> + '_ {
    let len = case.moves.len();
    let every_smaller = case.n <= 8 && len <= FAR_PAIRS_UP_TO;
    (0..len).flat_map(move |i| {
        let m = case.moves[i];
        let number = m.edge as usize * case.n + m.index as usize - 1;
        let replacements: Vec<Move> = if every_smaller {
            (0..number)
                .map(|d| Move::new(Edge::ALL[d / case.n], (d % case.n) as u32 + 1))
                .collect()
        } else {
            let lower = (m.index > 1).then(|| Move::new(m.edge, m.index - 1));
            let left = (m.edge != Edge::Left).then(|| Move::new(Edge::Left, m.index));
            [lower, left].into_iter().flatten().collect()
        };
        replacements.into_iter().map(move |simple| {
            let mut moves = case.moves.clone();
            moves[i] = simple;
            with_moves(case, moves)
        })
    })
}
