//! LittleSquares: shared vectors on both implementations, invalid input, and a differential
//! property test between the Grundy engine and the exhaustive reference.

mod common;

use common::{judge_both, vectors};
use proptest::prelude::*;
use referee::game::{Implementation, LittleSquares};
use referee::littlesquares::Outcome;

#[test]
fn game_vectors_on_both_implementations() {
    let cases = vectors("littlesquares_games.txt");
    assert!(cases.len() >= 14);
    for fields in cases {
        let [grid, verdict, contest, unsupported] = &fields[..] else {
            panic!("bad vector {fields:?}");
        };
        let input = grid.replace('/', "\n") + "\n";
        for imp in [Implementation::Fast, Implementation::Reference] {
            let j = common::judge::<LittleSquares>(imp, input.as_bytes(), ()).unwrap();
            if imp == Implementation::Reference && unsupported == "reference" {
                assert_eq!(j[0].outcome, Outcome::BeyondReferenceLimit, "{grid}");
                continue;
            }
            assert_eq!(j[0].verdict(), verdict, "{imp:?} {grid}");
            assert_eq!(
                j[0].within_contest_limits,
                contest == "yes",
                "{imp:?} {grid}"
            );
        }
        // The TopCoder literal form gives the same verdicts.
        let literal = format!(
            "{{{}}}",
            grid.split('/')
                .map(|r| format!("\"{r}\""))
                .collect::<Vec<_>>()
                .join(", ")
        );
        let j =
            common::judge::<LittleSquares>(Implementation::Fast, literal.as_bytes(), ()).unwrap();
        assert_eq!(j[0].verdict(), verdict, "literal {literal}");
    }
}

#[test]
fn invalid_vectors_rejected_at_the_same_position_by_both() {
    let count = common::assert_invalid_vectors::<LittleSquares>("littlesquares_invalid.txt", ());
    assert!(count >= 15);
}

#[test]
fn several_grids_in_one_input_in_both_forms() {
    let rows = b"..\n..\n\n\n..\n..\n..\n..\n";
    let literals = b"{\"..\", \"..\"}\n{\"..\",\n \"..\", \"..\", \"..\"}\n";
    for input in [&rows[..], &literals[..]] {
        let (fast, reference) = judge_both::<LittleSquares>(input, ());
        let fast = fast.unwrap();
        assert_eq!(fast, reference.unwrap());
        assert_eq!(
            referee::game::render::<LittleSquares>(&fast),
            "first\nsecond\n"
        );
    }
}

#[test]
fn a_4000_by_4000_grid_is_judged() {
    let row = ".".repeat(4000) + "\n";
    let input = row.repeat(4000);
    let j = common::judge::<LittleSquares>(Implementation::Fast, input.as_bytes(), ()).unwrap();
    assert_eq!((j[0].rows, j[0].cols, j[0].empty), (4000, 4000, 16_000_000));
    assert!(!j[0].within_contest_limits);
}

/// Random grids with at most `max_empty` empty squares (any shape, odd sizes included).
fn grid_strategy(max_empty: usize) -> impl Strategy<Value = String> {
    (1usize..=7, 1usize..=7)
        .prop_flat_map(move |(r, c)| {
            let density = 0.2f64..0.95;
            (
                Just(r),
                Just(c),
                density,
                proptest::collection::vec(0.0f64..1.0, r * c),
            )
        })
        .prop_map(move |(r, c, density, coins)| {
            let mut empty = 0;
            let mut s = String::new();
            for i in 0..r {
                for j in 0..c {
                    let e = coins[i * c + j] < density && empty < max_empty;
                    empty += e as usize;
                    s.push(if e { '.' } else { '#' });
                }
                s.push('\n');
            }
            s
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn engine_matches_reference(grid in grid_strategy(16)) {
        let (fast, reference) = judge_both::<LittleSquares>(grid.as_bytes(), ());
        prop_assert_eq!(fast.unwrap(), reference.unwrap(), "{}", grid);
    }
}
