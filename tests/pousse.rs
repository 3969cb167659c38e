//! Pousse: the shared vectors on both implementations, invalid input, and a differential
//! property test between engine and reference.

use crate::common;
use referee::game::Referenced;

use common::{judge_both, vectors};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use referee::game::Case;
use referee::game::Engine;
use referee::game::Judged;
use referee::pousse::case::PousseShape;
use referee::pousse::{Board, Colour, Edge, Move, Pousse, PousseCase, Reason, Rules};
use referee::util::random::Entropy;

fn parse_move(s: &str) -> Move {
    let edge = match &s[..1] {
        "L" => Edge::Left,
        "R" => Edge::Right,
        "T" => Edge::Top,
        "B" => Edge::Bottom,
        other => panic!("bad edge {other}"),
    };
    Move::new(edge, s[1..].parse().unwrap())
}

#[test]
fn game_vectors_on_both_implementations() {
    let cases = vectors("pousse_games.txt");
    assert!(cases.len() >= 20);
    for fields in cases {
        let [rules, transcript, verdict, decisive, reason] = &fields[..] else {
            panic!("bad vector {fields:?}");
        };
        let rules: Rules = rules.parse().unwrap();
        let input = transcript.split(' ').collect::<Vec<_>>().join("\n") + "\n";
        let expected_reason = match reason.split(' ').collect::<Vec<_>>()[..] {
            ["quit"] => Reason::Quit,
            ["straights", x, o] => Reason::Straights {
                x: x.parse().unwrap(),
                o: o.parse().unwrap(),
            },
            ["repeats", k] => Reason::Repetition {
                earlier: k.parse().unwrap(),
            },
            _ => panic!("bad reason {reason}"),
        };
        for imp in [Engine::Fast, Engine::Reference] {
            let j = common::judge::<Pousse>(imp, input.as_bytes(), rules).unwrap();
            assert_eq!(j.len(), 1);
            let context = format!("{imp:?} {rules} {transcript}");
            assert_eq!(&j[0].verdict(), verdict, "{context}");
            assert_eq!(j[0].decisive_move, decisive.parse().ok(), "{context}");
            assert_eq!(j[0].reason, expected_reason, "{context}");
        }
    }
}

#[test]
fn push_vectors_on_both_implementations() {
    let text = std::fs::read_to_string(common::vector_path("pousse_push.txt")).unwrap();
    let mut blocks = 0;
    for block in text.split("\n\n") {
        let mut lines = block.lines().filter(|l| !l.starts_with('#'));
        let n: usize = lines
            .next()
            .unwrap()
            .strip_prefix("n ")
            .unwrap()
            .parse()
            .unwrap();
        let steps: Vec<(&str, &str)> = lines
            .map(|l| {
                let mut parts = l.split_whitespace();
                (parts.next().unwrap(), parts.next().unwrap())
            })
            .collect();
        let moves: Vec<&str> = steps.iter().map(|s| s.0).collect();
        let reference = referee_reference::pousse::boards_after_each_move(n, &moves);
        let mut board = Board::new(n, true).unwrap();
        for (i, (mv, expected)) in steps.iter().enumerate() {
            board
                .play(parse_move(mv), Colour::of_move(i as u64 + 1))
                .unwrap();
            assert_eq!(
                board.to_text(),
                *expected,
                "engine, move {} of block {blocks}",
                i + 1
            );
            assert_eq!(
                reference[i],
                *expected,
                "reference, move {} of block {blocks}",
                i + 1
            );
        }
        blocks += 1;
    }
    assert_eq!(blocks, 4);
}

#[test]
fn multi_case_input_gives_blank_line_between_verdicts() {
    let input =
        b"3\n\n4\nL2\nT2\nL2\nB2\nR2\nT1\nL2\nQUIT\n\n1\nL1\nQUIT\n\n2\nR1\nR1\nR1\nR1\nQUIT\n";
    let (fast, reference) = judge_both::<Pousse>(input, Rules::Icfp98);
    let fast = fast.unwrap();
    assert_eq!(fast, reference.unwrap());
    let out = referee::game::render::<Pousse>(&fast);
    assert_eq!(out, "X WINS\n\nX WINS\n\nX WINS\n");
}

#[test]
fn crlf_line_endings_are_accepted() {
    let (fast, reference) = judge_both::<Pousse>(b"1\r\nL1\r\nQUIT\r\n", Rules::Waterloo);
    assert_eq!(fast.unwrap()[0].verdict(), "X WINS");
    assert_eq!(reference.unwrap()[0].verdict(), "X WINS");
}

#[test]
fn the_largest_board_is_judged_and_one_more_is_refused() {
    let n = referee::pousse::MAX_N;
    let input = format!("{n}\nL{n}\nT1\nR1\nB{n}\nQUIT\n");
    let (fast, reference) = judge_both::<Pousse>(input.as_bytes(), Rules::Icfp98);
    assert_eq!(fast.unwrap(), reference.unwrap());
    let input = format!("{}\nQUIT\n", n + 1);
    let (fast, reference) = judge_both::<Pousse>(input.as_bytes(), Rules::Waterloo);
    assert!(fast.unwrap_err().to_string().contains("at most 4096"));
    assert!(reference.is_err());
    assert_eq!(referee_reference::pousse::MAX_N, n);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    #[test]
    fn parsers_agree_on_corrupted_transcripts(
        case in common::cases::<PousseCase>(Some(Rules::Icfp98), PousseShape::default()),
        edits in proptest::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 1..4),
    ) {
        // The reference judges what it parses: only games within the harness's budget.
        let judged = common::judge::<Pousse>(Engine::Fast, &case.input(), Rules::Icfp98).unwrap();
        prop_assume!(
            <Pousse as referee::game::Referenced>::reference_cost(&judged[0], Rules::Icfp98)
                <= referee::harness::REFERENCE_BUDGET
        );
        let mut bytes = case.input();
        for (at, byte) in edits {
            let i = at.index(bytes.len());
            // Mostly characters that matter to the grammar.
            let b = b"\n\r 0123456789LRTBQUITlx+-"[byte as usize % 24];
            bytes[i] = b;
        }
        let (fast, reference) = judge_both::<Pousse>(&bytes, Rules::Icfp98);
        match (fast, reference) {
            (Ok(f), Ok(r)) => prop_assert_eq!(f, r),
            (Err(f), Err(r)) => {
                let (referee::util::error::JudgeError::Input(f), referee::util::error::JudgeError::Input(r)) = (f, r) else {
                    panic!("I/O error on a byte slice");
                };
                prop_assert_eq!((f.position, f.case), (r.position, r.case), "{} / {}", f, r);
            }
            (f, r) => prop_assert!(false, "one accepted, one rejected: {:?} / {:?}\n{:?}", f, r, String::from_utf8_lossy(&bytes)),
        }
    }
}

#[test]
fn wins_and_repetitions_are_both_frequent_in_the_generated_games() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    let mut runner = TestRunner::deterministic();
    let strategy = common::cases::<PousseCase>(Some(Rules::Icfp98Board), PousseShape::default());
    let (mut wins, mut repetitions) = (0, 0);
    for _ in 0..300 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        let j = common::judge::<Pousse>(Engine::Fast, &case.input(), Rules::Icfp98Board).unwrap();
        match j[0].reason {
            Reason::Straights { .. } => wins += 1,
            Reason::Repetition { .. } => repetitions += 1,
            Reason::Quit => {}
        }
    }
    assert!(
        wins >= 30 && repetitions >= 30,
        "wins {wins}, repetitions {repetitions}"
    );
}

/// Lines longer than one 64-bit word, filled until markers fall off, pushed from every edge:
/// the engine's board after every move equals the reference's. (cargo-mutants showed the
/// multi-word carries and segment masks going unchecked: random games rarely fill such lines.)
#[test]
fn multi_word_lines_match_the_reference_move_by_move() {
    for n in [64usize, 65, 127, 128, 130] {
        let mut rng = referee::util::random::Rng::new(n as u64);
        // Two lines per direction, so they fill up and overflow: rows/columns 1 and n.
        let lines = [1, n as u32];
        let moves: Vec<Move> = (0..8 * n)
            .map(|_| {
                let edge = Edge::ALL[rng.below(4) as usize];
                Move::new(edge, lines[rng.below(2) as usize])
            })
            .collect();
        let texts: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        let refs: Vec<&str> = texts.iter().map(String::as_str).collect();
        let expected = referee_reference::pousse::boards_after_each_move(n, &refs);
        let mut board = Board::new(n, true).unwrap();
        for (i, &m) in moves.iter().enumerate() {
            board.play(m, Colour::of_move(i as u64 + 1)).unwrap();
            assert_eq!(board.to_text(), expected[i], "n={n}, move {} ({m})", i + 1);
        }
    }
}

/// A reader that hands out at most `step` bytes per call (cycling through 1..=7), so line
/// boundaries fall everywhere relative to the read buffer.
struct Trickle<'a> {
    bytes: &'a [u8],
    step: usize,
}

impl std::io::Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        self.step = self.step % 7 + 1;
        let n = self.step.min(out.len()).min(self.bytes.len());
        out[..n].copy_from_slice(&self.bytes[..n]);
        self.bytes = &self.bytes[n..];
        Ok(n)
    }
}

/// Judges `text` read whole and read a few bytes at a time: verdicts and errors (with their
/// positions) must not depend on buffering. Returns the outcome as text.
fn judged_in_any_chunks(text: &str, rules: Rules) -> String {
    let show =
        |r: Result<Vec<referee::pousse::Judgement>, referee::util::error::JudgeError>| match r {
            Ok(js) => format!("{js:?}"),
            Err(e) => format!("error: {e}"),
        };
    let whole = show(referee::pousse::judge::judge(text.as_bytes(), rules));
    let trickled = show(referee::pousse::judge::judge(
        Trickle {
            bytes: text.as_bytes(),
            step: 0,
        },
        rules,
    ));
    assert_eq!(whole, trickled, "{text:?}");
    whole
}

/// The batched move reader decodes runs of common lines straight from the read buffer: a bad
/// or unusual line right after such a run (and runs cut by the buffer's end) must be handled
/// exactly as line-by-line reading would, with the right line number.
#[test]
fn move_batches_keep_lines_and_errors_exact() {
    let run: String = (0..5000)
        .map(|i| ["L1\n", "T2\n", "R3\n", "B1\n"][i % 4])
        .collect();
    let cases = [
        (format!("3\n{run}QUIT\n"), None),
        (format!("3\n{run}L1 \nQUIT\n"), Some("5002:")),
        (format!("3\n{run}L4\nQUIT\n"), Some("5002:")),
        (format!("3\n{run}L01\nQUIT\n"), Some("5002:")),
        (format!("3\n{run}X1\nQUIT\n"), Some("5002:")),
        (format!("3\n{run}L1\r\nT2\nQUIT\n"), None),
        (format!("3\n{run}"), Some("5002:")),
        (format!("2\n\n3\n{run}QUIT\n\n2\nL1\nL2\nQUIT\n"), None),
        (
            format!("2\n\n3\n{run}QUIT\n\n2\nL1\nL3\nQUIT\n"),
            Some("5008:"),
        ),
    ];
    for (text, error) in cases {
        let outcome = judged_in_any_chunks(&text, Rules::Waterloo);
        match error {
            None => assert!(!outcome.starts_with("error"), "{outcome}"),
            Some(line) => assert!(
                outcome.starts_with("error") && outcome.contains(line),
                "{outcome}"
            ),
        }
    }
}

/// The reference's work estimate (`verify` skips the reference beyond a budget) never
/// underestimates the squares the reference really visits, and under `waterloo`, which has no
/// history to compare, it is close to them: a long waterloo game is not skipped for the ICFP
/// rule sets' cost.
#[test]
fn the_reference_cost_estimate_follows_the_rule_set() {
    let plain = |rules: Rules| match rules {
        Rules::Waterloo => referee_reference::pousse::Rules::Waterloo,
        Rules::Icfp98 => referee_reference::pousse::Rules::Icfp98,
        Rules::Icfp98Board => referee_reference::pousse::Rules::Icfp98Board,
    };
    let strategy = common::cases::<PousseCase>(None, PousseShape::default());
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    for _ in 0..400 {
        let case = strategy.new_tree(&mut runner).unwrap().current();
        let input = case.input();
        let judged = common::judge::<Pousse>(Engine::Fast, &input, case.rules).unwrap();
        let estimate = Pousse::reference_cost(&judged[0], case.rules);
        // Cases beyond the harness's budget (the extremes) are never given to the reference.
        if estimate > referee::harness::REFERENCE_BUDGET {
            continue;
        }
        let measured =
            referee_reference::pousse::judge(&input, plain(case.rules)).unwrap()[0].steps;
        assert!(
            estimate >= measured,
            "{}: estimate {estimate} < {measured}",
            case.describe()
        );
        if case.rules == Rules::Waterloo {
            assert!(
                estimate <= measured + measured / 20,
                "{}: estimate {estimate}, measured {measured}",
                case.describe()
            );
        }
    }
    // A waterloo game of 10^5 moves at N = 8 costs the reference ~1.3 x 10^7 squares: well
    // within the default budget of 2 x 10^9.
    let moves = referee::pousse::case::moves(
        &mut referee::util::random::Rng::new(3),
        8,
        100_000,
        0,
        true,
        Rules::Waterloo,
    );
    let text = referee::pousse::case::transcript(8, &moves);
    let judged = common::judge::<Pousse>(Engine::Fast, text.as_bytes(), Rules::Waterloo).unwrap();
    let estimate = Pousse::reference_cost(&judged[0], Rules::Waterloo);
    assert!(
        estimate < referee::verify::DEFAULT_REFERENCE_BUDGET / 100,
        "{estimate}"
    );
}
