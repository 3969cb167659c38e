//! Running `verify` over many files: in parallel, with a progress bar on a terminal, reports
//! in a deterministic order, and a summary on standard error.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use crate::report::{self, Row, Status};
use crate::verify::{verify_file, Options};
use crate::walk::{find_cases, Found, Shard};

/// What a verify run found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Every report row, in report order.
    pub rows: Vec<Row>,
}

impl Outcome {
    /// Whether any row is a mismatch or invalid input (exit code 1).
    pub fn has_problems(&self) -> bool {
        self.rows
            .iter()
            .any(|r| r.status.is_some_and(Status::is_problem))
    }
}

/// A progress bar on standard error when it is a terminal, hidden otherwise.
pub fn progress(len: usize, what: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    let style = ProgressStyle::with_template(&format!(
        "{what} {{bar:40}} {{pos}}/{{len}} files, {{elapsed}} (eta {{eta}})"
    ))
    .expect("valid template");
    bar.set_style(style);
    bar
}

/// A thread pool of `jobs` threads (all cores when `None`).
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
        .map_err(|e| e.to_string())
}

/// Verifies every case under `paths` (the `shard`'s slice only) and writes the reports.
pub fn verify(
    paths: &[PathBuf],
    options: &Options,
    jobs: Option<usize>,
    shard: Option<Shard>,
    out: &Path,
    timings: bool,
) -> Result<Outcome, String> {
    let mut files: Vec<Found> = find_cases(paths)?;
    if let Some(shard) = shard {
        files.retain(|f| shard.contains(&f.name));
    }
    let bar = progress(files.len(), "verifying");
    let per_file: Vec<Vec<Row>> = pool(jobs)?.install(|| {
        // Small pieces: rayon otherwise splits the list into a few large ranges up front, and
        // a range of expensive files (the reference's exhaustive searches) left one thread
        // working alone at the end (speedup 1.37 where the machine gives 1.99).
        files
            .par_iter()
            .with_max_len(8)
            .map(|f| {
                let rows = verify_file(f, options);
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
    report::write_verdicts(out, &rows, timings)
        .map_err(|e| format!("writing reports to {}: {e}", out.display()))?;
    let outcome = Outcome { rows };
    eprint!("{}", summary(&outcome, files.len(), out));
    Ok(outcome)
}

/// The summary printed on standard error: counts per status and per game, slowest files.
pub fn summary(outcome: &Outcome, files: usize, out: &Path) -> String {
    let rows = &outcome.rows;
    let mut s = format!("verified {} cases in {files} files\n", rows.len());
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
