//! A fourth game costs one folder: a tiny take-away game, with its own engine, reference,
//! generator and shrinker, implements the traits and runs through the generic drivers (gen,
//! verify, stress, the fuzz property and the property-test strategy) unchanged. A deliberately
//! wrong engine of the same game shows that those drivers do find and shrink its bug.
//!
//! The game: a pile of N stones; a move takes 1 to K stones; whoever takes the last stone
//! wins. Input: one case per line, `N K`. Output: `first` or `second` per case.

use crate::common;
use referee::game::{Forms, Generated, Referenced};

use std::io::Read;
use std::time::Duration;

use proptest::prelude::*;
use referee::game::knobs::{Knob, Knobs};
use referee::game::Case;
use referee::game::{Engine, Form, Game, Judged, ReferenceCase, ReferenceStop};
use referee::util::error::{InputError, JudgeError, Position};
use referee::util::random::Entropy;

/// The take-away game; `BUG` plants a wrong engine (it forgets that K + 1 stones lose for the
/// player to move when N is a multiple of K + 1 above 2 (K + 1)).
struct TakeAway<const BUG: bool>;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Judgement {
    first_wins: bool,
    n: u64,
}

impl Judged for Judgement {
    fn verdict(&self) -> String {
        if self.first_wins { "first" } else { "second" }.into()
    }

    fn explain(&self) -> String {
        format!("a pile of {}", self.n)
    }

    fn size(&self) -> u64 {
        self.n
    }
}

/// A pile and a move limit.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Pile<const BUG: bool> {
    n: u64,
    k: u64,
}

fn parse(input: &mut dyn Read) -> Result<Vec<(u64, u64)>, JudgeError> {
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let at = |column| Position::new(i as u64 + 1, column);
        let fields: Vec<&str> = line.split(' ').collect();
        let [n, k] = fields[..] else {
            return Err(InputError::new(at(1), None, "'N K'", format!("'{line}'")).into());
        };
        let n = n
            .parse()
            .map_err(|_| InputError::new(at(1), None, "a pile size", format!("'{n}'")))?;
        let k = k.parse().ok().filter(|&k| k >= 1).ok_or_else(|| {
            InputError::new(
                at(n_len(line)),
                None,
                "a move limit of at least 1",
                format!("'{k}'"),
            )
        })?;
        cases.push((n, k));
    }
    Ok(cases)
}

/// The pile of one line cut by the toy's reference reading, its errors at the input's line.
fn read_case(case: &ReferenceCase) -> Result<(u64, u64), JudgeError> {
    let text = case.text.as_deref().unwrap_or_default();
    match parse(&mut &text[..]) {
        Ok(piles) => Ok(piles[0]),
        Err(JudgeError::Input(mut e)) => {
            e.position.line += case.first_line - 1;
            Err(e.into())
        }
        Err(e) => Err(e),
    }
}

fn n_len(line: &str) -> u64 {
    line.find(' ').map_or(1, |i| i as u64 + 2)
}

/// The reference: who wins from every pile size up to N, by trying every move.
fn solve(n: u64, k: u64) -> bool {
    let mut wins = vec![false; n as usize + 1];
    for size in 1..=n as usize {
        wins[size] = (1..=(k as usize).min(size)).any(|take| !wins[size - take]);
    }
    wins[n as usize]
}

impl<const BUG: bool> Game for TakeAway<BUG> {
    const NAME: &'static str = "takeaway";
    const BETWEEN: &'static str = "";
    const FIRST_LINE: &'static str = "'N K'";
    type Options = ();
    type Judgement = Judgement;
    fn judge(engine: Engine, input: &mut dyn Read, (): ()) -> Result<Vec<Judgement>, JudgeError> {
        parse(input)?
            .into_iter()
            .enumerate()
            .map(|(i, (n, k))| {
                let first_wins = match engine {
                    Engine::Fast if BUG && n > 2 * (k + 1) => true,
                    Engine::Fast => n % (k + 1) != 0,
                    Engine::Reference if n > 1_000_000 => {
                        return Err(JudgeError::Refused {
                            case: i as u64 + 1,
                            reason: "beyond the reference's limit".into(),
                        })
                    }
                    Engine::Reference => solve(n, k),
                };
                Ok(Judgement { first_wins, n })
            })
            .collect()
    }
    fn recognises(_: &[u8]) -> bool {
        false
    }
}

/// No package and no contest limits beyond the grammar: what the in-process audit below needs.
impl<const BUG: bool> referee::game::Packaged for TakeAway<BUG> {}

impl<const BUG: bool> Referenced for TakeAway<BUG> {
    fn reference_parses(input: &[u8]) -> Result<(), JudgeError> {
        parse(&mut &input[..]).map(|_| ())
    }
    fn reference_cost(j: &Judgement, (): ()) -> u64 {
        j.n
    }
    /// A case per line, read whole (the toy's inputs are small).
    fn reference_cases<'a>(
        mut input: Box<dyn Read + Send + 'a>,
        bound: u64,
    ) -> Box<dyn Iterator<Item = Result<ReferenceCase, ReferenceStop>> + Send + 'a> {
        let mut text = Vec::new();
        if let Err(e) = input.read_to_end(&mut text) {
            return Box::new(std::iter::once(Err(ReferenceStop::Unreadable(e))));
        }
        let cases: Vec<_> = text
            .split_inclusive(|&b| b == b'\n')
            .enumerate()
            .map(|(i, line)| {
                Ok(ReferenceCase {
                    number: i as u64 + 1,
                    label: None,
                    first_line: i as u64 + 1,
                    bytes: line.len() as u64,
                    text: (line.len() as u64 <= bound).then(|| line.to_vec()),
                    end: (0, 0),
                })
            })
            .collect();
        Box::new(cases.into_iter())
    }
    fn reference_judge_case(case: &ReferenceCase, (): ()) -> Result<Judgement, JudgeError> {
        let (n, k) = read_case(case)?;
        if n > 1_000_000 {
            return Err(JudgeError::Refused {
                case: case.number,
                reason: "beyond the reference's limit".into(),
            });
        }
        Ok(Judgement {
            first_wins: solve(n, k),
            n,
        })
    }
    fn reference_check_case(case: &ReferenceCase) -> Result<(), JudgeError> {
        read_case(case).map(|_| ())
    }
}

impl<const BUG: bool> Forms for TakeAway<BUG> {
    fn join(inputs: &[Vec<u8>]) -> Vec<u8> {
        inputs.concat()
    }
    const SINGLE_FORM: &'static str = "one line 'N K'";
    const MULTI_FORM: &'static str = "a line 'N K' per case";
    const PROBES: [&'static str; 2] = ["1 1\n", "2 1\n"];
    const STATEMENT_FORM: Form = Form::Multi;
    fn is_verdict(line: &str) -> bool {
        matches!(line, "first" | "second")
    }
}

impl<const BUG: bool> Generated for TakeAway<BUG> {
    type Case = Pile<BUG>;
    const FEATURES: &'static [&'static str] = &["first", "second"];
    fn features(_: &[u8], (): (), judgements: &[Judgement]) -> Vec<&'static str> {
        judgements
            .iter()
            .map(|j| if j.first_wins { "first" } else { "second" })
            .collect()
    }
}

#[derive(Debug, Clone, Copy, Default)]
struct PileShape {
    n: Option<u64>,
}

impl<const BUG: bool> Case for Pile<BUG> {
    type Game = TakeAway<BUG>;
    type Shape = PileShape;
    const KNOBS: &'static [Knob] = &[Knob::count("n", "pile size")];

    fn for_programs(_: referee::game::Constraints) -> PileShape {
        PileShape::default()
    }

    fn from_input(input: &[u8], (): ()) -> Result<Vec<Self>, JudgeError> {
        Ok(parse(&mut &input[..])?
            .into_iter()
            .map(|(n, k)| Pile { n, k })
            .collect())
    }

    fn shape(knobs: &Knobs) -> Result<PileShape, referee::game::knobs::KnobError> {
        Ok(PileShape {
            n: knobs.count("n")?,
        })
    }

    fn generate(e: &mut dyn Entropy, _: Option<()>, shape: &PileShape) -> Self {
        Pile {
            n: shape.n.unwrap_or_else(|| e.below(60)),
            k: 1 + e.below(5),
        }
    }

    fn options(&self) {}

    fn input(&self) -> Vec<u8> {
        format!("{} {}\n", self.n, self.k).into_bytes()
    }

    fn corrupt(&self, e: &mut dyn Entropy) -> Vec<u8> {
        let mut input = self.input();
        let at = e.below(input.len() as u64) as usize;
        input[at] = b"0 x\n"[e.below(4) as usize];
        input
    }

    fn shape_label(&self) -> String {
        format!("K={}", self.k)
    }

    fn shrink(&self) -> Box<dyn Iterator<Item = Self> + '_> {
        // Halve the pile, take a whole round (K + 1 stones, which keeps who wins), take one.
        let mut out: Vec<Self> = [
            self.n / 2,
            self.n.saturating_sub(self.k + 1),
            self.n.saturating_sub(1),
        ]
        .into_iter()
        .filter(|&n| n < self.n)
        .map(|n| Pile { n, k: self.k })
        .collect();
        if self.k > 1 {
            out.push(Pile {
                n: self.n,
                k: self.k - 1,
            });
        }
        Box::new(out.into_iter())
    }
}

#[test]
fn gen_and_verify_run_the_toy_game() {
    let dir = tempfile::tempdir().unwrap();
    let request = referee::gen::Request {
        out: dir.path().join("cases"),
        count: 30,
        seed: 4,
        answers: true,
        knobs: Knobs::default(),
        like_audit: false,
        form: Form::Single,
        per_file: 1,
    };
    let written = referee::gen::generate::<TakeAway<false>>(&request, ()).unwrap();
    assert_eq!(written, 30);
    // One wrong answer, one malformed file.
    std::fs::write(dir.path().join("cases/wrong.in"), "4 3\n").unwrap();
    std::fs::write(dir.path().join("cases/wrong.ans"), "first\n").unwrap();
    std::fs::write(dir.path().join("cases/junk.in"), "4 0\n").unwrap();
    let batch = referee::verify::run::Batch {
        paths: vec![dir.path().join("cases")],
        shard: None,
        jobs: Some(2),
        out: dir.path().join("reports"),
        timings: false,
        options: Default::default(),
        kept_rows: referee::verify::run::KEPT_ROWS,
    };
    let settings = referee::verify::Settings {
        jobs: 2,
        reference_max_bytes: u64::MAX,
        reference_budget: 1_000,
        no_reference: false,
    };
    let outcome = referee::verify::run::run(&batch, |file, emit| {
        referee::verify::verify_as::<TakeAway<false>>(file, &settings, (), emit);
    })
    .unwrap();
    let status = |name: &str| {
        let row = outcome
            .kept
            .iter()
            .find(|r| r.file.ends_with(name))
            .unwrap();
        row.status.unwrap().as_str()
    };
    assert_eq!(outcome.rows, 32);
    assert_eq!(status("wrong.in"), "expected-mismatch");
    assert_eq!(status("junk.in"), "invalid-input");
    let ok = outcome
        .kept
        .iter()
        .filter(|r| r.status.unwrap().as_str() == "ok");
    assert_eq!(ok.count(), 30);
    let verdicts = std::fs::read_to_string(dir.path().join("reports/verdicts.csv")).unwrap();
    assert!(
        verdicts.contains(",takeaway,,first,first,first,ok,"),
        "{verdicts}"
    );
}

/// The rows of `verify` on the one file at `path` as the buggy toy game, with `jobs` threads.
fn verify_one_file(path: &std::path::Path, jobs: usize) -> Vec<referee::formats::Row> {
    let settings = referee::verify::Settings {
        jobs,
        reference_max_bytes: 1 << 20,
        reference_budget: 1_000,
        no_reference: false,
    };
    let file = referee::util::walk::find_cases(&[path.to_path_buf()])
        .unwrap()
        .remove(0);
    let mut rows = Vec::new();
    referee::verify::verify_as::<TakeAway<true>>(&file, &settings, (), &mut |row| rows.push(row));
    rows
}

#[test]
fn verify_cross_examines_every_case_of_one_large_file_and_finds_the_one_disagreement_deep_inside() {
    // 300,000 cases (over 1 MiB: judged on several threads), every one within the reference's
    // bound; the planted engine bug shows on case 234,567 only.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("many.in");
    let cases = 300_000;
    let mut input = String::new();
    for i in 1..=cases {
        input.push_str(if i == 234_567 { "9 2\n" } else { "1 1\n" });
    }
    std::fs::write(&path, &input).unwrap();
    assert!(input.len() > 1 << 20);
    let rows = verify_one_file(&path, 2);
    assert_eq!(rows.len(), cases);
    let problems: Vec<_> = rows
        .iter()
        .filter(|r| r.status.unwrap().as_str() != "ok")
        .map(|r| {
            (
                r.index,
                r.status.unwrap().as_str(),
                r.engine.as_str(),
                r.reference.as_str(),
            )
        })
        .collect();
    assert_eq!(
        problems,
        [(
            Some(234_567),
            "engine-reference-mismatch",
            "first",
            "second"
        )]
    );
    assert!(
        rows.iter().all(|r| !r.reference.is_empty()),
        "a case not cross-examined"
    );
    let indices: Vec<u64> = rows.iter().map(|r| r.index.unwrap()).collect();
    assert!(
        indices.iter().copied().eq(1..=cases as u64),
        "rows out of order"
    );
    // One thread gives the same rows (but for the engine's times).
    let untimed = |rows: Vec<referee::formats::Row>| -> Vec<Vec<String>> {
        rows.into_iter().map(|r| r.fields(false)).collect()
    };
    assert_eq!(untimed(verify_one_file(&path, 1)), untimed(rows));
    // A malformed case: its row, where the reference's own reading rejects it too (this
    // engine hands over no judgement before its error, so no case before it has a row).
    input.replace_range(9 * 4..9 * 4 + 4, "1 0\n");
    std::fs::write(&path, &input).unwrap();
    let rows = verify_one_file(&path, 2);
    assert_eq!(rows.len(), 1);
    let last = rows.last().unwrap();
    assert_eq!(last.status.unwrap().as_str(), "invalid-input", "{last:?}");
    assert!(last.detail.contains(":10:3:"), "{last:?}");
}

fn limits(cases: u64) -> referee::stress::Limits {
    referee::stress::Limits {
        seed: 3,
        cases: Some(cases),
        time: None,
        case_time: Duration::from_secs(10),
        shrink_time: Duration::from_secs(30),
        keep_going: false,
        max_findings: 20,
        stats: false,
        shard: None,
    }
}

#[test]
fn stress_passes_the_toy_game_and_shrinks_the_planted_bug() {
    let dir = tempfile::tempdir().unwrap();
    let report = referee::stress::run::<TakeAway<false>>(limits(500), None, dir.path()).unwrap();
    assert_eq!((report.cases, report.findings.len()), (500, 0));
    let report = referee::stress::run::<TakeAway<true>>(limits(500), None, dir.path()).unwrap();
    assert!(report.cases < 500, "stopped at the first divergence");
    let finding = report.findings.first().expect("the planted bug is found");
    // Shrunk to the smallest pile the bug changes for its K: 3 (K + 1), the first multiple of
    // K + 1 above 2 (K + 1).
    let shrunk = std::fs::read_to_string(&finding.file).unwrap();
    let (n, k) = shrunk.trim().split_once(' ').unwrap();
    let (n, k): (u64, u64) = (n.parse().unwrap(), k.parse().unwrap());
    assert_eq!(n, 3 * (k + 1), "{shrunk}");
    let regression = std::fs::read(&finding.regression).unwrap();
    let regression = referee::harness::regression::Regression::parse(&regression).unwrap();
    assert!(regression.check::<TakeAway<true>>().is_err());
    assert!(regression.check::<TakeAway<false>>().is_ok());
    // With keep_going, the whole budget runs and the divergences count under one signature.
    let all = referee::stress::Limits {
        keep_going: true,
        ..limits(500)
    };
    let report = referee::stress::run::<TakeAway<true>>(all, None, dir.path()).unwrap();
    assert_eq!(report.cases, 500);
    assert_eq!(report.findings.len(), 1);
    assert!(
        report.findings[0].count > 10,
        "{}",
        report.findings[0].count
    );
    assert_eq!(
        report.findings[0].signature,
        format!("divergence | first -> second | K={k}")
    );
}

#[test]
fn the_fuzz_property_runs_the_toy_game() {
    // The planted bug's finding is written to $REFEREE_FINDINGS, set in the process this test
    // runs alone in.
    let findings = tempfile::tempdir().unwrap();
    let envs = [("REFEREE_FINDINGS", findings.path())];
    if !common::alone::alone(module_path!(), "the_fuzz_property_runs_the_toy_game", &envs) {
        assert!(std::fs::read_dir(findings.path()).unwrap().count() > 0);
        return;
    }
    for seed in 0..200u8 {
        let bytes: Vec<u8> = (0..8)
            .map(|i| seed.wrapping_mul(31).wrapping_add(i))
            .collect();
        referee::harness::fuzz::engine_matches_reference::<TakeAway<false>>(&bytes);
    }
    let caught = (0..=255u8).any(|b| {
        std::panic::catch_unwind(|| {
            referee::harness::fuzz::engine_matches_reference::<TakeAway<true>>(&[b, 0])
        })
        .is_err()
    });
    assert!(caught, "the fuzz property finds the planted bug");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn the_property_test_strategy_runs_the_toy_game(
        pile in common::cases::<Pile<false>>(None, PileShape::default())
    ) {
        prop_assert!(referee::harness::cross_examine::<TakeAway<false>>(&pile.input(), ()).is_ok());
    }
}

/// The audit audits referee too: when the program agrees with the reference and not with the
/// engine (here the planted engine bug), the finding is `engine-disputed`, not the program's.
#[cfg(target_os = "linux")]
#[test]
fn an_audit_blames_the_engine_when_the_reference_sides_with_the_program() {
    use referee::audit::entrants::Entrant;
    use referee::audit::pipeline::audit;
    use referee::audit::reports::sink::{ReportDir, Sink};
    use referee::audit::settings::{FormRule, Settings};
    use referee::audit::Kind;
    let dir = tempfile::tempdir().unwrap();
    let judge = "import sys\nfor line in sys.stdin:\n    n, k = map(int, line.split())\n    \
                 print('first' if n % (k + 1) else 'second')\n";
    let script = dir.path().join("judge.py");
    std::fs::write(&script, judge).unwrap();
    let entrants = [Entrant {
        name: "judge".into(),
        expected: None,
        program: Ok(
            referee_sandbox::Program::parse(&format!("python3 {}", script.display())).unwrap(),
        ),
        language: None,
    }];
    let settings = Settings {
        rules: (),
        seed: 2,
        cases: Some(200),
        time: None,
        limits: referee_sandbox::Limits {
            cpu: Duration::from_secs(5),
            memory: 2 << 30,
            max_output: 1 << 20,
            stderr_tail: 1 << 10,
            ..referee_sandbox::Limits::default()
        },
        batch: 20,
        jobs: 2,
        inputs: Vec::new(),
        out: dir.path().join("audit"),
        keep_going: false,
        max_findings: 20,
        strict: false,
        shrink_time: Duration::from_secs(20),
        compile_time: Duration::from_secs(60),
        reference_budget: 1_000_000,
        shard: None,
        form: FormRule::ByShape,
        constraints: referee::game::Constraints::Contest,
        save_runs: None,
        add_to: None,
        package: None,
        // The in-process audit of this test runs its judge as it is: the sandbox is the
        // subject of tests/confinement.rs.
        confinement: referee_sandbox::Confinement::Unconfined,
        advising: referee::audit::settings::Advising {
            repeat: 0,
            rules: referee::audit::limits::TimeRules::defaults("2025-09"),
            set_memory_mib: None,
        },
        interrupt: referee_sandbox::Interrupt::new(),
    };
    // A process of the caller's own (as another test's `referee` is) outlives the in-process
    // audit: only what escaped the audited programs is swept.
    let mut bystander = std::process::Command::new("sleep")
        .arg("3271")
        .spawn()
        .unwrap();
    // The report directory is the audit's first sink, as the command line's is.
    let mut reports = ReportDir::new("takeaway", &settings).unwrap();
    let audited = audit::<TakeAway<true>>(&settings, &entrants, Vec::new(), None).unwrap();
    reports.take(&audited).unwrap();
    let report = audited.report;
    let survived = matches!(bystander.try_wait(), Ok(None));
    let _ = bystander.kill();
    let _ = bystander.wait();
    assert!(survived, "the audit killed a process it did not start");
    let program = &report.programs[0];
    let findings = &program.findings;
    assert_eq!(findings.len(), 1, "{findings:?}");
    let finding = &findings[0];
    assert_eq!(finding.kind, Kind::EngineDisputed);
    assert!(
        finding
            .evidence
            .text()
            .contains("the reference gives the program's answer"),
        "{:?}",
        finding.evidence
    );
    // Shrunk to a small pile the engine gets wrong: a multiple of K + 1 above 2 (K + 1).
    let input = settings
        .out
        .join(referee::audit::reports::report::finding_path(
            program, finding,
        ));
    let shrunk = std::fs::read_to_string(&input).unwrap();
    let [n, k]: [u64; 2] = shrunk
        .split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect::<Vec<_>>()
        .try_into()
        .unwrap();
    assert!(n % (k + 1) == 0 && n > 2 * (k + 1) && n <= 12, "{shrunk}");
    // The same program, audited against the correct engine: nothing.
    let clean = Settings {
        out: dir.path().join("clean"),
        ..settings
    };
    assert!(
        audit::<TakeAway<false>>(&clean, &entrants, Vec::new(), None)
            .unwrap()
            .report
            .programs[0]
            .findings
            .is_empty()
    );
}
