//! `referee merge`: the report directories of the shards of one run (`verify`, `grade`,
//! `stress` or `audit` with `--shard K/N`) combined into the reports of one run.
//!
//! Only what is one run is merged: every directory must hold one complete shard run (its
//! manifest matches its reports), all of the same command, tool, options and inputs, and their
//! slices must be exactly 1 to N, each once. Merged `verify` and `grade` reports, manifest
//! included, are byte-identical to those of the unsharded run. Merged `stress` and `audit`
//! findings are one per signature: the example from the lowest case, the counts summed, files
//! copied; they equal the unsharded run's when each signature's first case shrinks alike on
//! every machine (shrinking depends on the case alone) and no shard hit `--max-findings`.
//! Merged `audit` reports combine each program's records ([`crate::audit::merge`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::error::RunError;
use crate::report::ci::{findings_suites, Suite};
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
use crate::report::{Row, REQUIRED, TIMING};
use crate::shard::Shard;

/// The commands whose runs can be sharded, with their manifests' file names.
const COMMANDS: [(&str, &str); 4] = [
    ("verify", crate::verify::run::MANIFEST),
    ("grade", crate::grade::MANIFEST),
    ("stress", crate::stress::MANIFEST),
    ("audit", crate::audit::report::MANIFEST),
];

/// What a merge made.
#[derive(Debug)]
pub struct Merged {
    /// The command whose shards were merged.
    pub command: String,
    /// Shards merged.
    pub shards: usize,
    /// Rows in all (findings for stress and audit).
    pub rows: usize,
    /// Rows that are problems: mismatches or invalid input, judge errors, findings.
    pub problems: usize,
    /// The report files written.
    pub reports: Vec<String>,
    /// The merged results for CI systems.
    pub suites: Vec<Suite>,
    /// The merged verify run, for its JSON summary.
    pub verify: Option<crate::verify::run::Outcome>,
}

/// The command of the run in `dir`, and its manifest, read and checked.
fn read_manifest(dir: &Path) -> Result<Manifest, String> {
    let found: Vec<&str> = COMMANDS
        .iter()
        .filter(|(_, file)| dir.join(file).is_file())
        .map(|(_, file)| *file)
        .collect();
    match found[..] {
        [file] => Manifest::read(dir, file),
        [] => Err(format!(
            "{}: no manifest ({}): not the reports of a referee run",
            dir.display(),
            COMMANDS.map(|c| c.1).join(", ")
        )),
        _ => Err(format!(
            "{}: holds the manifests of several runs ({}); give each run a directory of its own",
            dir.display(),
            found.join(", ")
        )),
    }
}

/// Checks that `manifests` (one per directory) are the shards of one run, and returns the
/// manifest of that run.
fn one_run(dirs: &[PathBuf], manifests: &[Manifest]) -> Result<Manifest, String> {
    let first = &manifests[0];
    let mut seen: BTreeMap<u64, Vec<&Path>> = BTreeMap::new();
    let mut total = None;
    for (dir, m) in dirs.iter().zip(manifests) {
        let name = dir.display();
        let differ = |what: &str| {
            format!(
                "{name}: {what} differ from {}'s: not shards of one run",
                dirs[0].display()
            )
        };
        if m.command != first.command {
            return Err(differ(&format!(
                "commands ({} against {})",
                m.command, first.command
            )));
        }
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

/// The slice a checked shard manifest holds.
fn slice_of(m: &Manifest) -> Shard {
    let s = m.shard.as_ref().expect("checked by one_run");
    Shard { k: s.k, n: s.n }
}

/// One verify shard's `verdicts.csv`, read row by row, each checked to be in its slice.
struct ShardRows {
    path: PathBuf,
    shard: Shard,
    records: csv::StringRecordsIntoIter<std::fs::File>,
    timings: bool,
}

impl ShardRows {
    fn open(dir: &Path, shard: Shard) -> Result<ShardRows, String> {
        let path = dir.join("verdicts.csv");
        let (reader, header) = crate::report::open_csv(&path)?;
        if header
            .iter()
            .take(REQUIRED.len())
            .ne(REQUIRED.iter().copied())
        {
            return Err(format!("{}: not a verdicts report", path.display()));
        }
        Ok(ShardRows {
            timings: header.iter().any(|h| h == TIMING),
            records: reader.into_records(),
            path,
            shard,
        })
    }

    /// The next row, `None` at the end.
    fn next_row(&mut self) -> Result<Option<Row>, String> {
        let Some(record) = self.records.next() else {
            return Ok(None);
        };
        let record = record.map_err(|e| format!("{}: {e}", self.path.display()))?;
        let row = Row::from_record(&record)
            .ok_or_else(|| format!("{}: a malformed row {record:?}", self.path.display()))?;
        if !self.shard.contains(&row.file) {
            return Err(not_in_slice(&self.path, &row.file, self.shard));
        }
        Ok(Some(row))
    }
}

fn not_in_slice(report: &Path, item: &str, shard: Shard) -> String {
    format!("{}: {item} is not in slice {shard}", report.display())
}

/// A shard's next row, ordered for a min-heap by the report order (ties by shard).
struct Head<R>(R, usize, fn(&R, &R) -> std::cmp::Ordering);

impl<R> PartialEq for Head<R> {
    fn eq(&self, other: &Head<R>) -> bool {
        self.cmp(other) == std::cmp::Ordering::Equal
    }
}

impl<R> Eq for Head<R> {}

impl<R> PartialOrd for Head<R> {
    fn partial_cmp(&self, other: &Head<R>) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<R> Ord for Head<R> {
    fn cmp(&self, other: &Head<R>) -> std::cmp::Ordering {
        (self.2)(&other.0, &self.0).then(other.1.cmp(&self.1))
    }
}

/// Merges `sources` sorted sources row by row, in `order` (ties by source): `next(i)` gives
/// source `i`'s next row, and `deliver` gets every row in order. A k-way merge: memory holds
/// one row per source.
fn k_way<R>(
    sources: usize,
    mut next: impl FnMut(usize) -> Result<Option<R>, RunError>,
    order: fn(&R, &R) -> std::cmp::Ordering,
    mut deliver: impl FnMut(R) -> Result<(), RunError>,
) -> Result<(), RunError> {
    let mut heads = std::collections::BinaryHeap::with_capacity(sources);
    for i in 0..sources {
        if let Some(row) = next(i)? {
            heads.push(Head(row, i, order));
        }
    }
    while let Some(Head(row, i, _)) = heads.pop() {
        deliver(row)?;
        if let Some(row) = next(i)? {
            heads.push(Head(row, i, order));
        }
    }
    Ok(())
}

/// The shards' `verdicts.csv`, each in report order, merged row by row (a k-way merge: memory
/// holds one row per shard) into the reports of one run.
fn merge_verify(
    dirs: &[PathBuf],
    manifests: &[Manifest],
    mut staging: Staging,
    mut manifest: Manifest,
    kept_rows: usize,
) -> Result<Merged, RunError> {
    let out = staging.dir().to_path_buf();
    let io = |e: std::io::Error| RunError::io(&out, e);
    let mut shards: Vec<ShardRows> = dirs
        .iter()
        .zip(manifests)
        .map(|(dir, m)| ShardRows::open(dir, slice_of(m)))
        .collect::<Result<_, _>>()?;
    let timings = shards.iter().any(|s| s.timings);
    let mut reports =
        crate::verify::run::Reports::new(&mut staging, timings, kept_rows).map_err(io)?;
    k_way(
        shards.len(),
        |i| Ok(shards[i].next_row()?),
        Row::report_order,
        |row| reports.row(row).map_err(io),
    )?;
    let mut outcome = reports.finish(staging, &mut manifest).map_err(io)?;
    outcome.files = manifest.cases.files as usize;
    let suites = crate::verify::run::suites(&outcome, timings);
    Ok(Merged {
        command: "verify".into(),
        shards: dirs.len(),
        rows: outcome.rows as usize,
        problems: outcome.problems as usize,
        reports: with_manifest(&manifest, crate::verify::run::MANIFEST),
        suites,
        verify: Some(outcome),
    })
}

/// The files a merge wrote: the reports its manifest lists, and the manifest `name` itself.
fn with_manifest(manifest: &Manifest, name: &str) -> Vec<String> {
    let mut files: Vec<String> = manifest.reports.keys().cloned().collect();
    files.push(name.to_string());
    files
}

/// The shards' `grades.csv`, each in report order (by submission, then case), merged row by
/// row into the reports of one run.
fn merge_grade(
    dirs: &[PathBuf],
    manifests: &[Manifest],
    mut staging: Staging,
    mut manifest: Manifest,
    kept_rows: usize,
) -> Result<Merged, RunError> {
    use crate::grade::{GradeReports, GradeRow, GradeRows};
    let out = staging.dir().to_path_buf();
    let io = |e: std::io::Error| RunError::io(&out, e);
    let mut shards = Vec::new();
    for (dir, m) in dirs.iter().zip(manifests) {
        shards.push((GradeRows::open(dir)?, slice_of(m)));
    }
    let next = |i: usize| -> Result<Option<GradeRow>, RunError> {
        let (rows, shard) = &mut shards[i];
        match rows.next().transpose()? {
            Some(row) if !shard.contains(&row.file) => {
                Err(not_in_slice(rows.path(), &row.file, *shard).into())
            }
            row => Ok(row),
        }
    };
    let mut reports = GradeReports::new(&[], kept_rows);
    k_way(dirs.len(), next, GradeRow::report_order, |row| {
        reports.row(&mut staging, row).map_err(io)
    })?;
    let outcome = reports.finish(staging, &mut manifest).map_err(io)?;
    Ok(Merged {
        command: "grade".into(),
        shards: dirs.len(),
        rows: outcome.rows as usize,
        problems: outcome.judge_errors,
        reports: with_manifest(&manifest, crate::grade::MANIFEST),
        suites: crate::grade::suites(&outcome),
        verify: None,
    })
}

/// The shards' `findings.csv` of a `stress` run, read as typed rows: one finding per signature,
/// the example from the lowest case, the counts summed, its input and regression vector copied.
fn merge_stress(
    dirs: &[PathBuf],
    mut staging: Staging,
    mut manifest: Manifest,
) -> Result<Merged, RunError> {
    use crate::stress::{FindingRow, FINDINGS, FINDINGS_HEADER, MANIFEST};
    let out = staging.dir().to_path_buf();
    let io = |e: std::io::Error| RunError::io(&out, e);
    // signature -> (the row of its lowest case, its directory), the counts summed
    let mut groups: BTreeMap<String, (FindingRow, PathBuf)> = BTreeMap::new();
    for dir in dirs {
        let path = dir.join(FINDINGS);
        let (reader, header) = crate::report::open_csv(&path)?;
        if header.iter().ne(FINDINGS_HEADER.iter().copied()) {
            return Err(format!("{}: not the findings of a stress run", path.display()).into());
        }
        for row in reader.into_deserialize::<FindingRow>() {
            let row = row.map_err(|e| format!("{}: {e}", path.display()))?;
            match groups.entry(row.signature.clone()) {
                std::collections::btree_map::Entry::Vacant(slot) => {
                    slot.insert((row, dir.clone()));
                }
                std::collections::btree_map::Entry::Occupied(mut slot) => {
                    let (known, from) = slot.get_mut();
                    let count = known.count + row.count;
                    if row.case < known.case {
                        (*known, *from) = (row, dir.clone());
                    }
                    known.count = count;
                }
            }
        }
    }
    let mut kept: Vec<(FindingRow, PathBuf)> = groups.into_values().collect();
    kept.sort_by_key(|(row, _)| row.case);
    let mut rows = Vec::new();
    for (number, (mut row, dir)) in kept.into_iter().enumerate() {
        row.finding = number + 1;
        for name in [&row.input, &row.regression] {
            if name.is_empty() || name.contains('/') || name.starts_with('.') {
                continue;
            }
            let bytes =
                std::fs::read(dir.join(name)).map_err(|e| RunError::io(&dir.join(name), e))?;
            staging.file(name, &bytes).map_err(io)?;
            let digest = crate::report::write::Digest::of(&bytes, 1);
            manifest.reports.insert(name.clone(), digest);
        }
        rows.push(row);
    }
    let digest = staging
        .csv(
            FINDINGS,
            &FINDINGS_HEADER,
            rows.iter().map(FindingRow::cells),
        )
        .map_err(io)?;
    manifest.reports.insert(FINDINGS.into(), digest);
    staging
        .json(MANIFEST, &manifest)
        .and_then(|()| staging.commit())
        .map_err(io)?;
    let game = manifest.options.get("game").cloned().unwrap_or_default();
    let properties: Vec<(String, String)> = manifest
        .options
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let shown: Vec<_> = rows.iter().map(|row| row.shown(&out)).collect();
    Ok(Merged {
        command: "stress".into(),
        shards: dirs.len(),
        rows: rows.len(),
        problems: rows.len(),
        reports: vec![FINDINGS.into(), MANIFEST.into()],
        suites: findings_suites(&game, &properties, &shown),
        verify: None,
    })
}

/// The shards of an `audit` run, their typed reports combined ([`crate::audit::merge`]) and
/// written as one run's.
#[cfg(target_os = "linux")]
fn merge_audit(dirs: &[PathBuf], staging: Staging, manifest: Manifest) -> Result<Merged, RunError> {
    use crate::audit::report;
    let out = staging.dir().to_path_buf();
    let reports = crate::audit::merge::read(dirs)?;
    let (merged, files) = crate::audit::merge::combine(dirs, &reports)?;
    let options = manifest.options.clone();
    report::write_report(staging, &merged, manifest, &files).map_err(|e| RunError::io(&out, e))?;
    let lines = report::lines(&merged);
    let scores = crate::audit::strengthen::scores_of(&merged);
    let problems = lines.iter().filter(|l| !l.verdict.is_empty()).count()
        + report::package_verdict(&scores).len();
    let suite = report::suite(&merged, &lines, &report::properties(&merged, &options));
    Ok(Merged {
        command: "audit".into(),
        shards: dirs.len(),
        rows: lines.len(),
        problems,
        reports: vec![report::PROGRAMS.into(), report::MANIFEST.into()],
        suites: vec![suite],
        verify: None,
    })
}

#[cfg(not(target_os = "linux"))]
fn merge_audit(_: &[PathBuf], _: Staging, _: Manifest) -> Result<Merged, RunError> {
    Err(RunError::Usage("audit runs under Linux only".into()))
}

/// Combines the shard runs in `dirs` into the reports of one run in `out`.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<Merged, RunError> {
    merge_keeping(dirs, out, crate::verify::run::KEPT_ROWS)
}

/// [`merge`], keeping up to `kept_rows` rows of each kind for the summaries (every row is in
/// the reports).
pub fn merge_keeping(dirs: &[PathBuf], out: &Path, kept_rows: usize) -> Result<Merged, RunError> {
    let staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let manifests: Vec<Manifest> = dirs
        .iter()
        .map(|d| read_manifest(d))
        .collect::<Result<_, _>>()?;
    let manifest = one_run(dirs, &manifests)?;
    match manifest.command.as_str() {
        "verify" => merge_verify(dirs, &manifests, staging, manifest, kept_rows),
        "grade" => merge_grade(dirs, &manifests, staging, manifest, kept_rows),
        "audit" => merge_audit(dirs, staging, manifest),
        _ => merge_stress(dirs, staging, manifest),
    }
}
