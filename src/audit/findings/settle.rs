//! Examining a failing run until it is a finding: narrowed to one case that fails alone
//! ([`crate::audit::findings::narrow`]), run again before anything is reported (a timeout with twice the time;
//! a failure that does not come back is `flaky`), shrunk to a minimal case that fails the same
//! way ([`crate::audit::findings::shrink`]), and for an answer, confirmed by the reference
//! ([`crate::audit::findings::confirm`]).

use crate::audit::terms::Auditable;
use std::time::Instant;

use crate::audit::cases::plan::UnitCase;
use crate::audit::cases::probe::Attempt;
use crate::audit::findings::confirm::confirm;
use crate::audit::findings::evidence::{Confirmation, Evidence, Reruns};
use crate::audit::findings::failure::{Failure, Finding, Isolated, Seen, Settled};
use crate::audit::findings::finding::ProgramFindings;
use crate::audit::findings::narrow::{alone, first_failing};
use crate::audit::findings::shrink::{
    search_random, search_smallest, shortest_prefix, shrink, Budget, Step, CRASH_PADDING, SEARCH,
};
use crate::audit::running::runner::Runner;
use crate::audit::settings::Settings;
use crate::audit::terms::outcome::{first_unanswered, Tried};
use crate::audit::terms::{Kind, Source};
use crate::game::{Case, Constraints, Engine, Form, Judged};
use referee_sandbox::Ending;

/// How many times a failure is run again before it is reported.
pub const RERUNS: usize = 2;

/// How many times a crash is run again: one that hangs on a buffer's end (overwritten memory
/// whose layout changes from run to run) must crash every time to be reported as it is.
pub const CRASH_RERUNS: usize = 4;

/// The shortest failing prefix from which shrinking goes no further: a failure that needs this
/// many steps needs its length (each variant would cost a run that long).
const LONG_PREFIX: usize = 1000;

/// The most cases of a failing run tried alone, one by one, when the narrowing finds none.
const MOST_TRIED_ALONE: usize = 64;

/// What the examination of a failing unit found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Examined {
    /// The unit's run was stopped for holding its answers, and every case of it passes alone
    /// and together within its limits: no failure; its cases passed.
    Passed,
    /// A failure, kept or counted; whether the program is now proved wrong.
    Failed {
        /// The program is proved wrong.
        proved: bool,
    },
}

/// Examines `failure` into `found` (a known kind of failure is only counted), until the
/// runner's deadline.
pub fn examine<G: Auditable>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failure: Failure<Seen<G::Case>>,
    found: &mut ProgramFindings,
) -> Examined {
    let failed = |found: &ProgramFindings| Examined::Failed {
        proved: found.first_proof().is_some(),
    };
    if runner.deadlines().past(runner.deadline()) {
        found.unexamined += 1;
        return failed(found);
    }
    let Some(failure) = isolate(runner, failure) else {
        return Examined::Passed;
    };
    let key = failure.key();
    if found.counted(failure.seen, &key) {
        return failed(found);
    }
    let finding = settle(runner, settings, failure, Reruns::seen(1));
    if found.keep(Some(key), finding) {
        runner.deadlines().finding_kept();
    }
    failed(found)
}

/// Narrows a failing unit to one case that fails alone, as a judge system times each case on
/// its own: a timeout's cases alone one by one from its first unanswered one; else
/// [`first_failing`], the unit's run standing for the cases together, then its first cases
/// alone one by one. When none fails alone, the whole unit, unless it was stopped for holding
/// its answers ([`referee_sandbox::Ending::AnswerLate`]) and passes together within the sum of
/// its cases' limits: then `None`, no failure.
fn isolate<G: Auditable>(
    runner: &Runner<G>,
    failure: Failure<Seen<G::Case>>,
) -> Option<Failure<Isolated<G::Case>>> {
    let Failure {
        seen,
        tried,
        stage: Seen { prepared },
    } = failure;
    let isolated = |tried: Tried, case: UnitCase<G::Case>, input: Vec<u8>, limit| Failure {
        seen,
        tried,
        stage: Isolated {
            case,
            input,
            batch_only: false,
            limit,
        },
    };
    let mut cases = prepared.cases.clone();
    let alone_in = |cases: &mut Vec<UnitCase<G::Case>>, (i, tried): (usize, Tried)| {
        let case = cases.swap_remove(i);
        let input = runner.input_of(std::slice::from_ref(&case.input));
        let limit = runner.time_limit.for_bytes(case.input.len());
        isolated(tried, case, input, limit)
    };
    if cases.len() == 1 {
        let case = cases.pop().expect("one case");
        let limit = runner.time_limit.for_bytes(case.input.len());
        return Some(isolated(tried, case, prepared.input.clone(), limit));
    }
    let one_by_one = |from: usize| {
        (from..cases.len().min(from + MOST_TRIED_ALONE))
            .find_map(|i| alone(runner, &cases[i].input, None).map(|t| (i, t)))
    };
    if tried.kind == Some(Kind::Timeout) {
        let first = first_unanswered(&tried, &prepared.verdicts);
        if let Some(hit) = one_by_one(first) {
            return Some(alone_in(&mut cases, hit));
        }
    } else {
        let inputs: Vec<&[u8]> = cases.iter().map(|c| &c.input[..]).collect();
        let seen = Some((tried.clone(), prepared.verdicts.clone()));
        if let Some(hit) = first_failing(runner, &inputs, None, seen).found {
            return Some(alone_in(&mut cases, hit));
        }
    }
    if let Some(hit) = one_by_one(0) {
        return Some(alone_in(&mut cases, hit));
    }
    let limit = runner.limit_of_cases(cases.iter().map(|c| c.input.len()));
    let tried = match tried.run.ending {
        // Stopped for holding its answers: together within the sum, as the cases would be
        // given alone.
        Ending::AnswerLate => {
            let again = runner.run_for(
                &prepared.input,
                &prepared.expected,
                limit,
                runner.deadline(),
            );
            match again {
                Some(again) if again.kind.is_some() && !again.cut() => again,
                _ => return None,
            }
        }
        _ => tried,
    };
    let case = cases.swap_remove(0);
    let mut whole = isolated(tried, case, prepared.input.clone(), limit);
    whole.stage.batch_only = true;
    Some(whole)
}

/// How many times its CPU time one finding's shrinking may take of wall-clock time (without
/// `--time`): the cap for a machine so busy that the program and referee hardly run.
pub const SHRINK_WALL_FACTOR: u32 = 10;

/// Runs `input` again until [`RERUNS`] + 1 runs in all have ended ([`CRASH_RERUNS`] + 1 for a
/// crash), counting the `again.runs` already seen, each given `limit` of CPU time (a timeout
/// twice that); with `padding` bytes more environment. Every run that ends must fail (the
/// same way, or another) for the failure to come back.
fn reproduce<G: Auditable>(
    runner: &Runner<G>,
    (input, expected): (&[u8], &str),
    kind: Kind,
    mut again: Reruns,
    padding: usize,
    limit: std::time::Duration,
) -> Reruns {
    let factor = if kind == Kind::Timeout { 2 } else { 1 };
    let reruns = if kind == Kind::Crash {
        CRASH_RERUNS
    } else {
        RERUNS
    };
    while again.runs <= reruns {
        let tried = runner.run_again(input, expected, limit * factor, padding);
        let Some(tried) = tried.filter(|t| !t.cut()) else {
            again.cut = true;
            break;
        };
        again.runs += 1;
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
fn shrunk<G: Auditable>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failure: &Failure<Isolated<G::Case>>,
) -> (Vec<Step<G::Case>>, Option<usize>) {
    let (kind, isolated) = (failure.seen, &failure.stage);
    let now = Instant::now();
    // Its CPU time: --shrink-time, at most half the time left before --time's deadline; its
    // wall-clock cap: SHRINK_WALL_FACTOR times that, or that half.
    let (cpu, wall) = match runner.deadline() {
        Some(d) => {
            let share = d.saturating_duration_since(now) / 2;
            (settings.shrink_time.min(share), share)
        }
        None => (
            settings.shrink_time,
            settings.shrink_time * SHRINK_WALL_FACTOR,
        ),
    };
    let budget = &Budget::new(cpu, now + wall);
    let runner = &runner.metered();
    let keep_inside =
        settings.constraints == Constraints::Contest && isolated.case.outside.is_none();
    // A long case is cut to its shortest failing prefix first; when that is still long, the
    // failure needs its length (a buffer too short), and it is reported there.
    let mut steps = shortest_prefix(runner, &isolated.case.case, kind, keep_inside, budget);
    let start = steps
        .last()
        .map_or(&isolated.case.case, |(case, _)| case)
        .clone();
    if start.steps().is_some_and(|s| s >= LONG_PREFIX) {
        return (steps, None);
    }
    if kind != Kind::WrongAnswer {
        steps.extend(shrink(runner, &start, kind, keep_inside, budget));
        return (steps, None);
    }
    // A wrong answer: small random cases that fail the same way first (from a large case, the
    // fastest way down), else the case's own shrinking; then the game's smallest cases in
    // order below the smallest so far.
    let tried = steps.last().map_or(&failure.tried, |(_, t)| t).clone();
    let seed = settings.seed;
    let mut searched_from = None;
    let half = &budget.part(1, 2);
    let found = search_random(runner, &start, &tried, kind, keep_inside, half, seed);
    if found.is_empty() {
        steps.extend(shrink(runner, &start, kind, keep_inside, budget));
    } else {
        searched_from = Some(steps.len());
        steps.extend(found);
    }
    let best = steps.last().map_or(&start, |(c, _)| c).clone();
    let found = search_smallest(runner, &best, &tried, kind, keep_inside, budget);
    if !found.is_empty() {
        searched_from = searched_from.or(Some(steps.len()));
        steps.extend(found);
    }
    (steps, searched_from)
}

/// The smallest of the shrunk `steps` that reproduces every time (a crash with
/// [`CRASH_PADDING`] more environment too), with its reproduction.
fn smallest_reproduced<G: Auditable>(
    runner: &Runner<G>,
    mut steps: Vec<Step<G::Case>>,
    kind: Kind,
) -> Option<(Step<G::Case>, Reruns, usize)> {
    let padding = if kind == Kind::Crash {
        CRASH_PADDING
    } else {
        0
    };
    while let Some((case, tried)) = steps.pop() {
        let input = runner.input_of(std::slice::from_ref(&case.input()));
        let limit = runner.time_limit.for_bytes(case.input().len());
        let again = reproduce(
            runner,
            (&input, &tried.expected),
            kind,
            Reruns::seen(1),
            padding,
            limit,
        );
        if !again.passed_again() {
            return Some(((case, tried), again, steps.len() + 1));
        }
    }
    None
}

/// A failure seen `seen` times: run again; when it comes back (or the deadline left no time
/// to run it again), shrunk, run again, confirmed; else `flaky`.
fn settle<G: Auditable>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    failure: Failure<Isolated<G::Case>>,
    seen: Reruns,
) -> Finding {
    let kind = failure.seen;
    let isolated = &failure.stage;
    let again = reproduce(
        runner,
        (&isolated.input, &failure.tried.expected),
        kind,
        seen,
        0,
        isolated.limit,
    );
    if again.passed_again() {
        return flaky(failure, again);
    }
    let (steps, searched_from) = if isolated.batch_only || again.unchecked() {
        (Vec::new(), None)
    } else {
        shrunk(runner, settings, &failure)
    };
    let mut notes = Vec::new();
    if searched_from.is_some_and(|from| steps.len() > from) {
        notes.push(format!(
            "shrinking went on from a smaller case failing the same way (among {SEARCH} small \
             random cases and the game's smallest cases in order)"
        ));
    }
    let (case, input, tried, reruns, shrink_steps) = match smallest_reproduced(runner, steps, kind)
    {
        Some(((case, tried), reruns, steps)) => {
            let input = runner.input_of(std::slice::from_ref(&case.input()));
            (case, input, tried, reruns, steps)
        }
        None => (
            isolated.case.case.clone(),
            isolated.input.clone(),
            failure.tried.clone(),
            again,
            0,
        ),
    };
    let limit = if shrink_steps == 0 {
        isolated.limit
    } else {
        runner.time_limit.for_bytes(case.input().len())
    };
    let single = case.input();
    let judged = G::judge(Engine::Fast, &mut &single[..], settings.rules).ok();
    let (reported, reference) = confirmed::<G>(kind, &input, &tried, settings);
    let stage = Settled {
        limit,
        kind: reported,
        source: isolated.case.source.clone(),
        shape: (!isolated.batch_only).then(|| case.shape_label()),
        outside: if isolated.batch_only {
            isolated.case.outside.clone()
        } else {
            judged
                .as_ref()
                .and_then(|js| js.iter().find_map(G::outside_contest))
        },
        size: judged.map(|js| size_of::<G>(&js)),
        case: single,
        input,
        evidence: Evidence { reruns, reference },
        shrink_steps,
        batch_only: isolated.batch_only,
        notes,
    };
    Failure {
        seen: kind,
        tried,
        stage,
    }
}

/// For an answer, the reference's word on the expected output of `input` (`tried` the run on
/// it), and the kind reported: `engine-disputed` when the reference does not side with the
/// engine, else `kind`.
fn confirmed<G: Auditable>(
    kind: Kind,
    input: &[u8],
    tried: &Tried,
    settings: &Settings<G::Options>,
) -> (Kind, Option<Confirmation>) {
    let reference = kind.about_the_answer().then(|| {
        confirm::<G>(
            input,
            &tried.run.stdout,
            settings.rules,
            settings.reference_budget,
        )
    });
    match reference {
        Some(Confirmation::Disputed(_)) => (Kind::EngineDisputed, reference),
        _ => (kind, reference),
    }
}

/// The size of the cases `judged` as the game counts it: `12 moves`, `16 squares`.
fn size_of<G: Auditable>(judged: &[G::Judgement]) -> String {
    let size: u64 = judged.iter().map(Judged::size).sum();
    match G::STEP {
        "" => format!("{size} squares"),
        step => format!("{size} {step}{}", if size == 1 { "" } else { "s" }),
    }
}

/// A failure that did not come back: reported as it was seen, not shrunk.
fn flaky<C: Case>(failure: Failure<Isolated<C>>, again: Reruns) -> Finding {
    let Failure { seen, tried, stage } = failure;
    let stage = Settled {
        limit: stage.limit,
        kind: Kind::Flaky,
        source: stage.case.source.clone(),
        shape: Some(stage.case.case.shape_label()),
        case: stage.case.input,
        input: stage.input,
        evidence: Evidence {
            reruns: again,
            reference: None,
        },
        shrink_steps: 0,
        batch_only: stage.batch_only,
        outside: stage.case.outside,
        size: None,
        notes: Vec::new(),
    };
    Failure { seen, tried, stage }
}

/// The finding of a program whose output fits no form: its attempt in the problem's form (or
/// the first tried), run again, then shrunk in that form from the second example like any
/// other finding; the other attempts said. `reads`: the form it fits instead of the
/// problem's.
pub fn no_form<G: Auditable>(
    runner: &Runner<G>,
    settings: &Settings<G::Options>,
    attempts: &[Attempt],
    reads: Option<Form>,
) -> Finding {
    let attempt = &attempts[0];
    let kind = attempt.tried.kind.unwrap_or(Kind::WrongAnswer);
    let runner = runner.reformed(attempt.form);
    let example = G::PROBES[1].as_bytes();
    let case = G::Case::from_input(example, settings.rules)
        .ok()
        .and_then(|mut cases| cases.pop())
        .expect("the statement's example is a case");
    let failure = Failure {
        seen: kind,
        tried: attempt.tried.clone(),
        stage: Isolated {
            case: UnitCase {
                source: Source::Examples,
                case,
                input: example.to_vec(),
                outside: None,
            },
            input: attempt.input.clone(),
            batch_only: false,
            limit: runner.time_limit.for_bytes(attempt.input.len()),
        },
    };
    let mut finding = settle(&runner, settings, failure, Reruns::seen(1));
    finding.stage.notes.insert(
        0,
        match reads {
            Some(form) => format!(
                "it does not read the problem's {} form, its output fits the {} form",
                attempt.form.as_str(),
                form.as_str()
            ),
            None if attempts
                .iter()
                .all(|a| !matches!(a.tried.run.ending, referee_sandbox::Ending::Exited(0))) =>
            {
                format!(
                    "no run on the statement's examples ended with an answer, in any input form: \
                     {}",
                    attempts
                        .iter()
                        .map(Attempt::summary)
                        .collect::<Vec<_>>()
                        .join("; ")
                )
            }
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
    finding
}
