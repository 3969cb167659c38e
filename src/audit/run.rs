//! The audit itself: cases, runs in parallel, isolation, shrinking, confirmation, reports.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::program::{adopt_orphans, sweep, Ending, Limits, Program, Run};
use super::Kind;
use crate::answer::{compare, escape, Verdict};
use crate::detect::file_suffix;
use crate::error::{JudgeError, RunError};
use crate::game::{render, Case, Engine, Game, RuleSet};
use crate::harness::findings::{first_line, signature, Findings};
use crate::random::Rng;
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
use crate::shard::Shard;
use crate::walk::find_cases;

/// The reports' file names.
const FINDINGS: &str = "findings.csv";
/// The manifest of an audit report directory.
pub const MANIFEST: &str = "audit.json";

/// The columns of `findings.csv`: one row per signature kept, first found first.
pub const FINDINGS_HEADER: [&str; 14] = [
    "finding",
    "kind",
    "game",
    "rules",
    "input",
    "expected",
    "got",
    "exit",
    "millis",
    "signature",
    "count",
    "confirmed",
    "detail",
    "case",
];

/// The largest input file taken from `--inputs` (larger ones are skipped, and said).
const LARGEST_INPUT: u64 = 64 << 20;

/// How to audit.
#[derive(Debug, Clone)]
pub struct Settings<O> {
    /// The program audited.
    pub program: Program,
    /// The rule set it judges under.
    pub rules: O,
    /// The seed of the random cases.
    pub seed: u64,
    /// Stop after this many cases (input files included).
    pub cases: Option<u64>,
    /// Stop starting runs after this long.
    pub time: Option<Duration>,
    /// Each run's limits.
    pub limits: Limits,
    /// Random cases per run of the program.
    pub batch: usize,
    /// Runs at once.
    pub jobs: usize,
    /// Input files and directories (every `*.in` under them), run before the random cases.
    pub inputs: Vec<PathBuf>,
    /// The report directory.
    pub out: PathBuf,
    /// Run the whole budget, keeping one finding per signature.
    pub keep_going: bool,
    /// The most findings kept.
    pub max_findings: usize,
    /// The time spent shrinking one finding.
    pub shrink_time: Duration,
    /// The reference's budget for confirming a finding (estimated steps).
    pub reference_budget: u64,
    /// Run only this slice of the input files and random case indices.
    pub shard: Option<Shard>,
}

/// One finding, as reported.
#[derive(Debug, Clone)]
pub struct FindingLine {
    /// Its number, from 1.
    pub number: usize,
    /// Its kind.
    pub kind: Kind,
    /// Its signature.
    pub signature: String,
    /// How many failing cases share it.
    pub count: u64,
    /// The input file written for it.
    pub input: PathBuf,
    /// Whether the reference confirmed the expected output, or why not.
    pub confirmed: String,
}

/// What an audit did.
#[derive(Debug)]
pub struct Report {
    /// Cases the program was run on (input files included).
    pub cases: u64,
    /// Runs of the program, shrinking included.
    pub runs: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The findings kept.
    pub findings: Vec<FindingLine>,
    /// Failing cases per kind (all of them, not only those kept).
    pub per_kind: BTreeMap<Kind, u64>,
    /// Input files not used, and why.
    pub skipped: Vec<String>,
    /// The rows of `findings.csv` (columns [`FINDINGS_HEADER`]).
    pub rows: Vec<Vec<String>>,
}

/// Where a case comes from.
#[derive(Debug, Clone)]
enum Source<C> {
    /// An input file: its name, and its place in the sorted list of every input file.
    File { name: String, position: usize },
    /// A random case (its number).
    Random { index: u64, case: C },
}

impl<C> Source<C> {
    fn describe(&self) -> String {
        match self {
            Source::File { name, .. } => format!("input file {name}"),
            Source::Random { index, .. } => format!("random case {index}"),
        }
    }

    /// The `case` column of `findings.csv`: `file NAME` or `random INDEX`.
    fn column(&self) -> String {
        match self {
            Source::File { name, .. } => format!("file {name}"),
            Source::Random { index, .. } => format!("random {index}"),
        }
    }

    /// The stem of the finding's files: unique within a run and across the shards of one.
    fn stem(&self, game: &str, suffix: &str) -> String {
        match self {
            Source::File { position, .. } => format!("{game}-input{position}{suffix}"),
            Source::Random { index, .. } => format!("{game}-case{index}{suffix}"),
        }
    }
}

/// One run's outcome against the engine's expected output.
#[derive(Debug, Clone)]
struct Tried {
    kind: Option<Kind>,
    run: Run,
    expected: String,
}

/// A unit of work: one run of the program, on one input file or a batch of random cases.
struct Unit<C> {
    cases: Vec<(Source<C>, Vec<u8>)>,
}

/// A unit whose run failed: its number, its cases, the run.
type FailedUnit<C> = (u64, Unit<C>, Tried);

/// A case that failed alone.
struct Failure<C> {
    source: Source<C>,
    input: Vec<u8>,
    tried: Tried,
    /// Set when no single case of the failing run fails alone.
    batch_only: bool,
}

/// What the program's run means, against `expected`.
fn classify(run: &Run, expected: &str) -> Option<Kind> {
    match run.ending {
        Ending::TimedOut => Some(Kind::Timeout),
        Ending::OutputLimit => Some(Kind::OutputLimit),
        Ending::Signalled(_) | Ending::Exited(1..) | Ending::Exited(..0) => Some(Kind::Crash),
        Ending::Exited(0) if run.stdout.is_empty() && !expected.is_empty() => Some(Kind::NoOutput),
        Ending::Exited(_) => match compare(expected, &run.stdout) {
            Verdict::AC => None,
            Verdict::PE => Some(Kind::PresentationError),
            _ => Some(Kind::WrongAnswer),
        },
    }
}

/// The exit column: the code, or the signal.
fn exit_text(ending: Ending) -> String {
    match ending {
        Ending::Exited(code) => code.to_string(),
        Ending::Signalled(signal) => format!("signal {signal}"),
        Ending::TimedOut | Ending::OutputLimit => String::new(),
    }
}

/// Everything a run of the audit shares between its threads.
struct Auditor<'a, G: Game> {
    settings: &'a Settings<G::Options>,
    /// This slice's input files: name, place in the list of every input file, content.
    files: Vec<(String, usize, Vec<u8>)>,
    /// Random cases run have indices below this (the case budget less every input file).
    random_budget: Option<u64>,
    runs: AtomicU64,
    /// A reason the audit cannot go on (the program cannot start).
    fatal: Mutex<Option<String>>,
}

impl<G: Game> Auditor<'_, G> {
    /// The engine's output for `input`.
    fn expected(&self, input: &[u8]) -> Result<String, JudgeError> {
        let judged = G::judge(Engine::Fast, &mut &input[..], self.settings.rules)?;
        Ok(render::<G>(&judged))
    }

    /// Runs the program on `input` and classifies the run; `None` if it could not start.
    fn try_input(&self, input: &[u8], expected: &str) -> Option<Tried> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        match self.settings.program.run(input, &self.settings.limits) {
            Ok(run) => Some(Tried {
                kind: classify(&run, expected),
                run,
                expected: expected.to_string(),
            }),
            Err(e) => {
                let mut fatal = self.fatal.lock().unwrap_or_else(|e| e.into_inner());
                fatal.get_or_insert_with(|| {
                    format!("{}: cannot be run: {e}", self.settings.program.display())
                });
                None
            }
        }
    }

    /// Runs the program on the cases `cases` joined, and classifies the run.
    fn try_cases(&self, cases: &[(Source<G::Case>, Vec<u8>)]) -> Option<Tried> {
        let inputs: Vec<Vec<u8>> = cases.iter().map(|(_, i)| i.clone()).collect();
        let input = if inputs.len() == 1 {
            inputs[0].clone()
        } else {
            G::join(&inputs)
        };
        let expected = self.expected(&input).ok()?;
        self.try_input(&input, &expected)
    }

    /// The unit of work number `index`, or `None` beyond the case budget: this slice's input
    /// files one by one, then its random cases `batch` at a time.
    fn unit(&self, index: u64) -> Option<Unit<G::Case>> {
        let files = self.files.len() as u64;
        if index < files {
            let (name, position, input) = &self.files[index as usize];
            let source = Source::File {
                name: name.clone(),
                position: *position,
            };
            return Some(Unit {
                cases: vec![(source, input.clone())],
            });
        }
        let batch = self.settings.batch as u64;
        let first = (index - files) * batch;
        let shape = G::Case::moderate();
        let cases: Vec<_> = (first..first + batch)
            .map(|local| self.settings.shard.map_or(local, |s| s.nth(local)))
            .take_while(|&i| self.random_budget.is_none_or(|budget| i < budget))
            .map(|i| {
                let mut rng = Rng::for_item(self.settings.seed, i);
                let case = G::Case::generate(&mut rng, Some(self.settings.rules), &shape);
                let input = case.input();
                (Source::Random { index: i, case }, input)
            })
            .collect();
        (!cases.is_empty()).then_some(Unit { cases })
    }

    /// Finds, in a failing run of several cases, one case that fails alone: the halves first,
    /// then each case.
    fn isolate(&self, cases: Vec<(Source<G::Case>, Vec<u8>)>, tried: Tried) -> Failure<G::Case> {
        let mut cases = cases;
        let mut tried = tried;
        while cases.len() > 1 {
            let back = cases.split_off(cases.len() / 2);
            let front = cases;
            match self.try_cases(&front) {
                Some(t) if t.kind.is_some() => {
                    (cases, tried) = (front, t);
                    continue;
                }
                _ => {}
            }
            match self.try_cases(&back) {
                Some(t) if t.kind.is_some() => {
                    (cases, tried) = (back, t);
                    continue;
                }
                _ => {}
            }
            // Neither half fails alone: try each case, else the failure needs them together.
            let all: Vec<_> = front.into_iter().chain(back).collect();
            for case in &all {
                if let Some(t) = self.try_cases(std::slice::from_ref(case)) {
                    if t.kind.is_some() {
                        return Failure {
                            source: case.0.clone(),
                            input: case.1.clone(),
                            tried: t,
                            batch_only: false,
                        };
                    }
                }
            }
            let inputs: Vec<Vec<u8>> = all.iter().map(|(_, i)| i.clone()).collect();
            return Failure {
                source: all[0].0.clone(),
                input: G::join(&inputs),
                tried,
                batch_only: true,
            };
        }
        let (source, input) = cases.pop().expect("a failing run has cases");
        Failure {
            source,
            input,
            tried,
            batch_only: false,
        }
    }

    /// Shrinks a failing random case: smaller cases that still fail with the same kind,
    /// within the shrink time.
    fn shrink(&self, failure: Failure<G::Case>) -> (Failure<G::Case>, usize) {
        let Source::Random { index, case } = &failure.source else {
            return (failure, 0);
        };
        if failure.batch_only {
            return (failure, 0);
        }
        let kind = failure.tried.kind;
        let deadline = Instant::now() + self.settings.shrink_time;
        let (mut best, mut best_tried, mut steps) = (case.clone(), failure.tried.clone(), 0);
        'outer: while Instant::now() < deadline {
            for candidate in best.shrink() {
                if Instant::now() >= deadline {
                    break 'outer;
                }
                let input = candidate.input();
                let Ok(expected) = self.expected(&input) else {
                    continue;
                };
                if let Some(t) = self.try_input(&input, &expected) {
                    if t.kind == kind {
                        (best, best_tried) = (candidate, t);
                        steps += 1;
                        continue 'outer;
                    }
                }
            }
            break;
        }
        let input = best.input();
        let source = Source::Random {
            index: *index,
            case: best,
        };
        (
            Failure {
                source,
                input,
                tried: best_tried,
                batch_only: false,
            },
            steps,
        )
    }

    /// What the reference says of the expected output of `input`, and whether the finding is
    /// then the engine's fault (the reference differs from the engine).
    fn confirm(&self, input: &[u8], program_output: &[u8]) -> (String, bool) {
        let rules = self.settings.rules;
        let Ok(engine) = G::judge(Engine::Fast, &mut &input[..], rules) else {
            return ("the engine rejects the input".into(), true);
        };
        let cost = engine
            .iter()
            .map(|j| G::reference_cost(j, rules))
            .fold(0u64, u64::saturating_add);
        if cost > self.settings.reference_budget {
            return (
                format!("reference not run: estimated {cost} steps, over its budget"),
                false,
            );
        }
        match G::judge(Engine::Reference, &mut &input[..], rules) {
            Ok(reference) if reference == engine => ("confirmed-by-reference".into(), false),
            Ok(reference) => {
                let said = render::<G>(&reference);
                let sides = compare(&said, program_output) == Verdict::AC;
                let why = if sides {
                    "the reference gives the program's answer"
                } else {
                    "the reference disagrees with the engine"
                };
                (format!("{why}: {}", escape(said.as_bytes(), 100)), true)
            }
            Err(JudgeError::Refused { reason, .. }) => {
                (format!("reference refused: {reason}"), false)
            }
            Err(e) => (format!("the reference rejects the input: {e}"), true),
        }
    }
}

/// A finding ready to report.
struct Kept<C> {
    kind: Kind,
    source: Source<C>,
    input: Vec<u8>,
    tried: Tried,
    confirmed: String,
    shrink_steps: usize,
    batch_only: bool,
}

/// Audits the program of `settings` as a judge of `G`.
pub fn audit<G: Game>(settings: &Settings<G::Options>) -> Result<Report, RunError> {
    let staging = Staging::new(&settings.out).map_err(|e| RunError::io(&settings.out, e))?;
    adopt_orphans();
    let started = Instant::now();
    // The input files first, each run alone.
    let mut files = Vec::new();
    let mut skipped = Vec::new();
    let found = if settings.inputs.is_empty() {
        Vec::new()
    } else {
        find_cases(&settings.inputs)?
    };
    for (position, file) in found.iter().enumerate() {
        if settings.shard.is_some_and(|s| !s.contains(&file.name)) {
            continue;
        }
        if let Some(why) = &file.error {
            skipped.push(format!("{}: {why}", file.name));
            continue;
        }
        match fs::metadata(&file.path) {
            Ok(m) if m.len() > LARGEST_INPUT => {
                skipped.push(format!("{}: larger than {LARGEST_INPUT} bytes", file.name));
                continue;
            }
            Err(e) => {
                skipped.push(format!("{}: {e}", file.name));
                continue;
            }
            Ok(_) => {}
        }
        match fs::read(&file.path) {
            Ok(bytes) => match G::judge(Engine::Fast, &mut &bytes[..], settings.rules) {
                Ok(_) => files.push((file.name.clone(), position, bytes)),
                Err(e) => skipped.push(format!(
                    "{}: not a valid input: {}",
                    file.name,
                    e.located(&file.name)
                )),
            },
            Err(e) => skipped.push(format!("{}: {e}", file.name)),
        }
    }
    let auditor = Auditor::<G> {
        settings,
        files,
        random_budget: settings.cases.map(|n| n.saturating_sub(found.len() as u64)),
        runs: AtomicU64::new(0),
        fatal: Mutex::new(None),
    };
    let failures: Mutex<Vec<FailedUnit<G::Case>>> = Mutex::new(Vec::new());
    let next = AtomicU64::new(0);
    let cases_run = AtomicU64::new(0);
    // Without --keep-going, no unit after the first failing one needs to run.
    let first_failure = AtomicU64::new(u64::MAX);
    let stop = AtomicBool::new(false);
    let bar = crate::pool::progress(settings.cases.unwrap_or(0) as usize, "auditing", "cases");
    std::thread::scope(|scope| {
        for _ in 0..settings.jobs.max(1) {
            scope.spawn(|| loop {
                if stop.load(Ordering::Relaxed)
                    || settings.time.is_some_and(|t| started.elapsed() >= t)
                {
                    return;
                }
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index > first_failure.load(Ordering::Relaxed) {
                    return;
                }
                let Some(unit) = auditor.unit(index) else {
                    return;
                };
                let Some(tried) = auditor.try_cases(&unit.cases) else {
                    stop.store(true, Ordering::Relaxed);
                    return;
                };
                if index == 0 && never_ran(&tried.run) {
                    let mut fatal = auditor.fatal.lock().unwrap_or_else(|e| e.into_inner());
                    fatal.get_or_insert_with(|| {
                        format!(
                            "{}: the program did not run (exit {} with no output: {})",
                            settings.program.display(),
                            exit_text(tried.run.ending),
                            escape(&tried.run.stderr_tail, 200).trim_end()
                        )
                    });
                    stop.store(true, Ordering::Relaxed);
                    return;
                }
                cases_run.fetch_add(unit.cases.len() as u64, Ordering::Relaxed);
                bar.inc(unit.cases.len() as u64);
                if tried.kind.is_some() {
                    if !settings.keep_going {
                        first_failure.fetch_min(index, Ordering::Relaxed);
                    }
                    failures
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((index, unit, tried));
                }
            });
        }
    });
    bar.finish_and_clear();
    if let Some(why) = auditor
        .fatal
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
    {
        sweep();
        return Err(RunError::Usage(why));
    }
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    failures.sort_by_key(|f| f.0);
    if !settings.keep_going {
        failures.truncate(1);
    }
    // Each failing run: isolate a case, shrink it, confirm it, sign it; one per signature.
    let mut per_kind: BTreeMap<Kind, u64> = BTreeMap::new();
    let mut findings: Findings<Kept<G::Case>> = Findings::new(settings.max_findings);
    let mut key_signatures: BTreeMap<String, String> = BTreeMap::new();
    for (_, unit, tried) in failures {
        let failure = auditor.isolate(unit.cases, tried);
        let kind = failure.tried.kind.expect("a failure");
        *per_kind.entry(kind).or_default() += 1;
        let got = first_line(&failure.tried.run.stdout);
        let key = signature(
            kind.as_str(),
            &[&format!(
                "{} -> {got}",
                first_line(failure.tried.expected.as_bytes())
            )],
        );
        if let Some(known) = key_signatures.get(&key) {
            findings.add(known.clone(), || {
                unreachable!("a known signature is only counted")
            });
            continue;
        }
        if findings.len() >= settings.max_findings {
            findings.dropped += 1;
            continue;
        }
        let (failure, shrink_steps) = auditor.shrink(failure);
        let (confirmed, disputed) = auditor.confirm(&failure.input, &failure.tried.run.stdout);
        let final_kind = if disputed { Kind::EngineDisputed } else { kind };
        let shape = match &failure.source {
            Source::Random { case, .. } => case.shape_label(),
            Source::File { .. } => String::new(),
        };
        let detail = match failure.tried.run.ending {
            Ending::Exited(code) if kind == Kind::Crash => format!("exit {code}"),
            Ending::Signalled(signal) => format!("signal {signal}"),
            _ => String::new(),
        };
        let verdicts = match final_kind {
            Kind::WrongAnswer | Kind::PresentationError | Kind::EngineDisputed => format!(
                "{} -> {}",
                first_line(failure.tried.expected.as_bytes()),
                first_line(&failure.tried.run.stdout)
            ),
            _ => String::new(),
        };
        let sig = signature(final_kind.as_str(), &[&verdicts, &detail, &shape]);
        key_signatures.insert(key, sig.clone());
        findings.add(sig, || Kept {
            kind: final_kind,
            source: failure.source,
            input: failure.input,
            tried: failure.tried,
            confirmed,
            shrink_steps,
            batch_only: failure.batch_only,
        });
    }
    sweep();
    let (lines, rows) = write_reports::<G>(staging, settings, &findings, &found)
        .map_err(|e| RunError::io(&settings.out, e))?;
    Ok(Report {
        cases: cases_run.into_inner(),
        runs: auditor.runs.into_inner(),
        elapsed: started.elapsed(),
        findings: lines,
        per_kind,
        skipped,
        rows,
    })
}

/// Whether a first run shows that the program never ran: the shell's "cannot execute" or
/// "not found" exit codes, with no output.
fn never_ran(run: &Run) -> bool {
    matches!(run.ending, Ending::Exited(126 | 127)) && run.stdout.is_empty()
}

fn write_reports<G: Game>(
    mut staging: Staging,
    settings: &Settings<G::Options>,
    findings: &Findings<Kept<G::Case>>,
    inputs: &[crate::walk::CaseFile],
) -> std::io::Result<(Vec<FindingLine>, Vec<Vec<String>>)> {
    let dir = staging.dir().to_path_buf();
    let rules = settings.rules;
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    for (i, (sig, kept, count)) in findings.iter().enumerate() {
        let number = i + 1;
        let stem = kept.source.stem(G::NAME, &file_suffix(rules));
        let files = [
            ("in", kept.input.clone()),
            ("ans", kept.tried.expected.clone().into_bytes()),
            ("out", kept.tried.run.stdout.clone()),
            ("err", kept.tried.run.stderr_tail.clone()),
        ];
        for (ext, bytes) in &files {
            staging.file(&format!("{stem}.{ext}"), bytes)?;
        }
        let mut detail = kept.source.describe();
        if kept.shrink_steps > 0 {
            detail.push_str(&format!(", shrunk in {} steps", kept.shrink_steps));
        }
        if kept.batch_only {
            detail.push_str(", fails only with the other cases of its batch");
        }
        if kept.kind == Kind::Timeout {
            detail.push_str(&format!(
                ", killed after {:.1} s",
                settings.limits.timeout.as_secs_f64()
            ));
        }
        let tail = escape(&kept.tried.run.stderr_tail, 200);
        if !tail.is_empty() {
            detail.push_str(&format!("; standard error ends: {tail}"));
        }
        rows.push(vec![
            number.to_string(),
            kept.kind.as_str().to_string(),
            G::NAME.to_string(),
            rules.name().to_string(),
            format!("{stem}.in"),
            escape(kept.tried.expected.as_bytes(), 200),
            escape(&kept.tried.run.stdout, 200),
            exit_text(kept.tried.run.ending),
            kept.tried.run.elapsed.as_millis().to_string(),
            sig.clone(),
            count.to_string(),
            kept.confirmed.clone(),
            detail,
            kept.source.column(),
        ]);
        lines.push(FindingLine {
            number,
            kind: kept.kind,
            signature: sig.clone(),
            count: *count,
            input: dir.join(format!("{stem}.in")),
            confirmed: kept.confirmed.clone(),
        });
    }
    let digest = staging.csv(FINDINGS, &FINDINGS_HEADER, &rows)?;
    let mut options = BTreeMap::new();
    options.insert("cmd".to_string(), settings.program.display());
    options.insert("rules".to_string(), rules.name().to_string());
    options.insert("seed".to_string(), settings.seed.to_string());
    options.insert("batch".to_string(), settings.batch.to_string());
    options.insert(
        "cases".to_string(),
        settings.cases.map_or(String::new(), |c| c.to_string()),
    );
    options.insert(
        "time".to_string(),
        settings
            .time
            .map_or(String::new(), |t| t.as_secs_f64().to_string()),
    );
    options.insert("keep-going".to_string(), settings.keep_going.to_string());
    options.insert(
        "max-findings".to_string(),
        settings.max_findings.to_string(),
    );
    let judged: Vec<crate::walk::CaseFile> = inputs
        .iter()
        .filter(|f| settings.shard.is_none_or(|s| s.contains(&f.name)))
        .cloned()
        .collect();
    let mut manifest = Manifest::new(
        "audit",
        options,
        inputs,
        settings.shard.map(|s| (s, &judged[..])),
    );
    manifest.reports.insert(FINDINGS.into(), digest);
    staging.json(MANIFEST, &manifest)?;
    staging.commit()?;
    Ok((lines, rows))
}
