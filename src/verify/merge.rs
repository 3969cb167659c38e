//! Merging the shards of a `verify` run: their `verdicts.csv`, each in report order, merged row
//! by row (a k-way merge: memory holds one row per shard) into the reports of one run,
//! byte-identical to the unsharded run's, manifest included.

use std::path::{Path, PathBuf};

use crate::formats::manifest::Manifest;
use crate::formats::merge::{k_way, not_in_slice, with_manifest, Merged, ShardMerge, Shards};
use crate::formats::refusal::Refusal;
use crate::formats::write::Staging;
use crate::formats::{Row, REQUIRED, TIMING};
use crate::util::error::RunError;
use crate::util::shard::Shard;

use super::run::{suites, summary_json, Reports, MANIFEST};

/// `verify`'s reports, merged.
pub struct VerifyMerge;

impl ShardMerge for VerifyMerge {
    fn command(&self) -> &'static str {
        "verify"
    }

    fn manifest(&self) -> &'static str {
        MANIFEST
    }

    fn combine(
        &self,
        shards: &Shards,
        mut staging: Staging,
        mut manifest: Manifest,
        kept_rows: usize,
    ) -> Result<Merged, RunError> {
        let out = staging.dir().to_path_buf();
        let io = |e: std::io::Error| RunError::io(&out, e);
        let mut rows: Vec<ShardRows> = (0..shards.dirs.len())
            .map(|i| ShardRows::open(&shards.dirs[i], shards.slice(i)))
            .collect::<Result<_, _>>()?;
        let timings = rows.iter().any(|s| s.timings);
        let mut reports = Reports::new(&mut staging, timings, kept_rows).map_err(io)?;
        k_way(
            rows.len(),
            |i| Ok(rows[i].next_row()?),
            Row::report_order,
            |row| reports.row(row).map_err(io),
        )?;
        let mut outcome = reports.finish(staging, &mut manifest).map_err(io)?;
        outcome.files = manifest.cases.files as usize;
        Ok(Merged {
            command: "verify",
            shards: shards.dirs.len(),
            rows: outcome.rows as usize,
            problems: outcome.problems as usize,
            reports: with_manifest(&manifest, MANIFEST),
            suites: suites(&outcome, timings),
            summary: Some(summary_json(&outcome, &out, None)),
        })
    }
}

/// One shard's `verdicts.csv`, read row by row, each checked to be in its slice.
struct ShardRows {
    path: PathBuf,
    shard: Shard,
    records: csv::StringRecordsIntoIter<std::fs::File>,
    timings: bool,
}

impl ShardRows {
    fn open(dir: &Path, shard: Shard) -> Result<ShardRows, Refusal> {
        let path = dir.join("verdicts.csv");
        let (reader, header) = crate::formats::open_csv(&path)?;
        if header
            .iter()
            .take(REQUIRED.len())
            .ne(REQUIRED.iter().copied())
        {
            return Err(Refusal::NotThisReport {
                path,
                what: "a verdicts report",
            });
        }
        Ok(ShardRows {
            timings: header.iter().any(|h| h == TIMING),
            records: reader.into_records(),
            path,
            shard,
        })
    }

    /// The next row, `None` at the end.
    fn next_row(&mut self) -> Result<Option<Row>, Refusal> {
        let Some(record) = self.records.next() else {
            return Ok(None);
        };
        let record = record.map_err(|source| Refusal::Csv {
            path: self.path.clone(),
            source,
        })?;
        let row = Row::from_record(&record).ok_or_else(|| Refusal::MalformedRow {
            path: self.path.clone(),
            record: format!("{record:?}"),
        })?;
        if !self.shard.contains(&row.file) {
            return Err(not_in_slice(&self.path, &row.file, self.shard));
        }
        Ok(Some(row))
    }
}
