//! A verify run over many files: in parallel, with a progress bar on a terminal, reports in a
//! deterministic order whatever the number of threads, and a summary on standard error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::RunError;
use crate::pool::{pool, progress};
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
use crate::report::{self, Row, Status};
use crate::walk::{find_cases, CaseFile, Shard};

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
    rows.sort_by(|a, b| {
        let ia = a.index.map(|i| i.to_string()).unwrap_or_default();
        let ib = b.index.map(|i| i.to_string()).unwrap_or_default();
        report::order((&a.file, &ia), (&b.file, &ib))
    });
    let mut manifest = Manifest::new(
        "verify",
        batch.options.clone(),
        &all,
        batch.shard.map(|s| (s, &files[..])),
    );
    write_reports(staging, &rows, batch.timings, &mut manifest)
        .map_err(|e| RunError::io(&batch.out, e))?;
    let outcome = Outcome {
        rows,
        files: files.len(),
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
