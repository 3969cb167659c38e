//! The audit of any number of programs, stage by stage (see the [module](super) documentation):
//! data, probe, the existing data, the cases, the programs that fit no form, strengthening,
//! reports. Auditing one program is a contest of one, through the same stages.
//!
//! Each program is one [`Subject`]: its entrant, its runner, and its [`Stage`], which every
//! stage advances (each state holds everything the stages before gave, nothing to be filled
//! later). When the stages are done, each program's record is built once
//! ([`super::audited::ProgramRecord`]), the strengthening cases chosen, and the typed report
//! handed to the printers.

use std::time::{Duration, Instant};

use super::audited::OnCase;
use super::audited::{
    AuditReport, CasesOutcome, Effort, Examined, FindingRecord, FormUsed, Outcome, ProgramRecord,
    TestRecord,
};
use super::data::{self, Data, DataOutcome, ProblemForm};
use super::deadlines::{Deadlines, Meter};
use super::entrants::{dir_name, Class, Entrant};
use super::finding::{Found, Kept};
use super::outcome::exit_text;
use super::outcome::Tried;
use super::plan::{FileCases, Plan, PlanSpec};
use super::probe::{self, Fit};
use super::program::{interrupted, Reaper};
use super::report::{self, ReportFile};
use super::runner::{NoAnswer, Runner, TimeLimit};
use super::schedule::{run_cases, Lane};
use super::settings::Settings;
use super::settle::no_form;
use super::strengthen::CONFIRMING_RUNS;
use super::strengthen::{
    candidates, cover, finding_of, keepers, proves_wrong_on_candidate, screen, targets, unproven,
    Candidate,
};
use crate::answer::escape;
use crate::error::RunError;
use crate::game::{Form, Game, RuleSet};
use crate::pool::each_of;
use crate::report::write::Staging;

/// The cases each program runs before the programs that do not go first (those the existing
/// data rejects) get theirs.
pub const FIRST_CASES: u64 = 2000;

/// How long each stage took, in order.
struct Phases {
    since: Instant,
    done: Vec<(String, f64)>,
}

impl Phases {
    fn new() -> Phases {
        Phases {
            since: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Stage `name` ends now.
    fn end(&mut self, name: &str) {
        self.done
            .push((name.to_string(), self.since.elapsed().as_secs_f64()));
        self.since = Instant::now();
    }
}

/// How far a program got. Each state holds what the stages before it gave.
enum Stage {
    /// Not probed yet.
    Entered,
    /// It cannot be run: why.
    CannotRun(String),
    /// The deadline, or an interruption, came before its examples ran.
    NotProbed,
    /// The form its output fits, or the attempts that fit none.
    Probed(Fit),
    /// And its result on the existing data.
    Tried(Fit, DataOutcome),
    /// Every stage that examines it done.
    Examined {
        form: FormUsed,
        on_data: DataOutcome,
        cases: CasesOutcome,
        found: Found,
    },
}

/// One program through the stages.
struct Subject<'e, G: Game> {
    entrant: &'e Entrant,
    /// Its runner; none when it did not build.
    runner: Option<Runner<'e, G>>,
    stage: Stage,
}

impl<'e, G: Game> Subject<'e, G> {
    fn new(
        entrant: &'e Entrant,
        settings: &Settings<G::Options>,
        form: Form,
        deadlines: &'e Deadlines,
    ) -> Subject<'e, G> {
        let (runner, stage) = match &entrant.program {
            Ok(program) => (
                Some(Runner::new(
                    program,
                    settings.limits,
                    form,
                    settings.rules,
                    deadlines,
                )),
                Stage::Entered,
            ),
            Err(why) => (None, Stage::CannotRun(why.clone())),
        };
        Subject {
            entrant,
            runner,
            stage,
        }
    }

    /// Moves to the stage `next` makes of the current one.
    fn advance(&mut self, next: impl FnOnce(Stage) -> Stage) {
        let stage = std::mem::replace(&mut self.stage, Stage::Entered);
        self.stage = next(stage);
    }

    /// Its runner, when it can run.
    fn runnable(&self) -> Option<&Runner<'e, G>> {
        self.runner.as_ref().filter(|r| r.fatal().is_none())
    }

    /// Its findings, once examined.
    fn found(&self) -> Option<&Found> {
        match &self.stage {
            Stage::Examined { found, .. } => Some(found),
            _ => None,
        }
    }

    fn found_mut(&mut self) -> Option<&mut Found> {
        match &mut self.stage {
            Stage::Examined { found, .. } => Some(found),
            _ => None,
        }
    }
}

/// The state of a program that got no answer to a run.
fn stopped(no_answer: NoAnswer, cut: Stage) -> Stage {
    match no_answer {
        NoAnswer::CannotRun(why) => Stage::CannotRun(why),
        NoAnswer::Cut => cut,
    }
}

/// Audits `entrants` as judges of `G`: the stages, then the reports. An error when the run
/// cannot start (paths, the report directory); a program that cannot be run is a standing.
pub fn audit<G: Game>(
    settings: &Settings<G::Options>,
    entrants: &[Entrant],
    mut notes: Vec<String>,
) -> Result<AuditReport, RunError> {
    let _reaper = Reaper::adopt();
    let deadlines = Deadlines::new(settings.time, settings.jobs);
    let staging = Staging::new(&settings.out).map_err(|e| RunError::io(&settings.out, e))?;
    if let Some(dir) = &settings.save_runs {
        std::fs::create_dir_all(dir).map_err(|e| RunError::io(dir, e))?;
    }
    let data = data::read::<G>(&settings.inputs, settings.shard, settings.rules)?;
    notes.extend(data.notes.iter().cloned());
    let problem = data::problem_form::<G>(settings.form, &data);
    let form = problem.form.unwrap_or(Form::Multi);
    let mut subjects: Vec<Subject<G>> = entrants
        .iter()
        .map(|e| Subject::new(e, settings, form, &deadlines))
        .collect();
    let mut phases = Phases::new();
    probe_stage(&mut subjects, &problem, settings);
    phases.end("probe");
    let time_limit = data_stage(&mut subjects, &data, settings, &deadlines);
    deadlines.screened_by(screening_meters(&subjects));
    phases.end("existing data");
    let limits = limits_stage(&subjects, &data, settings, &deadlines);
    phases.end("repeated runs");
    let cases = cases_stage(&mut subjects, &data, &problem, settings, &deadlines);
    phases.end("cases");
    no_form_stage(&mut subjects, settings, &deadlines);
    phases.end("programs that fit no form");
    let budget = deadlines.spent();
    let (mut programs, mut files) = records::<G>(&subjects, settings.rules);
    let strengthened = strengthening_stage(
        &mut subjects,
        &mut programs,
        &data,
        &problem,
        settings,
        &deadlines,
    )?;
    phases.end("strengthening");
    let mut limits = limits;
    if let (Some(package), Some(advice)) = (&settings.add_to, limits.as_mut()) {
        if !interrupted() {
            advice.written = crate::judge_system::package::limits::write_limits(
                package,
                &advice.to_write(),
                advice.rules.sets_time_limit(),
            )?;
        }
    }
    drop(subjects);
    files.extend(strengthened.files);
    let report = AuditReport {
        game: G::NAME.to_string(),
        rules: settings.rules.name().to_string(),
        strict: settings.strict,
        problem,
        time_limit,
        memory_limit: settings.limits.memory,
        confinement: settings.confinement.clone(),
        has_data: !data.found.is_empty(),
        programs,
        tests: strengthened.tests,
        dropped: strengthened.dropped,
        not_candidates: strengthened.not_candidates,
        notes,
        effort: Effort {
            cases_judged: cases.judged,
            random_dropped: cases.dropped,
            batch: cases.batch,
            cases_time: cases.elapsed,
            phases: phases.done,
            elapsed: deadlines.started.elapsed(),
            budget,
        },
        interrupted: interrupted(),
        limits,
    };
    report::write(settings, staging, &report, &data.found, &files)?;
    Ok(report)
}

/// The probe: each program that can run, on the statement's examples.
fn probe_stage<G: Game>(
    subjects: &mut [Subject<G>],
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
) {
    let probed = each_of(subjects.len(), settings.jobs, |i| {
        let subject = &subjects[i];
        let runner = subject.runner.as_ref()?;
        matches!(subject.stage, Stage::Entered).then(|| probe::probe::<G>(runner, problem.form))
    });
    for (subject, probed) in subjects.iter_mut().zip(probed) {
        if let Some(probed) = probed {
            subject.advance(|_| match probed {
                Ok(fit) => Stage::Probed(fit),
                Err(no_answer) => stopped(no_answer, Stage::NotProbed),
            });
        }
    }
}

/// The existing data's stage: the programs expected accepted run every file first (with
/// `--timeout`; all programs when none is expected accepted), their CPU times set the time
/// limit ([`data::time_limit`]), then the others run it within that limit. Each probed
/// program has its result; the limit is every runner's from then on.
fn data_stage<G: Game>(
    subjects: &mut [Subject<G>],
    data: &Data<G::Case>,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> TimeLimit {
    let any_expected = subjects
        .iter()
        .any(|s| s.entrant.expected == Some(Class::Accepted));
    let goes_first = |s: &Subject<G>| !any_expected || s.entrant.expected == Some(Class::Accepted);
    let run = |subjects: &mut [Subject<G>], first: bool| {
        let results = each_of(subjects.len(), settings.jobs, |i| {
            let subject = &subjects[i];
            let runner = subject.runner.as_ref()?;
            let probed = matches!(subject.stage, Stage::Probed(_));
            (probed && goes_first(subject) == first).then(|| {
                if data.files.is_empty() {
                    Ok(DataOutcome::NoData)
                } else {
                    data::run_on_data::<G>(runner, &data.files, deadlines.data)
                        .map(DataOutcome::Ran)
                }
            })
        });
        for (subject, result) in subjects.iter_mut().zip(results) {
            let Some(result) = result else { continue };
            subject.advance(|stage| match (stage, result) {
                (Stage::Probed(fit), Ok(on_data)) => Stage::Tried(fit, on_data),
                (Stage::Probed(fit), Err(no_answer)) => {
                    stopped(no_answer, Stage::Tried(fit, DataOutcome::Cut))
                }
                (stage, _) => stage,
            });
        }
    };
    run(subjects, true);
    let accepted: Vec<&data::OnData> = subjects
        .iter()
        .filter(|s| goes_first(s))
        .filter_map(|s| match &s.stage {
            Stage::Tried(_, DataOutcome::Ran(r)) => Some(r),
            _ => None,
        })
        .collect();
    let limit = data::time_limit(settings.limits.cpu, &accepted, data.biggest());
    for runner in subjects.iter_mut().filter_map(|s| s.runner.as_mut()) {
        runner.time_limit = limit;
    }
    run(subjects, false);
    limit
}

/// The meters of the programs that will screen every strengthening candidate: those that can
/// run and may have to pass one (expected accepted, or accepted by the existing data), or may
/// be rejected by one (accepted by the data).
fn screening_meters<G: Game>(subjects: &[Subject<G>]) -> Vec<Meter> {
    subjects
        .iter()
        .filter(|s| match &s.stage {
            Stage::Tried(_, on_data) => {
                s.entrant.expected == Some(Class::Accepted) || !on_data.rejects()
            }
            _ => false,
        })
        .filter_map(|s| s.runnable().map(|r| r.meter().clone()))
        .collect()
}

/// The repeated runs of the programs expected accepted, to time out or to run out of memory,
/// whose results the existing data judged, and the advice on the limits they give
/// ([`super::repeat`]).
fn limits_stage<G: Game>(
    subjects: &[Subject<G>],
    data: &Data<G::Case>,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> Option<super::limits::Advice> {
    let programs: Vec<(&Entrant, &Runner<G>)> = subjects
        .iter()
        .filter(|s| matches!(s.stage, Stage::Tried(_, DataOutcome::Ran(_))))
        .filter_map(|s| s.runnable().map(|r| (s.entrant, r)))
        .collect();
    super::repeat::advise(
        &programs,
        &data.files,
        &settings.advising,
        settings.limits.cpu,
        deadlines.repeats(),
        settings.jobs,
    )
}

/// What the cases stage did.
struct CasesFacts {
    judged: u64,
    dropped: u64,
    batch: usize,
    elapsed: Duration,
}

/// Whether a subject takes cases: its output fits a form, it does not time out on the data,
/// and it can run.
fn takes_cases<G: Game>(subject: &Subject<G>) -> bool {
    match &subject.stage {
        Stage::Tried(Fit::Fits { .. }, on_data) => {
            !on_data.result().is_some_and(data::OnData::timed_out) && subject.runnable().is_some()
        }
        _ => false,
    }
}

/// The cases stage: every program whose output fits a form, and that does not time out on
/// the existing data, runs the plan's units; each is then examined but for those whose output
/// fits no form (next stage).
fn cases_stage<G: Game>(
    subjects: &mut [Subject<G>],
    data: &Data<G::Case>,
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> CasesFacts {
    for subject in subjects.iter_mut() {
        if let (Some(runner), Stage::Tried(Fit::Fits { form, .. }, _)) =
            (subject.runner.as_mut(), &subject.stage)
        {
            runner.form = *form;
        }
    }
    let takers: Vec<usize> = (0..subjects.len())
        .filter(|&i| takes_cases(&subjects[i]))
        .collect();
    let form = match (problem.form, takers.first()) {
        (Some(form), _) => form,
        (None, Some(&i)) => subjects[i].runner.as_ref().expect("takes cases").form,
        (None, None) => Form::Multi,
    };
    let plan = Plan::<G>::new(plan_spec(data, form, settings));
    let lanes: Vec<Lane<G>> = takers
        .iter()
        .map(|&i| Lane {
            runner: subjects[i].runner.as_ref().expect("takes cases"),
            first: !matches!(&subjects[i].stage, Stage::Tried(_, on_data) if on_data.rejects()),
            found: std::sync::Mutex::new(Found::new(settings.max_findings)),
        })
        .collect();
    let target = settings.cases.unwrap_or(FIRST_CASES);
    let total = settings.cases.unwrap_or(0) * lanes.len() as u64;
    let bar = crate::pool::progress(total as usize, "auditing", "cases");
    let started = Instant::now();
    let (tallies, dropped) = if lanes.is_empty() {
        (Vec::new(), 0)
    } else {
        run_cases(&plan, &lanes, settings, deadlines, target, &bar)
    };
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let mut taken: Vec<Option<(Found, super::audited::Tally)>> =
        subjects.iter().map(|_| None).collect();
    for ((&i, lane), tally) in takers.iter().zip(lanes).zip(tallies) {
        taken[i] = Some((
            lane.found.into_inner().unwrap_or_else(|e| e.into_inner()),
            tally,
        ));
    }
    for (subject, taken) in subjects.iter_mut().zip(taken) {
        let fatal = subject.runner.as_ref().and_then(Runner::fatal);
        let max = settings.max_findings;
        subject.advance(|stage| examined(stage, taken, fatal, max));
    }
    CasesFacts {
        judged: plan.judged(),
        dropped,
        batch: plan.batch as usize,
        elapsed,
    }
}

/// The plan of the data's cases and the random cases, in `form`.
fn plan_spec<G: Game>(
    data: &Data<G::Case>,
    form: Form,
    settings: &Settings<G::Options>,
) -> PlanSpec<G> {
    PlanSpec {
        files: data
            .files
            .iter()
            .map(|f| FileCases {
                name: f.name.clone(),
                position: f.position,
                cases: f.cases.clone(),
            })
            .collect(),
        form,
        batch: settings.batch as u64,
        seed: settings.seed,
        rules: settings.rules,
        constraints: settings.constraints,
        cases: settings.cases,
        shard: settings.shard,
    }
}

/// The stage of a program after the cases stage: what it took (`taken`, its findings and
/// tally), or why it took none.
fn examined(
    stage: Stage,
    taken: Option<(Found, super::audited::Tally)>,
    fatal: Option<String>,
    max_findings: usize,
) -> Stage {
    match (stage, taken, fatal) {
        (Stage::Tried(..), _, Some(why)) => Stage::CannotRun(why),
        (Stage::Tried(Fit::Fits { form, why }, on_data), Some((found, tally)), None) => {
            Stage::Examined {
                form: FormUsed::Fits { form, why },
                on_data,
                cases: CasesOutcome::Cases(tally),
                found,
            }
        }
        (Stage::Tried(Fit::Fits { form, why }, on_data), None, None) => Stage::Examined {
            form: FormUsed::Fits { form, why },
            on_data,
            cases: CasesOutcome::TimesOutOnData,
            found: Found::new(max_findings),
        },
        (stage, _, _) => stage,
    }
}

/// The finding of each program whose output fits no form: its attempt, run again and shrunk.
fn no_form_stage<G: Game>(
    subjects: &mut [Subject<G>],
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) {
    let kept: Vec<Option<Kept>> = each_of(subjects.len(), settings.jobs, |i| {
        let subject = &subjects[i];
        match (&subject.stage, subject.runnable()) {
            (Stage::Tried(Fit::NoForm { attempts, reads }, _), Some(runner)) => {
                Some(no_form::<G>(runner, settings, attempts, *reads))
            }
            _ => None,
        }
    });
    for (subject, kept) in subjects.iter_mut().zip(kept) {
        let fatal = subject.runner.as_ref().and_then(Runner::fatal);
        subject.advance(|stage| match (stage, kept, fatal) {
            (Stage::Tried(..), _, Some(why)) => Stage::CannotRun(why),
            (Stage::Tried(Fit::NoForm { attempts, .. }, on_data), Some(kept), None) => {
                let mut found = Found::new(settings.max_findings);
                if found.keep(None, kept) {
                    deadlines.finding_kept();
                }
                Stage::Examined {
                    form: FormUsed::NoForm {
                        form: attempts[0].form,
                    },
                    on_data,
                    cases: CasesOutcome::NoForm,
                    found,
                }
            }
            (stage, _, _) => stage,
        });
    }
}

/// Each program's record, and the files of its findings (`programs/NAME/STEM.in`, `.ans`,
/// `.out`, `.err`).
fn records<G: Game>(
    subjects: &[Subject<G>],
    rules: G::Options,
) -> (Vec<ProgramRecord>, Vec<ReportFile>) {
    let mut files = Vec::new();
    let programs = subjects
        .iter()
        .map(|subject| {
            let (record, written) = record::<G>(subject, rules);
            files.extend(written);
            record
        })
        .collect();
    (programs, files)
}

/// The record of one program, and the files of its findings.
fn record<G: Game>(subject: &Subject<G>, rules: G::Options) -> (ProgramRecord, Vec<ReportFile>) {
    let entrant = subject.entrant;
    let mut files = Vec::new();
    let mut findings = Vec::new();
    let (outcome, found) = match &subject.stage {
        Stage::CannotRun(why) => (Outcome::CannotRun { why: why.clone() }, None),
        Stage::Examined {
            form,
            on_data,
            cases,
            found,
        } => {
            let dir = format!("programs/{}", dir_name(&entrant.name));
            for (signature, kept, count) in found.findings.iter() {
                let (finding, written) =
                    finding_record::<G>(kept, signature, *count, form.form(), rules, &dir);
                findings.push(finding);
                files.extend(written);
            }
            let examined = Examined {
                form: form.clone(),
                on_data: on_data.clone(),
                cases: *cases,
            };
            (Outcome::Examined(examined), Some(found))
        }
        // Every stage advances every program it can: what is left was not probed.
        Stage::Entered | Stage::NotProbed | Stage::Probed(_) | Stage::Tried(..) => {
            (Outcome::NotProbed, None)
        }
    };
    let record = ProgramRecord {
        name: entrant.name.clone(),
        expected: entrant.expected,
        command: entrant.program.as_ref().ok().map(|p| p.display()),
        outcome,
        runs: subject.runner.as_ref().map_or(0, Runner::runs),
        findings,
        failing: found.map(|f| f.per_kind.clone()).unwrap_or_default(),
        unexamined: found.map_or(0, |f| f.unexamined),
        beyond_max: found.map_or(0, |f| f.findings.dropped),
    };
    (record, files)
}

/// The record of finding `kept` (kept under `signature`, standing for `count` failing cases)
/// of a program whose runs used `form`, and its files in `dir`.
fn finding_record<G: Game>(
    kept: &Kept,
    signature: &str,
    count: u64,
    form: Form,
    rules: G::Options,
    dir: &str,
) -> (FindingRecord, Vec<ReportFile>) {
    let stem = kept
        .source
        .stem(G::NAME, &crate::detect::file_suffix(rules));
    let run = &kept.tried.run;
    let files = [
        ("in", kept.input.clone()),
        ("ans", kept.tried.expected.as_bytes().to_vec()),
        ("out", run.stdout.clone()),
        ("err", run.stderr_tail.clone()),
    ]
    .into_iter()
    .map(|(ext, bytes)| ReportFile {
        path: format!("{dir}/{stem}.{ext}"),
        bytes,
    })
    .collect();
    let record = FindingRecord {
        kind: kept.kind,
        seen: kept.seen,
        signature: signature.to_string(),
        count,
        source: kept.source.clone(),
        file: format!("{stem}.in"),
        form,
        expected: escape(kept.tried.expected.as_bytes(), 200),
        got: escape(&run.stdout, 200),
        stderr: escape(&run.stderr_tail, 1000),
        exit: exit_text(run.ending),
        stopped: run.stopped(),
        cpu: run.cpu,
        wall: run.elapsed,
        memory: run.memory,
        evidence: kept.evidence.clone(),
        shrink_steps: kept.shrink_steps,
        batch_only: kept.batch_only,
        outside: kept.outside.clone(),
        bytes: kept.input.len(),
        size: kept.size.clone(),
        notes: kept.notes.clone(),
    };
    (record, files)
}

/// What the strengthening stage chose.
struct Strengthened {
    tests: Vec<TestRecord>,
    files: Vec<ReportFile>,
    dropped: Vec<String>,
    not_candidates: Vec<String>,
}

/// The strengthening stage: the candidates from every program's findings, each run by every
/// program as a judge system runs a data file (until the end of `--time`); a program with no
/// finding that a candidate proves wrong gets it as its finding (its record made again); the
/// candidates that a program which must be accepted fails, or was not checked on, are
/// dropped; the cover of the programs proved wrong that the existing data accepts, added to
/// `--add-to`'s package.
fn strengthening_stage<G: Game>(
    subjects: &mut [Subject<G>],
    programs: &mut [ProgramRecord],
    data: &Data<G::Case>,
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> Result<Strengthened, RunError> {
    let form = problem.form.unwrap_or(G::STATEMENT_FORM);
    let named: Vec<(&str, &Found)> = subjects
        .iter()
        .filter_map(|s| Some((s.entrant.name.as_str(), s.found()?)))
        .collect();
    let known: Vec<&[u8]> = data.files.iter().map(|f| &f.input[..]).collect();
    let (candidates, not_candidates) = candidates::<G>(
        &named,
        &known,
        form,
        settings.rules,
        settings.reference_budget,
    );
    let Screened { fails, rejections } = on_every_case(
        subjects,
        programs,
        &candidates,
        settings.jobs,
        deadlines.end,
    );
    let mut files =
        proved_by_candidates::<G>(subjects, programs, &candidates, rejections, settings);
    let (usable, dropped) = screen(&fails, &keepers(programs), |p| programs[p].name.clone());
    let sizes: Vec<usize> = candidates.iter().map(|c| c.input.len()).collect();
    let (chosen, _) = cover(&fails, &usable, &targets(programs), &sizes);
    let added = match &settings.add_to {
        Some(package) => {
            let inputs: Vec<&[u8]> = chosen.iter().map(|&c| &candidates[c].input[..]).collect();
            let answers: Vec<&str> = chosen
                .iter()
                .map(|&c| candidates[c].expected.as_str())
                .collect();
            crate::judge_system::package::add::add_to_package(package, &inputs, &answers)?
                .into_iter()
                .map(Some)
                .collect()
        }
        None => vec![None; chosen.len()],
    };
    let tests = chosen
        .iter()
        .zip(added)
        .enumerate()
        .map(|(k, (&c, added_as))| {
            let candidate = &candidates[c];
            let stem = format!("tests/{:03}", k + 1);
            files.push(ReportFile {
                path: format!("{stem}.in"),
                bytes: candidate.input.clone(),
            });
            files.push(ReportFile {
                path: format!("{stem}.ans"),
                bytes: candidate.expected.as_bytes().to_vec(),
            });
            TestRecord {
                file: format!("{stem}.in"),
                added_as,
                from: candidate.from.clone(),
                bytes: candidate.input.len(),
                size: candidate.size.clone(),
                on: fails[c].clone(),
            }
        })
        .collect();
    let dropped = dropped
        .into_iter()
        .map(|(c, why)| format!("{}: {why}", candidates[c].from))
        .collect();
    Ok(Strengthened {
        tests,
        files,
        dropped,
        not_candidates,
    })
}

/// Each program with no finding that a candidate proves wrong ([`unproven`],
/// [`proves_wrong_on_candidate`]; of `rejections`, the first candidate that does) gets it as
/// its finding, and its record is made again. The files of those findings.
fn proved_by_candidates<G: Game>(
    subjects: &mut [Subject<G>],
    programs: &mut [ProgramRecord],
    candidates: &[Candidate],
    rejections: Vec<Rejection>,
    settings: &Settings<G::Options>,
) -> Vec<ReportFile> {
    let mut files = Vec::new();
    let mut proved = vec![false; programs.len()];
    for Rejection {
        candidate: c,
        program: p,
        last: tried,
    } in rejections
    {
        let proves = tried.kind.is_some_and(proves_wrong_on_candidate);
        if proved[p] || !proves {
            continue;
        }
        let Some(found) = subjects[p].found_mut() else {
            continue;
        };
        found.keep(None, finding_of(&candidates[c], tried));
        proved[p] = true;
        let (record, written) = record::<G>(&subjects[p], settings.rules);
        programs[p] = record;
        files.extend(written);
    }
    files
}

/// How each program did on each candidate.
struct Screened {
    /// `[candidate][program]`.
    fails: Vec<Vec<OnCase>>,
    /// Each rejection of an [`unproven`] program, in candidate order.
    rejections: Vec<Rejection>,
}

/// A candidate that a program failed on every run.
struct Rejection {
    candidate: usize,
    program: usize,
    /// The last failing run.
    last: Tried,
}

/// How each program does on each candidate, `jobs` runs at once, cut at `end`; a program that
/// cannot run does not run them.
fn on_every_case<G: Game>(
    subjects: &[Subject<G>],
    programs: &[ProgramRecord],
    candidates: &[Candidate],
    jobs: usize,
    end: Option<Instant>,
) -> Screened {
    let n = subjects.len();
    let unproven = unproven(programs);
    let to_reject = targets(programs);
    // A candidate from the finding of a program the data accepts rejects at least that one.
    let useful: Vec<bool> = candidates
        .iter()
        .map(|c| to_reject.iter().any(|&p| programs[p].name == c.program))
        .collect();
    let pairs = screening_order(&useful, &keepers(programs), &to_reject);
    let outcomes = each_of(pairs.len(), jobs, |k| {
        let (c, p) = pairs[k];
        let runnable = subjects[p]
            .runnable()
            .filter(|_| !matches!(programs[p].outcome, Outcome::CannotRun { .. }));
        runnable.map_or((OnCase::NotRun, None), |runner| {
            on_case(runner, &candidates[c], end)
        })
    });
    let mut fails = vec![vec![OnCase::NotRun; n]; candidates.len()];
    let mut rejections = Vec::new();
    for (&(c, p), (outcome, last)) in pairs.iter().zip(outcomes) {
        fails[c][p] = outcome;
        if let (OnCase::Rejected, Some(last), true) = (outcome, last, unproven[p]) {
            rejections.push(Rejection {
                candidate: c,
                program: p,
                last,
            });
        }
    }
    rejections.sort_by_key(|r| (r.candidate, r.program));
    Screened { fails, rejections }
}

/// The order of the strengthening's runs, (candidate, program) pairs of every candidate and
/// every program: the runs that decide whether a candidate is usable first, every program that
/// must pass it (`must_pass`) on every candidate, the `useful` candidates (from the finding of a
/// program the data accepts) before the others; then the programs a candidate is to reject
/// (`to_reject`); then the others (for the report). A budget that ends early leaves the last
/// runs undone, not the screening of the candidates that can strengthen the data.
fn screening_order(
    useful: &[bool],
    must_pass: &[bool],
    to_reject: &[usize],
) -> Vec<(usize, usize)> {
    let role = |p: usize| {
        if must_pass[p] {
            0
        } else if to_reject.contains(&p) {
            1
        } else {
            2
        }
    };
    let mut pairs: Vec<(usize, usize)> = (0..useful.len())
        .flat_map(|c| (0..must_pass.len()).map(move |p| (c, p)))
        .collect();
    pairs.sort_by_key(|&(c, p)| (role(p), !useful[c], c));
    pairs
}

/// How the program of `runner` does on `candidate`, run as a judge system runs a data file
/// (cut at `end`): a failure is run again, and rejects it only when every run fails (the last
/// failing run with it).
fn on_case<G: Game>(
    runner: &Runner<G>,
    candidate: &Candidate,
    end: Option<Instant>,
) -> (OnCase, Option<Tried>) {
    let limit = runner.time_limit.for_bytes(candidate.input.len());
    let mut last = None;
    for run in 0..CONFIRMING_RUNS {
        let Ok(tried) = runner.run_to_end(&candidate.input, &candidate.expected, limit, end) else {
            return (OnCase::NotRun, None);
        };
        match (tried.kind, run) {
            (None, 0) => return (OnCase::Passes, None),
            (None, _) => return (OnCase::Sometimes, None),
            (Some(_), _) => last = Some(tried),
        }
    }
    (OnCase::Rejected, last)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_programs_that_must_pass_screen_every_candidate_before_any_other_run() {
        // Programs 0 and 3 must pass; 1 is to be rejected; 2 is neither. Candidate 1 comes from
        // a program the data accepts: it is screened first.
        let order = screening_order(&[false, true], &[true, false, false, true], &[1]);
        assert_eq!(
            order,
            [
                (1, 0),
                (1, 3),
                (0, 0),
                (0, 3),
                (1, 1),
                (0, 1),
                (1, 2),
                (0, 2)
            ]
        );
    }
}
