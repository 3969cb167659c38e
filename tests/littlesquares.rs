//! LittleSquares: shared vectors on both implementations, invalid input, and a differential
//! property test between the Grundy engine and the exhaustive reference.

use crate::common;

use common::{judge_both, vectors};
use proptest::prelude::*;
use referee::game::Engine;
use referee::game::Judged;
use referee::littlesquares::LittleSquares;
use referee::util::error::JudgeError;

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

/// A grid in either form, with white space of every kind where the forms allow it (and
/// where they do not, in the rows form).
fn written(rows: &[Vec<bool>], literal: bool, spaces: &[u8]) -> Vec<u8> {
    let mut space = spaces.iter().cycle().map(|&s| match s % 6 {
        0 => &b""[..],
        1 => b" ",
        2 => b"\n",
        3 => b"\r\n",
        4 => b"\t",
        _ => b"\n\n",
    });
    let row_text =
        |row: &Vec<bool>| -> Vec<u8> { row.iter().map(|&e| if e { b'.' } else { b'#' }).collect() };
    let mut out = Vec::new();
    out.extend_from_slice(space.next().unwrap());
    if literal {
        out.push(b'{');
        for (i, row) in rows.iter().enumerate() {
            if i > 0 {
                out.extend_from_slice(space.next().unwrap());
                out.push(b',');
            }
            out.extend_from_slice(space.next().unwrap());
            out.push(b'"');
            out.extend(row_text(row));
            out.push(b'"');
        }
        out.extend_from_slice(space.next().unwrap());
        out.push(b'}');
    } else {
        for row in rows {
            out.extend(row_text(row));
            out.push(b'\n');
        }
    }
    out.extend_from_slice(space.next().unwrap());
    out
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// Both parsers read both forms, leading white space included, alike: the same grids, or
    /// a rejection at the same line, column and grid; randomly corrupted copies too.
    #[test]
    fn parsers_agree_on_both_forms_and_their_corruptions(
        grids in proptest::collection::vec(
            (1usize..4, 1usize..5).prop_flat_map(|(r, c)| {
                proptest::collection::vec(proptest::collection::vec(any::<bool>(), c), r)
            }),
            1..3,
        ),
        literal in any::<bool>(),
        spaces in proptest::collection::vec(any::<u8>(), 1..12),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..3),
    ) {
        let mut input = Vec::new();
        for rows in &grids {
            input.extend(written(rows, literal, &spaces));
            if !literal {
                input.push(b'\n');
            }
        }
        for (at, byte) in edits {
            let i = at.index(input.len());
            input[i] = b"{}\",.# \n\r\tx"[byte as usize % 11];
        }
        let verdict = referee::harness::cross_examine::<LittleSquares>(&input, ());
        prop_assert!(verdict.is_ok(), "{}\n{:?}", verdict.unwrap_err(), String::from_utf8_lossy(&input));
    }
}
