//! `referee package`: a problem package for a game, in the problem package format version a
//! user's tools read ([`FormatVersion`]): `2025-09` (BAPCtools), `2023-07-draft` and `legacy`
//! (Kattis problemtools, DOMjudge). In `2025-09`:
//!
//! ```text
//! DIR/problem.yaml
//! DIR/statement/problem.en.tex          the game's statement (LaTeX; Markdown in 2023-07-draft)
//! DIR/data/sample/NN-NAME.{in,ans}      the statement's examples
//! DIR/data/secret/NNN-NAME.{in,ans}     edge cases, then seeded random cases
//! DIR/data/test_group.yaml              the output validator's arguments
//! DIR/generators/generators.yaml        how every case is made (`bt generate`, `bt fuzz`)
//! DIR/generators/referee/               the generator: `referee gen`
//! DIR/input_validators/referee/         `referee validate --constraints contest`
//! DIR/answer_validators/referee/        `referee validate --answer-of INPUT`
//! DIR/output_validator/                 `referee check`
//! DIR/submissions/accepted/...          a correct solution
//! DIR/submissions/wrong_answer/...      solutions with a realistic bug
//! ```
//!
//! The output validator's arguments name the rule set and say exactly how the checker compares
//! (`case_sensitive space_change_sensitive`: byte for byte). Every program is a `build` script
//! that finds referee and writes its `run` ([`programs`]). Every `.ans` is the engine's; every
//! `.in` passes `referee validate --constraints contest` and differs from every other
//! ([`cases`]). The package is written beside DIR and put in its place at the end, so a failed
//! run leaves any earlier one intact. `DIR/referee-files.txt` lists every file referee wrote:
//! a directory is replaced only when every file in it is one of those (or with `force`), so no
//! file referee did not write is ever deleted unasked.

pub mod add;
pub mod cases;
pub mod dmoj;
pub mod edit;
pub mod limits;
pub mod programs;
pub mod statement;
mod write;

pub use write::*;

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use crate::game::problem::Content;
use crate::game::Generated;
use crate::game::Packaged;
use crate::game::{Game, RuleSet};
use crate::util::error::RunError;
use cases::{Group, Planned};
use programs::{write_program, Pin};

/// A version of the problem package format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatVersion {
    /// `2025-09`, which BAPCtools reads.
    #[value(name = "2025-09")]
    V2025_09,
    /// `2023-07-draft`, which Kattis problemtools reads (in part).
    #[value(name = "2023-07-draft")]
    V2023_07Draft,
    /// The format before versions, which problemtools and DOMjudge read.
    #[value(name = "legacy")]
    Legacy,
}

/// The judge system a package is written for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum System {
    /// The problem package format (Kattis, DOMjudge, BAPCtools), in `--format-version`.
    Kattis,
    /// DMOJ's judge: `init.yml` and a Python checker (`dmoj.rs`).
    Dmoj,
}

/// How to write a package.
#[derive(Debug, Clone)]
pub struct Settings {
    /// The package directory.
    pub out: PathBuf,
    /// The judge system it is for.
    pub system: System,
    /// The seed of the random cases (the generators' `random_salt`).
    pub seed: u64,
    /// How many random cases.
    pub cases: usize,
    /// The problem's name, as shown to contestants (default: the game's).
    pub name: Option<String>,
    /// The format version.
    pub format: FormatVersion,
    /// The referee the package's programs run.
    pub pin: Pin,
    /// Replace `out` even when it holds files referee did not write.
    pub force: bool,
}

/// The list of the files a package holds, one relative path per line, inside the package.
pub const PACKAGE_MANIFEST: &str = "referee-files.txt";

/// What was written.
#[derive(Debug, Clone)]
pub struct Written {
    /// Sample cases.
    pub samples: usize,
    /// Secret cases.
    pub secret: usize,
    /// Submissions.
    pub submissions: usize,
}

/// The most random cases of a package: judge systems run every case of every submission, and
/// packages of the contests this follows hold a few hundred.
pub const MOST_CASES: usize = 10_000;

/// Why a package cannot be written where asked.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// More random cases than a package holds.
    #[error("--cases {0}: a package holds at most {MOST_CASES} random cases")]
    TooManyCases(usize),
    /// The game has no package.
    #[error("{0} has no problem package content")]
    NoContent(&'static str),
    /// A directory name that is not a short name.
    #[error(
        "--out {}: the directory's name is the problem's short name, which Kattis wants of \
         lowercase letters and digits only (like {example})",
        out.display()
    )]
    ShortName {
        /// The directory.
        out: PathBuf,
        /// The game's own short name.
        example: String,
    },
    /// A directory holding a file referee did not write.
    #[error(
        "--out {}: {foreign}, which referee did not write; refusing to replace it (--force \
         replaces it anyway)",
        out.display()
    )]
    Foreign {
        /// The directory.
        out: PathBuf,
        /// The file, and what it is.
        foreign: String,
    },
}

impl crate::util::error::RunRefusal for PackageError {}
