//! The repeated runs the limits' advice is made of (`--repeat K`): each program expected
//! accepted, to time out or to run out of memory runs every data file K times, its CPU time and
//! peak memory kept each time ([`crate::audit::limits::Measured`]).
//!
//! The programs expected accepted run first, each run held to `--timeout`; their times give the
//! limit. The others then run with a cap just over that limit times `time_limit_to_tle` (a run
//! stopped there is known to fail beyond the margin, which is all the advice asks of it), and a
//! file's runs stop at its first failure: what follows a failure says nothing more. Runs are
//! spread over `--jobs`, one program's file at a time, and end at the stage's deadline (a
//! file's runs so far are kept).

use crate::audit::terms::Auditable;
use std::time::{Duration, Instant};

use crate::audit::cases::data::DataFile;
use crate::audit::entrants::Entrant;
use crate::audit::limits::{self, Advice, Advising, FileRuns, Measured};
use crate::audit::running::runner::{NoAnswer, Runner};
use crate::audit::terms::Class;
use crate::audit::terms::Kind;
use crate::util::pool::each_of;

/// The cap of a run of a program expected to fail, as a multiple of the limit times
/// `time_limit_to_tle`: enough to show a run stopped there failed beyond the margin.
const CAP_OVER_MARGIN: f64 = 1.25;

/// Measures `programs` (each with its runner) on `files` and advises; `None` when there is
/// nothing to advise on (no repeats asked, no data, or no program expected accepted that can
/// run). `most` is `--timeout`, `cut` the stage's deadline.
pub fn advise<G: Auditable>(
    programs: &[(&Entrant, &Runner<G>)],
    files: &[DataFile<G::Case>],
    advising: &Advising,
    most: Duration,
    cut: Option<Instant>,
    jobs: usize,
) -> Option<Advice> {
    let of = |classes: &[Class]| -> Vec<(&Entrant, &Runner<G>)> {
        programs
            .iter()
            .filter(|(e, _)| e.expected.is_some_and(|c| classes.contains(&c)))
            .copied()
            .collect()
    };
    let accepted = of(&[Class::Accepted]);
    if advising.repeat == 0 || files.is_empty() || accepted.is_empty() {
        return None;
    }
    let mut measured = measure(&accepted, files, advising.repeat, most, cut, jobs);
    let first = limits::advise(
        measured.clone(),
        advising.rules.clone(),
        advising.set_memory_mib,
        advising.repeat,
    );
    let cap = match advising.rules.time_limit.or(first.time_limit) {
        Some(limit) => {
            Duration::from_secs_f64(limit * advising.rules.time_limit_to_tle * CAP_OVER_MARGIN)
                .min(most)
        }
        None => most,
    };
    let failing = of(&[Class::TimeLimitExceeded, Class::MemoryLimitExceeded]);
    measured.extend(measure(&failing, files, advising.repeat, cap, cut, jobs));
    Some(limits::advise(
        measured,
        advising.rules.clone(),
        advising.set_memory_mib,
        advising.repeat,
    ))
}

/// Each program's `repeat` runs on each file, every run given `cap` of CPU time.
fn measure<G: Auditable>(
    programs: &[(&Entrant, &Runner<G>)],
    files: &[DataFile<G::Case>],
    repeat: usize,
    cap: Duration,
    cut: Option<Instant>,
    jobs: usize,
) -> Vec<Measured> {
    let items = programs.len() * files.len();
    let mut runs = each_of(items, jobs, |i| {
        let (_, runner) = programs[i / files.len()];
        runs_on(runner, &files[i % files.len()], repeat, cap, cut)
    })
    .into_iter();
    programs
        .iter()
        .map(|(entrant, _)| Measured {
            program: entrant.name.clone(),
            class: entrant.expected.unwrap_or(Class::Accepted),
            language: entrant.language.clone(),
            files: runs.by_ref().take(files.len()).collect(),
        })
        .collect()
}

/// Up to `repeat` runs of `runner`'s program on `file`, stopping at its first failure.
fn runs_on<G: Auditable>(
    runner: &Runner<G>,
    file: &DataFile<G::Case>,
    repeat: usize,
    cap: Duration,
    cut: Option<Instant>,
) -> FileRuns {
    let mut runs = FileRuns {
        file: file.name.clone(),
        cpu: Vec::new(),
        memory: Vec::new(),
        failed: None,
    };
    for _ in 0..repeat {
        match runner.run_to_end(&file.input, &file.expected, cap, cut) {
            Ok(tried) => {
                let cpu = match tried.kind {
                    // Stopped at the cap (or at the wall-clock cap): at least the cap.
                    Some(Kind::Timeout) => tried.run.cpu.max(cap),
                    _ => tried.run.cpu,
                };
                runs.cpu.push(cpu.as_secs_f64());
                runs.memory.push(tried.run.memory);
                if tried.kind.is_some() {
                    runs.failed = tried.kind;
                    break;
                }
            }
            Err(NoAnswer::Cut | NoAnswer::CannotRun(_)) => break,
        }
    }
    runs
}
