//! `referee audit`: cross-examine other people's judge programs, one or a whole contest's.
//!
//! The code is in rooms by concern: [`running`] (every run of a program, and the shares of
//! `--time`), [`cases`] (the data, the probe, the plan and schedule of the cases, narrowing and
//! shrinking), [`findings`] (what a run means, a failure until it is a finding, the verdicts),
//! [`contest`] (the programs, strengthening, merging shards), [`limits`] (the advice and its
//! repeated runs) and [`reports`] (the typed report, its files and page); the pipeline
//! ([`pipeline`], [`settings`]) and its stages sit on top of them.
//!
//! One pipeline ([`pipeline::audit`]) audits any number of programs; auditing one program is a
//! contest of one, in its stages and in its reports. Each program's audit is one value, advanced
//! stage by stage ([`reports::audited`]), and every report is printed from the typed values the
//! stages give ([`reports::report`]):
//!
//! 1. **Data** ([`cases::data`]): the input files (a package's `data/`, or `--inputs`) read once:
//!    their bytes, their answers (`.ans`, else the engine's), their cases and their form. The
//!    problem's input form is `--form`; else, with several programs, the form of that data, else of
//!    the statement's examples; with one program, the form its output fits.
//! 2. **Probe** ([`cases::probe`]): each program runs on the statement's own examples in the
//!    problem's form (with one program and no known form, in each form). The form kept is the one
//!    whose output has the *shape* of an answer (one verdict line per case, each in the game's
//!    output grammar), right or wrong. A program whose output fits no form is wrong whichever form
//!    the contest uses: that attempt is its finding.
//! 3. **Existing data** ([`cases::data`]): each program runs every data file as a judge system runs
//!    it, the file as it is against its answer; the programs expected accepted first, and their CPU
//!    times set the other runs' time limit ([`running::runner::TimeLimit`]).
//! 4. **Cases** ([`cases::schedule`]): units of cases ([`cases::plan`]: the statement's examples,
//!    the data's cases, then seeded random cases inside the contest's limits, the game's extremes
//!    among them) prepared once and run by every program that still takes cases, `--jobs` runs at
//!    once; the programs the data accepts first. A failing run is examined on the spot
//!    ([`findings::settle`], the stages of a [`findings::failure::Failure`]): narrowed to a case
//!    that fails alone ([`cases::narrow`]), run again, shrunk ([`cases::shrink`]), confirmed by the
//!    reference ([`findings::confirm`]); a program proved wrong stops taking cases unless
//!    `--keep-going`.
//! 5. **Strengthening** ([`contest::strengthen`]): each program's shrunk findings in the problem's
//!    form are candidate data cases, kept only when the contest's validator takes them and no
//!    program that must be accepted fails them; the fewest that reject every wrong program the data
//!    accepts; the data's scores before and after.
//! 6. **Reports** ([`reports::report`], [`reports::page`]): `programs.csv`, each program's
//!    findings, the strengthening cases and `audit.json`, printed from the typed report;
//!    [`contest::merge`] combines the reports of the shards of one audit into those of one run.
//!
//! Every run of a program goes through its [`running::runner::Runner`] (counted, held to the time
//! limit, cut at the deadline or on interruption): the time limit counts CPU time, as judge systems
//! do, and wall-clock time only caps a program that sleeps or blocks, so a busy machine gives the
//! same verdicts as an idle one; the memory the run holds is held to the memory limit. Every
//! program, and every submission's build, runs in the sandbox of the `referee-sandbox` crate
//! (unless `--unconfined`), as a judge system's sandbox runs a submission. An interrupted audit
//! ends every process it started, writes its reports and exits 128 + the signal.
//!
//! The same seed gives the same cases and the same findings whatever `--jobs`: cases are drawn from
//! their own random streams ([`crate::random::Rng::for_item`]) and each program's failures are
//! examined in case order.

#[cfg(target_os = "linux")]
pub mod cases;
#[cfg(target_os = "linux")]
pub mod contest;
pub mod findings;
#[cfg(target_os = "linux")]
pub mod limits;
#[cfg(target_os = "linux")]
pub mod pipeline;
#[cfg(target_os = "linux")]
pub mod reports;
#[cfg(target_os = "linux")]
pub mod running;
#[cfg(target_os = "linux")]
pub mod settings;
#[cfg(target_os = "linux")]
mod stages;

use std::fmt;

/// What went wrong in one run of the program, if anything.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    /// Ran past its CPU time limit, or past the wall-clock cap (it sleeps or blocks).
    Timeout,
    /// Exited with a code other than 0, was ended by a signal, or made a call the sandbox
    /// forbids.
    Crash,
    /// Its processes held more memory than the memory limit.
    MemoryLimit,
    /// Wrote more than the output cap.
    OutputLimit,
    /// Exited normally without writing anything.
    NoOutput,
    /// The expected tokens, differently laid out.
    PresentationError,
    /// Anything else.
    WrongAnswer,
    /// The reference sides with the program, or disagrees with the engine: referee's fault.
    EngineDisputed,
    /// A failure that did not come back when the case was run again: reported, not shrunk,
    /// and no reason for exit 1 without `--strict`.
    Flaky,
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 9] = [
        Kind::EngineDisputed,
        Kind::WrongAnswer,
        Kind::PresentationError,
        Kind::NoOutput,
        Kind::Crash,
        Kind::Timeout,
        Kind::MemoryLimit,
        Kind::OutputLimit,
        Kind::Flaky,
    ];

    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Timeout => "timeout",
            Kind::Crash => "crash",
            Kind::MemoryLimit => "memory-limit",
            Kind::OutputLimit => "output-limit",
            Kind::NoOutput => "no-output",
            Kind::PresentationError => "presentation-error",
            Kind::WrongAnswer => "wrong-answer",
            Kind::EngineDisputed => "engine-disputed",
            Kind::Flaky => "flaky",
        }
    }

    /// Whether the kind depends on the expected output (so the reference can confirm it).
    pub fn about_the_answer(self) -> bool {
        matches!(self, Kind::WrongAnswer | Kind::PresentationError)
    }

    /// Whether a finding of this kind proves the program wrong: not a failure that did not
    /// come back, not one where the reference does not side with referee's engine.
    pub fn proves_wrong(self) -> bool {
        !matches!(self, Kind::Flaky | Kind::EngineDisputed)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a case comes from. Ordered as reports list findings: the statement's examples, then
/// the input files in their sorted order, then random cases by index.
#[derive(
    Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum Source {
    /// One of the problem statement's own examples ([`Forms::PROBES`](crate::game::Forms::PROBES)): case
    /// `case` (1-based) of the `of` examples.
    Example {
        /// The example, from 1.
        case: usize,
        /// The examples.
        of: usize,
    },
    /// The problem statement's examples together, as the probe runs them.
    Examples,
    /// Case `case` (1-based) of the `of` cases of an input file, the file at `position` in the
    /// sorted list of every input file.
    File {
        /// Its place among every input file.
        position: usize,
        /// The file's name.
        name: String,
        /// The case within it, from 1.
        case: usize,
        /// The cases it holds.
        of: usize,
    },
    /// A random case (its number).
    Random {
        /// The case's number in the seed's stream.
        index: u64,
    },
}

impl Source {
    /// In words, for the detail column.
    pub fn describe(&self) -> String {
        match self {
            Source::Example { case, of } => format!("the statement's example ({case} of {of})"),
            Source::Examples => "the statement's examples".into(),
            Source::File { name, of: 1, .. } => format!("input file {name}"),
            Source::File { name, case, of, .. } => {
                format!("case {case} of {of} of input file {name}")
            }
            Source::Random { index } => format!("random case {index}"),
        }
    }

    /// The `case` column of `findings.csv`: `example K`, `file NAME` (`file NAME#K` for case K
    /// of several) or `random INDEX`.
    pub fn column(&self) -> String {
        match self {
            Source::Example { case, .. } => format!("example {case}"),
            Source::Examples => "examples".into(),
            Source::File { name, of: 1, .. } => format!("file {name}"),
            Source::File { name, case, .. } => format!("file {name}#{case}"),
            Source::Random { index } => format!("random {index}"),
        }
    }

    /// The stem of the finding's files: unique within a run and across the shards of one.
    pub fn stem(&self, game: &str, suffix: &str) -> String {
        match self {
            Source::Example { case, .. } => format!("{game}-example{case}{suffix}"),
            Source::Examples => format!("{game}-examples{suffix}"),
            Source::File {
                position, of: 1, ..
            } => format!("{game}-input{position}{suffix}"),
            Source::File { position, case, .. } => {
                format!("{game}-input{position}-case{case}{suffix}")
            }
            Source::Random { index } => format!("{game}-case{index}{suffix}"),
        }
    }
}

/// What `audit` asks of a game: its reference (to confirm findings), its input forms (to probe
/// and run programs), its generated cases, and its contest's limits.
pub trait Auditable:
    crate::game::Referenced + crate::game::Forms + crate::game::Generated + crate::game::Packaged
{
}

impl<G> Auditable for G where
    G: crate::game::Referenced
        + crate::game::Forms
        + crate::game::Generated
        + crate::game::Packaged
{
}
