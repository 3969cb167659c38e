//! Examining a failing run until it is a finding: narrowed to one case that fails alone (the
//! case whose verdict line is wrong, else by halves), run again before anything is reported (a
//! timeout with twice the time; a failure that does not come back is `flaky`), shrunk to a
//! minimal case that fails the same way ([`super::shrink`]), and for an answer, confirmed by
//! the reference ([`super::confirm`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::confirm::confirm;
use super::finding::{key, Confirmation, Found, Kept};
use super::outcome::{first_unanswered, wrong_cases, Tried};
use super::plan::{judged, Prepared, UnitCase};
use super::probe::Attempt;
use super::program::interrupted;
use super::runner::Runner;
use super::settings::Settings;
use super::shrink::{search_smaller, shrink, Step, SEARCH};
use super::{Kind, Source};
use crate::game::{Case, Constraints, Engine, Form, Game, Judged};

/// How many times a failure is run again before it is reported.
pub const RERUNS: usize = 2;

/// How many times a crash is run again: one that hangs on a buffer's end (overwritten memory
/// whose layout changes from run to run) must crash every time to be reported as it is.
pub const CRASH_RERUNS: usize = 4;

/// The most cases of a failing run tried alone, one by one, when halving finds none.
const MOST_TRIED_ALONE: usize = 64;

/// A failing run of a unit of cases.
#[derive(Debug)]
pub struct Failed<C> {
    /// The unit.
    pub prepared: Arc<Prepared<C>>,
    /// The run.
    pub tried: Tried,
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

/// Examines `failed` into `found` (a known kind of failure is only counted), until the
/// runner's deadline. Whether the program is now proved wrong.
pub fn examine<G: Game>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failed: Failed<G::Case>,
    found: &mut Found,
) -> bool {
    if interrupted() || runner.deadline.is_some_and(|d| Instant::now() >= d) {
        found.unexamined += 1;
        return found.first_proof().is_some();
    }
    let failure = isolate(runner, failed);
    let kind = failure.tried.kind.expect("a failure");
    let key = key(kind, &failure.tried);
    if found.counted(kind, &key) {
        return found.first_proof().is_some();
    }
    let again = reproduce(runner, &failure.input, &failure.tried.expected, kind);
    let kept = if again.all() {
        settle(runner, settings, failure, kind, again)
    } else {
        flaky(failure, kind, &again)
    };
    found.keep(key, kept);
    found.first_proof().is_some()
}

/// Narrows a failing unit to one case that fails alone: the cases whose verdict line is wrong
/// (or from the first verdict missing) first, then halves, then each case; the whole unit when
/// none fails alone.
fn isolate<G: Game>(runner: &Runner<G>, failed: Failed<G::Case>) -> Failure<G::Case> {
    let Failed { prepared, tried } = failed;
    let mut cases = prepared.cases.clone();
    if cases.len() == 1 {
        return Failure {
            case: cases.pop().expect("one case"),
            input: prepared.input.clone(),
            tried,
            batch_only: false,
        };
    }
    let alone = |case: &UnitCase<G::Case>| -> Option<Tried> {
        let input = runner.input_of(std::slice::from_ref(&case.input));
        let (expected, _) = judged::<G>(&input, runner.rules)?;
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
    if let Some(i) = halve(runner, &cases) {
        if let Some(t) = alone(&cases[i]) {
            return found(cases.swap_remove(i), t);
        }
    }
    for i in 0..cases.len().min(MOST_TRIED_ALONE) {
        if let Some(t) = alone(&cases[i]) {
            return found(cases.swap_remove(i), t);
        }
    }
    Failure {
        case: cases.swap_remove(0),
        input: prepared.input.clone(),
        tried,
        batch_only: true,
    }
}

/// Halves `cases` while one half fails on its own: the case it comes down to, if any.
fn halve<G: Game>(runner: &Runner<G>, cases: &[UnitCase<G::Case>]) -> Option<usize> {
    let fails = |range: &std::ops::Range<usize>| -> bool {
        let inputs: Vec<Vec<u8>> = cases[range.clone()]
            .iter()
            .map(|c| c.input.clone())
            .collect();
        runner
            .run_cases(&inputs)
            .is_some_and(|(t, _)| t.kind.is_some() && !t.cut())
    };
    let mut part = 0..cases.len();
    while part.len() > 1 {
        let middle = part.start + part.len() / 2;
        let (front, back) = (part.start..middle, middle..part.end);
        if fails(&front) {
            part = front;
        } else if fails(&back) {
            part = back;
        } else {
            return None;
        }
    }
    Some(part.start)
}

/// How a failure came back when run again alone.
struct Reproduction {
    /// Runs, the first observation included, and how many failed.
    runs: usize,
    failed: usize,
    /// The audit's deadline cut a run short.
    cut: bool,
    /// The longest of the runs again.
    slowest: Duration,
    /// The other kinds the runs again failed with (a timeout that, with twice the time,
    /// ends in a wrong answer).
    other_kinds: Vec<Kind>,
}

impl Reproduction {
    /// Whether the failure came back every time it was run to its end, once at least.
    fn all(&self) -> bool {
        self.runs >= 2 && self.failed == self.runs
    }

    fn text(&self) -> String {
        let mut text = format!("reproduced {}/{}", self.failed, self.runs);
        if !self.other_kinds.is_empty() {
            let kinds: Vec<&str> = self.other_kinds.iter().map(|k| k.as_str()).collect();
            text.push_str(&format!(" (again as {})", kinds.join(", ")));
        }
        if self.cut {
            text.push_str(", then --time ran out");
        }
        text
    }
}

/// Runs `input` again [`RERUNS`] times, a timeout with twice the time: every run that ends
/// fails (the same way, or another).
fn reproduce<G: Game>(
    runner: &Runner<G>,
    input: &[u8],
    expected: &str,
    kind: Kind,
) -> Reproduction {
    reproduce_after(runner, input, expected, kind, 1)
}

/// [`reproduce`], the failure already seen `seen` times: [`RERUNS`] + 1 runs in all
/// ([`CRASH_RERUNS`] + 1 for a crash).
fn reproduce_after<G: Game>(
    runner: &Runner<G>,
    input: &[u8],
    expected: &str,
    kind: Kind,
    seen: usize,
) -> Reproduction {
    let factor = if kind == Kind::Timeout { 2 } else { 1 };
    let mut again = Reproduction {
        runs: seen,
        failed: seen,
        cut: false,
        slowest: Duration::ZERO,
        other_kinds: Vec::new(),
    };
    let reruns = if kind == Kind::Crash {
        CRASH_RERUNS
    } else {
        RERUNS
    };
    for _ in seen..=reruns {
        let tried = runner.run_slower(input, expected, factor);
        let Some(tried) = tried.filter(|t| !t.cut()) else {
            again.cut = true;
            break;
        };
        again.runs += 1;
        again.slowest = again.slowest.max(tried.run.elapsed);
        if let Some(seen) = tried.kind {
            again.failed += 1;
            if seen != kind && !again.other_kinds.contains(&seen) {
                again.other_kinds.push(seen);
            }
        }
    }
    again
}

/// The shrunk cases of `failure`, within its share of the time: the shrinker's chain, then
/// for a wrong answer stuck on a larger case, the chain from a smaller one that fails the same
/// way. The steps, and where the search's steps begin.
fn shrunk<G: Game>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failure: &Failure<G::Case>,
    kind: Kind,
) -> (Vec<Step<G::Case>>, Option<usize>) {
    let now = Instant::now();
    let share = runner.deadline.map_or(settings.shrink_time, |d| {
        d.saturating_duration_since(now) / 2
    });
    let until = now + settings.shrink_time.min(share);
    let keep_inside =
        settings.constraints == Constraints::Contest && failure.case.outside.is_none();
    let mut steps = shrink(runner, &failure.case.case, kind, keep_inside, until);
    let mut searched_from = None;
    if kind == Kind::WrongAnswer {
        let (case, tried) = steps
            .last()
            .map_or((&failure.case.case, &failure.tried), |(c, t)| (c, t));
        let size = case.input().len();
        let found = search_smaller(runner, case, tried, kind, keep_inside, until, settings.seed);
        if found.last().is_some_and(|(c, _)| c.input().len() < size) {
            searched_from = Some(steps.len());
            steps.extend(found);
        }
    }
    (steps, searched_from)
}

/// A reproduced failure, shrunk, reproduced again, confirmed.
fn settle<G: Game>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failure: Failure<G::Case>,
    kind: Kind,
    again: Reproduction,
) -> Kept {
    let (mut steps, searched_from) = if failure.batch_only {
        (Vec::new(), None)
    } else {
        shrunk(runner, settings, &failure, kind)
    };
    // The smallest shrunk case that reproduces; else the case as found.
    let mut reproduction = again;
    let mut chosen: Option<Step<G::Case>> = None;
    while let Some((case, tried)) = steps.pop() {
        let input = runner.input_of(std::slice::from_ref(&case.input()));
        let again = reproduce(runner, &input, &tried.expected, kind);
        if again.all() {
            reproduction = again;
            chosen = Some((case, tried));
            break;
        }
    }
    let shrink_steps = steps.len() + usize::from(chosen.is_some());
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
    let judged = G::judge(Engine::Fast, &mut &single[..], settings.rules).ok();
    let mut notes = Vec::new();
    let (confirmed, reported) = if kind.about_the_answer() {
        let confirmation = confirm::<G>(
            &input,
            &tried.run.stdout,
            settings.rules,
            settings.reference_budget,
        );
        notes.push(reproduction.text());
        let reported = match confirmation {
            Confirmation::Disputed(_) => Kind::EngineDisputed,
            _ => kind,
        };
        (confirmation.text(), reported)
    } else {
        (reproduction.text(), kind)
    };
    if searched_from.is_some_and(|from| shrink_steps > from) {
        notes.push(format!(
            "stuck at a larger case, shrinking went on from a smaller one failing the same way \
             (among {SEARCH} small random cases)"
        ));
    }
    Kept {
        kind: reported,
        seen: kind,
        source: failure.case.source.clone(),
        shape: (!failure.batch_only).then(|| case.shape_label()),
        outside: if failure.batch_only {
            failure.case.outside.clone()
        } else {
            judged
                .as_ref()
                .and_then(|js| js.iter().find_map(G::outside_contest))
        },
        size: judged.map(|js| size_of::<G>(&js)),
        case: single,
        input,
        tried,
        confirmed,
        shrink_steps,
        batch_only: failure.batch_only,
        notes,
    }
}

/// The size of the cases `judged` as the game counts it: `12 moves`, `16 squares`.
fn size_of<G: Game>(judged: &[G::Judgement]) -> String {
    let size: u64 = judged.iter().map(Judged::size).sum();
    match G::STEP {
        "" => format!("{size} squares"),
        step => format!("{size} {step}{}", if size == 1 { "" } else { "s" }),
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
        size: None,
        notes,
    }
}

/// The finding of a program whose output fits no form: its attempt in the problem's form (or
/// the first tried), run again (a timed-out attempt already ran twice), then shrunk in that
/// form from the second example like any other finding; the other attempts said. `reads`:
/// the form it fits instead of the problem's.
pub fn no_form<G: Game>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    attempts: &[Attempt],
    reads: Option<Form>,
) -> Kept {
    let attempt = &attempts[0];
    let kind = attempt.tried.kind.unwrap_or(Kind::WrongAnswer);
    let runner = runner.reformed(attempt.form);
    let seen = if attempt.timed_out_twice { 2 } else { 1 };
    let again = reproduce_after(&runner, &attempt.input, &attempt.tried.expected, kind, seen);
    let example = G::PROBES[1].as_bytes();
    let case = G::Case::from_input(example, settings.rules)
        .ok()
        .and_then(|mut cases| cases.pop())
        .expect("the statement's example is a case");
    let failure = Failure {
        case: UnitCase {
            source: Source::Examples,
            case,
            input: example.to_vec(),
            outside: None,
        },
        input: attempt.input.clone(),
        tried: attempt.tried.clone(),
        batch_only: false,
    };
    let mut kept = if again.all() {
        settle(&runner, settings, failure, kind, again)
    } else {
        flaky(failure, kind, &again)
    };
    kept.notes.insert(
        0,
        match reads {
            Some(form) => format!(
                "it does not read the problem's {} form, its output fits the {} form",
                attempt.form.as_str(),
                form.as_str()
            ),
            None => format!(
                "its output fits no input form: {}",
                attempts
                    .iter()
                    .map(Attempt::summary)
                    .collect::<Vec<_>>()
                    .join("; ")
            ),
        },
    );
    kept
}
