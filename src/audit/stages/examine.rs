//! The stages that examine the programs: the probe, the existing data, the repeated runs, the
//! cases, and the programs whose output fits no form.

use super::{stopped, Stage, Subject, FIRST_CASES};
use crate::audit::terms::Auditable;
use std::time::{Duration, Instant};

use crate::audit::cases::data::{self, Data, DataOutcome, ProblemForm};
use crate::audit::cases::plan::{FileCases, Plan, PlanSpec};
use crate::audit::cases::probe::{self, Fit};
use crate::audit::entrants::Entrant;
use crate::audit::findings::failure::Finding;
use crate::audit::findings::finding::ProgramFindings;
use crate::audit::findings::settle::no_form;
use crate::audit::reports::audited::{CasesOutcome, FormUsed};
use crate::audit::running::deadlines::{Deadlines, Meter};
use crate::audit::running::runner::{Runner, TimeLimit};
use crate::audit::settings::Settings;
use crate::audit::stages::schedule::{run_cases, Lane};
use crate::audit::terms::Class;
use crate::game::Form;
use crate::util::pool::each_of;

/// The probe: each program that can run, on the statement's examples.
pub(in crate::audit) fn probe_stage<G: Auditable>(
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
pub(in crate::audit) fn data_stage<G: Auditable>(
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
pub(in crate::audit) fn screening_meters<G: Auditable>(subjects: &[Subject<G>]) -> Vec<Meter> {
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
/// ([`crate::audit::limits::repeat`]).
pub(in crate::audit) fn limits_stage<G: Auditable>(
    subjects: &[Subject<G>],
    data: &Data<G::Case>,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> Option<crate::audit::limits::Advice> {
    let programs: Vec<(&Entrant, &Runner<G>)> = subjects
        .iter()
        .filter(|s| matches!(s.stage, Stage::Tried(_, DataOutcome::Ran(_))))
        .filter_map(|s| s.runnable().map(|r| (s.entrant, r)))
        .collect();
    crate::audit::limits::repeat::advise(
        &programs,
        &data.files,
        &settings.advising,
        settings.limits.cpu,
        deadlines.repeats(),
        settings.jobs,
    )
}

/// What the cases stage did.
pub(in crate::audit) struct CasesFacts {
    pub(in crate::audit) judged: u64,
    pub(in crate::audit) dropped: u64,
    pub(in crate::audit) batch: usize,
    pub(in crate::audit) elapsed: Duration,
}

/// Whether a subject takes cases: its output fits a form, it does not time out on the data,
/// and it can run.
pub(in crate::audit) fn takes_cases<G: Auditable>(subject: &Subject<G>) -> bool {
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
pub(in crate::audit) fn cases_stage<G: Auditable>(
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
            found: std::sync::Mutex::new(ProgramFindings::new(settings.max_findings)),
        })
        .collect();
    let target = settings.cases.unwrap_or(FIRST_CASES);
    let total = settings.cases.unwrap_or(0) * lanes.len() as u64;
    let bar = crate::util::pool::progress(total as usize, "auditing", "cases");
    let started = Instant::now();
    let (tallies, dropped) = if lanes.is_empty() {
        (Vec::new(), 0)
    } else {
        run_cases(&plan, &lanes, settings, deadlines, target, &bar)
    };
    bar.finish_and_clear();
    let elapsed = started.elapsed();
    let mut taken: Vec<Option<(ProgramFindings, crate::audit::reports::audited::Tally)>> =
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
pub(in crate::audit) fn plan_spec<G: Auditable>(
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
pub(in crate::audit) fn examined(
    stage: Stage,
    taken: Option<(ProgramFindings, crate::audit::reports::audited::Tally)>,
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
            found: ProgramFindings::new(max_findings),
        },
        (stage, _, _) => stage,
    }
}

/// The finding of each program whose output fits no form: its attempt, run again and shrunk.
pub(in crate::audit) fn no_form_stage<G: Auditable>(
    subjects: &mut [Subject<G>],
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) {
    let no_form_findings: Vec<Option<Finding>> = each_of(subjects.len(), settings.jobs, |i| {
        let subject = &subjects[i];
        match (&subject.stage, subject.runnable()) {
            (Stage::Tried(Fit::NoForm { attempts, reads }, _), Some(runner)) => {
                Some(no_form::<G>(runner, settings, attempts, *reads))
            }
            _ => None,
        }
    });
    for (subject, finding) in subjects.iter_mut().zip(no_form_findings) {
        let fatal = subject.runner.as_ref().and_then(Runner::fatal);
        subject.advance(|stage| match (stage, finding, fatal) {
            (Stage::Tried(..), _, Some(why)) => Stage::CannotRun(why),
            (Stage::Tried(Fit::NoForm { attempts, .. }, on_data), Some(finding), None) => {
                let mut found = ProgramFindings::new(settings.max_findings);
                if found.keep(None, finding) {
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
