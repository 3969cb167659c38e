//! `referee audit`: cross-examine someone else's judge program. The program runs on every input
//! file given, then on seeded random cases from the game's generator (`--batch K` of them per
//! run, in the game's multi-case form); its output is compared with the engine's by `grade`'s
//! rules. A failing batch is split until one case fails alone; that case is shrunk by running
//! the program again on smaller cases of the same kind of failure; the finding is confirmed by
//! the reference where it can afford it, and kept apart from others by its signature.
//!
//! A case on which the reference sides with the program, or disagrees with the engine, is not
//! the program's fault: it is reported as `engine-disputed`, the audit auditing referee too.
//!
//! The same seed gives the same cases and the same findings whatever `--jobs`: cases are drawn
//! from their own random streams ([`crate::random::Rng::for_item`]) and findings are taken in
//! case order.

#[cfg(target_os = "linux")]
pub mod program;

#[cfg(target_os = "linux")]
mod run;

#[cfg(target_os = "linux")]
pub use run::{audit, FindingLine, Report, Settings, FINDINGS_HEADER, MANIFEST};

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
}

impl Kind {
    /// Every kind, in report order.
    pub const ALL: [Kind; 7] = [
        Kind::EngineDisputed,
        Kind::WrongAnswer,
        Kind::PresentationError,
        Kind::NoOutput,
        Kind::Crash,
        Kind::Timeout,
        Kind::OutputLimit,
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
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
