//! Some Game: shared vectors on both implementations, invalid input, differential property
//! tests, and an exhaustive reachability oracle on tiny tori.

use crate::common;

use std::collections::HashSet;

use common::{judge_both, vectors};
use proptest::prelude::*;
use referee::game::Case;
use referee::game::Engine;
use referee::game::Judged;
use referee::somegame::case::BoardShape;
use referee::somegame::{BoardCase, Reason, SomeGame};

fn reason(text: &str) -> Reason {
    match text.split(' ').collect::<Vec<_>>()[..] {
        ["zero-k"] => Reason::ZeroK,
        ["counts"] => Reason::Counts,
        ["no-line"] => Reason::NoLine,
        ["not-last-mover", p] => Reason::NotLastMover {
            player: p.parse().unwrap(),
        },
        ["last-mover-line", s] => Reason::LastMoverLine {
            squares: s.parse().unwrap(),
        },
        _ => panic!("bad reason {text}"),
    }
}

#[test]
fn game_vectors_on_both_implementations() {
    let cases = vectors("somegame_games.txt");
    assert!(cases.len() >= 20);
    for fields in cases {
        let [set, verdict, why] = &fields[..] else {
            panic!("bad vector {fields:?}");
        };
        let input = set.replace('/', "\n") + "\n";
        for imp in [Engine::Fast, Engine::Reference] {
            let j = common::judge::<SomeGame>(imp, input.as_bytes(), ()).unwrap();
            assert_eq!(j[0].verdict(), *verdict, "{imp:?} {set}");
            assert_eq!(j[0].reason, reason(why), "{imp:?} {set}");
        }
    }
}

#[test]
fn the_four_samples_stacked_give_blank_lines_between_verdicts() {
    let input = "1 3 3 4\n1 0 0\n0 1 0\n0 0 1\n1 3 3 2\n1 0 0\n0 0 0\n0 1 0\n2 3 3 2\n2 2 2\n1 0 1\n0 0 0\n2 5 5 3\n0 0 0 2 0\n0 1 0 0 0\n0 0 2 0 0\n2 0 1 0 0\n0 0 0 0 1\n";
    let (fast, reference) = judge_both::<SomeGame>(input.as_bytes(), ());
    let fast = fast.unwrap();
    assert_eq!(fast, reference.unwrap());
    assert_eq!(
        referee::game::render::<SomeGame>(&fast),
        "PLAYER 1\n\nPLAYER 1\n\nERROR\n\nNO WINNERS\n"
    );
}

/// A board as text.
fn board_text(p: u64, r: usize, c: usize, k: u64, cells: &[u64]) -> String {
    let mut s = format!("{p} {r} {c} {k}\n");
    for row in cells.chunks(c) {
        let line: Vec<String> = row.iter().map(|v| v.to_string()).collect();
        s.push_str(&line.join(" "));
        s.push('\n');
    }
    s
}

use referee::somegame::oracle::{reachable, verdict as oracle_verdict};

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn every_board_of_tiny_tori_matches_the_reachability_oracle() {
    let mut sizes = vec![(3, 3), (2, 2), (2, 3), (3, 2)];
    sizes.extend((1..=6).map(|c| (1, c)));
    sizes.extend((1..=4).map(|c| (2, c)));
    let mut checked = 0u64;
    for &(r, c) in &sizes {
        for p in 1..=3u64 {
            // Every board is one multi-data-set input per (size, P, K).
            let cells_count = r * c;
            let total = (p + 1).pow(cells_count as u32);
            if total > 70_000 {
                continue; // 3x3 with P = 3 is covered by the random sample below.
            }
            for k in 0..=5u64 {
                let reach = reachable(p, r, c, k);
                let mut input = String::new();
                let mut expected = Vec::new();
                for code in 0..total {
                    let mut cells = vec![0u64; cells_count];
                    let mut x = code;
                    for cell in cells.iter_mut() {
                        *cell = x % (p + 1);
                        x /= p + 1;
                    }
                    input.push_str(&board_text(p, r, c, k, &cells));
                    expected.push(oracle_verdict(&reach, &cells, p, r, c, k));
                }
                let (fast, reference) = judge_both::<SomeGame>(input.as_bytes(), ());
                let (fast, reference) = (fast.unwrap(), reference.unwrap());
                for (i, want) in expected.iter().enumerate() {
                    assert_eq!(
                        fast[i].verdict, *want,
                        "engine, P={p} {r}x{c} K={k} board {i}"
                    );
                    assert_eq!(
                        reference[i].verdict, *want,
                        "reference, P={p} {r}x{c} K={k} board {i}"
                    );
                }
                checked += total;
            }
        }
    }
    assert!(checked > 500_000, "{checked}");
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn three_by_three_with_three_players_against_the_oracle() {
    // 4^9 boards per K; every reachable board plus a deterministic sample of the others.
    let (p, r, c) = (3u64, 3usize, 3usize);
    for k in 0..=5u64 {
        let reach = reachable(p, r, c, k);
        let mut boards: Vec<Vec<u64>> = reach.iter().cloned().collect();
        boards.sort();
        let mut x = 0x2545F4914F6CDD1Du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            boards.push((0..9).map(|i| (x >> (i * 2)) % 4).collect());
        }
        let input: String = boards.iter().map(|b| board_text(p, r, c, k, b)).collect();
        let (fast, reference) = judge_both::<SomeGame>(input.as_bytes(), ());
        let (fast, reference) = (fast.unwrap(), reference.unwrap());
        for (i, b) in boards.iter().enumerate() {
            let want = oracle_verdict(&reach, b, p, r, c, k);
            assert_eq!(fast[i].verdict, want, "engine K={k} {b:?}");
            assert_eq!(reference[i].verdict, want, "reference K={k} {b:?}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// Tiny tori with any values: the engine gives the reachability oracle's verdict.
    #[test]
    fn engine_matches_the_reachability_oracle(
        case in common::cases::<BoardCase>(None, BoardShape { tiny: true, ..BoardShape::default() })
    ) {
        let verdict = referee::somegame::oracle::engine_agrees(&case);
        prop_assert!(verdict.is_ok(), "{}\n{}", verdict.unwrap_err(), case.describe());
    }
}

#[test]
fn all_three_verdicts_occur_in_generated_boards() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = common::cases::<BoardCase>(None, BoardShape::default());
    let mut seen = HashSet::new();
    for _ in 0..300 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        let j = common::judge::<SomeGame>(Engine::Fast, &case.input(), ()).unwrap();
        seen.insert(std::mem::discriminant(&j[0].verdict));
    }
    assert_eq!(seen.len(), 3);
}
