//! The audit of any number of programs, stage by stage (see the [module](super) documentation):
//! data, probe, the existing data, the cases, strengthening, reports. Auditing one program is
//! a contest of one, through the same stages.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::audited::{AuditReport, ProgramAudit};
use super::contest_report;
use super::data::{self, Data, NoResult, OnData, ProblemForm};
use super::entrants::{dir_name, Class, Entrant};
use super::finding::Found;
use super::plan::{FileCases, Plan, PlanSpec};
use super::probe::{self, Fit, Unprobed};
use super::program::{interrupted, Reaper};
use super::report::{self, FormUsed, ProgramSummary};
use super::runner::{Runner, TimeLimit};
use super::schedule::{run_cases, Finish, Lane, Tally};
use super::settings::{Deadlines, Layout, Settings, CASES_SHARE};
use super::settle::no_form;
use super::strengthen::{
    candidates, cover, screen, Candidate, OnCase, Strengthening, CONFIRMING_RUNS,
};
use super::verdict::{scores, Scored, Standing};
use crate::error::RunError;
use crate::game::{Form, Game};
use crate::pool::each_of;
use crate::report::write::Staging;

/// The cases each program runs before the programs that do not go first (those the existing
/// data rejects) get theirs.
pub const FIRST_CASES: u64 = 2000;

/// How long each stage took, in order.
struct Phases {
    since: Instant,
    done: Vec<(&'static str, Duration)>,
}

impl Phases {
    fn new() -> Phases {
        Phases {
            since: Instant::now(),
            done: Vec::new(),
        }
    }

    /// Stage `name` ends now.
    fn end(&mut self, name: &'static str) {
        self.done.push((name, self.since.elapsed()));
        self.since = Instant::now();
    }
}

/// The probe's answer for one program: none when it did not build.
type Probed = Option<Result<Fit, Unprobed>>;

/// Audits `entrants` as judges of `G`: the stages, then the reports. An error when the run
/// cannot start (paths, the report directory); a program that cannot be run is a standing.
pub fn audit<G: Game>(
    settings: &Settings<G::Options>,
    entrants: &[Entrant],
    mut notes: Vec<String>,
) -> Result<AuditReport, RunError> {
    let _reaper = Reaper::adopt();
    let deadlines = Deadlines::new(settings.time, settings.layout);
    let staging = Staging::new(&settings.out).map_err(|e| RunError::io(&settings.out, e))?;
    if let Some(dir) = &settings.save_runs {
        std::fs::create_dir_all(dir).map_err(|e| RunError::io(dir, e))?;
    }
    let data = data::read::<G>(&settings.inputs, settings.shard, settings.rules)?;
    notes.extend(data.notes.iter().cloned());
    let problem = data::problem_form::<G>(settings.form, &data.files);
    let mut runners: Vec<Option<Runner<G>>> = entrants
        .iter()
        .map(|e| {
            let form = problem.form.unwrap_or(Form::Multi);
            e.program
                .as_ref()
                .ok()
                .map(|p| Runner::new(p, settings.limits, form, settings.rules, deadlines.findings))
        })
        .collect();
    let mut phases = Phases::new();
    let probed: Vec<Probed> = each_of(runners.len(), settings.jobs, |i| {
        runners[i]
            .as_ref()
            .map(|r| probe::probe::<G>(r, problem.form))
    });
    phases.end("probe");
    let (on_data, time_limit) = data_stage(&mut runners, entrants, &data, settings, &deadlines);
    phases.end("existing data");
    for (runner, probed) in runners.iter_mut().zip(&probed) {
        if let (Some(runner), Some(Ok(Fit::Fits { form, .. }))) = (runner, probed) {
            runner.form = *form;
        }
    }
    let mut cases = cases_stage(
        &runners, &probed, &on_data, &data, &problem, settings, &deadlines,
    );
    phases.end("cases");
    let mut found = std::mem::take(&mut cases.found);
    no_form_findings(&runners, &probed, settings, &mut found);
    phases.end("programs that fit no form");
    let mut programs = assemble(entrants, &runners, &probed, on_data, &cases.tallies, found);
    let left = cases.not_audited_note(&programs, deadlines.started);
    for p in &mut programs {
        if let Standing::NotAudited(why) = &mut p.standing {
            why.push_str(&left);
        }
        p.case_time = cases.elapsed.saturating_sub(p.case_time);
    }
    let mut report = AuditReport {
        programs,
        problem,
        time_limit,
        contest: None,
        notes,
        cases_judged: cases.judged,
        dropped: cases.dropped,
        batch: cases.batch,
        case_time: cases.elapsed,
        elapsed: Duration::ZERO,
        interrupted: false,
        inputs: data.found.clone(),
        phases: phases.done,
    };
    write_reports(settings, staging, &runners, &data, &deadlines, &mut report)?;
    report.elapsed = deadlines.started.elapsed();
    report.interrupted = interrupted();
    Ok(report)
}

/// The existing data's stage: the programs expected accepted run every file first (with
/// `--timeout`; all programs when none is expected accepted), their times set the time limit
/// ([`data::time_limit`]), then the others run it within that limit. Each program's result,
/// and the limit, which every runner then holds.
fn data_stage<G: Game>(
    runners: &mut [Option<Runner<G>>],
    entrants: &[Entrant],
    data: &Data<G::Case>,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> (Vec<Option<Result<OnData, NoResult>>>, TimeLimit) {
    let fixed = TimeLimit::fixed(settings.limits.timeout);
    let mut results: Vec<Option<Result<OnData, NoResult>>> = runners.iter().map(|_| None).collect();
    if data.files.is_empty() {
        return (results, fixed);
    }
    let any_expected = entrants.iter().any(|e| e.expected == Some(Class::Accepted));
    let reference = |i: usize| !any_expected || entrants[i].expected == Some(Class::Accepted);
    let run = |runners: &[Option<Runner<G>>], pick: &(dyn Fn(usize) -> bool + Sync)| {
        each_of(runners.len(), settings.jobs, |i| {
            let runner = runners[i].as_ref().filter(|_| pick(i))?;
            Some(data::run_on_data::<G>(runner, &data.files, deadlines.data))
        })
    };
    for (i, result) in run(runners, &reference).into_iter().enumerate() {
        if result.is_some() {
            results[i] = result;
        }
    }
    let accepted: Vec<&OnData> = results
        .iter()
        .enumerate()
        .filter(|(i, _)| reference(*i))
        .filter_map(|(_, r)| r.as_ref()?.as_ref().ok())
        .collect();
    let limit = data::time_limit(settings.limits.timeout, &accepted, data.biggest());
    for runner in runners.iter_mut().flatten() {
        runner.time_limit = limit;
    }
    for (i, result) in run(runners, &|i| !reference(i)).into_iter().enumerate() {
        if result.is_some() {
            results[i] = result;
        }
    }
    (results, limit)
}

/// What the cases stage did.
struct CasesStage {
    /// Each program's tally (none: it took no cases).
    tallies: Vec<Option<Tally>>,
    /// Each program's findings.
    found: Vec<Found>,
    judged: u64,
    dropped: u64,
    batch: usize,
    elapsed: Duration,
}

impl CasesStage {
    /// What the programs not audited would have needed, from the pace of those audited.
    fn not_audited_note(&self, programs: &[ProgramAudit], started: Instant) -> String {
        let audited = programs.iter().filter(|p| p.cases > 0).count();
        let left = programs
            .iter()
            .filter(|p| matches!(p.standing, Standing::NotAudited(_)))
            .count();
        if audited == 0 || left == 0 {
            return String::new();
        }
        let each = self.elapsed.as_secs_f64() / audited as f64;
        format!(
            " (the {audited} programs audited took {each:.1} s each of the cases' time; about \
             {:.0} s more --time would audit the {left} left; the run took {:.0} s)",
            each * left as f64 / CASES_SHARE,
            started.elapsed().as_secs_f64()
        )
    }
}

/// The cases stage: every program whose output fits the problem's form, and that does not
/// time out on the existing data, runs the plan's units.
fn cases_stage<G: Game>(
    runners: &[Option<Runner<G>>],
    probed: &[Probed],
    on_data: &[Option<Result<OnData, NoResult>>],
    data: &Data<G::Case>,
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> CasesStage {
    let mut found: Vec<Found> = runners
        .iter()
        .map(|_| Found::new(settings.max_findings))
        .collect();
    let takes: Vec<usize> = (0..runners.len())
        .filter(|&i| {
            let fits = matches!(probed[i], Some(Ok(Fit::Fits { .. })));
            let hangs = matches!(&on_data[i], Some(Ok(r)) if r.timed_out());
            fits && !hangs && runners[i].as_ref().is_some_and(|r| r.fatal().is_none())
        })
        .collect();
    let form = match (problem.form, takes.first()) {
        (Some(form), _) => form,
        (None, Some(&i)) => runners[i].as_ref().expect("takes cases").form,
        (None, None) => Form::Multi,
    };
    let plan = Plan::<G>::new(PlanSpec {
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
    });
    let lanes: Vec<Lane<G>> = takes
        .iter()
        .map(|&i| Lane {
            runner: runners[i].as_ref().expect("takes cases"),
            first: !matches!(&on_data[i], Some(Ok(r)) if r.class != Class::Accepted),
            found: std::sync::Mutex::new(Found::new(settings.max_findings)),
        })
        .collect();
    let bar = match settings.layout {
        Layout::One => {
            crate::pool::progress(settings.cases.unwrap_or(0) as usize, "auditing", "cases")
        }
        Layout::Contest => indicatif::ProgressBar::hidden(),
    };
    let started = Instant::now();
    let target = settings.cases.unwrap_or(FIRST_CASES);
    let (tallies, dropped) = if lanes.is_empty() {
        (Vec::new(), 0)
    } else {
        run_cases(&plan, &lanes, settings, deadlines.cases, target, &bar)
    };
    bar.finish_and_clear();
    let mut all: Vec<Option<Tally>> = runners.iter().map(|_| None).collect();
    for ((&i, lane), tally) in takes.iter().zip(lanes).zip(tallies) {
        found[i] = lane.found.into_inner().unwrap_or_else(|e| e.into_inner());
        all[i] = Some(tally);
    }
    CasesStage {
        tallies: all,
        found,
        judged: plan.judged(),
        dropped,
        batch: plan.batch as usize,
        elapsed: started.elapsed(),
    }
}

/// The finding of each program whose output fits no form: its attempt, run again.
fn no_form_findings<G: Game>(
    runners: &[Option<Runner<G>>],
    probed: &[Probed],
    settings: &Settings<G::Options>,
    found: &mut [Found],
) {
    let kept = each_of(runners.len(), settings.jobs, |i| {
        let runner = runners[i].as_ref()?;
        match &probed[i] {
            Some(Ok(Fit::NoForm { attempts, reads })) => {
                Some(no_form::<G>(runner, settings, attempts, *reads))
            }
            _ => None,
        }
    });
    for (found, kept) in found.iter_mut().zip(kept) {
        if let Some(kept) = kept {
            found.keep(String::new(), kept);
        }
    }
}

/// Each program's audit from the stages' results.
fn assemble<G: Game>(
    entrants: &[Entrant],
    runners: &[Option<Runner<G>>],
    probed: &[Probed],
    on_data: Vec<Option<Result<OnData, NoResult>>>,
    tallies: &[Option<Tally>],
    found: Vec<Found>,
) -> Vec<ProgramAudit> {
    let mut programs = Vec::with_capacity(entrants.len());
    for (i, (found, on_data)) in found.into_iter().zip(on_data).enumerate() {
        let runner = runners[i].as_ref();
        let cases = tallies[i].map_or(0, |t| t.cases);
        let case_time = tallies[i].map_or(Duration::ZERO, |t| t.examining);
        let on_data_ok = on_data.as_ref().and_then(|r| r.as_ref().ok()).cloned();
        let standing = standing(
            &entrants[i],
            runner.and_then(Runner::fatal),
            &probed[i],
            on_data.as_ref(),
            tallies[i],
            &found,
        );
        let form = match &probed[i] {
            Some(Ok(Fit::Fits { form, why })) => FormUsed {
                form: Some(*form),
                why: why.clone(),
            },
            Some(Ok(Fit::NoForm { attempts, .. })) => FormUsed {
                form: Some(attempts[0].form),
                why: "its output fits no form; the attempt in this form is its finding".into(),
            },
            _ => FormUsed {
                form: None,
                why: "not probed".into(),
            },
        };
        programs.push(ProgramAudit {
            name: entrants[i].name.clone(),
            expected: entrants[i].expected,
            command: entrants[i].program.as_ref().ok().map(|p| p.display()),
            standing,
            form,
            on_data: on_data_ok,
            cases,
            case_time,
            runs: runner.map_or(0, Runner::runs),
            found,
            lines: Vec::new(),
            rows: Vec::new(),
        });
    }
    programs
}

/// What the audit says of one program.
fn standing(
    entrant: &Entrant,
    fatal: Option<String>,
    probed: &Probed,
    on_data: Option<&Result<OnData, NoResult>>,
    tally: Option<Tally>,
    found: &Found,
) -> Standing {
    if let Err(why) = &entrant.program {
        return Standing::CannotRun(why.clone());
    }
    if let Some(why) = fatal {
        return Standing::CannotRun(why);
    }
    match probed {
        Some(Err(Unprobed::CannotRun(why))) => return Standing::CannotRun(why.clone()),
        Some(Err(Unprobed::Cut)) => {
            return Standing::NotAudited(
                "--time ran out, or an interruption came, before its examples ran".into(),
            )
        }
        _ => {}
    }
    if found.first_proof().is_some() {
        return Standing::ProvedWrong;
    }
    if matches!(on_data, Some(Ok(r)) if r.timed_out()) {
        return Standing::TimesOutOnData;
    }
    match tally {
        Some(t) if t.cases > 0 || t.finish == Finish::Exhausted => Standing::NoFinding,
        Some(_) if found.findings.is_empty() => {
            Standing::NotAudited("--time ran out before its first case".into())
        }
        Some(_) => Standing::NoFinding,
        None => Standing::NoFinding,
    }
}

/// Writes every report: one program's in the report directory, or each program's under
/// `programs/NAME/` and the contest's (the strengthening stage's cases among them).
fn write_reports<G: Game>(
    settings: &Settings<G::Options>,
    staging: Staging,
    runners: &[Option<Runner<G>>],
    data: &Data<G::Case>,
    deadlines: &Deadlines,
    report: &mut AuditReport,
) -> Result<(), RunError> {
    let out = &settings.out;
    let io = |e: std::io::Error| RunError::io(out, e);
    match settings.layout {
        Layout::One => {
            let program = &mut report.programs[0];
            let summary = summary_of(program, &report.time_limit, interrupted());
            let (lines, rows) = report::write_program_in::<G>(
                staging,
                settings,
                program.command.as_deref().unwrap_or(""),
                &program.form,
                &program.found,
                &summary,
                &report.inputs,
            )
            .map_err(io)?;
            program.lines = lines;
            program.rows = rows;
            Ok(())
        }
        Layout::Contest => {
            let programs_dir = staging.staged().join("programs");
            std::fs::create_dir_all(&programs_dir).map_err(io)?;
            for program in &mut report.programs {
                let summary = summary_of(program, &report.time_limit, interrupted());
                let dir: PathBuf = programs_dir.join(dir_name(&program.name));
                let program_staging = Staging::new(&dir).map_err(io)?;
                let (lines, rows) = report::write_program_in::<G>(
                    program_staging,
                    settings,
                    program.command.as_deref().unwrap_or(""),
                    &program.form,
                    &program.found,
                    &summary,
                    &[],
                )
                .map_err(io)?;
                program.lines = lines;
                program.rows = rows;
            }
            let started = Instant::now();
            let strengthening =
                strengthening_stage::<G>(settings, runners, data, deadlines, report);
            report.phases.push(("strengthening", started.elapsed()));
            report.interrupted = interrupted();
            let outcome = contest_report::write::<G>(settings, staging, report, strengthening)?;
            report.contest = Some(outcome);
            Ok(())
        }
    }
}

/// What a program's manifest says of it.
fn summary_of(program: &ProgramAudit, limit: &TimeLimit, interrupted: bool) -> ProgramSummary {
    ProgramSummary {
        program: program.command.clone().unwrap_or_default(),
        verdict: contest_report::standing_text(program),
        cases: program.cases,
        runs: program.runs,
        time_limit: limit.describe(),
        existing_data: program.on_data.as_ref().map(OnData::text),
        interrupted,
    }
}

/// The strengthening stage: the candidates from every program's findings, each run by every
/// program as a judge system runs a data file (until the end of `--time`); those that a
/// program which must be accepted (expected accepted, or audited with no finding) fails, or
/// was not checked on, are dropped; the cover of the programs proved wrong that the existing
/// data accepts; the scores.
fn strengthening_stage<G: Game>(
    settings: &Settings<G::Options>,
    runners: &[Option<Runner<G>>],
    data: &Data<G::Case>,
    deadlines: &Deadlines,
    report: &AuditReport,
) -> Strengthening {
    let programs = &report.programs;
    let form = report.problem.form.unwrap_or(G::STATEMENT_FORM);
    let named: Vec<(&str, &Found)> = programs
        .iter()
        .map(|p| (p.name.as_str(), &p.found))
        .collect();
    let known: Vec<&[u8]> = data.files.iter().map(|f| &f.input[..]).collect();
    let (candidates, not_candidates) = candidates::<G>(
        &named,
        &known,
        form,
        settings.rules,
        settings.reference_budget,
    );
    let runnable = |p: usize| runners[p].as_ref().filter(|r| r.fatal().is_none());
    let n = programs.len();
    let pairs: Vec<(usize, usize)> = (0..candidates.len())
        .flat_map(|c| (0..n).map(move |p| (c, p)))
        .collect();
    let outcomes = each_of(pairs.len(), settings.jobs, |k| {
        let (c, p) = pairs[k];
        runnable(p).map_or(OnCase::NotRun, |runner| {
            on_case(runner, &candidates[c], deadlines.end)
        })
    });
    let mut fails = vec![vec![OnCase::NotRun; n]; candidates.len()];
    for (&(c, p), outcome) in pairs.iter().zip(outcomes) {
        fails[c][p] = outcome;
    }
    let keepers: Vec<bool> = (0..n)
        .map(|p| {
            let program = &programs[p];
            runnable(p).is_some()
                && (program.expected == Some(Class::Accepted)
                    || program.standing == Standing::NoFinding)
        })
        .collect();
    let (usable, dropped) = screen(&fails, &keepers, |p| programs[p].name.clone());
    // With no data at all, the empty data accepts every program.
    let no_data = data.files.is_empty();
    let rejected_before: Vec<bool> = programs
        .iter()
        .map(|p| {
            p.on_data
                .as_ref()
                .is_some_and(|r| r.class != Class::Accepted)
        })
        .collect();
    let judged_by_data = |p: usize| no_data || programs[p].on_data.is_some();
    let targets: Vec<usize> = (0..n)
        .filter(|&p| {
            programs[p].standing.proved_wrong() && judged_by_data(p) && !rejected_before[p]
        })
        .collect();
    let sizes: Vec<usize> = candidates.iter().map(|c| c.input.len()).collect();
    let (chosen, uncovered) = cover(&fails, &usable, &targets, &sizes);
    let rejected_after: Vec<bool> = (0..n)
        .map(|p| rejected_before[p] || chosen.iter().any(|&c| fails[c][p] == OnCase::Rejected))
        .collect();
    let scored: Vec<Scored> = (0..n)
        .map(|p| Scored {
            wrong: programs[p]
                .standing
                .counted_wrong()
                .filter(|_| judged_by_data(p)),
            rejected_before: rejected_before[p],
            rejected_after: rejected_after[p],
        })
        .collect();
    Strengthening {
        candidates,
        fails,
        dropped,
        chosen,
        uncovered,
        not_candidates,
        rejected_after,
        scores: scores(&scored),
    }
}

/// How the program of `runner` does on `candidate`, run as a judge system runs a data file
/// (cut at `end`): a failure is run again, and rejects it only when every run fails.
fn on_case<G: Game>(runner: &Runner<G>, candidate: &Candidate, end: Option<Instant>) -> OnCase {
    let limit = runner.time_limit.for_bytes(candidate.input.len());
    let mut failed = 0;
    for run in 0..CONFIRMING_RUNS {
        let Some(tried) = runner
            .run_for(&candidate.input, &candidate.expected, limit, end)
            .filter(|t| !t.cut())
        else {
            return OnCase::NotRun;
        };
        match (tried.kind, run) {
            (None, 0) => return OnCase::Passes,
            (None, _) => return OnCase::Sometimes,
            (Some(_), _) => failed += 1,
        }
    }
    debug_assert_eq!(failed, CONFIRMING_RUNS);
    OnCase::Rejected
}
