//! How to audit: the settings every stage of the pipeline reads.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::program::Limits;
use super::sandbox::Confinement;
use crate::game::{Constraints, Form};
use crate::shard::Shard;

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
    /// How the programs run.
    pub confinement: Confinement,
    /// The repeated runs of the limits' advice (`--repeat`), and the package's rules.
    pub advising: super::limits::Advising,
}

/// The shares of `--time` at which each stage ends: the existing data's runs, the repeated runs
/// of the limits' advice, the cases, the examination of what they found; the strengthening
/// cases take the rest.
const DATA_SHARE: f64 = 0.1;
const REPEATS_SHARE: f64 = 0.2;
pub const CASES_SHARE: f64 = 0.75;
const FINDINGS_SHARE: f64 = 0.9;

/// When each stage must end (`None`: no `--time`).
#[derive(Debug, Clone, Copy)]
pub struct Deadlines {
    /// When the run started.
    pub started: Instant,
    /// The existing data's runs.
    pub data: Option<Instant>,
    /// The repeated runs of the limits' advice.
    pub repeats: Option<Instant>,
    /// The cases.
    pub cases: Option<Instant>,
    /// The examination of failures (isolating, reproducing, shrinking).
    pub findings: Option<Instant>,
    /// The whole run.
    pub end: Option<Instant>,
}

impl Deadlines {
    /// The deadlines of a run of `time` started now.
    pub fn new(time: Option<Duration>) -> Deadlines {
        let started = Instant::now();
        let at = |share: f64| time.map(|t| started + t.mul_f64(share));
        Deadlines {
            started,
            data: at(DATA_SHARE),
            repeats: at(REPEATS_SHARE),
            cases: at(CASES_SHARE),
            findings: at(FINDINGS_SHARE),
            end: at(1.0),
        }
    }
}
