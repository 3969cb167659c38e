//! A verify run over many files: in parallel, with a progress bar on a terminal, reports in a
//! deterministic order whatever the number of threads, and a summary on standard error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::error::RunError;
use crate::pool::{pool, progress};
use crate::report::{self, Row, Status};
use crate::walk::{find_cases, CaseFile, Shard};

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
    let mut files: Vec<CaseFile> = find_cases(&batch.paths)?;
    if let Some(shard) = batch.shard {
        files.retain(|f| shard.contains(&f.name));
    }
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
    report::write::write_verdicts(&batch.out, &rows, batch.timings)
        .map_err(|e| RunError::io(&batch.out, e))?;
    let outcome = Outcome {
        rows,
        files: files.len(),
    };
    eprint!("{}", summary(&outcome, &batch.out));
    Ok(outcome)
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
    s.push_str(&format!(
        "reports: {}/verdicts.csv, {}/mismatches.csv\n",
        out.display(),
        out.display()
    ));
    s
}
