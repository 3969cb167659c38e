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
//! Where shrinking gets stuck on a wrong answer larger than the game's smallest interesting
//! cases (a local minimum: every single variant passes), [`search_smaller`] tries up to
//! [`SEARCH`] of those small cases, seeded, for one on which the program fails with the same
//! kind and the same difference in its output, and shrinks that one in turn.

use std::time::Instant;

use super::narrow::{alone, first_failing};
use super::outcome::{difference, Tried};
use super::program::past;
use super::runner::Runner;
use super::Kind;
use crate::game::{Case, Engine, Form, Game};
use crate::random::Rng;

/// How many small random cases [`search_smaller`] tries.
pub const SEARCH: u64 = 2000;

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
fn variant<G: Game>(
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

/// A shrinking step: the case and its run.
pub type Step<C> = (C, Tried);

/// Shrinks `case`, on which the program fails with `kind`, until `until`: the cases kept, each
/// smaller than the one before, with the run that failed on it (empty when no variant fails).
/// With `keep_inside`, no variant outside the contest's limits is tried.
pub fn shrink<G: Game>(
    runner: &Runner<G>,
    case: &G::Case,
    kind: Kind,
    keep_inside: bool,
    until: Instant,
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
                if past(Some(until)) {
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
                if found.is_none() && past(runner.deadline) {
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
fn first_failing_variant<G: Game>(
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

/// Searches small random cases (of `case`'s [`Case::small_shape`], seeded by `seed`) for one
/// smaller than `case` on which the program fails with `kind` and an output that differs as
/// `tried`'s does; shrinks it; the steps from the one found, when any.
pub fn search_smaller<G: Game>(
    runner: &Runner<G>,
    case: &G::Case,
    tried: &Tried,
    kind: Kind,
    keep_inside: bool,
    until: Instant,
    seed: u64,
) -> Vec<Step<G::Case>> {
    let Some(shape) = case.small_shape() else {
        return Vec::new();
    };
    let size = case.input().len();
    let wanted = difference(&tried.expected, &tried.run.stdout);
    let mut drawn = (0..SEARCH)
        .map(|i| {
            let mut rng = Rng::for_item(seed ^ SEARCH_STREAM, i);
            G::Case::generate(&mut rng, Some(runner.rules), &shape)
        })
        .filter(|c| c.input().len() < size);
    let mut together = runner.form == Form::Multi && kind == Kind::WrongAnswer;
    loop {
        if past(Some(until)) {
            return Vec::new();
        }
        let mut batch: Vec<Variant<G::Case>> = drawn
            .by_ref()
            .filter_map(|c| variant::<G>(c, runner.rules, keep_inside))
            .take(BATCH)
            .collect();
        if batch.is_empty() {
            return Vec::new();
        }
        // The first variant failing the same way: after one that fails otherwise, the rest.
        while let Some((i, found)) = first_failing_variant(runner, &batch, kind, &mut together) {
            if difference(&found.expected, &found.run.stdout) == wanted {
                let start = batch.swap_remove(i).case;
                let mut steps = vec![(start.clone(), found)];
                steps.extend(shrink(runner, &start, kind, keep_inside, until));
                return steps;
            }
            batch.drain(..=i);
        }
    }
}
