//! Helpers shared by the integration tests: vector files, judging with both implementations,
//! and a proptest strategy over each game's one generator (shrinking with the game's shrinker).
#![allow(dead_code)]

pub mod alone;
pub mod audit;
pub mod bapctools;
pub mod command;
pub mod dmoj;
pub mod package;
pub mod programs;
pub mod scratch;
pub mod tool;

use std::collections::VecDeque;
use std::path::PathBuf;

use proptest::prelude::Rng as _;
use proptest::strategy::{NewTree, Strategy, ValueTree};
use proptest::test_runner::TestRunner;
use referee::game::Case;
use referee::game::Referenced;
use referee::game::{reference_reading, Engine, Game, ReferenceReading};
use referee::util::error::JudgeError;
use referee::util::random::Rng;

/// The path, as text, of `path` under the repository's `corpus/`.
pub fn corpus(path: &str) -> String {
    format!("{}/corpus/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The path of a shared vector file.
pub fn vector_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/vectors")
        .join(name)
}

/// The `|`-separated, trimmed fields of every non-comment line of a vector file.
pub fn vectors(name: &str) -> Vec<Vec<String>> {
    std::fs::read_to_string(vector_path(name))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with("# ") && !l.trim().is_empty())
        .map(|l| l.split('|').map(|f| f.trim().to_string()).collect())
        .collect()
}

/// Decodes `\n`, `\r`, `\t`, `\\` and `\xHH` escapes.
pub fn decode_escapes(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'n' => out.push(b'\n'),
                b'r' => out.push(b'\r'),
                b't' => out.push(b'\t'),
                b'\\' => out.push(b'\\'),
                b'x' => {
                    out.push(u8::from_str_radix(&s[i + 2..i + 4], 16).unwrap());
                    i += 2;
                }
                other => panic!("unknown escape \\{}", other as char),
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// Judges `input` with one implementation.
pub fn judge<G: Game>(
    imp: Engine,
    input: &[u8],
    options: G::Options,
) -> Result<Vec<G::Judgement>, JudgeError> {
    G::judge(imp, &mut &input[..], options)
}

/// Judges `input` with both implementations.
pub type Both<G> = (
    Result<Vec<<G as Game>::Judgement>, JudgeError>,
    Result<Vec<<G as Game>::Judgement>, JudgeError>,
);

/// Judges `input` with the engine and with the reference.
///
/// Where the engine has a general path besides its specialised ones, that path must give the
/// same result.
/// The reference's reading of the input a case at a time (its framing, each case on its own,
/// `verify`'s way) must give what the reference gives on the whole input.
pub fn judge_both<G: Game + referee::game::Referenced>(
    input: &[u8],
    options: G::Options,
) -> Both<G> {
    let fast = judge::<G>(Engine::Fast, input, options);
    if let Some(general) = G::judge_general_path(input, options) {
        assert_eq!(
            format!("{fast:?}"),
            format!("{general:?}"),
            "the engine's general path disagrees"
        );
    }
    let reference = judge::<G>(Engine::Reference, input, options);
    let by_case = reference_by_case::<G>(input, options);
    match (&reference, &by_case) {
        (Ok(whole), Ok(cases)) => assert_eq!(whole, cases, "the reference's case-by-case reading"),
        (Err(JudgeError::Input(whole)), Err(JudgeError::Input(cases))) => assert_eq!(
            (whole.position, whole.case),
            (cases.position, cases.case),
            "the reference's case-by-case reading: {cases}"
        ),
        (Err(JudgeError::Refused { .. }), Err(JudgeError::Refused { .. })) => {}
        _ => panic!("the reference's case-by-case reading: {by_case:?}, whole: {reference:?}"),
    }
    (fast, reference)
}

/// The reference's reading of `input` a case at a time ([`Game::reference_cases`]): every
/// case's grammar checked first (as the reference parses a whole input before judging it),
/// then each case judged on its own.
pub fn reference_by_case<G: Game + Referenced + referee::game::Referenced>(
    input: &[u8],
    options: G::Options,
) -> Result<Vec<G::Judgement>, JudgeError> {
    match reference_reading::<G>(Box::new(input), u64::MAX) {
        ReferenceReading::Accepts => {}
        ReferenceReading::Rejects(e) => return Err(e),
        ReferenceReading::Unread => panic!("no bound, yet not all read"),
    }
    let cases: Vec<_> = G::reference_cases(Box::new(input), u64::MAX)
        .map(|case| case.expect("read once already"))
        .collect();
    cases
        .iter()
        .map(|case| G::reference_judge_case(case, options))
        .collect()
}

/// Checks every vector of an invalid-input file (`input with escapes | line:column | case`):
/// both implementations, and the reference reading case by case, reject it at the same
/// position and case. Returns the vector count.
pub fn assert_invalid_vectors<G: Game + referee::game::Referenced>(
    file: &str,
    options: G::Options,
) -> usize {
    let cases = vectors(file);
    for fields in &cases {
        let [input, position, case] = &fields[..] else {
            panic!("bad vector {fields:?}");
        };
        let input = decode_escapes(input);
        let by_case = || reference_by_case::<G>(&input, options);
        let implementations: [(&str, &dyn Fn() -> _); 3] = [
            ("engine", &|| judge::<G>(Engine::Fast, &input, options)),
            ("reference", &|| {
                judge::<G>(Engine::Reference, &input, options)
            }),
            ("reference case by case", &by_case),
        ];
        for (imp, judged) in implementations {
            let err = judged().expect_err(&format!("{imp} accepted {fields:?}"));
            let JudgeError::Input(e) = err else {
                panic!("not an input error");
            };
            assert_eq!(&e.position.to_string(), position, "{imp} {fields:?}: {e}");
            assert_eq!(e.case, case.parse().ok(), "{imp} {fields:?}: {e}");
        }
    }
    cases.len()
}

/// The game's generator as a proptest strategy: each value is a case generated from a seed the
/// test runner draws, and shrinking walks the game's own [`Case::shrink`] candidates.
pub fn cases<C: Case>(
    options: Option<<C::Game as Game>::Options>,
    shape: C::Shape,
) -> CaseStrategy<C> {
    CaseStrategy { options, shape }
}

/// See [`cases`].
pub struct CaseStrategy<C: Case> {
    options: Option<<C::Game as Game>::Options>,
    shape: C::Shape,
}

impl<C: Case> std::fmt::Debug for CaseStrategy<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cases of {} ({:?})", C::Game::NAME, self.shape)
    }
}

impl<C: Case> Strategy for CaseStrategy<C> {
    type Tree = CaseTree<C>;
    type Value = C;

    fn new_tree(&self, runner: &mut TestRunner) -> NewTree<Self> {
        let seed = runner.rng().next_u64();
        let case = C::generate(&mut Rng::new(seed), self.options, &self.shape);
        Ok(CaseTree {
            accepted: case.clone(),
            current: case,
            queue: VecDeque::new(),
        })
    }
}

/// A case being shrunk: `accepted` is the smallest case known to fail, `queue` the candidates
/// smaller than it not yet tried.
pub struct CaseTree<C: Case> {
    current: C,
    accepted: C,
    queue: VecDeque<C>,
}

impl<C: Case> std::fmt::Debug for CaseTree<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.current.describe())
    }
}

impl<C: Case> ValueTree for CaseTree<C> {
    type Value = C;

    fn current(&self) -> C {
        self.current.clone()
    }

    /// The current case failed: it becomes the accepted one, and its first candidate is next.
    fn simplify(&mut self) -> bool {
        self.accepted = self.current.clone();
        // At most the first 10,000 candidates: the property tests' cases are small.
        self.queue = self.accepted.shrink().take(10_000).collect();
        self.complicate()
    }

    /// The current case passed: the next candidate of the accepted case is tried instead.
    fn complicate(&mut self) -> bool {
        match self.queue.pop_front() {
            Some(next) => {
                self.current = next;
                true
            }
            None => {
                self.current = self.accepted.clone();
                false
            }
        }
    }
}
