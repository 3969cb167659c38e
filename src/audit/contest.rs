//! `referee audit` of a contest's programs at once: a rejudge preview, and the fewest cases
//! that strengthen the problem's data.
//!
//! 1. **The existing data.** Every program runs on every file of the data (the package's
//!    `data/sample` then `data/secret`, or `--inputs`), as a judge system runs it: the file as
//!    it is, against its `.ans` (the engine's output where there is none). Its result is the
//!    first case it does not pass, as Kattis reports it.
//! 2. **Referee's cases.** Every program is audited as by a single-program audit, all at once:
//!    the data's cases first, then the same seeded random and extreme cases, each generated and
//!    judged by the engine once ([`SharedCases`]), at most `--jobs` runs going on at once
//!    across every program ([`Slots`]), each program at most its share of them (so a program
//!    whose runs hang cannot starve the others), each in the input form it answers.
//! 3. **Strengthening.** Every shrunk finding that is inside the contest's limits (checked as
//!    `validate --constraints contest` does), fails alone and whose expected output the
//!    reference confirms is a candidate case; every program runs on every candidate, as a
//!    judge system would run it. From that table, greedy set cover picks the candidates one by
//!    one, each time the one that fails the most programs still uncovered (the smaller case on
//!    a tie): every program proved wrong that the existing data accepts fails one of them.
//!    Greedy set cover is within a factor ln(n) + 1 of the smallest cover, and exact on the
//!    small tables of a contest in practice.
//! 4. **Scores.** As the test-generation literature gives them: of the programs proved wrong,
//!    the share the data rejects (true positive rate); of the programs with no finding, the
//!    share the data accepts (true negative rate); for the existing data and for the data
//!    with the strengthening cases added.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::entrants::{Class, Entrant};
use super::outcome::Tried;
use super::program::{adopt_orphans, interrupted, sweep, Program};
use super::run::{audit_among, read_inputs, Report, Settings, Together};
use super::runner::Slots;
use super::units::SharedCases;
use super::Kind;
use crate::error::RunError;
use crate::game::{render, Engine, Game, RuleSet};
use crate::judge_system::validate::validate;
use crate::report::manifest::Manifest;
use crate::report::write::{Digest, Staging};
use crate::walk::{find_cases, CaseFile};

/// The programs table's file name.
pub const PROGRAMS: &str = "programs.csv";

/// The columns of `programs.csv`, one row per program in the order given.
pub const PROGRAMS_HEADER: [&str; 10] = [
    "program",
    "expected",
    "does",
    "existing-data",
    "referee-cases",
    "findings",
    "first-case",
    "after-strengthening",
    "form",
    "verdict",
];

/// The shares of `--time` before which the existing data's runs and the audits end; the rest
/// is the strengthening table's.
const DATA_SHARE: f64 = 0.1;
const AUDIT_SHARE: f64 = 0.85;

/// How to audit a contest's programs.
#[derive(Debug, Clone)]
pub struct ContestSettings<O> {
    /// Everything a single-program audit takes; its program and report directory are each
    /// program's own, its inputs the existing data.
    pub base: Settings<O>,
    /// The programs.
    pub entrants: Vec<Entrant>,
    /// The package to add the strengthening cases to (its `data/secret/`).
    pub add_to: Option<PathBuf>,
    /// What was left out before the run (class folders Kattis does not know), said again in
    /// the summary.
    pub skipped: Vec<String>,
}

/// The result of running a program on a judge system's view of some files.
#[derive(Debug, Clone, Serialize)]
pub struct Judged {
    /// The class of the first case not passed, or `accepted`.
    pub class: Class,
    /// The first file not passed.
    pub file: Option<String>,
    /// What happened there (the kind of failure), or why the program was not run.
    pub detail: String,
}

impl Judged {
    fn text(&self) -> String {
        match &self.file {
            None if self.detail.is_empty() => self.class.to_string(),
            None => format!("{} ({})", self.class, self.detail),
            Some(file) => format!("{} on {file} ({})", self.class, self.detail),
        }
    }
}

/// One program's line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramLine {
    /// Its name.
    pub name: String,
    /// Its expected class.
    pub expected: Option<Class>,
    /// What it does: the data's result, else the class of referee's first finding.
    pub does: Option<Class>,
    /// Its result on the existing data.
    pub existing_data: Option<Judged>,
    /// Its audit on referee's cases, in words.
    pub referee_cases: String,
    /// Its findings by kind.
    pub findings: BTreeMap<String, u64>,
    /// The first shrunk finding's input, relative to the report directory.
    pub first_case: Option<String>,
    /// Whether the data with the strengthening cases added rejects it.
    pub rejected_after: Option<bool>,
    /// The input form it answered.
    pub form: Option<String>,
    /// Referee proved it wrong (a finding that reproduced, not the engine's fault).
    pub proved_wrong: bool,
    /// What the package's verdict says of it (empty: as expected).
    pub verdict: Vec<String>,
}

/// A share of programs: `rejected` or `accepted` out of `of`.
#[derive(Debug, Clone, Copy, Serialize, PartialEq)]
pub struct Rate {
    /// Programs counted.
    pub hits: usize,
    /// Out of.
    pub of: usize,
}

impl Rate {
    /// The share in words: `2/3 (66.7%)`, `-` of nothing.
    pub fn text(self) -> String {
        if self.of == 0 {
            "- (no program)".into()
        } else {
            format!(
                "{}/{} ({:.1}%)",
                self.hits,
                self.of,
                100.0 * self.hits as f64 / self.of as f64
            )
        }
    }
}

/// The test set's scores.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Scores {
    /// Of the programs proved wrong, those the existing data rejects.
    pub tpr_existing: Rate,
    /// Of the programs with no finding, those the existing data accepts.
    pub tnr_existing: Rate,
    /// Of the programs proved wrong, those the data with the strengthening cases rejects.
    pub tpr_strengthened: Rate,
    /// Of the programs with no finding, those the data with the strengthening cases accepts.
    pub tnr_strengthened: Rate,
}

/// A strengthening case.
#[derive(Debug, Clone, Serialize)]
pub struct TestLine {
    /// Its file in the report (`tests/NNN.in`).
    pub file: String,
    /// Where it was added (`--add-to`).
    pub added_as: Option<String>,
    /// The programs it fails.
    pub fails: Vec<String>,
    /// Whose finding it is, and its kind.
    pub from: String,
    /// Its size in bytes.
    pub bytes: usize,
}

/// What a contest audit did.
#[derive(Debug)]
pub struct ContestReport {
    /// Every program.
    pub programs: Vec<ProgramLine>,
    /// The scores.
    pub scores: Scores,
    /// The strengthening cases.
    pub tests: Vec<TestLine>,
    /// Programs proved wrong that the existing data accepts and no candidate fails, and why.
    pub uncovered: Vec<String>,
    /// Findings not taken as candidates, and why.
    pub not_candidates: Vec<String>,
    /// Files and folders left out, and why.
    pub skipped: Vec<String>,
    /// Random and data cases generated and judged by the engine (each once).
    pub cases_judged: u64,
    /// Cases each program ran, summed.
    pub cases_run: u64,
    /// Runs of every program.
    pub runs: u64,
    /// The whole run's time.
    pub elapsed: Duration,
    /// Whether the package's verdict lists anything.
    pub failing: bool,
}

/// A file of the existing data, as a judge system runs it.
struct DataFile {
    name: String,
    input: Vec<u8>,
    expected: String,
}

/// The class of a failure of `kind`.
fn class_of(kind: Kind) -> Class {
    match kind {
        Kind::Timeout => Class::TimeLimitExceeded,
        Kind::Crash | Kind::OutputLimit => Class::RunTimeError,
        _ => Class::WrongAnswer,
    }
}

/// Reads the existing data's files: each `.in`, and its `.ans` beside it (inside its tree, at
/// most what an answer can need) or the engine's output where there is none.
fn read_data<G: Game>(
    found: &[CaseFile],
    rules: G::Options,
    notes: &mut Vec<String>,
) -> Vec<DataFile> {
    let mut files = Vec::new();
    for file in found {
        if file.error.is_some() {
            continue;
        }
        let Ok(opened) = crate::guard::open_regular(&file.path) else {
            continue;
        };
        let mut input = Vec::new();
        if opened.take(64 << 20).read_to_end(&mut input).is_err() {
            continue;
        }
        let Ok(judged) = G::judge(Engine::Fast, &mut &input[..], rules) else {
            continue;
        };
        let engine = render::<G>(&judged);
        let ans = file.path.with_extension("ans");
        let expected = match crate::guard::open(
            &ans,
            &file.tree,
            crate::guard::answer_bound(input.len() as u64),
        ) {
            Ok(Some(mut opened)) => {
                let mut text = String::new();
                match opened.file.read_to_string(&mut text) {
                    Ok(_) => {
                        if crate::answer::compare(&engine, text.as_bytes())
                            != crate::answer::Verdict::AC
                        {
                            notes.push(format!(
                                "{}: the .ans differs from the engine's output (referee verify \
                                 says more); programs are run against the .ans",
                                file.name
                            ));
                        }
                        text
                    }
                    Err(_) => engine,
                }
            }
            Ok(None) => engine,
            Err(why) => {
                notes.push(format!(
                    "{}: {why}; the engine's output is expected",
                    crate::walk::display(&ans)
                ));
                engine
            }
        };
        files.push(DataFile {
            name: file.name.clone(),
            input,
            expected,
        });
    }
    files
}

/// Why a run as a judge system runs it says nothing of the program.
#[derive(Debug)]
enum NotJudged {
    /// It could not be started.
    CannotRun(String),
    /// `--time` ran out (or an interruption came) before it ended.
    Cut,
}

/// Runs `program` on `input` as a judge system would, against `expected`: the kind of failure,
/// `None` when accepted.
fn judge_run(
    program: &Program,
    input: &[u8],
    expected: &str,
    settings_limits: &super::program::Limits,
    slots: &Slots,
    deadline: Option<Instant>,
) -> Result<Option<Kind>, NotJudged> {
    let run = {
        let _slot = slots.hold();
        program
            .run(input, settings_limits, deadline)
            .map_err(|e| NotJudged::CannotRun(format!("cannot be run: {e}")))?
    };
    let tried = Tried::new(run, expected.to_string());
    if tried.cut() {
        return Err(NotJudged::Cut);
    }
    Ok(tried.kind)
}

/// Runs `work(i)` for every `i` below `count`, `jobs` at once.
fn each_of<T: Send>(count: usize, jobs: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, T)>> = Mutex::new(Vec::with_capacity(count));
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    return;
                }
                let done = work(i);
                results
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .push((i, done));
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    results.into_iter().map(|(_, t)| t).collect()
}

/// A shrunk finding that may strengthen the data.
struct Candidate {
    input: Vec<u8>,
    expected: String,
    from: String,
}

/// Audits every program of `settings` as a judge of `G`.
pub fn audit_contest<G: Game>(
    settings: &ContestSettings<G::Options>,
) -> Result<ContestReport, RunError> {
    let base = &settings.base;
    let started = Instant::now();
    let at_share = |share: f64| base.time.map(|t| started + t.mul_f64(share));
    let mut staging = Staging::new(&base.out).map_err(|e| RunError::io(&base.out, e))?;
    adopt_orphans();
    let rules = base.rules;
    let mut notes = settings.skipped.clone();
    let found = if base.inputs.is_empty() {
        Vec::new()
    } else {
        find_cases(&base.inputs)?
    };
    let data = read_data::<G>(&found, rules, &mut notes);
    let slots = Arc::new(Slots::new(base.jobs));
    let entrants = &settings.entrants;

    // 1. The existing data, as a judge system runs it.
    let data_deadline = at_share(DATA_SHARE);
    let on_data: Vec<Option<Judged>> = each_of(entrants.len(), base.jobs, |e| {
        let program = entrants[e].program.as_ref().ok()?;
        for file in &data {
            match judge_run(
                program,
                &file.input,
                &file.expected,
                &base.limits,
                &slots,
                data_deadline,
            ) {
                Ok(None) => {}
                Ok(Some(kind)) => {
                    return Some(Judged {
                        class: class_of(kind),
                        file: Some(file.name.clone()),
                        detail: kind.to_string(),
                    })
                }
                Err(NotJudged::CannotRun(why)) => {
                    return Some(Judged {
                        class: Class::RunTimeError,
                        file: Some(file.name.clone()),
                        detail: why,
                    })
                }
                // No result: --time ran out before the program's data runs ended.
                Err(NotJudged::Cut) => return None,
            }
        }
        Some(Judged {
            class: Class::Accepted,
            file: None,
            detail: format!("{} files", data.len()),
        })
    });

    for (entrant, judged) in entrants.iter().zip(&on_data) {
        if entrant.program.is_ok() && judged.is_none() {
            notes.push(format!(
                "{}: no result on the existing data: --time ran out before its runs ended \
                 (a tenth of --time is theirs)",
                entrant.name
            ));
        }
    }

    // 2. Referee's cases, every program at once.
    let built: Vec<usize> = (0..entrants.len())
        .filter(|&e| entrants[e].program.is_ok())
        .collect();
    let inputs = read_inputs::<G>(base)?;
    notes.extend(inputs.2.iter().cloned());
    let together = Together {
        inputs,
        cases: Arc::new(SharedCases::new(built.len())),
        slots: Arc::clone(&slots),
    };
    let programs_dir = staging.staged().join("programs");
    fs::create_dir_all(&programs_dir).map_err(|e| RunError::io(&programs_dir, e))?;
    let audit_time =
        at_share(AUDIT_SHARE).map(|until| until.saturating_duration_since(Instant::now()));
    let reports: Vec<Result<Report, RunError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = built
            .iter()
            .enumerate()
            .map(|(audit, &e)| {
                let entrant = &entrants[e];
                let mut own = base.clone();
                own.program = entrant.program.clone().expect("built");
                own.out = programs_dir.join(entrant.dir());
                own.time = audit_time;
                // Each program's runs at once: its share of the slots, so that a program whose
                // runs all hang holds no more than its share.
                own.jobs = (base.jobs / built.len().max(1)).max(1);
                let together = &together;
                scope.spawn(move || {
                    let report = audit_among::<G>(&own, together, audit);
                    together.cases.leave(audit);
                    report
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(RunError::Usage("the audit panicked".into())))
            })
            .collect()
    });
    sweep();
    let mut audits: Vec<Option<Result<Report, RunError>>> =
        (0..entrants.len()).map(|_| None).collect();
    for (&e, report) in built.iter().zip(reports) {
        audits[e] = Some(report);
    }

    // 3. Candidates: shrunk findings inside the contest's limits, confirmed by the reference.
    let mut candidates: Vec<Candidate> = Vec::new();
    let mut not_candidates = Vec::new();
    let mut seen: std::collections::HashSet<Vec<u8>> =
        data.iter().map(|d| d.input.clone()).collect();
    for (e, audit) in audits.iter().enumerate() {
        let Some(Ok(report)) = audit else { continue };
        for f in &report.findings {
            if matches!(f.kind, Kind::Flaky | Kind::EngineDisputed) {
                continue;
            }
            let from = format!("{} finding {} ({})", entrants[e].name, f.number, f.kind);
            let confirmed = if f.batch_only {
                Err("it fails only with the other cases of its run".to_string())
            } else if let Some(outside) = &f.outside {
                Err(format!("outside the contest's limits: {outside}"))
            } else if let Err(why) =
                validate::<G>(&f.case[..], rules, crate::game::Constraints::Contest)
            {
                Err(format!("not a valid contest input: {}", why.0))
            } else if !seen.insert(f.case.clone()) {
                continue;
            } else {
                confirmed_output::<G>(&f.case, rules, base.reference_budget)
            };
            match confirmed {
                Err(why) => not_candidates.push(format!("{from}: {why}")),
                Ok(expected) => candidates.push(Candidate {
                    input: f.case.clone(),
                    expected,
                    from,
                }),
            }
        }
    }
    // Every program on every candidate, as a judge system runs a case of the data.
    let deadline = base.time.map(|t| started + t);
    let pairs: Vec<(usize, usize)> = (0..candidates.len())
        .flat_map(|c| built.iter().map(move |&e| (c, e)))
        .collect();
    let outcomes = each_of(pairs.len(), base.jobs, |i| {
        let (c, e) = pairs[i];
        let program = entrants[e].program.as_ref().expect("built");
        judge_run(
            program,
            &candidates[c].input,
            &candidates[c].expected,
            &base.limits,
            &slots,
            deadline,
        )
    });
    sweep();
    let mut fails = vec![vec![false; entrants.len()]; candidates.len()];
    for (&(c, e), outcome) in pairs.iter().zip(&outcomes) {
        fails[c][e] = matches!(outcome, Ok(Some(_)));
    }

    // Who is proved wrong, and who the existing data rejects.
    let proved_wrong: Vec<bool> = audits
        .iter()
        .map(|a| match a {
            Some(Ok(r)) => r
                .findings
                .iter()
                .any(|f| !matches!(f.kind, Kind::Flaky | Kind::EngineDisputed)),
            Some(Err(RunError::Usage(why))) => why.contains("does not answer"),
            _ => false,
        })
        .collect();
    let rejected_existing: Vec<bool> = on_data
        .iter()
        .map(|j| j.as_ref().is_some_and(|j| j.class != Class::Accepted))
        .collect();

    // 4. Greedy set cover of the programs proved wrong that the existing data accepts.
    let mut uncovered: Vec<usize> = built
        .iter()
        .copied()
        .filter(|&e| proved_wrong[e] && !rejected_existing[e])
        .collect();
    let mut chosen: Vec<usize> = Vec::new();
    loop {
        let best = (0..candidates.len())
            .filter(|c| !chosen.contains(c))
            .map(|c| (uncovered.iter().filter(|&&e| fails[c][e]).count(), c))
            .filter(|&(n, _)| n > 0)
            .max_by(|a, b| {
                a.0.cmp(&b.0)
                    .then(
                        candidates[b.1]
                            .input
                            .len()
                            .cmp(&candidates[a.1].input.len()),
                    )
                    .then(b.1.cmp(&a.1))
            });
        let Some((_, c)) = best else { break };
        uncovered.retain(|&e| !fails[c][e]);
        chosen.push(c);
    }
    let uncovered: Vec<String> = uncovered
        .iter()
        .map(|&e| {
            format!(
                "{}: no candidate case fails it (see its findings)",
                entrants[e].name
            )
        })
        .collect();
    let rejected_after: Vec<bool> = (0..entrants.len())
        .map(|e| rejected_existing[e] || chosen.iter().any(|&c| fails[c][e]))
        .collect();

    // Scores.
    // A program counts in the scores when it ran the existing data, and referee's cases or a
    // finding says something of it.
    let unaudited: Vec<bool> = audits
        .iter()
        .zip(&proved_wrong)
        .map(|(a, &wrong)| !wrong && matches!(a, Some(Ok(r)) if r.cases == 0))
        .collect();
    let scored = |e: usize| entrants[e].program.is_ok() && on_data[e].is_some() && !unaudited[e];
    let rate = |wrong: bool, rejected: &[bool]| -> Rate {
        let pool: Vec<usize> = (0..entrants.len())
            .filter(|&e| scored(e) && proved_wrong[e] == wrong)
            .collect();
        Rate {
            hits: pool.iter().filter(|&&e| rejected[e] == wrong).count(),
            of: pool.len(),
        }
    };
    let scores = Scores {
        tpr_existing: rate(true, &rejected_existing),
        tnr_existing: rate(false, &rejected_existing),
        tpr_strengthened: rate(true, &rejected_after),
        tnr_strengthened: rate(false, &rejected_after),
    };

    // The programs' lines.
    let mut lines = Vec::new();
    let mut cases_run = 0;
    let mut runs = 0;
    for (e, entrant) in entrants.iter().enumerate() {
        let mut line = ProgramLine {
            name: entrant.name.clone(),
            expected: entrant.expected,
            does: None,
            existing_data: on_data[e].clone(),
            referee_cases: String::new(),
            findings: BTreeMap::new(),
            first_case: None,
            rejected_after: scored(e).then_some(rejected_after[e]),
            form: None,
            proved_wrong: proved_wrong[e],
            verdict: Vec::new(),
        };
        let mut first_kind = None;
        match (&entrant.program, &audits[e]) {
            (Err(why), _) => line.referee_cases = format!("not run: {why}"),
            (Ok(_), Some(Ok(report))) => {
                cases_run += report.cases;
                runs += report.runs;
                line.form = Some(report.form.form.as_str().to_string());
                for f in &report.findings {
                    *line.findings.entry(f.kind.to_string()).or_default() += f.count;
                }
                let real = report
                    .findings
                    .iter()
                    .find(|f| !matches!(f.kind, Kind::Flaky | Kind::EngineDisputed));
                line.referee_cases = match real {
                    Some(f) => {
                        first_kind = Some(f.kind);
                        let file = f
                            .input
                            .file_name()
                            .map_or(String::new(), |n| n.to_string_lossy().to_string());
                        line.first_case = Some(format!("programs/{}/{file}", entrant.dir()));
                        format!("{} on {}", f.kind, f.source.describe())
                    }
                    None if report.cases == 0 => {
                        "not audited: no case ran to its end before --time ran out".to_string()
                    }
                    None if report.findings.is_empty() => {
                        format!("no finding in {} cases", report.cases)
                    }
                    None => format!("no reproduced finding in {} cases", report.cases),
                };
            }
            (Ok(_), Some(Err(e))) => {
                line.referee_cases = format!("not audited: {}", first_line(&e.to_string()))
            }
            (Ok(_), None) => {}
        }
        line.does = match (&line.existing_data, first_kind) {
            (None, _) => None,
            (Some(j), _) if j.class != Class::Accepted => Some(j.class),
            _ if unaudited[e] => None,
            (_, Some(kind)) => Some(class_of(kind)),
            (_, None) if proved_wrong[e] => Some(Class::WrongAnswer),
            _ => Some(Class::Accepted),
        };
        line.verdict = verdict(&line, rejected_existing[e]);
        lines.push(line);
    }

    // The reports.
    let tests_dir = staging.staged().join("tests");
    let mut tests = Vec::new();
    let mut reports_listed: BTreeMap<String, Digest> = BTreeMap::new();
    if !chosen.is_empty() {
        fs::create_dir_all(&tests_dir).map_err(|e| RunError::io(&tests_dir, e))?;
    }
    for (k, &c) in chosen.iter().enumerate() {
        let stem = format!("{:03}", k + 1);
        let candidate = &candidates[c];
        for (ext, bytes) in [
            ("in", &candidate.input[..]),
            ("ans", candidate.expected.as_bytes()),
        ] {
            let path = tests_dir.join(format!("{stem}.{ext}"));
            fs::write(&path, bytes).map_err(|e| RunError::io(&path, e))?;
            reports_listed.insert(format!("tests/{stem}.{ext}"), Digest::of(bytes, 1));
        }
        tests.push(TestLine {
            file: format!("tests/{stem}.in"),
            added_as: None,
            fails: built
                .iter()
                .filter(|&&e| fails[c][e])
                .map(|&e| entrants[e].name.clone())
                .collect(),
            from: candidate.from.clone(),
            bytes: candidate.input.len(),
        });
    }
    if let Some(package) = &settings.add_to {
        let inputs: Vec<&[u8]> = chosen.iter().map(|&c| &candidates[c].input[..]).collect();
        let answers: Vec<&str> = chosen
            .iter()
            .map(|&c| candidates[c].expected.as_str())
            .collect();
        let added = add_to_package(package, &inputs, &answers)?;
        for (test, name) in tests.iter_mut().zip(added) {
            test.added_as = Some(name);
        }
    }
    let rows: Vec<Vec<String>> = lines.iter().map(row).collect();
    let digest = staging
        .csv(PROGRAMS, &PROGRAMS_HEADER, &rows)
        .map_err(|e| RunError::io(&base.out, e))?;
    reports_listed.insert(PROGRAMS.to_string(), digest);
    let mut options = BTreeMap::new();
    options.insert("rules".to_string(), rules.name().to_string());
    options.insert("seed".to_string(), base.seed.to_string());
    options.insert("batch".to_string(), base.batch.to_string());
    options.insert(
        "cases".to_string(),
        base.cases.map_or(String::new(), |c| c.to_string()),
    );
    options.insert(
        "time".to_string(),
        base.time
            .map_or(String::new(), |t| t.as_secs_f64().to_string()),
    );
    options.insert(
        "constraints".to_string(),
        base.constraints.as_str().to_string(),
    );
    let mut manifest = Manifest::new("audit", options, &found, None);
    manifest.reports = reports_listed;
    let cases_judged = together.cases.judged();
    let failing = lines.iter().any(|l| !l.verdict.is_empty());
    staging
        .json(
            super::MANIFEST,
            &ContestManifest {
                manifest,
                programs: &lines,
                scores,
                strengthening: &tests,
                uncovered: &uncovered,
                not_candidates: &not_candidates,
                cases_judged,
                interrupted: interrupted(),
            },
        )
        .map_err(|e| RunError::io(&base.out, e))?;
    staging.commit().map_err(|e| RunError::io(&base.out, e))?;
    Ok(ContestReport {
        programs: lines,
        scores,
        tests,
        uncovered,
        not_candidates,
        skipped: notes,
        cases_judged,
        cases_run,
        runs,
        elapsed: started.elapsed(),
        failing,
    })
}

/// `audit.json` of a contest audit.
#[derive(Serialize)]
struct ContestManifest<'a> {
    #[serde(flatten)]
    manifest: Manifest,
    programs: &'a [ProgramLine],
    scores: Scores,
    strengthening: &'a [TestLine],
    uncovered: &'a [String],
    not_candidates: &'a [String],
    cases_judged: u64,
    interrupted: bool,
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or("").to_string()
}

/// What the package's verdict says of a program (nothing when it does what it should).
fn verdict(line: &ProgramLine, rejected_existing: bool) -> Vec<String> {
    let mut said = Vec::new();
    let Some(does) = line.does else {
        said.push(
            if ["not run", "not audited"]
                .iter()
                .any(|p| line.referee_cases.starts_with(p))
            {
                line.referee_cases.clone()
            } else {
                "no result on the existing data: --time ran out before its runs ended".to_string()
            },
        );
        return said;
    };
    if line.referee_cases.starts_with("not audited") {
        said.push(line.referee_cases.clone());
    }
    let case = line
        .first_case
        .clone()
        .unwrap_or_else(|| "the statement's examples".into());
    match line.expected {
        Some(Class::Accepted) if line.proved_wrong => {
            said.push(format!("accepted, but proved wrong ({case})"));
        }
        Some(expected) if expected != Class::Accepted && !rejected_existing => {
            if line.proved_wrong {
                said.push(format!(
                    "the existing data accepts it; proved wrong ({case})"
                ));
            } else {
                said.push("the existing data accepts it, and referee found no failing case".into());
            }
        }
        None if line.proved_wrong => said.push(format!("proved wrong ({case})")),
        _ => {}
    }
    if let Some(expected) = line.expected {
        let already = said.iter().any(|s| s.starts_with("accepted, but"));
        if !expected.allows(does) && !already {
            said.push(format!("expected {expected}, does {does}"));
        }
    }
    said
}

/// The row of `programs.csv` (columns [`PROGRAMS_HEADER`]) of a program's line.
pub fn row(line: &ProgramLine) -> Vec<String> {
    let findings: Vec<String> = line
        .findings
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    vec![
        line.name.clone(),
        line.expected.map_or(String::new(), |c| c.to_string()),
        line.does.map_or(String::new(), |c| c.to_string()),
        line.existing_data
            .as_ref()
            .map_or(String::new(), Judged::text),
        line.referee_cases.clone(),
        findings.join(", "),
        line.first_case.clone().unwrap_or_default(),
        match line.rejected_after {
            Some(true) => "rejected".into(),
            Some(false) => "accepted".into(),
            None => String::new(),
        },
        line.form.clone().unwrap_or_default(),
        if line.verdict.is_empty() {
            "as expected".into()
        } else {
            line.verdict.join("; ")
        },
    ]
}

/// The engine's output for `input` when the reference gives the same, within `budget`
/// (estimated steps); otherwise why the case is not taken.
fn confirmed_output<G: Game>(
    input: &[u8],
    rules: G::Options,
    budget: u64,
) -> Result<String, String> {
    let engine = G::judge(Engine::Fast, &mut &input[..], rules)
        .map_err(|e| format!("the engine rejects it: {e}"))?;
    let cost = engine
        .iter()
        .map(|j| G::reference_cost(j, rules))
        .fold(0u64, u64::saturating_add);
    if cost > budget {
        return Err(format!(
            "not confirmed: the reference's estimated {cost} steps are over its budget"
        ));
    }
    match G::judge(Engine::Reference, &mut &input[..], rules) {
        Ok(reference) if reference == engine => Ok(render::<G>(&engine)),
        Ok(_) => Err("the reference disagrees with the engine".into()),
        Err(e) => Err(format!("not confirmed: the reference says {e}")),
    }
}

/// Adds `inputs` and their `answers` to `package`'s `data/secret/`, named to sort after every
/// case already there (a number one past the largest leading number, at its width, then
/// `-referee`), never over an existing file. Lists them in the package's `referee-files.txt`
/// when it has one. The names given, relative to `data/secret`.
pub fn add_to_package(
    package: &Path,
    inputs: &[&[u8]],
    answers: &[&str],
) -> Result<Vec<String>, RunError> {
    let secret = package.join("data/secret");
    fs::create_dir_all(&secret).map_err(|e| RunError::io(&secret, e))?;
    let mut stems: Vec<String> = fs::read_dir(&secret)
        .map_err(|e| RunError::io(&secret, e))?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().to_string();
            name.strip_suffix(".in").map(str::to_string)
        })
        .collect();
    stems.sort();
    let last = stems.last().cloned().unwrap_or_default();
    let digits = last.bytes().take_while(u8::is_ascii_digit).count();
    let (width, mut number) = if digits > 0 {
        (digits, last[..digits].parse::<u64>().unwrap_or(0) + 1)
    } else {
        (3, 1)
    };
    let mut names = Vec::new();
    let mut listed = String::new();
    for (input, answer) in inputs.iter().zip(answers) {
        let mut stem = format!("{number:0width$}-referee");
        if digits == 0 || stem <= last {
            stem = format!("{last}-referee-{number:03}");
        }
        number += 1;
        for (ext, bytes) in [("in", *input), ("ans", answer.as_bytes())] {
            let path = secret.join(format!("{stem}.{ext}"));
            let mut file = fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
                .map_err(|e| RunError::io(&path, e))?;
            std::io::Write::write_all(&mut file, bytes).map_err(|e| RunError::io(&path, e))?;
            listed.push_str(&format!("data/secret/{stem}.{ext}\n"));
        }
        names.push(format!("{stem}.in"));
    }
    let manifest = package.join(crate::judge_system::package::PACKAGE_MANIFEST);
    if manifest.is_file() && !listed.is_empty() {
        let mut file = fs::OpenOptions::new()
            .append(true)
            .open(&manifest)
            .map_err(|e| RunError::io(&manifest, e))?;
        std::io::Write::write_all(&mut file, listed.as_bytes())
            .map_err(|e| RunError::io(&manifest, e))?;
    }
    Ok(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn added_cases_sort_after_every_existing_one_and_never_overwrite() {
        let dir = tempfile::tempdir().unwrap();
        let secret = dir.path().join("data/secret");
        fs::create_dir_all(&secret).unwrap();
        for name in ["001-a", "009-b", "010-generated-1-0"] {
            fs::write(secret.join(format!("{name}.in")), name).unwrap();
        }
        let names = add_to_package(dir.path(), &[b"x", b"y"], &["X\n", "Y\n"]).unwrap();
        assert_eq!(names, ["011-referee.in", "012-referee.in"]);
        assert_eq!(fs::read(secret.join("012-referee.ans")).unwrap(), b"Y\n");
        let names = add_to_package(dir.path(), &[b"z"], &["Z\n"]).unwrap();
        assert_eq!(names, ["013-referee.in"]);
        let other = tempfile::tempdir().unwrap();
        let secret = other.path().join("data/secret");
        fs::create_dir_all(&secret).unwrap();
        fs::write(secret.join("zeta.in"), "").unwrap();
        let names = add_to_package(other.path(), &[b"z"], &["Z\n"]).unwrap();
        assert_eq!(names, ["zeta-referee-001.in"]);
        assert!("zeta-referee-001" > "zeta");
    }
}
