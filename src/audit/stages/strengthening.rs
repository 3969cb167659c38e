//! The strengthening: the candidates from every program's findings, run by every program as a
//! judge system runs a data file; the cover added to the data.

use super::Subject;
use crate::audit::Auditable;
use std::time::Instant;

use crate::audit::audited::OnCase;
use crate::audit::audited::{ProgramRecord, Reached, TestRecord};
use crate::audit::data::{Data, ProblemForm};
use crate::audit::deadlines::Deadlines;
use crate::audit::finding::ProgramFindings;
use crate::audit::layout::Layout;
use crate::audit::outcome::Tried;
use crate::audit::report::ReportFile;
use crate::audit::runner::Runner;
use crate::audit::settings::Settings;
use crate::audit::strengthen::CONFIRMING_RUNS;
use crate::audit::strengthen::{
    candidates, cover, finding_of, proves_wrong_on_candidate, screen, to_reject, Candidate,
};
use crate::error::RunError;
use crate::pool::each_of;

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
    subjects: &mut [Subject<G>],
    programs: &mut [ProgramRecord],
    data: &Data<G::Case>,
    problem: &ProblemForm,
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
) -> Result<Strengthened, RunError> {
    let form = problem.form.unwrap_or(G::STATEMENT_FORM);
    let named: Vec<(&str, &ProgramFindings)> = subjects
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
    let must_pass: Vec<bool> = programs.iter().map(ProgramRecord::must_pass).collect();
    let (usable, dropped) = screen(&fails, &must_pass, |p| programs[p].name.clone());
    let sizes: Vec<usize> = candidates.iter().map(|c| c.input.len()).collect();
    let (chosen, _) = cover(&fails, &usable, &to_reject(programs), &sizes);
    let added = added_to_package(settings.add_to.as_deref(), &candidates, &chosen)?;
    let tests = chosen
        .iter()
        .zip(added)
        .enumerate()
        .map(|(k, (&c, added_as))| {
            let candidate = &candidates[c];
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
                on: programs
                    .iter()
                    .zip(&fails[c])
                    .map(|(p, &on)| (p.name.clone(), on))
                    .collect(),
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

/// The `chosen` candidates added to `package` (`--add-to`), when there is one: the name each
/// was added as.
fn added_to_package(
    package: Option<&std::path::Path>,
    candidates: &[Candidate],
    chosen: &[usize],
) -> Result<Vec<Option<String>>, RunError> {
    let Some(package) = package else {
        return Ok(vec![None; chosen.len()]);
    };
    let inputs: Vec<&[u8]> = chosen.iter().map(|&c| &candidates[c].input[..]).collect();
    let answers: Vec<&str> = chosen
        .iter()
        .map(|&c| candidates[c].expected.as_str())
        .collect();
    Ok(
        crate::judge_system::package::add::add_to_package(package, &inputs, &answers)?
            .into_iter()
            .map(Some)
            .collect(),
    )
}

/// Each program with no finding that a candidate proves wrong ([`ProgramRecord::unproven`],
/// [`proves_wrong_on_candidate`]; of `rejections`, the first candidate that does) gets it as
/// its finding, and its record is made again. The files of those findings.
pub(in crate::audit) fn proved_by_candidates<G: Auditable>(
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
        let (record, written) = super::records::record::<G>(&subjects[p], settings.rules);
        programs[p] = record;
        files.extend(written);
    }
    files
}

/// How each program did on each candidate.
pub(in crate::audit) struct Screened {
    /// `[candidate][program]`.
    fails: Vec<Vec<OnCase>>,
    /// Each rejection of an [`unproven`](ProgramRecord::unproven) program, in candidate order.
    rejections: Vec<Rejection>,
}

/// A candidate that a program failed on every run.
pub(in crate::audit) struct Rejection {
    candidate: usize,
    program: usize,
    /// The last failing run.
    last: Tried,
}

/// How each program does on each candidate, `jobs` runs at once, cut at `end`; a program that
/// cannot run does not run them.
pub(in crate::audit) fn on_every_case<G: Auditable>(
    subjects: &[Subject<G>],
    programs: &[ProgramRecord],
    candidates: &[Candidate],
    jobs: usize,
    end: Option<Instant>,
) -> Screened {
    let n = subjects.len();
    let to_reject = to_reject(programs);
    // A candidate from the finding of a program the data accepts rejects at least that one.
    let useful: Vec<bool> = candidates
        .iter()
        .map(|c| to_reject.iter().any(|&p| programs[p].name == c.program))
        .collect();
    let must_pass: Vec<bool> = programs.iter().map(ProgramRecord::must_pass).collect();
    let pairs = screening_order(&useful, &must_pass, &to_reject);
    let outcomes = each_of(pairs.len(), jobs, |k| {
        let (c, p) = pairs[k];
        let runnable = subjects[p]
            .runnable()
            .filter(|_| !matches!(programs[p].outcome, Reached::CannotRun { .. }));
        runnable.map_or((OnCase::NotRun, None), |runner| {
            on_case(runner, &candidates[c], end)
        })
    });
    let mut fails = vec![vec![OnCase::NotRun; n]; candidates.len()];
    let mut rejections = Vec::new();
    for (&(c, p), (outcome, last)) in pairs.iter().zip(outcomes) {
        fails[c][p] = outcome;
        if let (OnCase::Rejected, Some(last), true) = (outcome, last, programs[p].unproven()) {
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
pub(in crate::audit) fn screening_order(
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
pub(in crate::audit) fn on_case<G: Auditable>(
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
