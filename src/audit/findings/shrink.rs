//! Shrinking a failing case against the program: the first of the case's smaller variants
//! ([`Case::shrink`]) on which the program fails the same way, alone, becomes the case, until
//! no variant fails or the time is up.
//!
//! In the multi-case form, variants are run many to a process (up to [`BATCH`] of them or
//! [`BATCH_BYTES`]): a run that passes clears them all; a failing one names its suspects, the
//! variants whose verdict line is wrong, or from the first verdict missing (a crash, a
//! timeout), and each suspect is run alone in turn. The variant kept is always one that failed
//! alone, and the first in the shrinker's order, as if the variants had been run one by one.
//! Variants the engine rejects are skipped; so are variants outside the contest's limits when
//! the case was inside them.
//!
//! A long case whose steps can be cut ([`Case::steps`], a game's moves) is first cut to its
//! shortest failing prefix by bisection ([`shortest_prefix`]): a buffer that overflows past
//! 32,767 moves is found at 32,768 in about 17 runs, where dropping moves one chunk at a time
//! would take thousands.
//!
//! A wrong answer on a case larger than the game's smallest interesting cases is searched
//! further down: [`search_random`] tries up to [`SEARCH`] small random cases, seeded, for one
//! on which the program fails with the same kind and the same difference in its output (from a
//! large case, the fastest way down); [`search_smallest`] runs the game's smallest cases in
//! order ([`Case::smallest`]: for Pousse every short game on boards up to 4 x 4, thousands to a
//! run in the multi-case form) below the smallest found, which gives the fewest moves that show
//! the bug. Each case found is shrunk in turn.

use crate::audit::terms::Auditable;
use std::time::{Duration, Instant};

use crate::audit::findings::narrow::{alone, first_failing};
use crate::audit::running::runner::Runner;
use crate::audit::terms::outcome::{difference, Tried};
use crate::audit::terms::Kind;
use crate::game::{Case, Engine, Form};
use crate::util::random::Rng;

/// How many small random cases [`search_random`] tries, and in the single-case form how many
/// of the game's smallest cases (one run each).
pub const SEARCH: u64 = 2000;

/// The most of the game's smallest cases in one run, in the multi-case form.
const SMALLEST_BATCH: usize = 2000;

/// The fewest steps of a case that [`shortest_prefix`] bisects.
pub const BISECT_FROM: usize = 64;

/// The random stream of the search (mixed with the audit's seed).
const SEARCH_STREAM: u64 = 0x5ea2_c4ed_5a11_0001;

/// The most variants in one run.
pub const BATCH: usize = 32;

/// The most input bytes in one run of variants.
pub const BATCH_BYTES: usize = 8 << 20;

/// One variant the engine judges.
struct Variant<C> {
    case: C,
    input: Vec<u8>,
}

/// A variant of `case` ready to run, or `None` when the engine rejects it or, with
/// `keep_inside`, it lies outside the contest's limits.
fn variant<G: Auditable>(
    case: G::Case,
    rules: G::Options,
    keep_inside: bool,
) -> Option<Variant<G::Case>> {
    let input = case.input();
    let judged = G::judge(Engine::Fast, &mut &input[..], rules).ok()?;
    if keep_inside && judged.iter().any(|j| G::outside_contest(j).is_some()) {
        return None;
    }
    Some(Variant { case, input })
}

/// What shrinking one finding may spend: CPU time, the program's (its runs through a
/// [`Runner::metered`] runner) and that of the thread that shrinks (the engine's judgements,
/// the runs' set-up), which a busy machine does not change, so shrinking ends on the same case
/// on a busy machine as on an idle one; wall-clock time only caps it.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    cpu: Duration,
    thread_at_start: Duration,
    wall_cap: Instant,
}

impl Budget {
    /// `cpu` of CPU time from now, and until `wall_cap` at most.
    pub fn new(cpu: Duration, wall_cap: Instant) -> Budget {
        Budget {
            cpu,
            thread_at_start: thread_cpu(),
            wall_cap,
        }
    }

    /// The first `numerator / denominator` of it: spent when that share of its CPU time is.
    pub fn part(&self, numerator: u32, denominator: u32) -> Budget {
        Budget {
            cpu: self.cpu * numerator / denominator,
            ..*self
        }
    }

    /// Whether it is spent: `runner`'s runs (a metered runner, made for this budget) and this
    /// thread's work took its CPU time, or the cap or the audit's deadline passed.
    pub fn spent<G: Auditable>(&self, runner: &Runner<G>) -> bool {
        let used = runner.cpu() + thread_cpu().saturating_sub(self.thread_at_start);
        used >= self.cpu
            || runner.deadlines().past(Some(self.wall_cap))
            || runner.deadlines().past(runner.deadline())
    }
}

/// The environment a shrunk crash must crash with too ([`referee_sandbox::Limits::padding`]):
/// past a buffer's end on the stack, what an overflow reaches depends on how much environment
/// lies above the stack (and on its random placement), and a case at the edge would not crash
/// where its reader runs it.
pub const CRASH_PADDING: usize = 64 << 10;

/// A shrinking step: the case and its run.
pub type Step<C> = (C, Tried);

/// Shrinks `case`, on which the program fails with `kind`, within `budget`: the cases kept, each
/// smaller than the one before, with the run that failed on it (empty when no variant fails).
/// With `keep_inside`, no variant outside the contest's limits is tried.
pub fn shrink<G: Auditable>(
    runner: &Runner<G>,
    case: &G::Case,
    kind: Kind,
    keep_inside: bool,
    budget: &Budget,
) -> Vec<Step<G::Case>> {
    let mut chain: Vec<Step<G::Case>> = Vec::new();
    let mut best = case.clone();
    // Set once a shared run failed where no variant of it fails alone (a failure that needs
    // the cases after it): shared runs then cost more than they save.
    let mut together =
        runner.form == Form::Multi && !matches!(kind, Kind::Timeout | Kind::PresentationError);
    loop {
        let found = {
            let mut variants = best.shrink();
            let mut found = None;
            while found.is_none() {
                if budget.spent(runner) {
                    break;
                }
                let mut batch = Vec::new();
                let mut bytes = 0;
                while batch.len() < BATCH && bytes < BATCH_BYTES {
                    let Some(next) = variants.next() else { break };
                    if let Some(v) = variant::<G>(next, runner.rules, keep_inside) {
                        bytes += v.input.len();
                        batch.push(v);
                    }
                }
                if batch.is_empty() {
                    break;
                }
                found = first_failing_variant(runner, &batch, kind, &mut together)
                    .map(|(i, tried)| (batch.swap_remove(i).case, tried));
                if found.is_none() && runner.deadlines().past(runner.deadline()) {
                    break;
                }
            }
            found
        };
        match found {
            Some(step) => {
                best = step.0.clone();
                chain.push(step);
            }
            None => return chain,
        }
    }
}

/// The first variant of `batch` on which the program fails with `kind` when run alone, with
/// that run. With `together`, the variants share runs first ([`first_failing`]); `together`
/// is cleared when a shared run fails and no variant fails alone.
fn first_failing_variant<G: Auditable>(
    runner: &Runner<G>,
    batch: &[Variant<G::Case>],
    kind: Kind,
    together: &mut bool,
) -> Option<(usize, Tried)> {
    if !*together {
        return batch
            .iter()
            .enumerate()
            .find_map(|(i, v)| alone(runner, &v.input, Some(kind)).map(|t| (i, t)));
    }
    let inputs: Vec<&[u8]> = batch.iter().map(|v| &v.input[..]).collect();
    let narrowed = first_failing(runner, &inputs, Some(kind), None);
    if narrowed.found.is_none() && narrowed.misled {
        *together = false;
    }
    narrowed.found
}

/// The shortest prefix of `case` ([`Case::prefix`]) on which the program fails with `kind`
/// alone, by bisection on its steps (a prefix failing when every longer one fails, as a buffer
/// too short does), within `budget`: every failing prefix met, and a few 1/64 to 1/8 longer than
/// the shortest, longest first (so that the shortest which fails every time can be kept: past
/// a buffer's end, a crash may depend on the memory's layout; a crash is probed with
/// [`CRASH_PADDING`] more environment).
/// Nothing when `case` has fewer than [`BISECT_FROM`] steps.
pub fn shortest_prefix<G: Auditable>(
    runner: &Runner<G>,
    case: &G::Case,
    kind: Kind,
    keep_inside: bool,
    budget: &Budget,
) -> Vec<Step<G::Case>> {
    let Some(steps) = case.steps().filter(|&s| s >= BISECT_FROM) else {
        return Vec::new();
    };
    // A crash must come with more environment above the stack too (what is reported must
    // crash wherever it is run: see CRASH_PADDING).
    let padding = if kind == Kind::Crash {
        CRASH_PADDING
    } else {
        0
    };
    let fails_alone = |case: &G::Case| -> Option<Tried> {
        let v = variant::<G>(case.clone(), runner.rules, keep_inside)?;
        let input = runner.input_of(std::slice::from_ref(&v.input));
        let (expected, _) = crate::audit::terms::outcome::judged::<G>(&input, runner.rules)?;
        runner
            .run_again(
                &input,
                &expected,
                runner.time_limit.for_bytes(input.len()),
                padding,
            )
            .filter(|t| !t.cut() && t.kind == Some(kind))
    };
    // `passes` passes or is assumed to (no steps); `fails` fails.
    let (mut passes, mut fails) = (0, steps);
    let mut found = Vec::new();
    while fails - passes > 1 && !budget.spent(runner) {
        let middle = passes + (fails - passes) / 2;
        let prefix = case.prefix(middle);
        match fails_alone(&prefix) {
            Some(tried) => {
                fails = middle;
                found.push((middle, prefix, tried));
            }
            None => passes = middle,
        }
    }
    // Where failing depends on the run (a crash past a buffer's end), the shortest prefix that
    // failed once may not fail every time: a few longer ones, 1/64 to 1/8 longer, are kept to
    // fall back on.
    if found.is_empty() {
        return Vec::new();
    }
    for shift in (3..=6).rev() {
        let longer = (fails + (fails >> shift)).min(steps - 1);
        if longer <= fails || budget.spent(runner) || found.iter().any(|(s, _, _)| *s == longer) {
            continue;
        }
        let prefix = case.prefix(longer);
        if let Some(tried) = fails_alone(&prefix) {
            found.push((longer, prefix, tried));
        }
    }
    found.sort_by_key(|step| std::cmp::Reverse(step.0));
    found
        .into_iter()
        .map(|(_, case, tried)| (case, tried))
        .collect()
}

/// Searches up to [`SEARCH`] small random cases (of `case`'s [`Case::small_shape`], seeded
/// by `seed`), smaller than `case`, for the first on which the program fails with `kind` and an
/// output that differs as `tried`'s does; shrinks it. The steps from it, when found.
pub fn search_random<G: Auditable>(
    runner: &Runner<G>,
    case: &G::Case,
    tried: &Tried,
    kind: Kind,
    keep_inside: bool,
    budget: &Budget,
    seed: u64,
) -> Vec<Step<G::Case>> {
    let Some(shape) = case.small_shape() else {
        return Vec::new();
    };
    let size = case.input().len();
    let drawn = (0..SEARCH)
        .map(|i| {
            let mut rng = Rng::for_item(seed ^ SEARCH_STREAM, i);
            G::Case::generate(&mut rng, Some(runner.rules), &shape)
        })
        .filter(|c| c.input().len() < size);
    first_the_same::<G>(runner, drawn, BATCH, kind, keep_inside, budget, tried)
}

/// Runs the game's smallest cases in order ([`Case::smallest`]: thousands to a run in the
/// multi-case form, at most [`SEARCH`] runs in the single-case form), smaller than `case`, for
/// the first on which the program fails with `kind` and an output that differs as `tried`'s
/// does; shrinks it. The steps from it, when found.
pub fn search_smallest<G: Auditable>(
    runner: &Runner<G>,
    case: &G::Case,
    tried: &Tried,
    kind: Kind,
    keep_inside: bool,
    budget: &Budget,
) -> Vec<Step<G::Case>> {
    if case.small_shape().is_none() {
        return Vec::new();
    }
    let size = case.input().len();
    let most = if together(runner, kind) {
        usize::MAX
    } else {
        SEARCH as usize
    };
    let smallest = G::Case::smallest(runner.rules)
        .filter(|c| c.input().len() < size)
        .take(most);
    first_the_same::<G>(
        runner,
        smallest,
        SMALLEST_BATCH,
        kind,
        keep_inside,
        budget,
        tried,
    )
}

/// Whether cases searched for a failure of `kind` run many to a process.
fn together<G: Auditable>(runner: &Runner<G>, kind: Kind) -> bool {
    runner.form == Form::Multi && kind == Kind::WrongAnswer
}

/// The first of `cases` (`batch` to a run where [`together`], else one by one) on which the
/// program fails with `kind` and an output that differs as `tried`'s does, shrunk: its steps,
/// or none within `budget`.
/// The first of `cases` (run `per_run` to a process) on which the program fails with `kind`
/// and an output that differs as `wanted` says, shrunk: its steps, or `None` when there is
/// none within `budget`.
fn first_the_same<G: Auditable>(
    runner: &Runner<G>,
    cases: impl Iterator<Item = G::Case>,
    batch: usize,
    kind: Kind,
    keep_inside: bool,
    budget: &Budget,
    tried: &Tried,
) -> Vec<Step<G::Case>> {
    let wanted = &difference(&tried.expected, &tried.run.stdout);
    let per_run = if together(runner, kind) { batch } else { 1 };
    let mut cases = cases.filter_map(|c| variant::<G>(c, runner.rules, keep_inside));
    let mut shared = per_run > 1;
    loop {
        if budget.spent(runner) {
            return Vec::new();
        }
        let mut batch: Vec<Variant<G::Case>> = Vec::new();
        let mut bytes = 0;
        while batch.len() < per_run && bytes < BATCH_BYTES {
            let Some(next) = cases.next() else { break };
            bytes += next.input.len();
            batch.push(next);
        }
        if batch.is_empty() {
            return Vec::new();
        }
        // The first variant failing the same way: after one that fails otherwise, the rest.
        while let Some((i, found)) = first_failing_variant(runner, &batch, kind, &mut shared) {
            if difference(&found.expected, &found.run.stdout) == *wanted {
                let start = batch.swap_remove(i).case;
                let mut steps = vec![(start.clone(), found)];
                steps.extend(shrink(runner, &start, kind, keep_inside, budget));
                return steps;
            }
            batch.drain(..=i);
        }
    }
}

/// The CPU time the calling thread has used.
fn thread_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec.max(0) as u64, now.tv_nsec.max(0) as u32)
}
