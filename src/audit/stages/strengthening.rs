//! The strengthening: the candidates from every program's findings, run by every program as a
//! judge system runs a data file; the cover added to the data.

use super::records::Recorded;
use crate::audit::terms::Auditable;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use crate::audit::cases::data::{Data, ProblemForm};
use crate::audit::findings::finding::ProgramFindings;
use crate::audit::reports::audited::OnCase;
use crate::audit::reports::audited::{ProgramRecord, Reached, TestRecord};
use crate::audit::reports::report::ReportFile;
use crate::audit::running::deadlines::Deadlines;
use crate::audit::running::runner::Runner;
use crate::audit::settings::Settings;
use crate::audit::strengthen::CONFIRMING_RUNS;
use crate::audit::strengthen::{
    candidates, finding_of, proves_wrong_on_candidate, strengthening_set, Candidate, Trial,
};
use crate::audit::terms::layout::Layout;
use crate::audit::terms::outcome::Tried;
use crate::package::edit::PackageEdit;
use crate::util::error::RunError;
use crate::util::pool::each_of;

/// What the strengthening stage chose.
pub(in crate::audit) struct Strengthened {
    pub(in crate::audit) tests: Vec<TestRecord>,
    pub(in crate::audit) files: Vec<ReportFile>,
    pub(in crate::audit) dropped: Vec<String>,
    pub(in crate::audit) not_candidates: Vec<String>,
}

/// The strengthening stage: the candidates from every program's findings, each run by every
/// program as a judge system runs a data file (until the end of `--time`); a program with no
/// finding that a candidate proves wrong gets it as its finding (its record made again); the
/// candidates that a program which must be accepted fails, or was not checked on, are
/// dropped; the cover of the programs proved wrong that the existing data accepts, added to
/// `--add-to`'s package.
pub(in crate::audit) fn strengthening_stage<G: Auditable>(
    recorded: &mut [Recorded<G>],
    data: &Data<G::Case>,
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
    edit: Option<&mut PackageEdit>,
) -> Result<Strengthened, RunError> {
    let form = problem.form.unwrap_or(G::STATEMENT_FORM);
    let named: Vec<(&str, &ProgramFindings)> = recorded
        .iter()
        .filter_map(|r| Some((r.record.name.as_str(), r.subject.found()?)))
        .collect();
    let known: Vec<&[u8]> = data.files.iter().map(|f| &f.input[..]).collect();
    let (candidates, not_candidates) = candidates::<G>(
        &named,
        &known,
        form,
        settings.rules,
        settings.reference_budget,
    );
    let (trials, rejections) = on_every_case(recorded, candidates, settings.jobs, deadlines.end);
    let mut files = proved_by_candidates(recorded, &trials, rejections, settings.rules);
    let programs: Vec<&ProgramRecord> = recorded.iter().map(|r| &r.record).collect();
    let (chosen, dropped) = strengthening_set(&trials, &programs);
    let added = added_to_package(edit, &chosen)?;
    let tests = chosen
        .iter()
        .zip(added)
        .enumerate()
        .map(|(k, (&trial, added_as))| {
            let candidate = &trial.candidate;
            let parts = [
                candidate.input.clone(),
                candidate.expected.as_bytes().to_vec(),
            ];
            for (ext, bytes) in Layout::TEST_PARTS.into_iter().zip(parts) {
                files.push(ReportFile {
                    path: Layout::test(k, ext),
                    bytes,
                });
            }
            TestRecord {
                file: Layout::test(k, "in"),
                added_as,
                from: candidate.from.clone(),
                bytes: candidate.input.len(),
                size: candidate.size.clone(),
                on: trial.on.clone(),
            }
        })
        .collect();
    Ok(Strengthened {
        tests,
        files,
        dropped,
        not_candidates,
    })
}

/// The `chosen` trials' candidates added to the package being edited (`--add-to`), when
/// there is one: the name each will be added as.
fn added_to_package(
    edit: Option<&mut PackageEdit>,
    chosen: &[&Trial],
) -> Result<Vec<Option<String>>, RunError> {
    let Some(edit) = edit else {
        return Ok(vec![None; chosen.len()]);
    };
    let inputs: Vec<&[u8]> = chosen.iter().map(|t| &t.candidate.input[..]).collect();
    let answers: Vec<&str> = chosen
        .iter()
        .map(|t| t.candidate.expected.as_str())
        .collect();
    Ok(
        crate::package::add::add_to_package(edit, &inputs, &answers)?
            .into_iter()
            .map(Some)
            .collect(),
    )
}

/// Each program with no finding that a candidate proves wrong ([`ProgramRecord::unproven`],
/// [`proves_wrong_on_candidate`]; of `rejections`, the first trial that does) gets it as its
/// finding, and its record is made again. The files of those findings.
fn proved_by_candidates<G: Auditable>(
    recorded: &mut [Recorded<G>],
    trials: &[Trial],
    rejections: Vec<Rejection>,
    rules: G::Options,
) -> Vec<ReportFile> {
    let mut files = Vec::new();
    let mut proved: Vec<usize> = Vec::new();
    for Rejection {
        trial,
        program,
        last: tried,
    } in rejections
    {
        let proves = tried.kind.is_some_and(proves_wrong_on_candidate);
        if proved.contains(&program) || !proves {
            continue;
        }
        let subject = &mut recorded[program].subject;
        let candidate = &trials[trial].candidate;
        let limit = subject.runner.as_ref().map_or(Duration::ZERO, |r| {
            r.time_limit.for_bytes(candidate.input.len())
        });
        let Some(found) = subject.found_mut() else {
            continue;
        };
        found.keep(None, finding_of(candidate, tried, limit));
        proved.push(program);
        files.extend(recorded[program].record_again(rules));
    }
    files
}

/// A trial that a program failed on every run.
struct Rejection {
    /// The trial, by its place among the trials.
    trial: usize,
    /// The program, by its place among the programs.
    program: usize,
    /// The last failing run.
    last: Tried,
}

/// What a program is to a strengthening case, before any case proves it wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Role {
    /// It must pass every case ([`ProgramRecord::must_pass`]).
    MustPass,
    /// The cases are to reject it ([`ProgramRecord::to_reject`]).
    ToReject,
    /// Neither: its runs are for the report.
    Other,
}

impl Role {
    fn of(program: &ProgramRecord) -> Role {
        if program.must_pass() {
            Role::MustPass
        } else if program.to_reject() {
            Role::ToReject
        } else {
            Role::Other
        }
    }
}

/// How each program does on each candidate, `jobs` runs at once, cut at `end` (a program that
/// cannot run does not run them): the trials, and each rejection of an
/// [`unproven`](ProgramRecord::unproven) program, in the trials' order.
fn on_every_case<G: Auditable>(
    recorded: &[Recorded<G>],
    candidates: Vec<Candidate>,
    jobs: usize,
    end: Option<Instant>,
) -> (Vec<Trial>, Vec<Rejection>) {
    let roles: Vec<Role> = recorded.iter().map(|r| Role::of(&r.record)).collect();
    // A candidate from the finding of a program the data accepts rejects at least that one.
    let useful: Vec<bool> = candidates
        .iter()
        .map(|c| {
            recorded
                .iter()
                .any(|r| r.record.name == c.program && r.record.to_reject())
        })
        .collect();
    let pairs = screening_order(&useful, &roles);
    let outcomes = each_of(pairs.len(), jobs, |k| {
        let (c, p) = pairs[k];
        let Recorded { subject, record } = &recorded[p];
        let runnable = subject
            .runnable()
            .filter(|_| !matches!(record.outcome, Reached::CannotRun { .. }));
        runnable.map_or((OnCase::NotRun, None), |runner| {
            on_case(runner, &candidates[c], end)
        })
    });
    let mut trials: Vec<Trial> = candidates
        .into_iter()
        .map(|candidate| Trial {
            candidate,
            on: BTreeMap::new(),
        })
        .collect();
    let mut rejections = Vec::new();
    for (&(c, p), (outcome, last)) in pairs.iter().zip(outcomes) {
        let record = &recorded[p].record;
        trials[c].on.insert(record.name.clone(), outcome);
        if let (OnCase::Rejected, Some(last), true) = (outcome, last, record.unproven()) {
            rejections.push(Rejection {
                trial: c,
                program: p,
                last,
            });
        }
    }
    rejections.sort_by_key(|r| (r.trial, r.program));
    (trials, rejections)
}

/// The order of the strengthening's runs, (candidate, program) pairs of every candidate and
/// every program (of `roles`): the runs that decide whether a candidate is usable first, every
/// program that must pass on every candidate, the `useful` candidates (from the finding of a
/// program the data accepts) before the others; then the programs a candidate is to reject;
/// then the others (for the report). A budget that ends early leaves the last runs undone,
/// not the screening of the candidates that can strengthen the data.
fn screening_order(useful: &[bool], roles: &[Role]) -> Vec<(usize, usize)> {
    let mut pairs: Vec<(usize, usize)> = (0..useful.len())
        .flat_map(|c| (0..roles.len()).map(move |p| (c, p)))
        .collect();
    pairs.sort_by_key(|&(c, p)| (roles[p], !useful[c], c));
    pairs
}

/// How the program of `runner` does on `candidate`, run as a judge system runs a data file
/// (cut at `end`): a failure is run again, and rejects it only when every run fails (the last
/// failing run with it).
fn on_case<G: Auditable>(
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
        use Role::*;
        let order = screening_order(&[false, true], &[MustPass, ToReject, Other, MustPass]);
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
