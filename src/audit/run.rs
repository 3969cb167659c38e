//! The audit itself: the probe, the cases run in parallel (prepared ahead on their own
//! threads), then each failure narrowed, reproduced, shrunk, confirmed and signed, then the
//! reports.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::outcome::{difference, first_unanswered, wrong_cases, Tried};
use super::probe::{self, Chosen};
use super::program::{adopt_orphans, interrupted, sweep, Ending, Limits, Program};
use super::report::{write_reports, FindingLine, Kept};
use super::runner::{Runner, Slots};
use super::shrink::{search_smaller, shrink, Step};
use super::units::{InputFile, Plan, Prepared, SharedCases, UnitCase};
use super::{Kind, Source};
use crate::answer::{compare, escape, Verdict};
use crate::error::{JudgeError, RunError};
use crate::game::{render, Case, Constraints, Engine, Form, Game};
use crate::harness::findings::{signature, Findings};
use crate::report::write::Staging;
use crate::shard::Shard;
use crate::walk::find_cases;

/// The largest input file taken from `--inputs` (larger ones are skipped, and said).
const LARGEST_INPUT: u64 = 64 << 20;

/// The share of `--time` the cases run for; the rest is kept for the failures they found.
pub const CASE_SHARE: f64 = 0.75;

/// How many times a failure is run again before it is reported.
pub const RERUNS: usize = 2;

/// The most cases of a failing run tried alone, one by one, when halving finds none.
const MOST_TRIED_ALONE: usize = 64;

/// How to audit.
#[derive(Debug, Clone)]
pub struct Settings<O> {
    /// The program audited.
    pub program: Program,
    /// The rule set it judges under.
    pub rules: O,
    /// The seed of the random cases.
    pub seed: u64,
    /// Stop after this many cases (input files' cases included).
    pub cases: Option<u64>,
    /// The whole audit's wall-clock budget.
    pub time: Option<Duration>,
    /// Each run's limits.
    pub limits: Limits,
    /// Random cases per run of the program (in the multi-case form).
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
    /// The most time spent shrinking one finding.
    pub shrink_time: Duration,
    /// The reference's budget for confirming a finding (estimated steps).
    pub reference_budget: u64,
    /// Run only this slice of the input files and random case indices.
    pub shard: Option<Shard>,
    /// The program's input form; `None` finds it by the probe.
    pub form: Option<Form>,
    /// Which limits the random cases keep to.
    pub constraints: Constraints,
    /// Where to write the input of every run of the cases (`run-NNNNNN.in`, by unit number),
    /// to replay them elsewhere.
    pub save_runs: Option<PathBuf>,
}

/// What an audit did.
#[derive(Debug)]
pub struct Report {
    /// Cases the program was run on (input files' cases included).
    pub cases: u64,
    /// Runs of the program, probe and shrinking included.
    pub runs: u64,
    /// The time the cases ran.
    pub case_time: Duration,
    /// The whole audit's time.
    pub elapsed: Duration,
    /// The findings kept.
    pub findings: Vec<FindingLine>,
    /// Failing cases per kind (all of them, not only those kept).
    pub per_kind: BTreeMap<Kind, u64>,
    /// Input files not used, and why.
    pub skipped: Vec<String>,
    /// The rows of `findings.csv` (columns [`super::FINDINGS_HEADER`]).
    pub rows: Vec<Vec<String>>,
    /// The form every run used, and why.
    pub form: Chosen,
    /// Random cases per run.
    pub batch: usize,
    /// Random cases dropped for lying outside the contest's limits (a generator's slip).
    pub dropped: u64,
    /// Failing runs not narrowed for lack of time (or after an interruption).
    pub unexamined: u64,
    /// Whether the audit was interrupted (by a signal) before its end.
    pub interrupted: bool,
}

/// A failing unit from the case phase.
struct Failed<C> {
    prepared: Prepared<C>,
    tried: Tried,
}

/// A case that failed alone, or the whole unit when none does.
struct Failure<C> {
    case: UnitCase<C>,
    /// The input run, in the program's form.
    input: Vec<u8>,
    tried: Tried,
    /// Set when no single case of the failing run fails alone: `input` is the whole unit's.
    batch_only: bool,
}

/// The input files read as cases, every input file found (before sharding), and the files
/// skipped with why.
pub type Inputs<C> = (Vec<InputFile<C>>, Vec<crate::walk::CaseFile>, Vec<String>);

/// What the audits of several programs in one run share: the input files (read once), the
/// cases (generated and judged once), and the slots of the runs that go on at once.
#[derive(Debug)]
pub struct Together<C> {
    /// The input files, read as cases.
    pub inputs: Inputs<C>,
    /// The cases.
    pub cases: Arc<SharedCases<C>>,
    /// The runs at once, across every audit.
    pub slots: Arc<Slots>,
}

/// Reads the input files as cases of `G`; those that cannot be read or judged are skipped,
/// and said.
pub fn read_inputs<G: Game>(settings: &Settings<G::Options>) -> Result<Inputs<G::Case>, RunError> {
    let found = if settings.inputs.is_empty() {
        Vec::new()
    } else {
        find_cases(&settings.inputs)?
    };
    let mut files = Vec::new();
    let mut skipped = Vec::new();
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
        let bytes = match fs::read(&file.path) {
            Ok(bytes) => bytes,
            Err(e) => {
                skipped.push(format!("{}: {e}", file.name));
                continue;
            }
        };
        let judged = G::judge(Engine::Fast, &mut &bytes[..], settings.rules);
        match judged.and_then(|_| G::Case::from_input(&bytes, settings.rules)) {
            Ok(cases) => files.push(InputFile {
                name: file.name.clone(),
                position,
                cases,
            }),
            Err(e) => skipped.push(format!(
                "{}: not a valid input: {}",
                file.name,
                e.located(&file.name)
            )),
        }
    }
    Ok((files, found, skipped))
}

/// Runs the units of `plan` from unit `start` until the budget, the deadline or (without
/// `keep_going`) the first failing unit: `jobs` runs at once, units prepared ahead on their own threads. The failing
/// units, the cases run, and the random cases dropped.
#[allow(clippy::too_many_arguments)]
fn run_cases<G: Game>(
    plan: &Plan<G>,
    runner: &Runner<G>,
    start: u64,
    jobs: usize,
    keep_going: bool,
    until: Option<Instant>,
    bar: &indicatif::ProgressBar,
    save_runs: Option<&std::path::Path>,
) -> (Vec<Failed<G::Case>>, u64, u64) {
    let failures: Mutex<Vec<Failed<G::Case>>> = Mutex::new(Vec::new());
    let next = AtomicU64::new(start);
    let cases_run = AtomicU64::new(0);
    let dropped = AtomicU64::new(0);
    // Without keep_going, no unit after the first failing one needs to run.
    let first_failure = AtomicU64::new(u64::MAX);
    let stop = AtomicBool::new(false);
    let over = || {
        stop.load(Ordering::Relaxed) || interrupted() || until.is_some_and(|t| Instant::now() >= t)
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let preparers = cores.saturating_sub(jobs).clamp(1, jobs + 1);
    let (sender, receiver) = crossbeam_channel::bounded::<Prepared<G::Case>>(2 * jobs + preparers);
    std::thread::scope(|scope| {
        for _ in 0..preparers {
            let sender = sender.clone();
            scope.spawn(|| {
                let sender = sender;
                loop {
                    if over() {
                        return;
                    }
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index > first_failure.load(Ordering::Relaxed) {
                        return;
                    }
                    let Some(prepared) = plan.prepare(index) else {
                        return;
                    };
                    if sender.send(prepared).is_err() {
                        return;
                    }
                }
            });
        }
        drop(sender);
        for _ in 0..jobs.max(1) {
            let receiver = receiver.clone();
            scope.spawn(|| {
                let receiver = receiver;
                while let Ok(prepared) = receiver.recv() {
                    dropped.fetch_add(prepared.dropped, Ordering::Relaxed);
                    if over() {
                        return;
                    }
                    if prepared.index > first_failure.load(Ordering::Relaxed)
                        || prepared.cases.is_empty()
                    {
                        continue;
                    }
                    if let Some(dir) = save_runs {
                        let file = dir.join(format!("run-{:06}.in", prepared.index));
                        if let Err(e) = fs::write(&file, &prepared.input) {
                            eprintln!("warning: {}: {e}", file.display());
                        }
                    }
                    let cut = until.map_or(runner.deadline, |u| {
                        Some(runner.deadline.map_or(u, |d| d.min(u)))
                    });
                    let Some(tried) =
                        runner.run_within(&prepared.input, &prepared.expected, &runner.limits, cut)
                    else {
                        stop.store(true, Ordering::Relaxed);
                        return;
                    };
                    if tried.cut() {
                        return;
                    }
                    let count = prepared.cases.len() as u64;
                    cases_run.fetch_add(count, Ordering::Relaxed);
                    bar.inc(count);
                    if tried.kind.is_some() {
                        if !keep_going {
                            first_failure.fetch_min(prepared.index, Ordering::Relaxed);
                        }
                        failures
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .push(Failed { prepared, tried });
                    }
                }
            });
        }
        drop(receiver);
    });
    let mut failures = failures.into_inner().unwrap_or_else(|e| e.into_inner());
    failures.sort_by_key(|f| f.prepared.index);
    (failures, cases_run.into_inner(), dropped.into_inner())
}

/// Narrows a failing unit to one case that fails alone: the cases whose verdict line is wrong
/// (or from the first verdict missing) first, then halves, then each case; the whole unit when
/// none fails alone.
fn isolate<G: Game>(runner: &Runner<G>, failed: Failed<G::Case>) -> Failure<G::Case> {
    let Failed { prepared, tried } = failed;
    let mut cases = prepared.cases;
    if cases.len() == 1 {
        let case = cases.pop().expect("one case");
        return Failure {
            case,
            input: prepared.input,
            tried,
            batch_only: false,
        };
    }
    let alone = |case: &UnitCase<G::Case>| -> Option<Tried> {
        let input = runner.input_of(std::slice::from_ref(&case.input));
        let (expected, _) = super::units::judged::<G>(&input, runner.rules)?;
        runner.run(&input, &expected).filter(|t| t.kind.is_some())
    };
    let found = |case: UnitCase<G::Case>, tried: Tried| Failure {
        input: runner.input_of(std::slice::from_ref(&case.input)),
        case,
        tried,
        batch_only: false,
    };
    let suspects: Vec<usize> = match wrong_cases(&tried, &prepared.verdicts) {
        Some(wrong) if !wrong.is_empty() => wrong,
        _ => vec![first_unanswered(&tried, &prepared.verdicts)],
    };
    for &i in suspects.iter().take(8) {
        if let Some(t) = alone(&cases[i]) {
            return found(cases.swap_remove(i), t);
        }
    }
    // Halves, while one fails on its own.
    let mut part: Vec<UnitCase<G::Case>> = cases.clone();
    while part.len() > 1 {
        let back = part.split_off(part.len() / 2);
        let front = std::mem::take(&mut part);
        let fails = |half: &[UnitCase<G::Case>]| -> bool {
            let inputs: Vec<Vec<u8>> = half.iter().map(|c| c.input.clone()).collect();
            runner
                .run_cases(&inputs)
                .is_some_and(|(t, _)| t.kind.is_some() && !t.cut())
        };
        if fails(&front) {
            part = front;
        } else if fails(&back) {
            part = back;
        } else {
            break;
        }
    }
    if part.len() == 1 {
        if let Some(t) = alone(&part[0]) {
            return found(part.swap_remove(0), t);
        }
    }
    for i in 0..cases.len().min(MOST_TRIED_ALONE) {
        if let Some(t) = alone(&cases[i]) {
            return found(cases.swap_remove(i), t);
        }
    }
    Failure {
        case: cases.swap_remove(0),
        input: prepared.input,
        tried,
        batch_only: true,
    }
}

/// How a failure came back when run again alone.
struct Reproduction {
    /// Runs, the first observation included, and how many failed the same way.
    runs: usize,
    failed: usize,
    /// The audit's deadline cut a run short.
    cut: bool,
    /// The longest of the runs again.
    slowest: Duration,
}

impl Reproduction {
    fn all(&self) -> bool {
        !self.cut && self.failed == self.runs
    }

    fn text(&self) -> String {
        if self.cut {
            format!(
                "reproduced {}/{}, then --time ran out",
                self.failed, self.runs
            )
        } else {
            format!("reproduced {}/{}", self.failed, self.runs)
        }
    }
}

/// Runs `input` again [`RERUNS`] times, alone (nothing else runs during the findings phase);
/// a timeout with twice the time.
fn reproduce<G: Game>(
    runner: &Runner<G>,
    input: &[u8],
    expected: &str,
    kind: Kind,
) -> Reproduction {
    let mut limits = runner.limits;
    if kind == Kind::Timeout {
        limits.timeout *= 2;
    }
    let mut again = Reproduction {
        runs: 1,
        failed: 1,
        cut: false,
        slowest: Duration::ZERO,
    };
    for _ in 0..RERUNS {
        let Some(tried) = runner.run_within(input, expected, &limits, runner.deadline) else {
            again.cut = true;
            break;
        };
        if tried.cut() {
            again.cut = true;
            break;
        }
        again.runs += 1;
        again.slowest = again.slowest.max(tried.run.elapsed);
        if tried.kind == Some(kind) {
            again.failed += 1;
        }
    }
    again
}

/// What the reference says of the expected output of `input`, and whether the finding is then
/// the engine's fault (the reference differs from the engine). Beyond the reference's budget,
/// the game's second opinion where it has one.
fn confirm<G: Game>(
    input: &[u8],
    program_output: &[u8],
    rules: G::Options,
    budget: u64,
) -> (String, bool) {
    let Ok(engine) = G::judge(Engine::Fast, &mut &input[..], rules) else {
        return ("the engine rejects the input".into(), true);
    };
    let cost = engine
        .iter()
        .map(|j| G::reference_cost(j, rules))
        .fold(0u64, u64::saturating_add);
    let second_opinion = || match G::second_opinion(input, rules, &engine) {
        Some(Ok(())) => (
            "; the game's second opinion agrees with the engine".to_string(),
            false,
        ),
        Some(Err(why)) => (
            format!("; the game's second opinion disagrees: {why}"),
            true,
        ),
        None => (String::new(), false),
    };
    if cost > budget {
        let (also, disputed) = second_opinion();
        return (
            format!("reference not run: estimated {cost} steps, over its budget{also}"),
            disputed,
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
            let (also, disputed) = second_opinion();
            (format!("reference refused: {reason}{also}"), disputed)
        }
        Err(e) => (format!("the reference rejects the input: {e}"), true),
    }
}

/// The key that tells failures apart before shrinking: the kind and how the output differs.
fn key(kind: Kind, tried: &Tried) -> String {
    match kind {
        k if k.about_the_answer() => signature(
            kind.as_str(),
            &[&difference(&tried.expected, &tried.run.stdout)],
        ),
        _ => signature(kind.as_str(), &[&crash_detail(kind, tried.run.ending)]),
    }
}

/// The exit code or signal of a crash, for signatures and the detail column.
fn crash_detail(kind: Kind, ending: Ending) -> String {
    match ending {
        Ending::Exited(code) if kind == Kind::Crash => format!("exit {code}"),
        Ending::Signalled(signal) => format!("signal {signal}"),
        _ => String::new(),
    }
}

/// Audits the program of `settings` as a judge of `G`.
pub fn audit<G: Game>(settings: &Settings<G::Options>) -> Result<Report, RunError> {
    audit_with::<G>(settings, None)
}

/// Audits the program of `settings` as a judge of `G`, one of several programs audited at once
/// on the cases and run slots of `together`. The caller adopts orphans and sweeps them when
/// every audit has ended (a sweep here would kill the other audits' runs).
pub fn audit_among<G: Game>(
    settings: &Settings<G::Options>,
    together: &Together<G::Case>,
    audit: usize,
) -> Result<Report, RunError> {
    audit_with::<G>(settings, Some((together, audit)))
}

fn audit_with<G: Game>(
    settings: &Settings<G::Options>,
    together: Option<(&Together<G::Case>, usize)>,
) -> Result<Report, RunError> {
    let staging = Staging::new(&settings.out).map_err(|e| RunError::io(&settings.out, e))?;
    let alone = together.is_none();
    if alone {
        adopt_orphans();
    }
    let started = Instant::now();
    let deadline = settings.time.map(|t| started + t);
    let chosen = {
        // The probe's runs (one after the other) take a slot too.
        let _slot = together.map(|(t, _)| t.slots.hold());
        probe::choose::<G>(
            &settings.program,
            &settings.limits,
            settings.rules,
            settings.form,
        )
        .map_err(RunError::Usage)?
    };
    let (files, found, skipped) = match together {
        Some((t, _)) => t.inputs.clone(),
        None => read_inputs::<G>(settings)?,
    };
    if let Some(dir) = &settings.save_runs {
        fs::create_dir_all(dir).map_err(|e| RunError::io(dir, e))?;
    }
    let file_cases: u64 = files.iter().map(|f| f.cases.len() as u64).sum();
    let plan = Plan::<G>::new(
        files,
        chosen.form,
        settings.batch as u64,
        settings.seed,
        settings.rules,
        settings.constraints,
        settings.cases.map(|n| n.saturating_sub(file_cases)),
        settings.shard,
    );
    let plan = match together {
        Some((t, audit)) => plan.sharing(Arc::clone(&t.cases), audit),
        None => plan,
    };
    let runner = Runner::<G>::new(
        &settings.program,
        settings.limits,
        chosen.form,
        settings.rules,
        deadline,
    )
    .sharing(together.map(|(t, _)| Arc::clone(&t.slots)));
    let bar = if alone {
        crate::pool::progress(settings.cases.unwrap_or(0) as usize, "auditing", "cases")
    } else {
        indicatif::ProgressBar::hidden()
    };
    let case_until = settings.time.map(|t| started + t.mul_f64(CASE_SHARE));
    let keep_inside = settings.constraints == Constraints::Contest;
    let mut per_kind: BTreeMap<Kind, u64> = BTreeMap::new();
    let mut findings: Findings<Kept> = Findings::new(settings.max_findings);
    // The signature each pre-shrink key was kept under.
    let mut keys: BTreeMap<String, String> = BTreeMap::new();
    let (mut cases, mut dropped, mut unexamined) = (0, 0, 0);
    let mut case_time = Duration::ZERO;
    // Rounds of cases then findings: without keep_going, the cases stop at the first failing
    // run, and go on after it when that failure turns out flaky.
    let mut start = 0;
    loop {
        let round = Instant::now();
        let (failures, run, left_out) = run_cases(
            &plan,
            &runner,
            start,
            settings.jobs,
            settings.keep_going,
            case_until,
            &bar,
            settings.save_runs.as_deref(),
        );
        case_time += round.elapsed();
        cases += run;
        dropped += left_out;
        if let Some(why) = runner.fatal() {
            if alone {
                sweep();
            }
            return Err(RunError::Usage(why));
        }
        let mut failures = failures;
        if !settings.keep_going {
            failures.truncate(1);
        }
        let resume = failures.last().map(|f| f.prepared.index + 1);
        for failed in failures {
            if interrupted() || runner.deadline.is_some_and(|d| Instant::now() >= d) {
                unexamined += 1;
                continue;
            }
            let failure = isolate(&runner, failed);
            let kind = failure.tried.kind.expect("a failure");
            *per_kind.entry(kind).or_default() += 1;
            let key = key(kind, &failure.tried);
            if let Some(known) = keys.get(&key) {
                findings.add(known.clone(), || {
                    unreachable!("a known signature is only counted")
                });
                continue;
            }
            if findings.len() >= settings.max_findings {
                findings.dropped += 1;
                continue;
            }
            let again = reproduce(&runner, &failure.input, &failure.tried.expected, kind);
            let kept = if again.all() {
                settle(&runner, settings, failure, kind, again, keep_inside)
            } else {
                flaky(failure, kind, &again)
            };
            // Findings whose shrunk cases coincide are one finding.
            let same = findings
                .iter()
                .find(|(_, other, _)| other.kind == kept.kind && other.input == kept.input)
                .map(|(s, _, _)| s.clone());
            let sig = same.unwrap_or_else(|| kept.signature());
            keys.insert(key, sig.clone());
            findings.add(sig, || kept);
        }
        let settled = findings.iter().any(|(_, kept, _)| kept.kind != Kind::Flaky);
        match resume {
            Some(next) if !settings.keep_going && !settled && !interrupted() => start = next,
            _ => break,
        }
    }
    bar.finish_and_clear();
    if alone {
        sweep();
    }
    let (lines, rows) = write_reports::<G>(staging, settings, &chosen, &findings, &found)
        .map_err(|e| RunError::io(&settings.out, e))?;
    Ok(Report {
        cases,
        runs: runner.runs() + chosen.runs,
        case_time,
        elapsed: started.elapsed(),
        findings: lines,
        per_kind,
        skipped,
        rows,
        form: chosen,
        batch: plan.batch as usize,
        dropped,
        unexamined,
        interrupted: interrupted(),
    })
}

/// A reproduced failure, shrunk (within its share of the time), reproduced again, confirmed.
fn settle<G: Game>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failure: Failure<G::Case>,
    kind: Kind,
    again: Reproduction,
    keep_inside: bool,
) -> Kept {
    let inside = failure.case.outside.is_none();
    let mut steps: Vec<Step<G::Case>> = Vec::new();
    let mut searched_from: Option<usize> = None;
    if !failure.batch_only {
        let now = Instant::now();
        let share = runner.deadline.map_or(settings.shrink_time, |d| {
            (d.saturating_duration_since(now)) / 2
        });
        let until = now + settings.shrink_time.min(share);
        let keep_inside = keep_inside && inside;
        steps = shrink(runner, &failure.case.case, kind, keep_inside, until);
        if kind == Kind::WrongAnswer {
            let (case, tried) = steps
                .last()
                .map_or((&failure.case.case, &failure.tried), |(c, t)| (c, t));
            let size = case.input().len();
            let found =
                search_smaller(runner, case, tried, kind, keep_inside, until, settings.seed);
            if found.last().is_some_and(|(c, _)| c.input().len() < size) {
                searched_from = Some(steps.len());
                steps.extend(found);
            }
        }
    }
    // The smallest shrunk case that reproduces; else the case as found.
    let mut reproduction = again;
    let mut chosen: Option<Step<G::Case>> = None;
    let mut shrink_steps = steps.len();
    while let Some((case, tried)) = steps.pop() {
        let input = runner.input_of(std::slice::from_ref(&case.input()));
        let again = reproduce(runner, &input, &tried.expected, kind);
        if again.all() {
            reproduction = again;
            chosen = Some((case, tried));
            break;
        }
        shrink_steps -= 1;
    }
    let (case, input, tried) = match chosen {
        Some((case, tried)) => {
            let input = runner.input_of(std::slice::from_ref(&case.input()));
            (case, input, tried)
        }
        None => (
            failure.case.case.clone(),
            failure.input.clone(),
            failure.tried.clone(),
        ),
    };
    let single = case.input();
    let outside = G::judge(Engine::Fast, &mut &single[..], settings.rules)
        .ok()
        .and_then(|js| js.iter().find_map(G::outside_contest));
    let (confirmed, reported) = if kind.about_the_answer() {
        let (text, disputed) = confirm::<G>(
            &input,
            &tried.run.stdout,
            settings.rules,
            settings.reference_budget,
        );
        (text, if disputed { Kind::EngineDisputed } else { kind })
    } else {
        (reproduction.text(), kind)
    };
    let mut notes = Vec::new();
    if kind.about_the_answer() {
        notes.push(reproduction.text());
    }
    if searched_from.is_some_and(|from| shrink_steps > from) {
        notes.push(format!(
            "stuck at a larger case, shrinking went on from a smaller one failing the same way \
             (among {} small random cases)",
            super::shrink::SEARCH
        ));
    }
    Kept {
        kind: reported,
        seen: kind,
        source: failure.case.source.clone(),
        shape: (!failure.batch_only).then(|| case.shape_label()),
        case: single,
        input,
        tried,
        confirmed,
        shrink_steps,
        batch_only: failure.batch_only,
        outside: if failure.batch_only {
            failure.case.outside
        } else {
            outside
        },
        notes,
    }
}

/// A failure that did not come back: reported as it was seen, not shrunk.
fn flaky<C: Case>(failure: Failure<C>, kind: Kind, again: &Reproduction) -> Kept {
    let mut notes = Vec::new();
    if kind == Kind::Timeout && again.runs > 1 {
        notes.push(format!(
            "again with twice the time it took {:.2} s",
            again.slowest.as_secs_f64()
        ));
    }
    Kept {
        kind: Kind::Flaky,
        seen: kind,
        source: failure.case.source.clone(),
        shape: Some(failure.case.case.shape_label()),
        case: failure.case.input.clone(),
        input: failure.input,
        tried: failure.tried,
        confirmed: again.text(),
        shrink_steps: 0,
        batch_only: failure.batch_only,
        outside: failure.case.outside,
        notes,
    }
}

impl Kept {
    /// The finding's signature: its kind, how the whole output differs (for answers) or the
    /// exit (for crashes), and the shape of its case.
    fn signature(&self) -> String {
        let answer = match self.kind {
            Kind::WrongAnswer | Kind::PresentationError | Kind::EngineDisputed => {
                difference(&self.tried.expected, &self.tried.run.stdout)
            }
            _ => String::new(),
        };
        let exit = crash_detail(self.seen, self.tried.run.ending);
        let seen = if self.kind == Kind::Flaky {
            format!("first seen as {}", self.seen)
        } else {
            String::new()
        };
        let shape = self.shape.clone().unwrap_or_default();
        signature(self.kind.as_str(), &[&seen, &answer, &exit, &shape])
    }
}

/// The stem of the finding's files, for `source` under `rules`.
pub fn stem<G: Game>(source: &Source, rules: G::Options) -> String {
    source.stem(G::NAME, &crate::detect::file_suffix(rules))
}
