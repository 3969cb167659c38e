//! `referee stress`: seeded random differential testing on stable Rust. Generates cases with the
//! game's generator, cross-examines each, and on the first divergence (or, with `keep_going`, the
//! first of each signature) writes it at once (the input, and a regression vector ready to
//! keep), then shrinks it to a minimal one that still diverges, within the shrink time and the
//! run's `--time`, and writes the shrunk case in its place; and says how to reproduce it. At the
//! end the report directory gets `findings.csv` and the manifest `stress.json`. A case that
//! takes longer than the per-case limit (an implementation that loops forever) is saved too,
//! and ends the process.
//!
//! Case `i` of a run is drawn from its own random stream ([`Rng::for_item`]) of the seed, so a
//! shard (`--shard K/N`) runs the case indices congruent to K - 1 modulo N and N shards search
//! disjoint parts of one run; [`merge`] combines their findings.

mod hunt;
pub mod merge;
mod written;

pub use hunt::*;
pub use written::*;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::formats::as_text;
use crate::formats::manifest::Manifest;
use crate::formats::write::Staging;
use crate::game::Case;
use crate::game::Generated;
use crate::game::Referenced;
use crate::game::{Game, RuleSet};
use crate::games::detect::file_suffix;
use crate::harness::regression::{Expectation, Regression};
use crate::harness::signatures::{signature, Findings};
use crate::harness::{cross_examine, shrink, Divergence};
use crate::util::error::RunError;
use crate::util::random::{Entropy, Rng};
use crate::util::shard::Shard;
use crate::util::watchdog::Watchdog;

/// When to stop.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The run's seed.
    pub seed: u64,
    /// Stop after this many cases.
    pub cases: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// The longest one case may take to judge (both implementations) before it counts as a
    /// hang; every judgement while shrinking too.
    pub case_time: Duration,
    /// The most time spent shrinking one divergence (and never past `time`).
    pub shrink_time: Duration,
    /// Run the whole budget, keeping one divergence per signature, instead of stopping at the
    /// first.
    pub keep_going: bool,
    /// The most divergences kept with `keep_going`.
    pub max_findings: usize,
    /// Count the structural features of the cases ([`Generated::features`]).
    pub stats: bool,
    /// Run only this slice of the case indices.
    pub shard: Option<Shard>,
}

/// A divergence found, shrunk and saved.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The 0-based number of the case that diverged first.
    pub case: u64,
    /// The shrunk input file.
    pub file: PathBuf,
    /// The shrunk case as a regression vector.
    pub regression: PathBuf,
    /// How the implementations disagree on the shrunk case.
    pub divergence: Divergence,
    /// The shrunk case's rule set (empty for the default).
    pub rules: String,
    /// What tells it apart from other divergences: the two sides' verdicts and the case's shape.
    pub signature: String,
    /// How many divergent cases share its signature.
    pub count: u64,
}

/// What a stress run did.
#[derive(Debug)]
pub struct Report {
    /// Cases judged.
    pub cases: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The divergences kept: the first one, or with `keep_going` one per signature.
    pub findings: Vec<Finding>,
    /// Divergences of new signatures beyond the most kept.
    pub dropped: u64,
    /// The structural features the cases showed (counted with `stats` only).
    pub stats: Stats,
}
