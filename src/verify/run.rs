//! A verify run over many files: in parallel, with a progress bar on a terminal, reports in a
//! deterministic order whatever the number of threads, and a summary on standard error.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;

use crate::error::RunError;
use crate::pool::{pool, progress};
use crate::report::ci::{Case, Location, Outcome as CaseOutcome, Suite};
use crate::report::html::{Page, PageRow, Problem, ViewSource};
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
use crate::report::{self, Row, Status};
use crate::shard::Shard;
use crate::walk::{find_cases, CaseFile};

/// The manifest's file name in a verify report directory.
pub const MANIFEST: &str = "verify.json";

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
    /// The options that change the reports, by flag name, for the manifest.
    pub options: BTreeMap<String, String>,
}

/// What a verify run found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Every report row, in report order.
    pub rows: Vec<Row>,
    /// Files verified.
    pub files: usize,
    /// The path of each file with a problem row, by its reported name (for the HTML report's
    /// views).
    pub inputs: BTreeMap<String, PathBuf>,
}

impl Outcome {
    /// Whether any row is a mismatch or invalid input (exit code 1).
    pub fn has_problems(&self) -> bool {
        self.rows
            .iter()
            .any(|r| r.status.is_some_and(Status::is_problem))
    }
}

/// Verifies every case file of `batch` with `verify_file` (in parallel) and writes the
/// reports.
pub fn run(
    batch: &Batch,
    verify_file: impl Fn(&CaseFile) -> Vec<Row> + Sync,
) -> Result<Outcome, RunError> {
    // The report directory is checked (and its staging directory made) before any work.
    let staging = Staging::new(&batch.out).map_err(|e| RunError::io(&batch.out, e))?;
    let all: Vec<CaseFile> = find_cases(&batch.paths)?;
    let files: Vec<CaseFile> = match batch.shard {
        Some(shard) => all
            .iter()
            .filter(|f| shard.contains(&f.name))
            .cloned()
            .collect(),
        None => all.clone(),
    };
    let bar = progress(files.len(), "verifying", "files");
    let per_file: Vec<Vec<Row>> = pool(batch.jobs)?.install(|| {
        // Small pieces: rayon otherwise splits the list into a few large ranges up front, and
        // a range of expensive files (the reference's exhaustive searches) left one thread
        // working alone at the end.
        files
            .par_iter()
            .with_max_len(8)
            .map(|f| {
                let rows = verify_file(f);
                bar.inc(1);
                rows
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut rows: Vec<Row> = per_file.into_iter().flatten().collect();
    rows.sort_by(Row::report_order);
    let mut manifest = Manifest::new(
        "verify",
        batch.options.clone(),
        &all,
        batch.shard.map(|s| (s, &files[..])),
    );
    write_reports(staging, &rows, batch.timings, &mut manifest)
        .map_err(|e| RunError::io(&batch.out, e))?;
    crate::report::add_bookkeeping(rows.len() as u64 + files.len() as u64);
    let with_problems: HashSet<&str> = rows
        .iter()
        .filter(|r| r.status.is_some_and(Status::is_problem))
        .map(|r| r.file.as_str())
        .collect();
    let inputs = files
        .iter()
        .filter(|f| with_problems.contains(f.name.as_str()))
        .map(|f| (f.name.clone(), f.path.clone()))
        .collect();
    let outcome = Outcome {
        rows,
        files: files.len(),
        inputs,
    };
    eprint!("{}", summary(&outcome, &batch.out));
    Ok(outcome)
}

/// Writes `verdicts.csv` (every row), `mismatches.csv` (the problem rows) and the manifest, and
/// puts them in place as one. Rows must already be in report order.
pub fn write_reports(
    mut staging: Staging,
    rows: &[Row],
    timings: bool,
    manifest: &mut Manifest,
) -> std::io::Result<()> {
    crate::report::add_bookkeeping(2 * rows.len() as u64);
    let header = report::header(timings);
    let verdicts = staging.csv(
        "verdicts.csv",
        &header,
        rows.iter().map(|r| r.fields(timings)),
    )?;
    let problems = rows
        .iter()
        .filter(|r| r.status.is_some_and(Status::is_problem))
        .map(|r| r.fields(timings));
    let mismatches = staging.csv("mismatches.csv", &header, problems)?;
    manifest.reports.insert("verdicts.csv".into(), verdicts);
    manifest.reports.insert("mismatches.csv".into(), mismatches);
    staging.json(MANIFEST, manifest)?;
    staging.commit()
}

/// The summary printed on standard error: counts per status and per game, slowest files.
pub fn summary(outcome: &Outcome, out: &Path) -> String {
    let rows = &outcome.rows;
    let mut s = format!("verified {} cases in {} files\n", rows.len(), outcome.files);
    for status in Status::ALL {
        let n = rows.iter().filter(|r| r.status == Some(status)).count();
        if n > 0 {
            s.push_str(&format!("  {:<26} {n}\n", status.as_str()));
        }
    }
    let mut per_game: BTreeMap<&str, BTreeMap<&str, usize>> = BTreeMap::new();
    for r in rows {
        let game = if r.game.is_empty() {
            "(unrecognised)"
        } else {
            &r.game
        };
        *per_game
            .entry(game)
            .or_default()
            .entry(r.status.map_or("", Status::as_str))
            .or_default() += 1;
    }
    for (game, counts) in &per_game {
        let parts: Vec<String> = counts.iter().map(|(st, n)| format!("{st} {n}")).collect();
        s.push_str(&format!("  {game}: {}\n", parts.join(", ")));
    }
    let mut timed: Vec<(&str, u64)> = Vec::new();
    for r in rows {
        if let Some(us) = r.engine_micros {
            if timed.last().map(|t| t.0) != Some(r.file.as_str()) {
                timed.push((&r.file, us));
            }
        }
    }
    timed.sort_by_key(|t| std::cmp::Reverse(t.1));
    if !timed.is_empty() {
        let slowest: Vec<String> = timed
            .iter()
            .take(3)
            .map(|(f, us)| format!("{f} ({:.1} ms)", *us as f64 / 1000.0))
            .collect();
        s.push_str(&format!("  slowest (engine): {}\n", slowest.join(", ")));
    }
    let dir = out.display();
    s.push_str(&format!(
        "reports: {dir}/verdicts.csv, {dir}/mismatches.csv, {dir}/{MANIFEST}\n"
    ));
    s
}

/// A verify run's rows as CI results: one suite per game and rule set (its properties), one
/// case per row; mismatches and invalid input fail (invalid input at its line and column),
/// `reference-skipped` is skipped. With `timings`, each case has the engine's time.
pub fn suites(rows: &[Row], timings: bool) -> Vec<Suite> {
    let mut suites: BTreeMap<(String, String), Suite> = BTreeMap::new();
    for row in rows {
        let game = if row.game.is_empty() {
            "(unrecognised)".to_string()
        } else {
            row.game.clone()
        };
        let suite = suites
            .entry((game.clone(), row.rules.clone()))
            .or_insert_with(|| {
                let mut properties = vec![("game".to_string(), row.game.clone())];
                if !row.rules.is_empty() {
                    properties.push(("rules".to_string(), row.rules.clone()));
                }
                Suite {
                    name: if row.rules.is_empty() {
                        game.clone()
                    } else {
                        format!("{game} ({})", row.rules)
                    },
                    properties,
                    cases: Vec::new(),
                }
            });
        let status = row.status.unwrap_or(Status::InvalidInput);
        let outcome = match status {
            Status::Ok => CaseOutcome::Passed,
            Status::ReferenceSkipped => CaseOutcome::Skipped,
            _ => CaseOutcome::Failed,
        };
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
        suite.cases.push(Case {
            name: match row.index {
                Some(i) => format!("{}, case {i}", row.file),
                None => row.file.clone(),
            },
            status: status.as_str().to_string(),
            outcome,
            message,
            detail: detail.join("\n"),
            location: (outcome == CaseOutcome::Failed).then(|| {
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
        });
    }
    suites.into_values().collect()
}

/// The HTML report of a verify run: every row, and for each problem row the engine's and the
/// reference's accounts side by side and the board (or, for invalid input, the lines around
/// the error).
pub fn html_page(outcome: &Outcome, about: Vec<String>) -> Page {
    let mut page = Page::new("referee verify");
    page.about = about;
    page.columns = report::REQUIRED.iter().map(|c| c.to_string()).collect();
    for row in &outcome.rows {
        let status = row.status.unwrap_or(Status::InvalidInput);
        let mut cells = row.fields(false);
        cells.truncate(report::REQUIRED.len());
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
                        crate::report::html::excerpt(path, line, column)
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
pub fn summary_json(outcome: &Outcome, out: &Path, shard: Option<Shard>) -> serde_json::Value {
    let mut statuses = serde_json::Map::new();
    for status in Status::ALL {
        let n = outcome
            .rows
            .iter()
            .filter(|r| r.status == Some(status))
            .count();
        statuses.insert(status.as_str().to_string(), n.into());
    }
    let mut games: BTreeMap<String, BTreeMap<String, u64>> = BTreeMap::new();
    for row in &outcome.rows {
        *games
            .entry(row.game.clone())
            .or_default()
            .entry(row.status.map_or("", Status::as_str).to_string())
            .or_default() += 1;
    }
    let problems = outcome
        .rows
        .iter()
        .filter(|r| r.status.is_some_and(Status::is_problem))
        .count();
    let path = |name: &str| out.join(name).display().to_string();
    serde_json::json!({
        "command": "verify",
        "tool": crate::report::manifest::tool(),
        "files": outcome.files,
        "cases": outcome.rows.len(),
        "statuses": statuses,
        "games": games,
        "problems": problems,
        "shard": shard.map(|s| s.to_string()),
        "reports": {
            "directory": out.display().to_string(),
            "verdicts": path("verdicts.csv"),
            "mismatches": path("mismatches.csv"),
            "manifest": path(MANIFEST),
        },
        "exit": if problems > 0 { 1 } else { 0 },
    })
}
