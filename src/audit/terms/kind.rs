//! What went wrong in one run of a program.

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
