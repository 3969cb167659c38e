//! Why a report directory is refused (a run's reports to merge, or one of their files), each
//! naming the file or directory at fault.

use std::io;
use std::path::PathBuf;

use crate::util::shard::Shard;

/// A report directory or file that cannot be read as a referee run's.
#[derive(Debug, thiserror::Error)]
pub enum Refusal {
    /// A file that cannot be read.
    #[error("{}: {source}", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A CSV report that cannot be read as CSV.
    #[error("{}: {source}", path.display())]
    Csv {
        /// The report.
        path: PathBuf,
        /// Why.
        source: csv::Error,
    },
    /// A manifest that is not JSON of a referee manifest.
    #[error("{}: not a referee manifest: {source}", path.display())]
    NotAManifest {
        /// The manifest.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// A report whose digest is not the one its manifest names.
    #[error(
        "{}: does not match {} ({actual} rows against {expected}): the directory does not hold \
         one run",
        file.display(),
        manifest.display()
    )]
    Changed {
        /// The report.
        file: PathBuf,
        /// The manifest.
        manifest: PathBuf,
        /// Its rows now.
        actual: u64,
        /// Its rows as the manifest says.
        expected: u64,
    },
    /// A manifest of another command than its name says.
    #[error("{}: {name} names the command {found:?}, not {command}", dir.display())]
    WrongCommand {
        /// The directory.
        dir: PathBuf,
        /// The manifest's name.
        name: &'static str,
        /// The command it names.
        found: String,
        /// The command its name is of.
        command: &'static str,
    },
    /// A directory with no manifest.
    #[error("{}: no manifest ({names}): not the reports of a referee run", dir.display())]
    NoManifest {
        /// The directory.
        dir: PathBuf,
        /// The manifests looked for.
        names: String,
    },
    /// A directory with the manifests of several runs.
    #[error(
        "{}: holds the manifests of several runs ({names}); give each run a directory of its own",
        dir.display()
    )]
    SeveralRuns {
        /// The directory.
        dir: PathBuf,
        /// The manifests found.
        names: String,
    },
    /// A shard whose run differs from the first's in `what`.
    #[error("{}: {what} differ from {}'s: not shards of one run", dir.display(), first.display())]
    Differ {
        /// The shard's directory.
        dir: PathBuf,
        /// The first shard's directory.
        first: PathBuf,
        /// What differs.
        what: String,
    },
    /// A whole run given to merge.
    #[error("{}: not a shard (a whole run: nothing to merge it with)", dir.display())]
    NotAShard {
        /// The directory.
        dir: PathBuf,
    },
    /// Slices given twice (`K/N (in DIR and DIR)`, comma-separated).
    #[error("slice given twice: {0}")]
    SliceTwice(String),
    /// Slices missing (`K/N`, comma-separated).
    #[error("slice missing: {0}")]
    SliceMissing(String),
    /// No shard directory given.
    #[error("no shard directories given")]
    NoShards,
    /// A row about an item outside its shard's slice.
    #[error("{}: {item} is not in slice {shard}", report.display())]
    NotInSlice {
        /// The report.
        report: PathBuf,
        /// The row's file or case.
        item: String,
        /// The shard's slice.
        shard: Shard,
    },
    /// A report whose header is not the one its name says (`what`: `a verdicts report`).
    #[error("{}: not {what}", path.display())]
    NotThisReport {
        /// The report.
        path: PathBuf,
        /// What it should be.
        what: &'static str,
    },
    /// A row that is not one of its report's.
    #[error("{}: a malformed row {record}", path.display())]
    MalformedRow {
        /// The report.
        path: PathBuf,
        /// The row, as CSV reads it.
        record: String,
    },
}

impl crate::util::error::RunRefusal for Refusal {}
