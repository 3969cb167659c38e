//! `referee merge`: the reports of `verify --shard` runs combined into those of one run.

use std::fs;
use std::path::{Path, PathBuf};

use super::write::write_csv_atomically;
use super::{order, Status, REQUIRED};

/// Combines the `verdicts.csv` of several shard directories into `out`: the same two reports
/// an unsharded run writes. Returns the number of problem rows.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<usize, String> {
    let mut header: Option<csv::StringRecord> = None;
    let mut rows: Vec<csv::StringRecord> = Vec::new();
    for dir in shards {
        let path = dir.join("verdicts.csv");
        let mut reader =
            csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let h = reader
            .headers()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .clone();
        if h.iter().take(REQUIRED.len()).ne(REQUIRED.iter().copied()) {
            return Err(format!(
                "{}: not a verdicts report (header {h:?})",
                path.display()
            ));
        }
        match &header {
            Some(first) if *first != h => {
                return Err(format!(
                    "{}: columns differ from the first report's",
                    path.display()
                ));
            }
            _ => header = Some(h),
        }
        for record in reader.records() {
            rows.push(record.map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    let header = header.ok_or("no shard reports given")?;
    rows.sort_by(|a, b| order((&a[0], &a[1]), (&b[0], &b[1])));
    let status_column = REQUIRED.len() - 1;
    let is_problem = |r: &csv::StringRecord| {
        Status::ALL
            .iter()
            .any(|s| s.as_str() == &r[status_column] && s.is_problem())
    };
    let problems = rows.iter().filter(|r| is_problem(r)).count();
    let head: Vec<&str> = header.iter().collect();
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    write_csv_atomically(&out.join("verdicts.csv"), &head, rows.iter())
        .map_err(|e| e.to_string())?;
    write_csv_atomically(
        &out.join("mismatches.csv"),
        &head,
        rows.iter().filter(|r| is_problem(r)),
    )
    .map_err(|e| e.to_string())?;
    Ok(problems)
}
