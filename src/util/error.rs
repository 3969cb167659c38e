//! Errors for malformed input, carrying the position of the first problem.
//!
//! Numbering base, for every game and both implementations: **lines and columns are 1-based**,
//! and a column counts **bytes** from the start of the line (a line ends at `\n`; a `\r` right
//! before it belongs to the line ending). The position of "end of input" is the line after the
//! last `\n` (column 1), or, when the input does not end with `\n`, the column just past the
//! last byte.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A place in an input: 1-based line and 1-based byte column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Position {
    /// 1-based line number.
    pub line: u64,
    /// 1-based byte column.
    pub column: u64,
}

impl Position {
    /// A position from a 1-based line and a 1-based column.
    pub fn new(line: u64, column: u64) -> Position {
        Position { line, column }
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// Malformed input: what was expected at `position`, and what was found there.
///
/// `case` is the 1-based number of the game (or data set, or grid) being read in a multi-case
/// input, `None` where the input has a single case or the problem is outside every case.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// Where the first problem is.
    pub position: Position,
    /// The 1-based case number in multi-case input.
    pub case: Option<u64>,
    /// What the grammar allows at that point.
    pub expected: String,
    /// What is there instead.
    pub found: String,
}

impl InputError {
    /// An error at `position` in case `case`.
    pub fn new(
        position: Position,
        case: Option<u64>,
        expected: impl Into<String>,
        found: impl Into<String>,
    ) -> InputError {
        InputError {
            position,
            case,
            expected: expected.into(),
            found: found.into(),
        }
    }

    /// The error in the contract's form `FILE:LINE:COL: ...`, for the input named `file`.
    pub fn located(&self, file: &str) -> String {
        format!("{file}:{self}")
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.position)?;
        if let Some(case) = self.case {
            write!(f, "case {case}: ")?;
        }
        write!(f, "expected {}, found {}", self.expected, self.found)
    }
}

/// Why an input was not judged: malformed content, a failure to read it at all, or a case an
/// implementation refuses (beyond the limits it can judge, such as the reference's search).
#[derive(Debug, thiserror::Error)]
pub enum JudgeError {
    /// The content breaks the game's input grammar.
    #[error("{0}")]
    Input(#[from] InputError),
    /// Reading failed (unreadable file, broken pipe, ...).
    #[error("read error: {0}")]
    Io(#[from] std::io::Error),
    /// The implementation does not judge case `case` (1-based): `reason` says why. Never a
    /// guessed verdict.
    #[error("case {case}: {reason}")]
    Refused {
        /// The 1-based case refused.
        case: u64,
        /// Why.
        reason: String,
    },
}

impl JudgeError {
    /// The error with the input's name in front, as `FILE:LINE:COL: ...` or `FILE: ...`.
    pub fn located(&self, file: &str) -> String {
        match self {
            JudgeError::Input(e) => e.located(file),
            JudgeError::Io(_) | JudgeError::Refused { .. } => format!("{file}: {self}"),
        }
    }
}

impl From<referee_reference::ParseError> for JudgeError {
    /// A reference parser's error, in the engines' terms.
    fn from(e: referee_reference::ParseError) -> JudgeError {
        InputError::new(Position::new(e.line, e.column), e.case, e.expected, e.found).into()
    }
}

/// Why a command could not run at all (exit code 2): bad flags, unreadable or unwritable
/// paths.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// Reading or writing `path` failed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The worker pool could not start.
    #[error("worker threads: {0}")]
    Pool(#[from] rayon::ThreadPoolBuildError),
    /// Writing standard output failed (`what` says what was written).
    #[error("writing {what} to standard output: {source}")]
    Stdout {
        /// What was written.
        what: String,
        /// What failed.
        source: io::Error,
    },
    /// Writing a summary on standard error failed.
    #[error("cannot write the summary: {0}")]
    Summary(io::Error),
    /// Writing the CI outputs (a JUnit file, GitHub's step summary) failed.
    #[error(
        "writing the CI outputs{}: {source}",
        junit.as_ref().map_or(String::new(), |p| format!(" ({})", p.display()))
    )]
    Publish {
        /// The JUnit file asked for.
        junit: Option<PathBuf>,
        /// What failed.
        source: io::Error,
    },
    /// An input the command judges or draws is not in the game's grammar (named `file`).
    #[error("{}", source.located(file))]
    Judge {
        /// The input, as named.
        file: String,
        /// What is wrong.
        source: JudgeError,
    },
    /// The signal handlers could not be set.
    #[error("cannot listen for interruptions: {0}")]
    Signals(io::Error),
    /// The command does not run on this system: why.
    #[error("{0}")]
    Unsupported(&'static str),
    /// A slice that cannot be taken.
    #[error(transparent)]
    Shard(#[from] crate::util::shard::ShardError),
    /// What a layer above refuses (its own error type, [`RunRefusal`]): a rule set, an input,
    /// a report directory, a knob, a package, the sandbox.
    #[error(transparent)]
    Refused(Box<dyn std::error::Error + Send + Sync>),
    /// Standard output was closed by its reader (`referee ... | head`): the run ends quietly.
    #[error("standard output closed")]
    ClosedPipe,
}

/// An error of a layer above this one that ends a command with exit code 2, as
/// [`RunError::Refused`] (its message its own).
pub trait RunRefusal: std::error::Error + Send + Sync + 'static {}

impl<E: RunRefusal> From<E> for RunError {
    fn from(refusal: E) -> RunError {
        RunError::Refused(Box::new(refusal))
    }
}

impl RunError {
    /// A failure to write standard output (`what` says what was written): a closed pipe is
    /// [`RunError::ClosedPipe`].
    pub fn stdout(what: &str, source: io::Error) -> RunError {
        if source.kind() == io::ErrorKind::BrokenPipe {
            RunError::ClosedPipe
        } else {
            RunError::Stdout {
                what: what.to_string(),
                source,
            }
        }
    }

    /// A failure to read or write `path`.
    pub fn io(path: &Path, source: io::Error) -> RunError {
        RunError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}

/// Renders a piece of input for a message: printable ASCII quoted, other bytes escaped, long
/// pieces cut short.
pub fn describe_bytes(bytes: &[u8]) -> String {
    const SHOWN: usize = 24;
    let mut out = String::from("'");
    for &b in bytes.iter().take(SHOWN) {
        match b {
            b'\'' => out.push_str("\\'"),
            b'\\' => out.push_str("\\\\"),
            0x20..=0x7e => out.push(b as char),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            _ => out.push_str(&format!("\\x{b:02X}")),
        }
    }
    if bytes.len() > SHOWN {
        out.push_str("...");
    }
    out.push('\'');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_has_position_case_expected_found() {
        let e = InputError::new(Position::new(3, 2), Some(2), "a move", "'x'");
        assert_eq!(
            e.located("a.in"),
            "a.in:3:2: case 2: expected a move, found 'x'"
        );
        let e = InputError::new(Position::new(1, 1), None, "N", "end of input");
        assert_eq!(e.to_string(), "1:1: expected N, found end of input");
    }

    #[test]
    fn describe_escapes_and_truncates() {
        assert_eq!(describe_bytes(b"L2 x"), "'L2 x'");
        assert_eq!(describe_bytes(b"\xff\x00"), "'\\xFF\\x00'");
        assert!(describe_bytes(&[b'a'; 100]).ends_with("...'"));
    }
}
