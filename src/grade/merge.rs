//! Merging the shards of a `grade` run: their `grades.csv`, each in report order (by
//! submission, then case), merged row by row into the reports of one run, byte-identical to the
//! unsharded run's.

use crate::formats::manifest::Manifest;
use crate::formats::merge::{k_way, not_in_slice, with_manifest, Merged, ShardMerge, Shards};
use crate::formats::write::Staging;
use crate::util::error::RunError;

use super::rows::{suites, GradeReports, GradeRow, GradeRows, MANIFEST};

/// `grade`'s reports, merged.
pub struct GradeMerge;

impl ShardMerge for GradeMerge {
    fn command(&self) -> &'static str {
        "grade"
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
        let mut rows = Vec::new();
        for (i, dir) in shards.dirs.iter().enumerate() {
            rows.push((GradeRows::open(dir)?, shards.slice(i)));
        }
        let next = |i: usize| -> Result<Option<GradeRow>, RunError> {
            let (rows, shard) = &mut rows[i];
            match rows.next().transpose()? {
                Some(row) if !shard.contains(&row.file) => {
                    Err(not_in_slice(rows.path(), &row.file, *shard).into())
                }
                row => Ok(row),
            }
        };
        let mut reports = GradeReports::new(&[], kept_rows);
        k_way(shards.dirs.len(), next, GradeRow::report_order, |row| {
            reports.row(&mut staging, row).map_err(io)
        })?;
        let outcome = reports.finish(staging, &mut manifest).map_err(io)?;
        Ok(Merged {
            command: "grade",
            shards: shards.dirs.len(),
            rows: outcome.rows as usize,
            problems: outcome.judge_errors,
            reports: with_manifest(&manifest, MANIFEST),
            suites: suites(&outcome),
            summary: None,
        })
    }
}
