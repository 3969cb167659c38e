//! LittleSquares: shared vectors on both implementations, invalid input, and a differential
//! property test between the Grundy engine and the exhaustive reference.

mod common;

use common::{judge_both, vectors};
use referee::error::JudgeError;
use referee::game::Engine;
use referee::game::Judged;
use referee::littlesquares::LittleSquares;

#[test]
fn game_vectors_on_both_implementations() {
    let cases = vectors("littlesquares_games.txt");
    assert!(cases.len() >= 14);
    for fields in cases {
        let [grid, verdict, contest, unsupported] = &fields[..] else {
            panic!("bad vector {fields:?}");
        };
        let input = grid.replace('/', "\n") + "\n";
        for imp in [Engine::Fast, Engine::Reference] {
            let judged = common::judge::<LittleSquares>(imp, input.as_bytes(), ());
            if imp == Engine::Reference && unsupported == "reference" {
                let refused = matches!(judged, Err(JudgeError::Refused { case: 1, .. }));
                assert!(refused, "{grid}: {judged:?}");
                continue;
            }
            let j = judged.unwrap();
            assert_eq!(&j[0].verdict(), verdict, "{imp:?} {grid}");
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
        let j = common::judge::<LittleSquares>(Engine::Fast, literal.as_bytes(), ()).unwrap();
        assert_eq!(&j[0].verdict(), verdict, "literal {literal}");
    }
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
    let j = common::judge::<LittleSquares>(Engine::Fast, input.as_bytes(), ()).unwrap();
    assert_eq!((j[0].rows, j[0].cols, j[0].empty), (4000, 4000, 16_000_000));
    assert!(!j[0].within_contest_limits);
}
