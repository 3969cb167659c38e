//! Combining the report directories of the shards of one run (`--shard K/N`) into the reports
//! of one run: the checks that the shards are one run, and the k-way merge of sorted reports.
//! What a command's reports are and how they combine is the command's own: each sharded command
//! implements [`ShardMerge`], and [`merge`] is given the list (the command line's).
//!
//! Only what is one run is merged: every directory must hold one complete shard run (its
//! manifest matches its reports), all of the same command, tool, options and inputs, and their
//! slices must be exactly 1 to N, each once.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::formats::ci::Suite;
use crate::formats::manifest::Manifest;
use crate::formats::refusal::Refusal;
use crate::formats::write::Staging;
use crate::util::error::RunError;
use crate::util::shard::Shard;

/// A command whose sharded runs `referee merge` combines: one implementation per command, in
/// the command's own module.
pub trait ShardMerge: Sync {
    /// The command, as its manifests name it.
    fn command(&self) -> &'static str;

    /// The file name of the command's manifest in a report directory.
    fn manifest(&self) -> &'static str;

    /// Combines `shards` (checked to be the shards of one run) into the reports of one run,
    /// written through `staging` with `manifest` (the run's, its reports to be listed);
    /// summaries keep up to `kept_rows` rows of each kind (every row is in the reports).
    fn combine(
        &self,
        shards: &Shards,
        staging: Staging,
        manifest: Manifest,
        kept_rows: usize,
    ) -> Result<Merged, RunError>;
}

/// The shard runs of one command, checked to be one run: what [`ShardMerge::combine`] is given.
pub struct Shards<'a> {
    /// The shards' report directories, as given.
    pub dirs: &'a [PathBuf],
    /// Their manifests, in the same order.
    pub manifests: Vec<Manifest>,
}

impl Shards<'_> {
    /// The slice the `i`-th shard ran.
    pub fn slice(&self, i: usize) -> Shard {
        let s = self.manifests[i]
            .shard
            .as_ref()
            .expect("checked by one_run");
        Shard { k: s.k, n: s.n }
    }
}

/// What a merge made.
#[derive(Debug)]
pub struct Merged {
    /// The command whose shards were merged.
    pub command: &'static str,
    /// Shards merged.
    pub shards: usize,
    /// Rows in all (findings for stress, programs for audit).
    pub rows: usize,
    /// Rows that are problems: mismatches or invalid input, judge errors, findings.
    pub problems: usize,
    /// The report files written.
    pub reports: Vec<String>,
    /// The merged results for CI systems.
    pub suites: Vec<Suite>,
    /// The command's own `--json` summary of the merged run, where it has one (the same as an
    /// unsharded run's); [`Merged::summary_json`] gives the common one otherwise.
    pub summary: Option<serde_json::Value>,
}

impl Merged {
    /// The `--json` summary of the merged run whose reports are in `out`.
    pub fn summary_json(&self, out: &Path) -> serde_json::Value {
        if let Some(summary) = &self.summary {
            return summary.clone();
        }
        let reports: Vec<String> = self
            .reports
            .iter()
            .map(|r| out.join(r).display().to_string())
            .collect();
        serde_json::json!({
            "command": self.command,
            "tool": crate::formats::manifest::tool(),
            "rows": self.rows,
            "problems": self.problems,
            "reports": reports,
            "exit": if self.problems > 0 { 1 } else { 0 },
        })
    }
}

/// The command of the run in `dir` (its index in `commands`) and its manifest, read and
/// checked.
fn read_manifest(dir: &Path, commands: &[&dyn ShardMerge]) -> Result<(usize, Manifest), Refusal> {
    let found: Vec<usize> = (0..commands.len())
        .filter(|&i| dir.join(commands[i].manifest()).is_file())
        .collect();
    let names = |which: &[usize]| -> String {
        let names: Vec<&str> = which.iter().map(|&i| commands[i].manifest()).collect();
        names.join(", ")
    };
    match found[..] {
        [i] => {
            let manifest = Manifest::read(dir, commands[i].manifest())?;
            if manifest.command != commands[i].command() {
                return Err(Refusal::WrongCommand {
                    dir: dir.to_path_buf(),
                    name: commands[i].manifest(),
                    found: manifest.command,
                    command: commands[i].command(),
                });
            }
            Ok((i, manifest))
        }
        [] => Err(Refusal::NoManifest {
            dir: dir.to_path_buf(),
            names: names(&(0..commands.len()).collect::<Vec<_>>()),
        }),
        _ => Err(Refusal::SeveralRuns {
            dir: dir.to_path_buf(),
            names: names(&found),
        }),
    }
}

/// Checks that `manifests` (one per directory) are the shards of one run, and returns the
/// manifest of that run.
fn one_run(dirs: &[PathBuf], manifests: &[Manifest]) -> Result<Manifest, Refusal> {
    let first = &manifests[0];
    let mut seen: BTreeMap<u64, Vec<&Path>> = BTreeMap::new();
    let mut total = None;
    for (dir, m) in dirs.iter().zip(manifests) {
        let differ = |what: &str| Refusal::Differ {
            dir: dir.clone(),
            first: dirs[0].clone(),
            what: what.to_string(),
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
            let keys: std::collections::BTreeSet<&String> =
                m.options.keys().chain(first.options.keys()).collect();
            let shown = |o: Option<&String>| o.map_or("unset".to_string(), String::clone);
            let differing: Vec<String> = keys
                .into_iter()
                .filter(|k| m.options.get(*k) != first.options.get(*k))
                .map(|k| {
                    format!(
                        "{k} {} against {}",
                        shown(m.options.get(k)),
                        shown(first.options.get(k))
                    )
                })
                .collect();
            return Err(differ(&format!("options ({})", differing.join(", "))));
        }
        if m.cases != first.cases {
            return Err(differ("case lists (different inputs)"));
        }
        let Some(slice) = &m.shard else {
            return Err(Refusal::NotAShard { dir: dir.clone() });
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
        return Err(Refusal::SliceTwice(doubled.join(", ")));
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen.contains_key(k))
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(Refusal::SliceMissing(missing.join(", ")));
    }
    Ok(Manifest {
        shard: None,
        reports: BTreeMap::new(),
        ..first.clone()
    })
}

/// The error for a row of `report` about `item`, which is not in the shard's slice.
pub fn not_in_slice(report: &Path, item: &str, shard: Shard) -> Refusal {
    Refusal::NotInSlice {
        report: report.to_path_buf(),
        item: item.to_string(),
        shard,
    }
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
pub fn k_way<R>(
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

/// The files a merge wrote: the reports its manifest lists, and the manifest `name` itself.
pub fn with_manifest(manifest: &Manifest, name: &str) -> Vec<String> {
    let mut files: Vec<String> = manifest.reports.keys().cloned().collect();
    files.push(name.to_string());
    files
}

/// Combines the shard runs in `dirs`, each a run of one of `commands`, into the reports of one
/// run in `out`, keeping up to `kept_rows` rows of each kind for the summaries.
pub fn merge(
    dirs: &[PathBuf],
    out: &Path,
    kept_rows: usize,
    commands: &[&dyn ShardMerge],
) -> Result<Merged, RunError> {
    let staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let mut command = None;
    let mut manifests = Vec::with_capacity(dirs.len());
    for dir in dirs {
        let (i, manifest) = read_manifest(dir, commands)?;
        command.get_or_insert(i);
        manifests.push(manifest);
    }
    let command = commands[command.ok_or(Refusal::NoShards)?];
    let manifest = one_run(dirs, &manifests)?;
    let shards = Shards { dirs, manifests };
    command.combine(&shards, staging, manifest, kept_rows)
}
