//! In-process benchmarks of the engines (no parsing, no process start): Pousse time per move,
//! the whole judge of large LittleSquares and Some Game inputs, and the reference on the same
//! Pousse moves for the engine/reference ratio. Run: `cargo bench --bench engines`.

use divan::{black_box, Bencher};
use referee::game::knobs::Knobs;
use referee::game::Case;
use referee::game::{Engine, Game};
use referee::littlesquares::{GridCase, LittleSquares};
use referee::pousse::case::{moves as random_moves, transcript};
use referee::pousse::play::Decision;
use referee::pousse::{Board, BoardRepr, Match, Move, Pousse, Rules, SmallBoard};
use referee::somegame::{BoardCase, SomeGame};
use referee::util::random::Rng;

fn main() {
    divan::main();
}

/// The input of a case of the shape `knobs` (as `referee gen` flags), from seed 3.
fn case<C: Case>(knobs: &[(&str, &str)]) -> Vec<u8> {
    let shape = C::shape(&Knobs::new(knobs.iter().copied())).unwrap();
    C::generate(&mut Rng::new(3), None, &shape).input()
}

fn moves(n: usize, count: usize, rules: Rules) -> Vec<Move> {
    random_moves(&mut Rng::new(42), n, count, 0, true, rules)
}

/// Plays `moves` as the judge does, on board representation `B`.
fn play_all<B: BoardRepr>(n: usize, rules: Rules, moves: &[Move]) -> Option<Decision> {
    let mut game = Match::<B>::on(n, rules).unwrap();
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
#[divan::bench(args = [Engine::Fast, Engine::Reference], sample_count = 3, sample_size = 1)]
fn pousse_judge_n100_100k_random_moves(bencher: Bencher, imp: Engine) {
    let moves = random_moves(&mut Rng::new(6), 100, 100_000, 0, false, Rules::Waterloo);
    let text = transcript(100, &moves);
    bencher
        .counter(divan::counter::ItemsCount::new(moves.len()))
        .bench(|| black_box(Pousse::judge(imp, &mut text.as_bytes(), Rules::Waterloo).unwrap()));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn littlesquares_4000x4000(bencher: Bencher) {
    let text = case::<GridCase>(&[("rows", "4000"), ("cols", "4000"), ("filled", "0.1")]);
    bencher
        .counter(divan::counter::ItemsCount::new(16_000_000usize))
        .bench(|| black_box(LittleSquares::judge(Engine::Fast, &mut &text[..], ()).unwrap()));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn somegame_2000x2000_p4_k5(bencher: Bencher) {
    let text = case::<BoardCase>(&[
        ("players", "4"),
        ("rows", "2000"),
        ("cols", "2000"),
        ("k", "5"),
        ("fill", "0.6"),
        ("perturb", "0"),
    ]);
    bencher
        .counter(divan::counter::ItemsCount::new(4_000_000usize))
        .bench(|| black_box(SomeGame::judge(Engine::Fast, &mut &text[..], ()).unwrap()));
}
