//! A verify run over many files: the walk streamed, files judged in parallel, each file's rows
//! written to the reports as they come in the walk's order (a bounded window of files ahead,
//! [`crate::util::ordered`]), whatever the number of threads; memory holds the window and the rows
//! kept for the summaries ([`KEPT_ROWS`]), never every row. A summary on standard error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::formats::as_text;
use crate::formats::ci::{Case, Ended, Location, Suite};
use crate::formats::html::{Page, PageRow, Problem, ViewSource};
use crate::formats::manifest::{CaseListBuilder, Manifest};
use crate::formats::write::{CsvSink, Staging};
use crate::formats::{self, Row, Status};
use crate::util::error::RunError;
use crate::util::pool::progress;
use crate::util::shard::Shard;
use crate::util::walk::{walk_cases, CaseFile};

/// The manifest's file name in a verify report directory.
pub const MANIFEST: &str = "verify.json";

/// The names a verify run's reports take in its report directory.
pub const REPORTS: [&str; 3] = ["verdicts.csv", "mismatches.csv", MANIFEST];

/// The rows a run keeps for its summaries (CI outputs, the HTML report): every problem row up
/// to this many, and as many others, the first ones; the reports hold every row.
pub const KEPT_ROWS: usize = 10_000;

/// Files judged at most this many per thread ahead of the first whose rows are not written.
const WINDOW_PER_THREAD: usize = 64;

/// Where a run's files come from and where its reports go.
#[derive(Debug, Clone)]
pub struct Batch {
    /// Files and directories to walk.
    pub paths: Vec<PathBuf>,
    /// Only this slice of the sorted case list.
    pub shard: Option<Shard>,
    /// Worker threads (all cores when `None`).
    pub jobs: Option<usize>,
    /// The reports' directory.
    pub out: PathBuf,
    /// Add the engine's time per file to the reports.
    pub timings: bool,
    /// The options that change the reports, for the manifest.
    pub options: VerifyOptions,
    /// The rows of each kind kept for the summaries ([`KEPT_ROWS`] unless a caller bounds
    /// them otherwise).
    pub kept_rows: usize,
}

/// The options of a verify run that change its reports, as its manifest writes them (each by
/// its flag's name, as text).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct VerifyOptions {
    /// `--game`, or empty: recognised per file.
    pub game: String,
    /// `--rules`, or empty.
    pub rules: String,
    /// `--reference-budget`.
    #[serde(with = "as_text::text")]
    pub reference_budget: u64,
    /// `--no-reference`.
    #[serde(with = "as_text::text")]
    pub no_reference: bool,
    /// `--reference-max-bytes`.
    #[serde(with = "as_text::optional")]
    pub reference_max_bytes: Option<u64>,
    /// `--timings`.
    #[serde(with = "as_text::text")]
    pub timings: bool,
}

impl VerifyOptions {}

/// What a verify run found: every row counted, the first ones kept.
#[derive(Debug, Default)]
pub struct VerifyTotals {
    /// Files verified.
    pub files: usize,
    /// Rows in all.
    pub rows: u64,
    /// Problem rows (mismatches, invalid input).
    pub problems: u64,
    /// Rows per game and rule set, per status (a row without status counted as invalid).
    pub counts: BTreeMap<(String, String), BTreeMap<Status, u64>>,
    /// The rows kept, in report order: every problem row up to [`KEPT_ROWS`], and the first
    /// [`KEPT_ROWS`] others.
    pub kept: Vec<Row>,
    kept_problems: usize,
    kept_others: usize,
    /// The bound on each kind of kept row.
    kept_limit: usize,
    /// The three files the engine took longest on (all their cases), with its microseconds;
    /// the file being counted is in `current` until its rows end.
    slowest: Vec<(String, u64)>,
    /// The file whose rows are being counted, and the engine's microseconds on them so far.
    current: Option<(String, u64)>,
    /// The path of each file with a kept problem row, by its reported name (for the HTML
    /// report's views).
    pub inputs: BTreeMap<String, PathBuf>,
}

impl VerifyTotals {
    /// An outcome with no row yet, keeping up to `kept_limit` rows of each kind.
    pub fn keeping(kept_limit: usize) -> VerifyTotals {
        VerifyTotals {
            kept_limit,
            ..VerifyTotals::default()
        }
    }

    /// `file` among the three `slowest`, if it took longer than one of them.
    fn rank(slowest: &mut Vec<(String, u64)>, file: String, us: u64) {
        if slowest.len() < 3 || slowest.iter().any(|t| us > t.1) {
            slowest.push((file, us));
            slowest.sort_by_key(|t| std::cmp::Reverse(t.1));
            slowest.truncate(3);
        }
    }

    /// The three files the engine took longest on, all their cases together, with its
    /// microseconds.
    pub fn slowest(&self) -> Vec<(String, u64)> {
        let mut slowest = self.slowest.clone();
        if let Some((file, total)) = self.current.clone() {
            Self::rank(&mut slowest, file, total);
        }
        slowest
    }

    /// Counts `row`, and keeps it while there is room.
    pub fn add(&mut self, row: Row) {
        self.rows += 1;
        let status = row.status.unwrap_or(Status::InvalidInput);
        // A run has a few games and rule sets: found without making a key for every row.
        let counts = match self
            .counts
            .iter_mut()
            .find(|((g, r), _)| *g == row.game && *r == row.rules)
        {
            Some((_, counts)) => counts,
            None => self
                .counts
                .entry((row.game.clone(), row.rules.clone()))
                .or_default(),
        };
        *counts.entry(status).or_default() += 1;
        if let Some(us) = row.engine_micros {
            // A file's rows come one after another: its time is theirs together.
            match &mut self.current {
                Some((file, total)) if *file == row.file => *total += us,
                _ => {
                    if let Some((file, total)) = self.current.take() {
                        Self::rank(&mut self.slowest, file, total);
                    }
                    self.current = Some((row.file.clone(), us));
                }
            }
        }
        let keep = if status.is_problem() {
            self.problems += 1;
            self.kept_problems += 1;
            self.kept_problems <= self.kept_limit
        } else {
            self.kept_others += 1;
            self.kept_others <= self.kept_limit
        };
        if keep {
            self.kept.push(row);
        }
    }

    /// Whether any row is a mismatch or invalid input (exit code 1).
    pub fn has_problems(&self) -> bool {
        self.problems > 0
    }

    /// Rows of `status`, over every game.
    pub fn count(&self, status: Status) -> u64 {
        self.counts
            .values()
            .map(|c| c.get(&status).copied().unwrap_or(0))
            .sum()
    }

    /// Rows counted but not kept.
    pub fn left_out(&self) -> u64 {
        self.rows - self.kept.len() as u64
    }
}

/// The two reports of a run, written row by row, and what they hold.
pub struct Reports {
    verdicts: CsvSink,
    mismatches: CsvSink,
    timings: bool,
    /// What the rows written say.
    pub outcome: VerifyTotals,
}

impl Reports {
    /// Starts `verdicts.csv` and `mismatches.csv` in `staging`, keeping up to `kept_rows` rows
    /// of each kind for the summaries.
    pub fn new(staging: &mut Staging, timings: bool, kept_rows: usize) -> std::io::Result<Reports> {
        let header = formats::header(timings);
        Ok(Reports {
            verdicts: staging.csv_sink("verdicts.csv", &header)?,
            mismatches: staging.csv_sink("mismatches.csv", &header)?,
            timings,
            outcome: VerifyTotals::keeping(kept_rows),
        })
    }

    /// Writes `row` (rows come in report order).
    pub fn row(&mut self, row: Row) -> std::io::Result<()> {
        crate::formats::add_bookkeeping(1);
        let fields = row.fields(self.timings);
        self.verdicts.write(&fields)?;
        if row.status.is_some_and(Status::is_problem) {
            self.mismatches.write(&fields)?;
        }
        self.outcome.add(row);
        Ok(())
    }

    /// Ends both reports, writes the manifest, and puts them in place as one.
    pub fn finish(
        self,
        mut staging: Staging,
        manifest: &mut Manifest,
    ) -> std::io::Result<VerifyTotals> {
        manifest
            .reports
            .insert("verdicts.csv".into(), self.verdicts.finish()?);
        manifest
            .reports
            .insert("mismatches.csv".into(), self.mismatches.finish()?);
        staging.json(MANIFEST, manifest)?;
        staging.commit()?;
        Ok(self.outcome)
    }
}

/// Verifies every case file of `batch` with `verify_file` (in parallel; it hands each row of
/// its file, in order, to the function it is given) and writes the reports as the rows come.
pub fn run(
    batch: &Batch,
    verify_file: impl Fn(&CaseFile, &mut super::Emit) + Sync,
) -> Result<VerifyTotals, RunError> {
    // The report directory is checked (and its staging directory made) before any work.
    let mut staging = Staging::new(&batch.out).map_err(|e| RunError::io(&batch.out, e))?;
    let walk = walk_cases(&batch.paths)?;
    let mut all = CaseListBuilder::default();
    let mut judged = CaseListBuilder::default();
    let mut inputs: BTreeMap<String, PathBuf> = BTreeMap::new();
    let shard = batch.shard;
    let files = walk.filter(|f| {
        all.add(f);
        let mine = shard.is_none_or(|s| s.contains(&f.name));
        if mine {
            judged.add(f);
        }
        mine
    });
    let bar = progress(0, "verifying", "files");
    let mut reports = Reports::new(&mut staging, batch.timings, batch.kept_rows)
        .map_err(|e| RunError::io(&batch.out, e))?;
    let mut files_done = 0;
    let jobs = crate::util::pool::threads(batch.jobs);
    let mut current: Option<PathBuf> = None;
    crate::util::ordered::for_each_ordered(
        files,
        jobs,
        jobs * WINDOW_PER_THREAD,
        |file: CaseFile, emit: &mut (dyn FnMut((Row, Option<PathBuf>)) + Send)| {
            let mut first = true;
            verify_file(&file, &mut |row| {
                // The file's path travels with its first row, for the views of its problems.
                let path = std::mem::take(&mut first).then(|| file.path.clone());
                emit((row, path))
            });
            bar.inc(1);
        },
        |(row, path)| {
            if path.is_some() {
                files_done += 1;
                current = path;
            }
            if row.status.is_some_and(Status::is_problem)
                && reports.outcome.kept_problems < batch.kept_rows
                && !inputs.contains_key(&row.file)
            {
                if let Some(path) = &current {
                    inputs.insert(row.file.clone(), path.clone());
                }
            }
            reports.row(row)
        },
    )
    .map_err(|e| RunError::io(&batch.out, e))?;
    bar.finish_and_clear();
    let mut manifest = Manifest::of_lists(
        "verify",
        as_text::to_map(&batch.options),
        all.finish(),
        batch.shard.map(|s| (s, judged.finish())),
    );
    let mut outcome = reports
        .finish(staging, &mut manifest)
        .map_err(|e| RunError::io(&batch.out, e))?;
    outcome.files = files_done;
    outcome.inputs = inputs;
    eprint!(
        "{}",
        summary(&outcome, &batch.out, batch.options.no_reference)
    );
    Ok(outcome)
}

/// The summary printed on standard error: counts per status and per game, slowest files, and
/// that the reference was not run when `no_reference` (said once here and in the manifest's
/// options, not on every row).
pub fn summary(outcome: &VerifyTotals, out: &Path, no_reference: bool) -> String {
    let mut s = format!(
        "verified {} cases in {} files\n",
        outcome.rows, outcome.files
    );
    for status in Status::ALL {
        let n = outcome.count(status);
        if n > 0 {
            s.push_str(&format!("  {:<26} {n}\n", status.as_str()));
        }
    }
    let mut per_game: BTreeMap<&str, BTreeMap<Status, u64>> = BTreeMap::new();
    for ((game, _), counts) in &outcome.counts {
        let game = if game.is_empty() {
            "(unrecognised)"
        } else {
            game
        };
        for (status, n) in counts {
            *per_game
                .entry(game)
                .or_default()
                .entry(*status)
                .or_default() += n;
        }
    }
    for (game, counts) in &per_game {
        let parts: Vec<String> = counts
            .iter()
            .map(|(st, n)| format!("{} {n}", st.as_str()))
            .collect();
        s.push_str(&format!("  {game}: {}\n", parts.join(", ")));
    }
    if !outcome.slowest().is_empty() {
        let slowest: Vec<String> = outcome
            .slowest()
            .iter()
            .map(|(f, us)| format!("{f} ({:.1} ms)", *us as f64 / 1000.0))
            .collect();
        s.push_str(&format!("  slowest (engine): {}\n", slowest.join(", ")));
    }
    if no_reference {
        s.push_str("  reference not run (--no-reference)\n");
    }
    let dir = out.display();
    s.push_str(&format!(
        "reports: {dir}/verdicts.csv, {dir}/mismatches.csv, {dir}/{MANIFEST}\n"
    ));
    s
}

/// A verify run's rows as CI results: one suite per game and rule set (its properties), one
/// case per kept row; mismatches and invalid input fail (invalid input at its line and column),
/// `reference-skipped` is skipped. The rows not kept are one case per suite and status, with
/// their count. With `timings`, each case has the engine's time.
pub fn suites(outcome: &VerifyTotals, timings: bool) -> Vec<Suite> {
    let mut suites: BTreeMap<(String, String), Suite> = BTreeMap::new();
    let mut shown: BTreeMap<(String, String, Status), u64> = BTreeMap::new();
    for row in &outcome.kept {
        let status = row.status.unwrap_or(Status::InvalidInput);
        *shown
            .entry((row.game.clone(), row.rules.clone(), status))
            .or_default() += 1;
        suite_of(&mut suites, &row.game, &row.rules)
            .cases
            .push(case_of(row, timings));
    }
    for ((game, rules), counts) in &outcome.counts {
        for (&status, &n) in counts {
            let seen = shown
                .get(&(game.clone(), rules.clone(), status))
                .copied()
                .unwrap_or(0);
            if n > seen {
                suite_of(&mut suites, game, rules)
                    .cases
                    .push(Case::more_rows(
                        n - seen,
                        status.as_str(),
                        outcome_of(status),
                        "verdicts.csv",
                    ));
            }
        }
    }
    suites.into_values().collect()
}

/// The suite of `game` and `rules` in `suites`, made when missing.
fn suite_of<'s>(
    suites: &'s mut BTreeMap<(String, String), Suite>,
    game: &str,
    rules: &str,
) -> &'s mut Suite {
    let name = if game.is_empty() {
        "(unrecognised)".to_string()
    } else {
        game.to_string()
    };
    suites
        .entry((name.clone(), rules.to_string()))
        .or_insert_with(|| {
            let mut properties = vec![("game".to_string(), game.to_string())];
            if !rules.is_empty() {
                properties.push(("rules".to_string(), rules.to_string()));
            }
            Suite {
                name: if rules.is_empty() {
                    name
                } else {
                    format!("{name} ({rules})")
                },
                properties,
                cases: Vec::new(),
            }
        })
}

/// How a row of `status` counts in CI results.
fn outcome_of(status: Status) -> Ended {
    match status {
        Status::Ok => Ended::Passed,
        Status::ReferenceSkipped => Ended::Skipped,
        _ => Ended::Failed,
    }
}

/// One row as a CI case.
fn case_of(row: &Row, timings: bool) -> Case {
    let status = row.status.unwrap_or(Status::InvalidInput);
    let outcome = outcome_of(status);
    let message = match status {
        Status::Ok => String::new(),
        Status::InvalidInput | Status::ReferenceSkipped => row.detail.clone(),
        Status::EngineReferenceMismatch | Status::ExpectedMismatch => {
            let mut m = format!("engine {:?}, reference {:?}", row.engine, row.reference);
            if !row.expected.is_empty() {
                m.push_str(&format!(", expected {:?}", row.expected));
            }
            if !row.detail.is_empty() {
                m.push_str(&format!(": {}", row.detail));
            }
            m
        }
    };
    let mut detail = Vec::new();
    for (what, text) in [
        ("engine", &row.engine_detail),
        ("reference", &row.reference_detail),
    ] {
        if !text.is_empty() {
            detail.push(format!("{what}: {text}"));
        }
    }
    Case {
        name: match row.index {
            Some(i) => format!("{}, case {i}", row.file),
            None => row.file.clone(),
        },
        status: status.as_str().to_string(),
        outcome,
        message,
        detail: detail.join("\n"),
        location: (outcome == Ended::Failed).then(|| {
            if status == Status::InvalidInput {
                Location::in_detail(&row.file, &row.detail)
            } else {
                Location::in_detail(&row.file, "")
            }
        }),
        time: row
            .engine_micros
            .filter(|_| timings)
            .map(Duration::from_micros),
    }
}

/// The HTML report of a verify run: the kept rows (the rest counted), and for each problem row the engine's and the
/// reference's accounts side by side and the board (or, for invalid input, the lines around
/// the error).
pub fn html_page(outcome: &VerifyTotals, about: Vec<String>) -> Page {
    let mut page = Page::new("referee verify");
    page.about = about;
    if outcome.left_out() > 0 {
        page.about.push(format!(
            "{} rows in all: the first {} problems and the first {} others are listed below; \
             every row is in verdicts.csv, every problem in mismatches.csv",
            outcome.rows, outcome.kept_limit, outcome.kept_limit
        ));
    }
    page.columns = formats::REQUIRED.iter().map(|c| c.to_string()).collect();
    for row in &outcome.kept {
        let status = row.status.unwrap_or(Status::InvalidInput);
        let mut cells = row.fields(false);
        cells.truncate(formats::REQUIRED.len());
        let mut problem = None;
        if status.is_problem() {
            let path = outcome.inputs.get(&row.file);
            let name = match row.index {
                Some(i) => format!("{}, case {i}", row.file),
                None => row.file.clone(),
            };
            let mut sides = vec![
                ("engine".to_string(), side(&row.engine, &row.engine_detail)),
                (
                    "reference".to_string(),
                    match side(&row.reference, &row.reference_detail) {
                        text if text.is_empty() => "(not run)".to_string(),
                        text => text,
                    },
                ),
            ];
            if !row.expected.is_empty() {
                sides.push(("expected (.ans)".to_string(), row.expected.clone()));
            }
            let (sides, excerpt, source) = if status == Status::InvalidInput {
                let at = Location::in_detail(&row.file, &row.detail);
                let excerpt = match (path, at.line, at.column) {
                    (Some(path), Some(line), Some(column)) => {
                        crate::formats::html::excerpt(path, line, column)
                    }
                    _ => None,
                };
                (Vec::new(), excerpt, None)
            } else {
                let source = path.map(|path| ViewSource {
                    game: row.game.clone(),
                    rules: row.rules.clone(),
                    path: path.clone(),
                    case: row.index.unwrap_or(1),
                    verdict: row.engine.clone(),
                });
                (sides, None, source)
            };
            let p = Problem {
                name,
                game: row.game.clone(),
                status: status.as_str().to_string(),
                message: row.detail.clone(),
                sides,
                excerpt,
                ..Problem::default()
            };
            problem = Some(page.add_problem(p, source.as_ref()));
        }
        page.add_row(PageRow {
            status: status.as_str().to_string(),
            game: row.game.clone(),
            cells,
            problem,
        });
    }
    page
}

/// A verdict and its explanation, one under the other.
fn side(verdict: &str, explanation: &str) -> String {
    match (verdict.is_empty(), explanation.is_empty()) {
        (true, _) => explanation.to_string(),
        (false, true) => verdict.to_string(),
        (false, false) => format!("{verdict}\n{explanation}"),
    }
}

/// The `--json` summary of a verify (or merged) run whose reports are in `out`: counts per
/// status and per game and status, problems, the reports' paths and the slice.
pub fn summary_json(outcome: &VerifyTotals, out: &Path, shard: Option<Shard>) -> serde_json::Value {
    let mut statuses = serde_json::Map::new();
    for status in Status::ALL {
        statuses.insert(status.as_str().to_string(), outcome.count(status).into());
    }
    let mut games: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for ((game, _), counts) in &outcome.counts {
        for (status, n) in counts {
            *games
                .entry(game.clone())
                .or_default()
                .entry(status.as_str().to_string())
                .or_default() += n;
        }
    }
    let path = |name: &str| out.join(name).display().to_string();
    serde_json::json!({
        "command": "verify",
        "tool": crate::formats::manifest::tool(),
        "files": outcome.files,
        "cases": outcome.rows,
        "statuses": statuses,
        "games": games,
        "problems": outcome.problems,
        "shard": shard.map(|s| s.to_string()),
        "reports": {
            "directory": out.display().to_string(),
            "verdicts": path("verdicts.csv"),
            "mismatches": path("mismatches.csv"),
            "manifest": path(MANIFEST),
        },
        "exit": if outcome.problems > 0 { 1 } else { 0 },
    })
}
