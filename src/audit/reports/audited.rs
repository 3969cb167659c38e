//! What an audit found, as typed values: each program's record ([`ProgramRecord`]), built once
//! when its stages are done, and the whole run's ([`AuditReport`]). Every report and summary
//! is printed from these ([`crate::audit::reports::report`]); `audit.json` holds them, so that `referee merge`
//! reads the shards of an audit back as the same values ([`crate::audit::merge`]).
//!
//! A program's states are an enum of the reachable ones ([`Reached`]): it cannot be run, or
//! the audit's time ran out before its examples ran, or it was examined: the form its output
//! fits (or that it fits none), its result on the existing data, what it did with referee's
//! cases, and its findings. What the audit says of it ([`crate::audit::findings::verdict::Standing`]) and of
//! the package are pure functions of these.

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::audit::cases::data::{DataOutcome, ProblemForm};
use crate::audit::findings::evidence::Evidence;
use crate::audit::findings::verdict::{scores, Scored, Scores, Standing, Unaudited};
use crate::audit::running::runner::TimeLimit;
use crate::audit::terms::Class;
use crate::audit::terms::{Kind, Source};
use crate::game::Form;
use referee_sandbox::Confinement;

/// How a program does on a strengthening case, run as a judge system runs a data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OnCase {
    /// It passes.
    Passes,
    /// It fails, every time it is run ([`crate::audit::strengthen::CONFIRMING_RUNS`] times): the
    /// case rejects it.
    Rejected,
    /// It fails some runs and passes others (a crash that depends on the stack's layout).
    Sometimes,
    /// It was not run to an end (`--time` ran out, or it cannot be run).
    NotRun,
}

impl OnCase {
    /// In a word, for reports.
    pub fn as_str(self) -> &'static str {
        match self {
            OnCase::Passes => "passes",
            OnCase::Rejected => "rejects",
            OnCase::Sometimes => "sometimes",
            OnCase::NotRun => "not run",
        }
    }
}

/// The form a program's runs used, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fit", rename_all = "kebab-case")]
pub enum FormUsed {
    /// Its output has the shape of an answer in `form`.
    Fits {
        /// The form.
        form: Form,
        /// Why, in a sentence.
        why: String,
    },
    /// Its output fits no form tried: its finding is its attempt in `form`.
    NoForm {
        /// The form of the attempt that is its finding.
        form: Form,
    },
}

impl FormUsed {
    /// The form its runs used.
    pub fn form(&self) -> Form {
        match self {
            FormUsed::Fits { form, .. } | FormUsed::NoForm { form } => *form,
        }
    }

    /// Why, in a sentence.
    pub fn why(&self) -> &str {
        match self {
            FormUsed::Fits { why, .. } => why,
            FormUsed::NoForm { .. } => {
                "no input form gave an answer of the game's shape; the attempt in this form is its \
                 finding"
            }
        }
    }
}

/// Why a program took no more cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Finish {
    /// A finding proved it wrong.
    ProvedWrong,
    /// It ran every unit of the plan.
    Exhausted,
    /// The cases' deadline, an interruption, or a program that cannot start.
    Stopped,
}

/// What one program did with referee's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Cases it ran to their end.
    pub cases: u64,
    /// The time spent examining its failures.
    #[serde(with = "crate::audit::terms::seconds")]
    pub examining: Duration,
    /// Why it stopped.
    pub finish: Finish,
}

/// Whether a program took referee's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "took", rename_all = "kebab-case")]
pub enum CasesOutcome {
    /// None: its output fits no form, which is its finding.
    NoForm,
    /// None: it times out on the existing data, which classifies it.
    TimesOutOnData,
    /// Cases, as tallied.
    Cases(Tally),
}

/// A program examined by the stages.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Examined {
    /// The form its runs used.
    pub form: FormUsed,
    /// Its result on the existing data.
    pub on_data: DataOutcome,
    /// What it did with referee's cases.
    pub cases: CasesOutcome,
}

/// How far the audit took a program.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "kebab-case")]
pub enum Reached {
    /// It cannot be run (it did not build, or could not be started).
    CannotRun {
        /// Why.
        why: String,
    },
    /// `--time` ran out, or an interruption came, before its examples ran.
    NotProbed,
    /// The stages examined it.
    Examined(Examined),
}

/// One finding, as reported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FindingRecord {
    /// Its kind as reported.
    pub kind: Kind,
    /// The kind its failure was first seen as (differs for `flaky` and `engine-disputed`).
    pub seen: Kind,
    /// Its signature.
    pub signature: String,
    /// How many failing cases share it.
    pub count: u64,
    /// Where its case comes from.
    pub source: Source,
    /// Its input file, in the program's directory of the report (`programs/NAME/`).
    pub file: String,
    /// The form of that input.
    pub form: Form,
    /// The engine's output, escaped and cut.
    pub expected: String,
    /// The program's output, escaped and cut.
    pub got: String,
    /// The end of the program's standard error, escaped.
    pub stderr: String,
    /// Its exit code or signal (`3`, `signal 11`), when it ended so.
    pub exit: String,
    /// How a run that timed out was stopped.
    pub stopped: String,
    /// The time limit its input's runs get (audit's runs, and the reproducing command's).
    #[serde(with = "crate::audit::terms::seconds", default)]
    pub limit: Duration,
    /// The run's CPU time.
    #[serde(with = "crate::audit::terms::seconds")]
    pub cpu: Duration,
    /// The run's wall-clock time.
    #[serde(with = "crate::audit::terms::seconds")]
    pub wall: Duration,
    /// The most memory the run's processes held together, in bytes.
    pub memory: u64,
    /// What stands behind it.
    pub evidence: Evidence,
    /// Shrinking steps taken.
    pub shrink_steps: usize,
    /// Whether it fails only with the other cases of its run.
    pub batch_only: bool,
    /// Where its case lies outside the contest's limits: what they allow, what it has.
    pub outside: Option<(String, String)>,
    /// Its input's size in bytes.
    pub bytes: usize,
    /// The case's size as the game counts it (`12 moves`).
    pub size: Option<String>,
    /// More for the detail column.
    pub notes: Vec<String>,
}

/// One program's record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ProgramRecord {
    /// Its name.
    pub name: String,
    /// Its expected class.
    pub expected: Option<Class>,
    /// Its command, quoted for a shell (none when it did not build).
    pub command: Option<String>,
    /// How far the audit took it.
    pub outcome: Reached,
    /// Its runs, probe and examinations included.
    pub runs: u64,
    /// Its findings, first found first.
    pub findings: Vec<FindingRecord>,
    /// Its failing cases per kind (every one, not only those kept).
    pub failing: BTreeMap<Kind, u64>,
    /// Failing runs not examined for lack of time.
    pub unexamined: u64,
    /// Findings of new signatures beyond `--max-findings`, counted only.
    pub beyond_max: u64,
}

impl ProgramRecord {
    /// What it was examined to be, when it was.
    pub fn examined(&self) -> Option<&Examined> {
        match &self.outcome {
            Reached::Examined(e) => Some(e),
            _ => None,
        }
    }

    /// Its first finding that proves it wrong: the one answer to that question.
    pub fn first_proof(&self) -> Option<&FindingRecord> {
        self.findings.iter().find(|f| f.kind.proves_wrong())
    }

    /// Its result on the existing data.
    pub fn on_data(&self) -> Option<&DataOutcome> {
        self.examined().map(|e| &e.on_data)
    }

    /// Whether the existing data rejects it.
    pub fn rejected_by_data(&self) -> bool {
        self.on_data().is_some_and(DataOutcome::rejects)
    }

    /// Whether the existing data judged it (its runs ended, or there is no data).
    pub fn judged_by_data(&self) -> bool {
        self.on_data().is_some_and(DataOutcome::judged)
    }

    /// Whether no strengthening case may reject it: it can run, the existing data does not
    /// reject it, and it is expected accepted or was audited with no finding. A program the
    /// data rejects is rejected by a judge system already, whatever a new case does (one
    /// expected accepted is a line of the package's verdict of its own): it vetoes no case, so
    /// that one such program does not block every strengthening case, and which candidates
    /// survive does not hang on how many of their cases a budget ran.
    pub fn must_pass(&self) -> bool {
        !matches!(self.outcome, Reached::CannotRun { .. })
            && !self.rejected_by_data()
            && (self.expected == Some(Class::Accepted) || self.standing() == Standing::NoFinding)
    }

    /// Whether it must pass though nothing expects it accepted (audited with no finding,
    /// accepted by the existing data): a candidate that proves it wrong
    /// ([`crate::audit::strengthen::proves_wrong_on_candidate`]) is a finding of it, not a reason to
    /// drop the candidate. (Which of several programs with one bug a budget found must not
    /// decide whether the data is strengthened against that bug.)
    pub fn unproven(&self) -> bool {
        self.must_pass() && self.expected != Some(Class::Accepted)
    }

    /// Whether a strengthening set must reject it: proved wrong, judged by the existing data,
    /// and accepted by it.
    pub fn to_reject(&self) -> bool {
        self.standing().proved_wrong() && self.judged_by_data() && !self.rejected_by_data()
    }

    /// Cases of referee's it ran to their end.
    pub fn cases(&self) -> u64 {
        match self.examined().map(|e| e.cases) {
            Some(CasesOutcome::Cases(t)) => t.cases,
            _ => 0,
        }
    }

    /// What the audit says of it.
    pub fn standing(&self) -> Standing {
        let examined = match &self.outcome {
            Reached::CannotRun { why } => return Standing::CannotRun(why.clone()),
            Reached::NotProbed => return Standing::NotAudited(Unaudited::BeforeExamples),
            Reached::Examined(examined) => examined,
        };
        if self.first_proof().is_some() {
            return Standing::ProvedWrong;
        }
        match examined.cases {
            CasesOutcome::TimesOutOnData => Standing::TimesOutOnData,
            CasesOutcome::Cases(t)
                if t.cases == 0 && t.finish != Finish::Exhausted && self.findings.is_empty() =>
            {
                Standing::NotAudited(Unaudited::BeforeFirstCase)
            }
            _ => Standing::NoFinding,
        }
    }
}

/// A strengthening case written.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TestRecord {
    /// Its file in the report (`tests/NNN.in`).
    pub file: String,
    /// Where it was added (`--add-to`), relative to the package's `data/secret`.
    pub added_as: Option<String>,
    /// Whose finding it is, and its kind.
    pub from: String,
    /// Its size in bytes.
    pub bytes: usize,
    /// Its size as the game counts it (`12 moves`, `16 squares`).
    pub size: Option<String>,
    /// How each program does on it, by the program's name.
    pub on: BTreeMap<String, OnCase>,
}

impl TestRecord {
    /// How `program` does on it (not run, when the record does not name it).
    pub fn on_program(&self, program: &ProgramRecord) -> OnCase {
        self.on_named(&program.name)
    }

    /// How the program named `program` does on it (not run, when the record does not name
    /// it).
    pub fn on_named(&self, program: &str) -> OnCase {
        self.on.get(program).copied().unwrap_or(OnCase::NotRun)
    }
}

/// What the random cases and the stages cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Effort {
    /// Cases generated and judged by the engine (each once, for every program).
    pub cases_judged: u64,
    /// Random cases dropped for lying outside the contest's limits.
    pub random_dropped: u64,
    /// Cases per run.
    pub batch: usize,
    /// The cases stage's wall-clock time.
    #[serde(with = "crate::audit::terms::seconds")]
    pub cases_time: Duration,
    /// Each stage and its wall-clock seconds, in order.
    pub phases: Vec<(String, f64)>,
    /// The whole run's wall-clock time.
    #[serde(with = "crate::audit::terms::seconds")]
    pub elapsed: Duration,
    /// How `--time` was shared when the findings ended (none without it, or merged).
    #[serde(default)]
    pub budget: Option<crate::audit::running::deadlines::BudgetSpent>,
}

/// What an audit did: every program's record, the strengthening cases, the run's facts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditReport {
    /// The game's name.
    pub game: String,
    /// The rule set's name.
    pub rules: String,
    /// Flaky findings fail the audit (`--strict`).
    pub strict: bool,
    /// The problem's form.
    pub problem: ProblemForm,
    /// Every run's time limit after the existing data's.
    pub time_limit: TimeLimit,
    /// Every run's memory limit, in bytes.
    pub memory_limit: u64,
    /// The most bytes of standard output a run keeps (`--max-output`).
    #[serde(default = "default_max_output")]
    pub max_output: u64,
    /// How the programs ran: in the sandbox, or `--unconfined`.
    pub confinement: Confinement,
    /// Whether the run has existing data (in any slice).
    pub has_data: bool,
    /// Every program, in the order given.
    pub programs: Vec<ProgramRecord>,
    /// The strengthening cases chosen, in the order picked.
    pub tests: Vec<TestRecord>,
    /// Candidates dropped because a program that must be accepted fails them, and why.
    pub dropped: Vec<String>,
    /// Findings not taken as candidates, and why.
    pub not_candidates: Vec<String>,
    /// What was left out, and other notes for the summary.
    pub notes: Vec<String>,
    /// What it cost.
    pub effort: Effort,
    /// Whether a signal interrupted the audit.
    pub interrupted: bool,
    /// The advice on the problem's limits, from repeated runs (`--repeat`), when there is data
    /// and a program expected accepted.
    #[serde(default)]
    pub limits: Option<crate::audit::limits::Advice>,
}

impl AuditReport {
    /// Every program's runs.
    pub fn runs(&self) -> u64 {
        self.programs.iter().map(|p| p.runs).sum()
    }

    /// Whether the strengthened data rejects `program`: the existing data does, or a
    /// strengthening case does every time.
    pub fn rejected_after(&self, program: &ProgramRecord) -> bool {
        program.rejected_by_data()
            || self
                .tests
                .iter()
                .any(|t| t.on_program(program) == OnCase::Rejected)
    }
}

/// The `--max-output` of reports written before it was kept.
fn default_max_output() -> u64 {
    DEFAULT_MAX_OUTPUT
}

/// `--max-output`'s default: 16 MiB.
pub const DEFAULT_MAX_OUTPUT: u64 = 16 << 20;

/// The programs of `report` a strengthening set must reject that none of its strengthening
/// cases rejects.
pub fn uncovered(report: &AuditReport) -> Vec<&ProgramRecord> {
    report
        .programs
        .iter()
        .filter(|p| p.to_reject() && !report.rejected_after(p))
        .collect()
}

/// The data's scores in `report`, before and after its strengthening cases.
pub fn scores_of(report: &AuditReport) -> Scores {
    let scored: Vec<Scored> = report
        .programs
        .iter()
        .map(|program| Scored {
            wrong: program
                .standing()
                .counted_wrong()
                .filter(|_| program.judged_by_data()),
            rejected_before: program.rejected_by_data(),
            rejected_after: report.rejected_after(program),
        })
        .collect();
    scores(&scored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_strengthening_case_says_how_each_program_does_on_it_by_name() {
        let test = TestRecord {
            file: "tests/001.in".into(),
            added_as: None,
            from: "b finding 1 (wrong-answer)".into(),
            bytes: 12,
            size: None,
            on: [("a", OnCase::Passes), ("b", OnCase::Rejected)]
                .map(|(name, on)| (name.to_string(), on))
                .into(),
        };
        let json = serde_json::to_value(&test).expect("serializes");
        assert_eq!(
            json["on"],
            serde_json::json!({"a": "passes", "b": "rejected"})
        );
        let read: TestRecord = serde_json::from_value(json).expect("reads back");
        assert_eq!(read, test);
    }
}
