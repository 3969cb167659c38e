//! Which case of a failing run fails alone: what the examination of a failing unit of cases
//! ([`crate::audit::findings::settle`]) and the shrinker's shared runs of variants ([`crate::audit::findings::shrink`]) both ask.
//!
//! The cases run together first (or the failing run already seen stands for that run): when
//! that passes, none fails alone. When the output names the wrong cases (one verdict line per
//! case), those are run alone; when it does not (a crash or a timeout before the output was
//! flushed), or none of them fails alone, the cases from the first one unanswered are split in
//! halves and each half searched the same way. The case found is always one that failed alone,
//! and the first such in order among those tried.

use crate::audit::running::runner::Runner;
use crate::audit::terms::outcome::judged;
use crate::audit::terms::outcome::{first_unanswered, wrong_cases, Tried};
use crate::audit::terms::Auditable;
use crate::audit::terms::Kind;

/// The most suspects of one shared run tried alone.
const MOST_SUSPECTS: usize = 8;

/// A search's result.
#[derive(Debug, Default)]
pub struct Narrowed {
    /// The case found (its index among those searched) and its run alone.
    pub found: Option<(usize, Tried)>,
    /// Whether a shared run failed while none of its cases failed alone: a failure that needs
    /// the cases after it, which shared runs then cannot narrow.
    pub misled: bool,
}

/// The run of `input` (one case, in the game's single-case form) alone, in the runner's form,
/// when it fails, with `kind` if one is wanted.
pub fn alone<G: Auditable>(runner: &Runner<G>, input: &[u8], kind: Option<Kind>) -> Option<Tried> {
    let input = runner.input_of(std::slice::from_ref(&input.to_vec()));
    let (expected, _) = judged::<G>(&input, runner.rules)?;
    runner
        .run(&input, &expected)
        .filter(|t| !t.cut() && t.kind.is_some() && kind.is_none_or(|k| t.kind == Some(k)))
}

/// The run of `cases` together, with the engine's verdict of each; `None` when it passes, is
/// cut, or cannot be run.
fn together<G: Auditable>(runner: &Runner<G>, cases: &[&[u8]]) -> Option<(Tried, Vec<String>)> {
    let inputs: Vec<Vec<u8>> = cases.iter().map(|c| c.to_vec()).collect();
    let (tried, verdicts) = runner.run_cases(&inputs)?;
    (tried.kind.is_some() && !tried.cut()).then_some((tried, verdicts))
}

/// The first of `cases` (each in the single-case form) that fails alone, with `kind` if one is
/// wanted; `seen` is the failing run of them all together when it is already known.
pub fn first_failing<G: Auditable>(
    runner: &Runner<G>,
    cases: &[&[u8]],
    kind: Option<Kind>,
    seen: Option<(Tried, Vec<String>)>,
) -> Narrowed {
    let mut narrowed = Narrowed::default();
    let all: Vec<usize> = (0..cases.len()).collect();
    narrowed.found = search(runner, cases, &all, kind, seen, &mut narrowed.misled);
    narrowed
}

fn search<G: Auditable>(
    runner: &Runner<G>,
    cases: &[&[u8]],
    among: &[usize],
    kind: Option<Kind>,
    seen: Option<(Tried, Vec<String>)>,
    misled: &mut bool,
) -> Option<(usize, Tried)> {
    if let [only] = among {
        return alone(runner, cases[*only], kind).map(|t| (*only, t));
    }
    if among.is_empty() {
        return None;
    }
    let (tried, verdicts) = match seen {
        Some(seen) => seen,
        None => {
            let inputs: Vec<&[u8]> = among.iter().map(|&i| cases[i]).collect();
            together(runner, &inputs)?
        }
    };
    *misled = true;
    if let Some(wrong) = wrong_cases(&tried, &verdicts) {
        let suspects = wrong.into_iter().take(MOST_SUSPECTS);
        if let Some(found) = suspects
            .filter_map(|w| among.get(w))
            .find_map(|&i| alone(runner, cases[i], kind).map(|t| (i, t)))
        {
            return Some(found);
        }
    }
    // The cases answered before the first unanswered one passed.
    let first = first_unanswered(&tried, &verdicts).min(among.len() - 1);
    let rest = &among[first..];
    // Each half is smaller than `among`: the search ends.
    let (front, back) = rest.split_at(rest.len().div_ceil(2));
    search(runner, cases, front, kind, None, misled)
        .or_else(|| search(runner, cases, back, kind, None, misled))
}
