//! In-process benchmarks of the engines (no parsing, no process start): Pousse time per move,
//! the whole judge of large LittleSquares and Some Game inputs, and the reference on the same
//! Pousse moves for the engine/reference ratio. Run: `cargo bench --bench engines`.

use divan::{black_box, Bencher};
use referee::game::{Game, Implementation, LittleSquares, Pousse, SomeGame};
use referee::generate::{
    littlesquares_grid, pousse_moves, pousse_transcript, somegame_cells, somegame_text,
    PousseShape, Rng, SomeGameShape,
};
use referee::pousse::game::{Decision, Game as PousseGame};
use referee::pousse::{Board, BoardRepr, Move, Rules, SmallBoard};

fn main() {
    divan::main();
}

fn moves(n: usize, count: usize, rules: Rules) -> Vec<Move> {
    let shape = PousseShape {
        n,
        moves: count,
        palette: 0,
        undecided: true,
        rules,
    };
    pousse_moves(&mut Rng::new(42), &shape)
}

/// Plays `moves` as the judge does, on board representation `B`.
fn play_all<B: BoardRepr>(n: usize, rules: Rules, moves: &[Move]) -> Option<Decision> {
    let mut game = PousseGame::<B>::on(n, rules).unwrap();
    for &m in moves {
        game.play_batched(m);
    }
    game.finish()
}

/// 10^6 moves in which no move ends the game (fewer where the generator runs out of such
/// moves), on the representation the judge picks for the size; the counter is moves, so divan
/// prints time per move.
#[divan::bench(args = [4, 8, 64, 100, 1000], consts = [0, 1], sample_count = 5, sample_size = 1)]
fn pousse_engine<const RULES: usize>(bencher: Bencher, n: usize) {
    let rules = Rules::ALL[RULES];
    let moves = moves(n, 1_000_000, rules);
    let play = match n {
        4 => play_all::<SmallBoard<4>>,
        8 => play_all::<SmallBoard<8>>,
        _ => play_all::<Board>,
    };
    bencher
        .counter(divan::counter::ItemsCount::new(moves.len()))
        .bench(|| black_box(play(n, rules, &moves)));
}

/// Engine against reference on the same 10^5 random moves at N = 100 (waterloo; the game
/// is not decided, so every move is played): the ratio of the two lines is the speedup, the
/// engine's line its time per move in process, parsing included.
#[divan::bench(args = [Implementation::Fast, Implementation::Reference], sample_count = 3, sample_size = 1)]
fn pousse_judge_n100_100k_random_moves(bencher: Bencher, imp: Implementation) {
    let shape = PousseShape {
        n: 100,
        moves: 100_000,
        palette: 0,
        undecided: false,
        rules: Rules::Waterloo,
    };
    let moves = pousse_moves(&mut Rng::new(6), &shape);
    let text = pousse_transcript(100, &moves);
    bencher
        .counter(divan::counter::ItemsCount::new(moves.len()))
        .bench(|| black_box(Pousse::judge(imp, &mut text.as_bytes(), Rules::Waterloo).unwrap()));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn littlesquares_4000x4000(bencher: Bencher) {
    let text = littlesquares_grid(&mut Rng::new(3), 4000, 4000, 0.1);
    bencher
        .counter(divan::counter::ItemsCount::new(16_000_000usize))
        .bench(|| {
            black_box(LittleSquares::judge(Implementation::Fast, &mut text.as_bytes(), ()).unwrap())
        });
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn somegame_2000x2000_p4_k5(bencher: Bencher) {
    let shape = SomeGameShape {
        players: 4,
        rows: 2000,
        cols: 2000,
        k: 5,
        fill: 0.6,
        perturb: 0,
    };
    let text = somegame_text(&shape, &somegame_cells(&mut Rng::new(3), &shape));
    bencher
        .counter(divan::counter::ItemsCount::new(4_000_000usize))
        .bench(|| {
            black_box(SomeGame::judge(Implementation::Fast, &mut text.as_bytes(), ()).unwrap())
        });
}
