//! `referee merge`: the reports of `verify --shard` runs combined into those of one run.
//!
//! Only what is one run is merged: every directory must hold one complete shard run (its
//! manifest matches its reports), all of the same tool, options and case list, and their
//! slices must be exactly 1 to N, each once. The merged reports, manifest included, are
//! byte-identical to those of the unsharded run.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::manifest::Manifest;
use super::write::Staging;
use super::{order, Row, Status, REQUIRED};
use crate::error::RunError;
use crate::verify::run::{write_reports, MANIFEST};
use crate::walk::Shard;

/// What a merge did.
#[derive(Debug)]
pub struct Merged {
    /// Shards merged.
    pub shards: usize,
    /// Rows in all.
    pub rows: usize,
    /// Rows that are mismatches or invalid input.
    pub problems: usize,
}

/// Checks that `manifests` (one per directory) are the shards of one run, and returns the
/// manifest of that run.
fn one_run(dirs: &[PathBuf], manifests: &[Manifest]) -> Result<Manifest, String> {
    let first = &manifests[0];
    let mut seen: BTreeMap<u64, Vec<&Path>> = BTreeMap::new();
    let mut total = None;
    for (dir, m) in dirs.iter().zip(manifests) {
        let name = dir.display();
        if m.command != "verify" {
            return Err(format!("{name}: reports of `{}`, not of verify", m.command));
        }
        let differ = |what: &str| {
            format!(
                "{name}: {what} differ from {}'s: not shards of one run",
                dirs[0].display()
            )
        };
        if m.tool != first.tool {
            return Err(differ(&format!(
                "tool versions ({} against {})",
                m.tool, first.tool
            )));
        }
        if m.options != first.options {
            return Err(differ("options"));
        }
        if m.cases != first.cases {
            return Err(differ("case lists (different inputs)"));
        }
        let Some(slice) = &m.shard else {
            return Err(format!(
                "{name}: not a shard (a whole run: nothing to merge it with)"
            ));
        };
        match total {
            None => total = Some(slice.n),
            Some(n) if n != slice.n => {
                return Err(differ(&format!("shard counts ({} against {n})", slice.n)))
            }
            Some(_) => {}
        }
        seen.entry(slice.k).or_default().push(dir);
    }
    let n = total.expect("at least one shard");
    let doubled: Vec<String> = seen
        .iter()
        .filter(|(_, d)| d.len() > 1)
        .map(|(k, d)| {
            let dirs: Vec<String> = d.iter().map(|p| p.display().to_string()).collect();
            format!("{k}/{n} (in {})", dirs.join(" and "))
        })
        .collect();
    if !doubled.is_empty() {
        return Err(format!("slice given twice: {}", doubled.join(", ")));
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("slice missing: {}", missing.join(", ")));
    }
    Ok(Manifest {
        shard: None,
        reports: BTreeMap::new(),
        ..first.clone()
    })
}

/// Reads one shard's `verdicts.csv` into rows.
fn read_rows(dir: &Path, shard: Shard, rows: &mut Vec<Row>) -> Result<bool, String> {
    let path = dir.join("verdicts.csv");
    let mut reader =
        csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let header = reader
        .headers()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .clone();
    if header
        .iter()
        .take(REQUIRED.len())
        .ne(REQUIRED.iter().copied())
    {
        return Err(format!("{}: not a verdicts report", path.display()));
    }
    let timings = header.iter().any(|h| h == super::TIMING);
    for record in reader.records() {
        let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
        let row = Row::from_record(&record)
            .ok_or_else(|| format!("{}: a malformed row {record:?}", path.display()))?;
        if !shard.contains(&row.file) {
            return Err(format!(
                "{}: {} is not in slice {}/{}",
                path.display(),
                row.file,
                shard.k,
                shard.n
            ));
        }
        rows.push(row);
    }
    Ok(timings)
}

/// Combines the shard runs in `dirs` into the reports of one run in `out`.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, RunError> {
    let staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let manifests: Vec<Manifest> = dirs
        .iter()
        .map(|d| Manifest::read(d, MANIFEST))
        .collect::<Result<_, _>>()?;
    let mut manifest = one_run(dirs, &manifests)?;
    let mut rows = Vec::new();
    let mut timings = false;
    for (dir, m) in dirs.iter().zip(&manifests) {
        let slice = m.shard.as_ref().expect("checked by one_run");
        timings |= read_rows(
            dir,
            Shard {
                k: slice.k,
                n: slice.n,
            },
            &mut rows,
        )?;
    }
    rows.sort_by(|a, b| {
        let ia = a.index.map(|i| i.to_string()).unwrap_or_default();
        let ib = b.index.map(|i| i.to_string()).unwrap_or_default();
        order((&a.file, &ia), (&b.file, &ib))
    });
    let problems = rows
        .iter()
        .filter(|r| r.status.is_some_and(Status::is_problem))
        .count();
    write_reports(staging, &rows, timings, &mut manifest).map_err(|e| RunError::io(out, e))?;
    Ok(Merged {
        shards: dirs.len(),
        rows: rows.len(),
        problems,
    })
}
