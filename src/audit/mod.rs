//! `referee audit`: cross-examine someone else's judge program.
//!
//! Before any work, the program's input form is found ([`probe`]): it answers the problem
//! statement's own examples in the single-case form, the multi-case form, or both; every run
//! after uses that form. The program then runs on every input file given, read as cases, and
//! on seeded random cases from the game's generator, inside the contest's limits unless asked
//! otherwise, the game's extremes among them (`--batch K` cases per run in the multi-case
//! form); its output is compared with the engine's by `grade`'s rules.
//!
//! A failing run is narrowed to one case that fails alone (the case whose verdict line is
//! wrong, else by halves); that case is run again before anything is reported (a timeout alone,
//! with twice the time): a failure that does not come back is `flaky`. A reproduced failure is
//! shrunk, many candidates to a run where the form allows, to a minimal case of the same kind
//! that still reproduces; a wrong answer is confirmed by the reference where it can afford it.
//! Findings are kept apart by their signature (the kind, how the whole output differs, the
//! case's shape), and findings whose shrunk cases coincide are one finding.
//!
//! A case on which the reference sides with the program, or disagrees with the engine, is not
//! the program's fault: it is reported as `engine-disputed`, the audit auditing referee too.
//!
//! The same seed gives the same cases and the same findings whatever `--jobs`: cases are drawn
//! from their own random streams ([`crate::random::Rng::for_item`]) and findings are taken in
//! case order. `--time` bounds the whole audit: the cases run for its first three quarters,
//! and the rest is kept for narrowing, reproducing and shrinking what they found.

#[cfg(target_os = "linux")]
pub mod contest;
#[cfg(target_os = "linux")]
pub mod entrants;
#[cfg(target_os = "linux")]
pub mod outcome;
#[cfg(target_os = "linux")]
pub mod probe;
#[cfg(target_os = "linux")]
pub mod program;
#[cfg(target_os = "linux")]
mod report;
#[cfg(target_os = "linux")]
mod run;
#[cfg(target_os = "linux")]
pub mod runner;
#[cfg(target_os = "linux")]
mod shrink;
#[cfg(target_os = "linux")]
pub mod units;

#[cfg(target_os = "linux")]
pub use report::{FindingLine, FINDINGS_HEADER, MANIFEST};
#[cfg(target_os = "linux")]
pub use run::{audit, Report, Settings};

use std::fmt;

/// What went wrong in one run of the program, if anything.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Ran past the timeout.
    Timeout,
    /// Exited with a code other than 0, or was ended by a signal.
    Crash,
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
    pub const ALL: [Kind; 8] = [
        Kind::EngineDisputed,
        Kind::WrongAnswer,
        Kind::PresentationError,
        Kind::NoOutput,
        Kind::Crash,
        Kind::Timeout,
        Kind::OutputLimit,
        Kind::Flaky,
    ];

    /// The report spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Timeout => "timeout",
            Kind::Crash => "crash",
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
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where a case comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Case `case` (1-based) of the `of` cases of an input file, the file at `position` in the
    /// sorted list of every input file.
    File {
        /// The file's name.
        name: String,
        /// Its place among every input file.
        position: usize,
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
            Source::File { name, of: 1, .. } => format!("input file {name}"),
            Source::File { name, case, of, .. } => {
                format!("case {case} of {of} of input file {name}")
            }
            Source::Random { index } => format!("random case {index}"),
        }
    }

    /// The `case` column of `findings.csv`: `file NAME` (`file NAME#K` for case K of several)
    /// or `random INDEX`.
    pub fn column(&self) -> String {
        match self {
            Source::File { name, of: 1, .. } => format!("file {name}"),
            Source::File { name, case, .. } => format!("file {name}#{case}"),
            Source::Random { index } => format!("random {index}"),
        }
    }

    /// The stem of the finding's files: unique within a run and across the shards of one.
    pub fn stem(&self, game: &str, suffix: &str) -> String {
        match self {
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
