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

/// How a findings report names its files: the columns holding a file of the directory, and
/// the other extensions of each such file's stem.
fn finding_files(command: &str) -> &'static [(&'static str, &'static [&'static str])] {
    match command {
        "audit" => &[("input", &["ans", "out", "err"])],
        _ => &[("input", &[]), ("regression", &[])],
    }
}

/// The order of a finding's case (`12`, `random 12`, `file NAME`, `example K`, `examples`):
/// the statement's examples first, then input files by name, then random cases by index.
fn case_key(case: &str) -> (u8, u64, String) {
    if case == "examples" {
        return (0, 0, String::new());
    }
    if let Some(k) = case.strip_prefix("example ") {
        return (0, k.parse().unwrap_or(u64::MAX), String::new());
    }
    if let Some(name) = case.strip_prefix("file ") {
        return (1, 0, name.to_string());
    }
    let index = case
        .trim_start_matches("random ")
        .parse()
        .unwrap_or(u64::MAX);
    (2, index, String::new())
}

fn merge_findings(
    dirs: &[PathBuf],
    staging: Staging,
    mut manifest: Manifest,
) -> Result<Merged, RunError> {
    let command = manifest.command.clone();
    let out = staging.dir().to_path_buf();
    let mut staging = staging;
    let mut header: Option<csv::StringRecord> = None;
    // signature -> (the row of its lowest case, its directory, the summed count)
    let mut groups: BTreeMap<String, (Vec<String>, PathBuf, u64)> = BTreeMap::new();
    for dir in dirs {
        let path = dir.join("findings.csv");
        let (mut reader, here) = crate::report::open_csv(&path)?;
        match &header {
            None => header = Some(here.clone()),
            Some(h) if *h != here => {
                return Err(
                    format!("{}: other columns than the first shard's", path.display()).into(),
                )
            }
            Some(_) => {}
        }
        let column = |name: &str| {
            here.iter()
                .position(|h| h == name)
                .ok_or_else(|| format!("{}: no column {name}", path.display()))
        };
        let (signature, count, case) = (column("signature")?, column("count")?, column("case")?);
        for record in reader.records() {
            let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
            let row: Vec<String> = record.iter().map(str::to_string).collect();
            let n: u64 = row[count]
                .parse()
                .map_err(|_| format!("{}: a malformed count {:?}", path.display(), row[count]))?;
            let entry = groups
                .entry(row[signature].clone())
                .or_insert_with(|| (row.clone(), dir.clone(), 0));
            entry.2 += n;
            if case_key(&row[case]) < case_key(&entry.0[case]) {
                (entry.0, entry.1) = (row, dir.clone());
            }
        }
    }
    let header = header.expect("at least one shard");
    let names: Vec<&str> = header.iter().collect();
    let at = |name: &str| names.iter().position(|h| *h == name).expect("checked");
    let mut kept: Vec<(Vec<String>, PathBuf, u64)> = groups.into_values().collect();
    kept.sort_by_key(|(row, _, _)| case_key(&row[at("case")]));
    let mut rows = Vec::new();
    for (number, (mut row, dir, count)) in kept.into_iter().enumerate() {
        row[at("finding")] = (number + 1).to_string();
        row[at("count")] = count.to_string();
        for (file_column, siblings) in finding_files(&command) {
            let Some(i) = names.iter().position(|h| h == file_column) else {
                continue;
            };
            let file = &row[i];
            if file.is_empty() || file.contains('/') || file.starts_with('.') {
                continue;
            }
            let mut files = vec![file.clone()];
            if let Some((stem, _)) = file.rsplit_once('.') {
                files.extend(siblings.iter().map(|ext| format!("{stem}.{ext}")));
            }
            for name in files {
                let bytes = std::fs::read(dir.join(&name))
                    .map_err(|e| RunError::io(&dir.join(&name), e))?;
                staging
                    .file(&name, &bytes)
                    .map_err(|e| RunError::io(&out, e))?;
                manifest
                    .reports
                    .insert(name.clone(), crate::report::write::Digest::of(&bytes, 1));
            }
        }
        rows.push(row);
    }
    let digest = staging
        .csv("findings.csv", &names, &rows)
        .map_err(|e| RunError::io(&out, e))?;
    manifest.reports.insert("findings.csv".into(), digest);
    let manifest_name = COMMANDS
        .iter()
        .find(|(c, _)| *c == command)
        .map(|c| c.1)
        .expect("a known command");
    staging
        .json(manifest_name, &manifest)
        .and_then(|()| staging.commit())
        .map_err(|e| RunError::io(&out, e))?;
    let game = manifest.options.get("game").cloned().unwrap_or_default();
    let properties: Vec<(String, String)> = manifest
        .options
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let suites = findings_suites(&game, &properties, &names, &rows);
    Ok(Merged {
        command,
        shards: dirs.len(),
        rows: rows.len(),
        problems: rows.len(),
        reports: vec!["findings.csv".into(), manifest_name.into()],
        suites,
        verify: None,
    })
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
        _ => merge_findings(dirs, staging, manifest),
    }
}
