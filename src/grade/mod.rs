//! `referee grade`: grade submissions' output files against the engine's verdicts.
//!
//! The case `CASES/a/b.in` is answered by `SUBMISSIONS/<name>/a/b.out` for each folder
//! `<name>` directly under SUBMISSIONS. Verdicts: `AC` (the same lines as the engine's output,
//! ignoring trailing blanks on each line and the final newline), `PE` (the same tokens, but
//! line breaks or blank lines differ), `WA` (anything else, invalid UTF-8 included), `NO` (no
//! output file), and `JE` for every submission when the case's `.ans` disagrees with the
//! engine, or the engine cannot judge the case.

pub mod merge;
mod rows;
mod run;

pub use run::*;

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::formats::manifest::{CaseListBuilder, Manifest};
use crate::formats::write::Staging;
use crate::game::AnyGame;
use crate::game::{render, Engine, RuleSet};
use crate::games::detect::{recognise_file, rules_from_file_name};
use crate::games::{GameName, Visitor};
use crate::util::answer::{compare_reader, escape, longest_output, Verdict, HEAD};
use crate::util::error::RunError;
use crate::util::pool::progress;
use crate::util::shard::Shard;
use crate::util::walk::{display, walk_cases, CaseFile};

pub use rows::{
    suites, summary, GradeReports, GradeRow, GradeRows, GradeTotals, KEPT_ROWS, MANIFEST,
    NAMED_JUDGE_ERRORS, REPORTS,
};

/// How to grade.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The game of every case; recognised from content when `None`.
    pub game: Option<GameName>,
    /// The rule set (by name) for cases of the games that have it and whose name asks for
    /// none.
    pub rules: Option<String>,
    /// The rows of each kind kept for the CI results ([`KEPT_ROWS`] when `None`).
    pub kept_rows: Option<usize>,
}

/// The options of a grade run that change its reports, as its manifest writes them.
#[derive(serde::Serialize)]
struct Written {
    /// `--game`, or empty: recognised per case.
    game: String,
    /// `--rules`, or empty.
    rules: String,
}

impl Options {
    /// The options, for the manifest.
    fn manifest(&self) -> BTreeMap<String, String> {
        crate::formats::as_text::to_map(&Written {
            game: self.game.map_or("", |g| g.as_str()).into(),
            rules: self.rules.clone().unwrap_or_default(),
        })
    }
}

/// The engine's output for the case at `path`, judged as game `G`.
struct EngineOutput<'a> {
    path: &'a Path,
    rules: Option<&'a str>,
}

impl Visitor for EngineOutput<'_> {
    type Output = Result<String, Ungradable>;
    fn visit<G: AnyGame>(self) -> Result<String, Ungradable> {
        let rules = rules_from_file_name(self.path)
            .or_else(|| self.rules.and_then(G::Options::from_name))
            .unwrap_or_default();
        let mut file =
            crate::util::guard::open_regular(self.path).map_err(Ungradable::Unreadable)?;
        let judgements =
            G::judge(Engine::Fast, &mut file, rules).map_err(|e| Ungradable::Engine {
                located: e.located(&display(self.path)),
            })?;
        Ok(render::<G>(&judgements))
    }
}

/// Why a case cannot be graded (a `JE` row): the engine cannot judge it, or its `.ans` is
/// wrong.
#[derive(Debug, thiserror::Error)]
pub enum Ungradable {
    /// The walk did not read the case: why.
    #[error("{0}")]
    NotRead(String),
    /// The case cannot be opened.
    #[error("{0}")]
    Unreadable(std::io::Error),
    /// Its game is not recognised.
    #[error(transparent)]
    Recognise(#[from] crate::games::RecogniseError),
    /// The engine refuses it (the error located in the case).
    #[error("{located}")]
    Engine {
        /// The engine's error, `FILE:LINE:COL: ...`.
        located: String,
    },
    /// Its `.ans` is not read.
    #[error("answer file: {0}")]
    AnswerNotRead(crate::util::guard::NotRead),
    /// Reading its `.ans` failed.
    #[error("answer file: {0}")]
    AnswerUnreadable(std::io::Error),
    /// Its `.ans` is not the engine's output (its first bytes shown).
    #[error("the answer file disagrees with the engine ({head})")]
    AnswerDisagrees {
        /// The `.ans`'s first bytes, escaped.
        head: String,
    },
}

/// One case graded: its name, the engine's output or why it is a judge error, and each
/// submission's grade in the submissions' order.
struct GradedCase {
    name: String,
    expected: Result<String, Ungradable>,
    grades: Vec<Graded>,
}
