//! How to audit: the settings every stage of the pipeline reads.

use std::path::PathBuf;
use std::time::Duration;

use crate::game::{Constraints, Form};
use crate::util::shard::Shard;
use referee_sandbox::{Confinement, Limits};

/// How the problem's input form is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FormRule {
    /// Said with `--form`: every program must read it.
    Asked(Form),
    /// Several programs': the form of their existing data, else of the statement's examples.
    Problem,
    /// One program's, with nothing said: the form its output fits (the multi-case form when
    /// both fit, which lets a run hold many cases).
    ByShape,
}

/// How to audit.
#[derive(Debug, Clone)]
pub struct Settings<O> {
    /// The rule set the programs judge under.
    pub rules: O,
    /// The seed of the random cases.
    pub seed: u64,
    /// The most cases each program runs (the examples and the data's cases included).
    pub cases: Option<u64>,
    /// The whole run's wall-clock budget.
    pub time: Option<Duration>,
    /// Each run's limits; `cpu` (`--timeout`) bounds every run's CPU time, and is the time
    /// limit itself unless the programs expected accepted set a lower one from their CPU times
    /// on the data.
    pub limits: Limits,
    /// Cases per run, in the multi-case form.
    pub batch: usize,
    /// Runs at once.
    pub jobs: usize,
    /// The existing data: input files and directories (every `*.in` under them).
    pub inputs: Vec<PathBuf>,
    /// The report directory.
    pub out: PathBuf,
    /// Keep running a program after it is proved wrong, one finding per signature.
    pub keep_going: bool,
    /// The most findings kept per program.
    pub max_findings: usize,
    /// Flaky findings fail the audit too.
    pub strict: bool,
    /// The most time spent shrinking one finding.
    pub shrink_time: Duration,
    /// The CPU time one submission's build may take (`--compile-time`).
    pub compile_time: Duration,
    /// The reference's budget for confirming a finding (estimated steps).
    pub reference_budget: u64,
    /// Run only this slice of the input files and random case indices.
    pub shard: Option<Shard>,
    /// How the problem's input form is found.
    pub form: FormRule,
    /// Which limits the random cases keep to.
    pub constraints: Constraints,
    /// Where to write the input of every unit of cases run (`run-NNNNNN.in`).
    pub save_runs: Option<PathBuf>,
    /// The package whose `data/secret/` the strengthening cases are added to.
    pub add_to: Option<PathBuf>,
    /// The package audited (`--package`): its submissions, data, answers, generators and
    /// validators, none of which a program may read.
    pub package: Option<PathBuf>,
    /// How the programs run.
    pub confinement: Confinement,
    /// The repeated runs of the limits' advice (`--repeat`), and the package's rules.
    pub advising: Advising,
    /// What ends every run of the audit at once, and stops it taking more.
    pub interrupt: referee_sandbox::Interrupt,
}

impl<O> Settings<O> {
    /// What the programs must never be given to read, whatever they ask: the package audited
    /// as a whole, the audit's inputs, its reports, the runs it saves, the package it adds to;
    /// each its real path (links and `..` resolved), so that a path is compared with them by
    /// what it names, never as written.
    pub fn protected(&self) -> Vec<PathBuf> {
        protected(
            &self.inputs,
            [&self.package, &self.save_runs, &self.add_to],
            &self.out,
        )
    }
}

/// [`Settings::protected`] of these settings' `inputs`, `out` and the optional paths
/// `package`, `save_runs` and `add_to`: the real path of each (links and `..` resolved, as far
/// as it exists).
pub fn protected(
    inputs: &[PathBuf],
    optional: [&Option<PathBuf>; 3],
    out: &PathBuf,
) -> Vec<PathBuf> {
    inputs
        .iter()
        .chain(optional.into_iter().flatten())
        .chain([out])
        .map(|p| crate::formats::write::real_path(p))
        .collect()
}

/// What the advice needs besides the runs: how many, and the package's rules and memory limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Advising {
    /// Runs of each program on each data file; 0 gives no advice.
    pub repeat: usize,
    /// The package's time rules (or the format's defaults).
    pub rules: crate::judge_system::problem_yaml::TimeRules,
    /// The memory limit the package sets, in MiB.
    pub set_memory_mib: Option<u64>,
}
