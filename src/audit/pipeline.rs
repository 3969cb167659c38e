//! The audit of any number of programs, stage by stage (see the [module](super) documentation):
//! data, probe, the existing data, the cases, the programs that fit no form, strengthening,
//! reports. Auditing one program is a contest of one, through the same stages.
//! The stages are [`super::stages`]'s; this orchestrates them and returns the typed report.

use crate::audit::terms::Auditable;
use std::time::Instant;

use super::limits::Advice;
use super::settings::Settings;
use super::stages::*;
use crate::audit::cases::data::{self, Data, ProblemForm};
use crate::audit::entrants::Entrant;
use crate::audit::reports::audited::{AuditReport, Effort};
use crate::audit::reports::sink::Audited;
use crate::audit::running::deadlines::{BudgetSpent, Deadlines};
use crate::audit::running::runner::TimeLimit;
use crate::game::{Form, RuleSet};
use crate::package::edit::PackageEdit;
use crate::util::error::RunError;
use referee_sandbox::Reaper;

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

/// Audits `entrants` as judges of `G`: every stage, then the typed report for the sinks
/// ([`crate::audit::reports::sink`]). An error when the run cannot start (paths, the data); a program that
/// cannot be run is a standing. The strengthening cases and advised limits go into `edit`
/// (`--add-to`'s package, begun before any work), returned in [`Audited`] to be committed.
pub fn audit<G: Auditable>(
    settings: &Settings<G::Options>,
    entrants: &[Entrant],
    mut notes: Vec<String>,
    mut edit: Option<PackageEdit>,
) -> Result<Audited, RunError> {
    let _reaper = Reaper::adopt();
    let deadlines = Deadlines::new(settings.time, settings.jobs, settings.interrupt.clone());
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
    let examined = examine(
        &mut subjects,
        &data,
        &problem,
        settings,
        &deadlines,
        &mut phases,
    );
    let (mut recorded, mut files) = records::<G>(subjects, settings.rules);
    let strengthened = strengthening_stage(
        &mut recorded,
        &data,
        &problem,
        settings,
        &deadlines,
        edit.as_mut(),
    )?;
    phases.end("strengthening");
    let mut limits = examined.limits;
    if let (Some(edit), Some(advice)) = (edit.as_mut(), limits.as_mut()) {
        add_limits(edit, advice, data.files.len())?;
    }
    let programs = recorded.into_iter().map(|r| r.record).collect();
    files.extend(strengthened.files);
    let cases = examined.cases;
    let report = AuditReport {
        game: G::NAME.to_string(),
        rules: settings.rules.name().to_string(),
        strict: settings.strict,
        problem,
        time_limit: examined.time_limit,
        memory_limit: settings.limits.memory,
        max_output: settings.limits.max_output as u64,
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
            budget: examined.budget,
        },
        interrupted: settings.interrupt.interrupted(),
        limits,
    };
    Ok(Audited {
        report,
        files,
        found: data.found,
        edit,
    })
}

/// Writes the advised limits into the package being edited (`--add-to`) when every accepted
/// program ran its repeats on each of the `data_files`, saying in `advice` what changed or why
/// nothing was written.
fn add_limits(
    edit: &mut PackageEdit,
    advice: &mut Advice,
    data_files: usize,
) -> Result<(), RunError> {
    advice.written = match advice.missing(data_files) {
        Some(missing) => vec![format!("no limit written: {missing}")],
        None => crate::package::limits::write_limits(
            edit,
            &advice.to_write(),
            advice.rules.sets_time_limit(),
        )?,
    };
    Ok(())
}

/// What the stages that examine the programs gave.
struct Examination {
    time_limit: TimeLimit,
    limits: Option<Advice>,
    cases: CasesFacts,
    budget: Option<BudgetSpent>,
}

/// The stages that examine the programs, in order: the probe, the existing data, the repeated
/// runs, the cases, the programs that fit no form.
fn examine<G: Auditable>(
    subjects: &mut [Subject<G>],
    data: &Data<G::Case>,
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
    phases: &mut Phases,
) -> Examination {
    probe_stage(subjects, problem, settings);
    phases.end("probe");
    let time_limit = data_stage(subjects, data, settings, deadlines);
    deadlines.screened_by(screening_meters(subjects));
    phases.end("existing data");
    let limits = limits_stage(subjects, data, settings, deadlines);
    phases.end("repeated runs");
    let cases = cases_stage(subjects, data, problem, settings, deadlines);
    phases.end("cases");
    no_form_stage(subjects, settings, deadlines);
    phases.end("programs that fit no form");
    Examination {
        time_limit,
        limits,
        cases,
        budget: deadlines.spent(),
    }
}
