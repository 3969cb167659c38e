//! `referee stress`: seeded random differential testing on stable Rust. Generates cases, judges
//! each with both implementations, and on the first divergence shrinks the case to a minimal
//! one that still diverges, writes it with both verdicts, and says how to reproduce it.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::generate::Rng;
use crate::harness::{compare, shrink, Case, Divergence};

/// When to stop.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The run's seed.
    pub seed: u64,
    /// Stop after this many cases.
    pub cases: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
}

/// A divergence found, shrunk and saved.
#[derive(Debug)]
pub struct Finding {
    /// The 0-based number of the case that diverged first.
    pub case: u64,
    /// The shrunk input file.
    pub file: PathBuf,
    /// How the implementations disagree on the shrunk case.
    pub divergence: Divergence,
}

/// What a stress run did.
#[derive(Debug)]
pub struct Report {
    /// Cases judged.
    pub cases: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The first divergence, if any.
    pub finding: Option<Finding>,
}

/// Runs random cases of `C` until the limits, or until engine and reference diverge.
pub fn run<C: Case>(
    limits: Limits,
    options: Option<<C::G as Game>::Options>,
    out: &Path,
    file_suffix: &str,
) -> Result<Report, String> {
    let mut rng = Rng::new(limits.seed);
    let started = Instant::now();
    let max_cases = match (limits.cases, limits.time) {
        (None, None) => Some(10_000),
        (c, _) => c,
    };
    let mut cases = 0;
    loop {
        if max_cases.is_some_and(|m| cases >= m)
            || limits.time.is_some_and(|t| started.elapsed() >= t)
        {
            return Ok(Report {
                cases,
                elapsed: started.elapsed(),
                finding: None,
            });
        }
        let case = C::random(&mut rng, options);
        cases += 1;
        if compare::<C::G>(&case.input(), case.options()).is_ok() {
            continue;
        }
        let small = shrink(case, |c| compare::<C::G>(&c.input(), c.options()).is_err());
        let divergence = compare::<C::G>(&small.input(), small.options())
            .expect_err("the shrunk case still diverges");
        fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let stem = format!(
            "{}-seed{}-case{}{file_suffix}",
            C::G::NAME,
            limits.seed,
            cases - 1
        );
        let file = out.join(format!("{stem}.in"));
        let verdicts = out.join(format!("{stem}.verdicts.txt"));
        fs::write(&file, small.input())
            .and_then(|()| fs::write(&verdicts, format!("{divergence}\n")))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        return Ok(Report {
            cases,
            elapsed: started.elapsed(),
            finding: Some(Finding {
                case: cases - 1,
                file,
                divergence,
            }),
        });
    }
}
