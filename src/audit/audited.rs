//! What an audit found: each program's audit ([`ProgramAudit`]), the whole run's
//! ([`AuditReport`]) and, with several programs, the contest's lines and strengthening cases
//! ([`ContestOutcome`]). The stages fill them; the reports and summaries read them.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::Serialize;

use super::data::{OnData, ProblemForm};
use super::entrants::Class;
use super::finding::Found;
use super::report::{FindingLine, FormUsed};
use super::runner::TimeLimit;
use super::strengthen::Strengthening;
use super::verdict::Standing;
use crate::walk::CaseFile;

/// What the audit did with one program.
#[derive(Debug)]
pub struct ProgramAudit {
    /// Its name.
    pub name: String,
    /// Its expected class.
    pub expected: Option<Class>,
    /// Its command, quoted for a shell (none when it did not build).
    pub command: Option<String>,
    /// What the audit says of it.
    pub standing: Standing,
    /// The form its runs used.
    pub form: FormUsed,
    /// Its result on the existing data.
    pub on_data: Option<OnData>,
    /// Cases it ran to their end.
    pub cases: u64,
    /// The time its cases ran, its examinations aside.
    pub case_time: Duration,
    /// Its runs.
    pub runs: u64,
    /// Its findings.
    pub found: Found,
    /// Its findings as reported, and the rows of its `findings.csv`.
    pub lines: Vec<FindingLine>,
    /// The rows of its `findings.csv`.
    pub rows: Vec<Vec<String>>,
}

impl ProgramAudit {
    /// Its first finding that proves it wrong, as reported.
    pub fn first_proof(&self) -> Option<&FindingLine> {
        self.lines.iter().find(|l| l.kind.proves_wrong())
    }
}

/// What an audit did.
#[derive(Debug)]
pub struct AuditReport {
    /// Every program, in the order given.
    pub programs: Vec<ProgramAudit>,
    /// The problem's form.
    pub problem: ProblemForm,
    /// Every run's time limit after the existing data's.
    pub time_limit: TimeLimit,
    /// The contest's lines and strengthening cases (several programs).
    pub contest: Option<ContestOutcome>,
    /// What was left out, and other notes for the summary.
    pub notes: Vec<String>,
    /// Cases generated and judged by the engine (each once, for every program).
    pub cases_judged: u64,
    /// Random cases dropped for lying outside the contest's limits.
    pub dropped: u64,
    /// Cases per run.
    pub batch: usize,
    /// The cases stage's time.
    pub case_time: Duration,
    /// The whole run's time.
    pub elapsed: Duration,
    /// Whether a signal interrupted the audit.
    pub interrupted: bool,
    /// Every data file found (for the manifest).
    pub inputs: Vec<CaseFile>,
    /// How long each stage took, in order.
    pub phases: Vec<(&'static str, Duration)>,
}

/// A strengthening case written.
#[derive(Debug, Clone, Serialize)]
pub struct TestLine {
    /// Its file in the report (`tests/NNN.in`).
    pub file: String,
    /// Where it was added (`--add-to`), relative to the package's `data/secret`.
    pub added_as: Option<String>,
    /// The programs it fails.
    pub fails: Vec<String>,
    /// Whose finding it is, and its kind.
    pub from: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// Its size as the game counts it (`12 moves`, `16 squares`).
    pub size: Option<String>,
}

/// One program's line of the report.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramLine {
    /// Its name.
    pub name: String,
    /// Its expected class.
    pub expected: Option<Class>,
    /// What it does: the data's result when the data rejects it, else the class of its first
    /// finding, else accepted.
    pub does: Option<Class>,
    /// Its result on the existing data, in words.
    pub existing_data: Option<String>,
    /// Its audit on referee's cases, in words.
    pub referee_cases: String,
    /// Cases of referee's it ran.
    pub cases: u64,
    /// Its findings by kind.
    pub findings: BTreeMap<String, u64>,
    /// Its first finding's input, relative to the report directory.
    pub first_case: Option<String>,
    /// That input's size: bytes, and the case's size as the game counts it.
    pub first_case_size: Option<String>,
    /// Whether the data with the strengthening cases rejects it.
    pub rejected_after: Option<bool>,
    /// The input form its runs used.
    pub form: Option<String>,
    /// Whether the audit proved it wrong.
    pub proved_wrong: bool,
    /// What the package's verdict says of it (empty: as expected).
    pub verdict: Vec<String>,
}

/// What an audit of several programs adds to the report.
#[derive(Debug, Clone)]
pub struct ContestOutcome {
    /// Each program's line.
    pub lines: Vec<ProgramLine>,
    /// The strengthening cases written.
    pub tests: Vec<TestLine>,
    /// The strengthening stage.
    pub strengthening: Strengthening,
    /// What the package's verdict says of the data itself.
    pub package: Vec<String>,
}

impl ContestOutcome {
    /// Whether the package's verdict lists anything.
    pub fn failing(&self) -> bool {
        !self.package.is_empty() || self.lines.iter().any(|l| !l.verdict.is_empty())
    }
}
